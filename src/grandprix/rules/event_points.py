"""How a place in an event becomes points, as a rule set says it (``[points]`` and its
categories): the place tables, tournament classes by prize fund, bands by share of the field,
paid places, the rating factor, the terms of a sum, the bonuses, ties, and the round kinds that
count as played. Part of the rule-set schema (``schema.RuleSet.points``)."""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, cast

from pydantic import Field, model_validator

from grandprix.model import TOOK_PART
from grandprix.rules.fields import Count, Factor, Money, Percent, PointValue, Strict, TieBreakRules
from grandprix.rules.terms import TERM_KINDS, PerGame
from grandprix.tiebreaks import Rules


class TournamentClass(Strict):
    """A class of tournament by prize fund, with its own points table (ACF-6, ACF-13.1)."""

    name: str = Field(description="Name of the class, shown in explanations.", examples=["3"])
    min_prize_fund: Money = Field(
        description="Smallest total prize money (trophies excluded) of this class (ACF-6).",
        examples=[2500],
    )
    table: list[PointValue] | None = Field(
        default=None,
        description="Points for 1st, 2nd, ... place in a tournament of this class (ACF-13.1); "
        "none: the rule set's own table or score.",
        examples=[[20, 15, 12, 9, 6]],
    )
    factor: Factor = Field(
        default=Fraction(1),
        description="Multiplier of every place's points in a tournament of this class "
        "(Northwest Chess Grand Prix: the score x 1 under $500 of guaranteed prizes, up to x 7 "
        "from $20,000).",
        examples=[3],
    )


class Band(Strict):
    """One percentile band of a table by share of the field (Keshmat Circuit 2026)."""

    percent: Percent = Field(
        description="The band reaches down to place ceil(percent% x players of the section).",
        examples=[10],
    )
    points: PointValue = Field(description="Points for every place in the band.", examples=[72])


class Gain(Strict):
    """Bonus for places gained over the seed, start rank minus final place (Keshmat 2026)."""

    per_place: PointValue = Field(description="Points per place gained.", examples=[2])
    cap: PointValue | None = Field(
        default=None, description="The most the bonus can be.", examples=[20]
    )
    cap_percent: Percent | None = Field(
        default=None,
        description="The most the bonus can be, as a percentage of the placement points.",
        examples=[50],
    )
    round_down: bool = Field(
        default=False,
        description="Round that percentage down to whole points (Keshmat 2026: half of 31 is 15).",
    )
    seed: Literal["start", "rating"] = Field(
        default="start",
        description="The seed: `start`, the order of start numbers (a standings list's "
        "`start_rank` column; without it the row order, so nobody gains); `rating`, the rank by "
        "rating in the section, equal ratings sharing the best rank and unrated players one "
        "rank below every rated player (Keshmat 2026).",
    )


class RatingFactor(Strict):
    """An event multiplier from its field: FIDE Circuit k = (TAR - 2500) / 100, TAR the mean
    rating of the 8 highest-rated players at the start."""

    top: int = Field(default=8, ge=1, le=1000, description="How many of the highest ratings.")
    base: Count = Field(default=2500, description="Rating subtracted from their average.")
    per: int = Field(default=100, ge=1, le=100_000, description="Rating points per unit.")


class PaidPlaces(Strict):
    """Places that earn table points by section size (FIDE Circuit round robins: 3, 4, 5)."""

    min_players: Count = Field(description="From this many players in the section.")
    places: Count = Field(description="The places that earn table points.")


RoundKind = Literal[
    "game",
    "forfeit-win",
    "forfeit-loss",
    "pairing-bye",
    "full-bye",
    "half-bye",
    "zero-bye",
    "unpaired",
]
# The kinds of term, from their registry (``rules/terms.TERM_KINDS``): a new kind is an entry
# there, and the schema, its reference and its checks follow.
if TYPE_CHECKING:
    TermKind = str
else:
    TermKind = Literal[tuple(TERM_KINDS)]


class Term(Strict):
    """One term of an event's points (``points.terms``): the points add up the terms."""

    kind: TermKind = Field(
        description="; ".join(f"`{kind}`: {term.doc}" for kind, term in TERM_KINDS.items()) + ".",
        examples=["score"],
    )
    factor: Factor = Field(
        default=Fraction(1),
        description="Multiplier of a term of kind "
        + " or ".join(f"`{kind}`" for kind, term in TERM_KINDS.items() if term.meaning_times)
        + ".",
    )
    round: Literal["none", "half-up"] = Field(
        default="none",
        description="The term's value rounded to a whole number: `half-up` (0.5 and more up, "
        "as the Dworp Snelschaak's standings round a percentage), or `none`.",
    )
    amount: PointValue = Field(
        default=Fraction(0), description="Points of a `fixed` term.", examples=[2]
    )
    below: PointValue | None = Field(
        default=None,
        description="A `place` term: what every place below the points table is worth (POM-1: "
        "4); none: `overflow` decides (UT-5), else nothing.",
        examples=[4],
    )
    per_game: PerGame = Field(
        default_factory=PerGame,
        description="What each round is worth to a `games` term: "
        "`per_game = { win = 3, draw = 2, loss = 1, bye = 2 }`.",
    )
    weighted: bool = Field(
        default=True,
        description="Multiplied by the event's and the section's weight and multipliers, as "
        "the place points are; false: added after them, as the rule book may say of a "
        "participation point.",
    )
    name: str = Field(
        default="",
        max_length=60,
        description="What the term's points are for, in words on the site and in `explain` "
        "('taking part': '2 for taking part'); by default from its kind.",
    )

    @property
    def words(self) -> str:
        """'the score', 'taking part': what the term's points are for, in words."""
        return self.name or TERM_KINDS[self.kind].words


class PointsBase(Strict):
    """How a place in an event becomes points (the keys a category may change)."""

    table: list[PointValue] = Field(
        default_factory=list,
        description="Points for 1st, 2nd, ... place (UT-3, LUP-1). Places below the table earn "
        "`overflow` or `minimum`.",
        examples=[[21, 15, 12, 10, 8, 6]],
    )
    classes: list[TournamentClass] = Field(
        default_factory=list,
        description="Tables chosen by the event's `prize_fund` (ACF-6, ACF-13.1). When given, "
        "every event needs a `prize_fund` and `table` is not used.",
    )
    from_score: bool = Field(
        default=False,
        description="Award the event score itself (times `score_factor`) instead of a table, "
        "as club circuits do.",
    )
    score_factor: Factor = Field(
        default=Fraction(1), description="Multiplier of the score when `from_score` is true."
    )
    ties: Literal["share", "full", "tiebreak", "best", "split"] = Field(
        default="share",
        description="Players on equal scores: `share` the mean of the points of the places they "
        "occupy (UT-4); `full`: each gets the points of the best place of the tie; "
        "`tiebreak`: no sharing, places come from the event's tie-breaks or official order "
        "(LUP-2), players they cannot separate (or whom the file's rank column gives one "
        "place) sharing the mean; `best`: places as for `tiebreak`, but players given one "
        "place each take the points of its best place (Kapiti); `split` (FIDE Circuit): half "
        "the points of the place the tie-breaks give plus half the mean of the tied places.",
    )
    terms: list[Term] = Field(
        default_factory=list,
        description="The event's points as a sum of terms (a place table, the score x a factor, "
        "the places below, a fixed amount), each weighted or not: "
        '`terms = [{ kind = "score", factor = 6 }, { kind = "from-bottom" }]`. Without it '
        "the points are the place table, or the score when `from_score` is true.",
    )
    overflow: PointValue | None = Field(
        default=None,
        description="Value of each place below the table when it is tied with the last paid "
        "place (UT-5: 4). A tie entirely below the table earns nothing.",
        examples=[4],
    )
    minimum: PointValue = Field(
        default=Fraction(0),
        description="Points every participant earns at least (LUP-1: 1).",
        examples=[1],
    )
    tiebreaks: str = Field(
        default="",
        description="Tie-breaks that order an event's players when `ties` is `tiebreak` and "
        "the results file is a crosstable (codes as for `grandprix event`).",
        examples=["BH/C1,BH,SB"],
    )
    tiebreak_rules: TieBreakRules = Field(
        default=Rules.FIDE_2026.value, description="Rule book of those tie-breaks."
    )
    bands: list[Band] = Field(
        default_factory=list,
        description="A table by share of the field instead of `table`: place p earns the points "
        "of the first band whose cutoff ceil(percent% x N) is p or more, N the players of the "
        "section; places below every band earn nothing (Keshmat 2026: end with a 100% band).",
    )
    first_outright: PointValue | None = Field(
        default=None,
        description="Points for 1st place when nobody shares the winner's score (FIDE Circuit: "
        "11 instead of 10).",
        examples=[11],
    )
    top_percent: Percent | None = Field(
        default=None,
        description="Only places within this share of the section's players earn table points "
        "(FIDE Circuit: the top half of a Swiss, 50).",
        examples=[50],
    )
    paid_places: list[PaidPlaces] = Field(
        default_factory=list,
        description="How many places earn table points by section size; the entry with the "
        "largest `min_players` not above the size applies.",
    )
    gain: Gain | None = Field(
        default=None, description="Bonus for places gained over the seed (start rank)."
    )
    completion: PointValue = Field(
        default=Fraction(0),
        description="Points for playing every round: a round of a kind `played` lists in each "
        "(Keshmat 2026 participation points).",
        examples=[5],
    )
    played: list[RoundKind] = Field(
        default_factory=lambda: cast(list[RoundKind], list(TOOK_PART)),
        min_length=1,
        description="The kinds of round that count as played, for `completion` and for "
        "`eligibility.min_rounds_percent`: `game` (of any length), `forfeit-win`, "
        "`forfeit-loss`, `pairing-bye` (allocated by the pairing), `full-bye`, `half-bye`, "
        "`zero-bye` (requested), `unpaired`. Read from a crosstable's rounds; a standings list "
        "gives its own `played` column. Some series count a forfeit loss as played.",
        examples=[["game", "forfeit-win", "forfeit-loss", "pairing-bye"]],
    )
    rating_factor: RatingFactor | None = Field(
        default=None,
        description="Multiply an event's points by (average of its top ratings - base) / per, "
        "never below 0.",
    )
    based_on_percent: Percent = Field(
        default=Fraction(100),
        description="The share of a 'based-on' (not guaranteed) prize fund counted when "
        "choosing the tournament class (Northwest Chess: 50).",
        examples=[50],
    )

    @property
    def summed(self) -> tuple[Term, ...]:
        """The terms the points add up: ``terms``, or the one term the older keys say (the
        score x ``score_factor`` for ``from_score``, else the place table)."""
        if self.terms:
            return tuple(self.terms)
        if self.from_score:
            return (Term(kind="score", factor=self.score_factor),)
        return (Term(kind="place"),)

    @property
    def by_score(self) -> bool:
        """Whether a player's points depend on their own score, not only their place."""
        return self.from_score or any(term.kind == "score" for term in self.terms)

    @property
    def by_place(self) -> bool:
        """Whether the points have a place table."""
        return any(term.kind == "place" for term in self.summed)

    @property
    def pays(self) -> bool:
        """Whether these rules award anything: a place table, or a term of another kind."""
        table = bool(self.classes or self.table or self.bands)
        return any(term.kind != "place" or table for term in self.summed)

    @model_validator(mode="after")
    def _terms_alone(self) -> PointsBase:
        if self.terms and self.from_score:
            raise ValueError(
                "give either 'terms' or 'from_score': the score is a term "
                '(terms = [{ kind = "score" }])'
            )
        kinds = [term.kind for term in self.terms]
        if kinds.count("place") > 1:
            raise ValueError("'terms' has one 'place' term at most (the table and its ties)")
        for term in self.terms:
            if TERM_KINDS[term.kind].bound and not term.weighted:
                raise ValueError(
                    f"a '{term.kind}' term bounds the weighted terms before it: it cannot be "
                    "'weighted = false'"
                )
        return self

    @property
    def per_player(self) -> list[str]:
        """The keys that add to a player's points more than their place is worth: the
        places-gained bonus (KW-4), every round played (KW-5), the tie split (FC-4)."""
        used = [
            ("gain", self.gain is not None),
            ("completion", bool(self.completion)),
            ('ties = "split"', self.ties == "split"),
            *((f'a "{t.kind}" term', True) for t in self.terms if TERM_KINDS[t.kind].own),
        ]
        return [name for name, on in used if on]

    @model_validator(mode="after")
    def _bands_in_order(self) -> PointsBase:
        cut = [band.percent for band in self.bands]
        if cut != sorted(cut) or len(set(cut)) != len(cut):
            raise ValueError("bands must go down the field: each 'percent' above the one before")
        return self


class Points(PointsBase):
    """How a place in an event becomes points."""

    categories: dict[str, PointsBase] = Field(
        default_factory=dict,
        description="Points for the events of a category (season.toml `category`): the keys "
        "given here replace the rule set's for those events (Keshmat 2026: rapid and "
        "classical tables).",
    )

    def for_category(self, category: str) -> PointsBase:
        """The points of an event of ``category``: the keys of its most specific entry in
        ``categories`` ("classical/group-a", else "classical") over the rule set's."""
        key = most_specific(category, self.categories)
        if key is None:
            return self
        override = self.categories[key]
        changed = {name: getattr(override, name) for name in override.model_fields_set}
        base = {name: getattr(self, name) for name in PointsBase.model_fields}
        return PointsBase.model_construct(**{**base, **changed})


def under(category: str, keys: Collection[str]) -> list[str]:
    """The ``keys`` that ``category`` falls under, the most specific first: a category's parts
    are separated by "/", so "classical/group-a" falls under itself, then "classical"."""
    parts = category.split("/")
    found = ["/".join(parts[:end]) for end in range(len(parts), 0, -1)]
    return [key for key in found if key in keys]


def most_specific(category: str, keys: Collection[str]) -> str | None:
    """The most specific of ``keys`` that ``category`` falls under."""
    found = under(category, keys)
    return found[0] if found else None

"""The season rule-set schema, declared once.

These models validate a rule set (a preset, a rules file, or a season's ``[rules]`` overrides)
and are the source of the reference documentation (``grandprix rules-reference``). Every field
carries a description and an example; the rule IDs of ../shared/seeds/README.md that a field
exists for are named in its description.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from fractions import Fraction
from typing import Literal, cast

from pydantic import (
    Field,
    model_validator,
)

from grandprix.model import TOOK_PART
from grandprix.rules.fields import (
    Count,
    Factor,
    Money,
    Percent,
    PointValue,
    Strict,
    TieBreakRules,
)
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


RoundKind = Literal["game", "forfeit-win", "forfeit-loss", "pairing-bye", "full-bye", "half-bye",
                    "zero-bye", "unpaired"]  # fmt: skip
TERM_WORDS = {"place": "the place", "score": "the score", "from-bottom": "the places below",
              "fixed": "taking part"}  # fmt: skip


class Term(Strict):
    """One term of an event's points (``points.terms``): the points add up the terms."""

    kind: Literal["place", "score", "from-bottom", "fixed"] = Field(
        description="`place`: the points table of the player's place, with `ties` and the "
        "other place keys; `score`: the player's game score in the event x `factor`; "
        "`from-bottom`: the place counted from the bottom, N - place + 1 for N players of the "
        "section, x `factor` (tied players as `ties` says: the mean of their places', or the "
        "best place's for `full` and `best`); `fixed`: `amount` for taking part.",
        examples=["score"],
    )
    factor: Factor = Field(
        default=Fraction(1), description="Multiplier of a `score` or `from-bottom` term."
    )
    amount: PointValue = Field(
        default=Fraction(0), description="Points of a `fixed` term.", examples=[2]
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
        return self.name or TERM_WORDS[self.kind]


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
            raise ValueError("give either 'terms' or 'from_score': the score is a term "
                             '(terms = [{ kind = "score" }])')  # fmt: skip
        kinds = [term.kind for term in self.terms]
        if kinds.count("place") > 1:
            raise ValueError("'terms' has one 'place' term at most (the table and its ties)")
        return self

    @property
    def per_player(self) -> list[str]:
        """The keys that add to a player's points more than their place is worth: the
        places-gained bonus (KW-4), every round played (KW-5), the tie split (FC-4)."""
        used = [("gain", self.gain is not None), ("completion", bool(self.completion)),
                ('ties = "split"', self.ties == "split")]  # fmt: skip
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


class Sections(Strict):
    """Which sections of a multi-section event earn points (UT-7, D-UT-2)."""

    unweighted: Literal["first", "all"] = Field(
        default="first",
        description="Sections listed without a `weight`: only the `first` (top) section earns, or "
        "`all` earn at weight 1. Sections listed with a weight always earn at that weight.",
    )


class Counting(Strict):
    """Which of a player's results count towards the season total."""

    mode: Literal["all", "best", "percent", "most-minus"] = Field(
        default="all",
        description="`all` results, the `best` N (ACF-14), the best ceil(percent% of the "
        "season's events) (LUP-3, D-LUP-1), or `most-minus`: the best n - `drop`, n the most "
        "events any player has played (Keshmat 2024-25: n - 1).",
    )
    best: int = Field(default=5, ge=1, le=1_000_000, description="N for `best` (ACF-14: 5).")
    drop: int = Field(
        default=1, ge=0, le=1_000_000, description="Results left out for `most-minus`."
    )
    per_category: dict[str, Count] = Field(
        default_factory=dict,
        description="At most this many results of an event category (season.toml `category`; "
        "'classical' also limits 'classical/group-a') count; the best results are taken within "
        "the limits (Keshmat 2026: 3 rapid and 3 classical; FIDE Circuit: 2 rapid/blitz).",
        examples=[{"rapid": 3, "classical": 3}],
    )
    percent: Percent = Field(
        default=Fraction(70),
        description="Percentage of the season's calendar for `percent`, rounded up (LUP-3: 70).",
    )
    min_events: Count = Field(
        default=0,
        ge=0,
        description="Events the season is planned with at least (LUP-4: 6); `grandprix check` "
        "warns when the calendar has fewer.",
        examples=[6],
    )
    bonus_per_event: PointValue = Field(
        default=Fraction(0),
        description="Points for every event played, counted or not (LUP-3: 2).",
        examples=[2],
    )


class Eligibility(Strict):
    """Who may score in the Grand Prix (UT-1), and what happens to the others (D-UT-1)."""

    require: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description="Player attributes (columns of players.csv) and the value, or list of "
        "values, each must have; compared without regard to case.",
        examples=[{"region": "UT", "member": "yes"}],
    )
    min_rounds_percent: Percent | None = Field(
        default=None,
        description="A player earns points in an event only after playing at least this "
        "share of its rounds (rounds of the kinds `points.played` lists: by default a game, a "
        "forfeit win or a pairing-allocated bye); others are treated as `ineligible_players` "
        "says (Keshmat 2026: 50).",
        examples=[50],
    )
    ineligible_players: Literal["keep-place", "skip"] = Field(
        default="keep-place",
        description="`keep-place`: ineligible players occupy their place and its points go to "
        "nobody; `skip`: they are removed and eligible players move up.",
    )


DateRef = datetime.date | Literal["season-start", "season-end", "last-event"]


class RatingSource(Strict):
    """One list of the rating chain: its kind and the date whose list in force is used."""

    kind: str = Field(
        description="List kind: fide-standard, fide-rapid, fide-blitz, national or national-NAME.",
        examples=["national"],
    )
    on: DateRef = Field(
        default="season-start",
        description="A date, or `season-start`, `season-end` or `last-event` (LUP-5: the band "
        "held at the date of the last event). The list in force on that date is used.",
    )


class Ratings(Strict):
    """Where players' ratings come from (ACF-11, LUP-5)."""

    sources: list[RatingSource] = Field(
        default_factory=list,
        description="In order: the first list that rates a player gives their rating (ACF-11: "
        "the national list in force on 1 January, else the FIDE January list).",
    )


class Conditions(Strict):
    """Who qualifies: rating band, rated or not, age, sex, attributes (divisions and prizes)."""

    rating_below: Count | None = Field(default=None, description="Rated below this (U2000).")
    rating_at_least: Count | None = Field(default=None, description="Rated at least this.")
    unrated: bool | None = Field(
        default=None, description="true: unrated players only; false: rated players only."
    )
    age_below: Count | None = Field(
        default=None, description="Younger than this on `age_on` (ACF-1: 18)."
    )
    age_at_least: Count | None = Field(default=None, description="At least this old on `age_on`.")
    age_on: DateRef = Field(
        default="season-start",
        description="The date ages are taken on (ACF-1: 1 January of the Grand Prix year).",
    )
    sex: str | None = Field(default=None, description="'w' (or 'f') for women, 'm' for men.")
    require: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description='Further attributes (players.csv columns), e.g. {region = "VIC"} (ACF-8).',
    )
    us_class: str | None = Field(
        default=None,
        description="US Chess class of the player's rating (X, A, B, ... H, J/I; UCC-1, UCC-9); "
        "an unrated player's class is the one given to them (entries, players.csv `class`).",
    )

    @model_validator(mode="after")
    def _bands_not_empty(self) -> Conditions:
        for low, high, what in (
            (self.rating_at_least, self.rating_below, "rating"),
            (self.age_at_least, self.age_below, "age"),
        ):
            if low is not None and high is not None and low >= high:
                raise ValueError(
                    f"{what}_at_least = {low} is not below {what}_below = {high}: nobody "
                    "qualifies; correct the band"
                )
        return self


class Division(Conditions):
    """A division: who belongs to it, and how it earns points (ACF-8, ACF-13, LUP-5)."""

    name: str = Field(description="Division name, e.g. 'Under 2000'.")
    award: Literal["rerank", "filter"] = Field(
        default="rerank",
        description="`rerank`: the division's players are placed again inside each event and "
        "earn the division's table (ACF-13.4); `filter`: the division is the overall standings "
        "of its players (rating bands of LUP-5).",
    )
    section: str | None = Field(
        default=None,
        description="The event section played as this division: in events that have it, the "
        "division's points are awarded inside it (ACF-13.2).",
    )
    cascade: bool = Field(
        default=False,
        description="Points go down the event's sections in order until the table is filled "
        "(ACF-13.3: Junior, Women, Unrated; D-ACF-3).",
    )
    best: Count | None = Field(default=None, description="Results counted, if not `counting`.")

    @property
    def everyone(self) -> bool:
        """Whether every player belongs (no condition, no section of its own): its places are
        the event's."""
        conditions = set(Conditions.model_fields)
        return self.section is None and self.model_dump(include=conditions) == Conditions(
        ).model_dump()  # fmt: skip


class Restriction(Strict):
    """Players whose rating comes from a list (or who are unrated) may only be in some
    divisions (ACF-12)."""

    source: str = Field(
        description="`unrated`, or the list kind the rating came from (e.g. fide-standard)."
    )
    rating_below: Count | None = Field(default=None, description="Applies below this rating.")
    rating_at_least: Count | None = Field(default=None, description="Applies from this rating.")
    only: list[str] = Field(description="The divisions such a player may be in.")


class Prize(Conditions):
    """One prize: the best eligible player of a ranking who has no better prize gets it."""

    name: str = Field(description="Shown with the award, e.g. 'U2000 2nd' or 'Class B 1st'.")
    ranking: str = Field(
        default="",
        description="The standings it goes down: '' for the overall standings (or an event's "
        "first section), else a division (season) or a section (event).",
    )
    amount: Money | None = Field(default=None, description="Money.", examples=[100])
    title: str | None = Field(
        default=None,
        description="A trophy or title instead of money; decided by tie-break, never shared, "
        "and awarded apart from the money (UCC-12).",
        examples=["Utah Class Champion"],
    )
    min_players: Count | None = Field(
        default=None,
        description="Paid only if at least this many players who meet its conditions take part "
        "(UCC-8: 4 Experts; LUP-E3: 3 in the band).",
    )
    based_on: Count | None = Field(
        default=None,
        description="The amount assumes this many such players; with fewer it shrinks in "
        "proportion (UCC-7, D-UCC-1).",
    )
    each: str | None = Field(
        default=None,
        description="One prize for each value of this attribute whose players have no other "
        'prize: the best of them gets it (ACF-8 state prize: `each = "region"`).',
    )

    @model_validator(mode="after")
    def _money_or_title(self) -> Prize:
        if self.amount is None and self.title is None:
            raise ValueError(f"prize '{self.name[:60]}' needs an 'amount' or a 'title'")
        return self


class Prizes(Strict):
    """How prizes are allocated (ACF-8 to ACF-10, LUP-5 to LUP-7, UCC-6 to UCC-12)."""

    ties: Literal["pool", "hort", "tiebreak"] = Field(
        default="tiebreak",
        description="Money for tied players: `pool` (US Chess: the tied players split the "
        "prizes of the places they share, one prize each; UCC-10), `hort` (half by tie-break "
        "order, half shared), `tiebreak` (indivisible: the order decides; LUP-6).",
    )
    require: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description='Attributes every prize winner must have (LUP-7: attended = "yes").',
    )
    played_last_event: bool = Field(
        default=False, description="Only players of the season's last event (LUP-7)."
    )
    based_on: Count | None = Field(
        default=None,
        description="The whole fund is 'based on' this many entries: with fewer, every prize "
        "is paid in proportion, never below half for funds above 500 (US Chess, prizes.md "
        "§1.6).",
    )
    currency: str = Field(
        default="",
        description="How amounts are shown: a symbol or code written before them, e.g. '$', "
        "'A$' or 'EUR '.",
        max_length=8,
    )
    prize: list[Prize] = Field(
        default_factory=list,
        description="The prizes (`[[prizes.prize]]`), in priority order for equal values.",
    )


SeasonTiebreak = Literal["discarded", "best", "last-event", "events", "per-event"]


class Standings(Strict):
    """How the season standings are ordered beyond total points (LUP-6)."""

    tiebreaks: list[SeasonTiebreak] = Field(
        default_factory=list,
        description="In order: `discarded` (sum of the points not counted, D-LUP-2), `best` "
        "(highest single result), `last-event` (place in the season's last event; players "
        "who missed it come after), `events` (more events played first), `per-event` (the higher "
        "total per counted result first: Keshmat 2024-25). Players still equal "
        "share a rank (`9-10`).",
        examples=[["discarded", "best", "last-event"]],
    )
    decimals: int = Field(default=2, ge=0, le=6, description="Decimals shown (D-UT-3).")
    ineligible: Literal["hidden", "listed"] = Field(
        default="hidden",
        description="Players who played in the season's events but earn no points anywhere (not "
        "eligible by `eligibility.require`, or too few rounds played): `hidden`, or `listed` "
        "after the standings in every output (table, CSV, JSON, site), with no rank, 0 points "
        "and the reason, as some series publish them.",
    )


class RuleSet(Strict):
    """A Grand Prix rule set: a preset, a rules file, or a preset with overrides."""

    name: str = Field(default="", description="Name of the rule set.")
    description: str = Field(default="", description="What the rule set is for.")
    cites: list[str] = Field(
        default_factory=list, description="Rule IDs encoded (../shared/seeds/README.md)."
    )
    choices: list[str] = Field(
        default_factory=list, description="What the rule set chose where its rule book is silent."
    )
    points: Points = Field(default_factory=Points, description="Event points.")
    sections: Sections = Field(default_factory=Sections, description="Earning sections.")
    counting: Counting = Field(default_factory=Counting, description="Counted results.")
    eligibility: Eligibility = Field(default_factory=Eligibility, description="Eligibility.")
    standings: Standings = Field(default_factory=Standings, description="Season order.")
    ratings: Ratings = Field(default_factory=Ratings, description="Rating sources.")
    divisions: list[Division] = Field(
        default_factory=list,
        description="Divisions, each with its own standings; none: one overall standings.",
    )
    restrictions: list[Restriction] = Field(
        default_factory=list, description="Division limits by rating origin (ACF-12)."
    )
    prizes: Prizes = Field(default_factory=lambda: Prizes(), description="Season prizes.")

    def cite(self, *ids: str) -> str:
        """' (UT-5)': the rule IDs this rule set encodes (its ``cites``) among ``ids``, for a
        message; nothing for a rule set of its own, which no other federation's ID explains."""
        mine = [i for i in ids if i in self.cites]
        return f" ({', '.join(mine)})" if mine else ""

"""The season rule-set schema, declared once.

These models validate a rule set (a preset, a rules file, or a season's ``[rules]`` overrides)
and are the source of the reference documentation (``grandprix rules-reference``). Every field
carries a description and an example; the rule IDs of ../shared/seeds/README.md that a field
exists for are named in its description.
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import (
    Field,
    StringConstraints,
    model_validator,
)

from grandprix.rules.event_points import Points
from grandprix.rules.fields import (
    Count,
    Money,
    Percent,
    PointValue,
    Strict,
)


class Sections(Strict):
    """Which sections of a multi-section event earn points (UT-7, D-UT-2)."""

    unweighted: Literal["first", "all"] = Field(
        default="first",
        description="Sections listed without a `weight`: only the `first` (top) section earns, or "
        "`all` earn at weight 1. Sections listed with a weight always earn at that weight.",
    )


class CountingChange(Strict):
    """From a date on, another number of best results counts (Dworp Open 2019-20: the best 5
    of 9 evenings became the best 3 of 5)."""

    date: datetime.date = Field(description="The day from which the new number counts.")
    best: int = Field(ge=1, le=1_000_000, description="The best N that count from that day.")


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
    changes: list[CountingChange] = Field(
        default_factory=list,
        description="The best N changed during the season: from each `date` on, the `best` N "
        "count (DWO-2). The standings of a day (`--as-of`, the standings after an event) "
        "count as that day's rule says; the season's standings as the rule of the day of its "
        "last event says.",
        examples=[[{"date": "2020-03-16", "best": 3}]],
    )

    total: Literal["sum", "mean"] = Field(
        default="sum",
        description="The season value of the results counted: their `sum` (and any bonus), or "
        "their `mean` (KEN-3: the mean of the best up to 4).",
    )
    round: Literal["none", "half-up"] = Field(
        default="none",
        description="The season value rounded to a whole number: `half-up` (0.5 and more up, "
        "as spreadsheets round; KEN-3), or `none`.",
    )

    def on(self, day: datetime.date | None) -> Counting:
        """The counting in force on ``day`` (DWO-2): the latest change from that day or before;
        unchanged when there is none (or no day: a season with no event played)."""
        found = [c for c in self.changes if day is not None and c.date <= day]
        if not found:
            return self
        latest = max(found, key=lambda c: c.date)
        return self.model_copy(update={"mode": "best", "best": latest.best, "changes": []})


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
    exclude: list[Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]] = Field(
        default_factory=list,
        max_length=10_000,
        description="Players who never score, by FIDE id or by name (a name matches its other "
        "spellings: case, accents and word order ignored): KEN-5's known non-citizens listed "
        "under the federation.",
        examples=[["10891420", "Gilruth Peter"]],
    )
    void_forfeits: bool = Field(
        default=False,
        description="A result in which the player won or lost a game by forfeit earns nothing "
        "and is no event played (KEN-6): a crosstable's rounds say it, a standings list its "
        "`forfeits` column (the number of such games).",
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
        return (
            self.section is None
            and self.model_dump(include=conditions) == Conditions().model_dump()
        )


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


SeasonTiebreak = Literal["discarded", "best", "last-event", "events", "per-event", "countback"]


class Standings(Strict):
    """How the season standings are ordered beyond total points (LUP-6)."""

    tiebreaks: list[SeasonTiebreak] = Field(
        default_factory=list,
        description="In order: `discarded` (sum of the points not counted, D-LUP-2), `best` "
        "(highest single result), `last-event` (place in the season's last event; players "
        "who missed it come after), `events` (more events played first), `per-event` (the higher "
        "total per counted result first: Keshmat 2024-25), `countback` (the best result, "
        "then the second best, and so on, counted or not: DWO-3). Players still equal "
        "share a rank (`9-10`).",
        examples=[["discarded", "best", "last-event"]],
    )
    first_by_counted: bool = Field(
        default=False,
        description="Rank first by the number of results counted, more first, then by the "
        "season value (KEN-4: players with 4 events counted, then 3, 2, 1).",
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

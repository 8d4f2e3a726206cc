"""Season records: the season folder as read, and what the engine computes from it."""

from __future__ import annotations

import datetime
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from grandprix.model import Location, Section
from grandprix.pairing.state import Tournament
from grandprix.players import ListedPlayer, PlayerKey
from grandprix.ratings.store import RatingStore
from grandprix.rules.schema import RuleSet
from grandprix.season.identity import Alias, Directory


@dataclass(frozen=True)
class SeasonSection:
    name: str
    section: Section
    weight: Fraction | None = None
    location: Location | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SeasonEvent:
    index: int  # position in the calendar, by date then order in season.toml
    name: str
    date: datetime.date
    sections: tuple[SeasonSection, ...] = ()
    weight: Fraction = Fraction(1)
    prize_fund: Fraction | None = None
    based_on: bool = False  # the prize fund is not guaranteed
    category: str = ""
    tiebreaks: str | None = None
    tiebreak_rules: str | None = None
    planned: bool = False  # in the calendar, no results yet
    place: str = ""  # where it is played, if season.toml says
    counts: bool = True  # false: shown, but outside the season's competition
    location: Location | None = field(default=None, compare=False)
    # Being played (``in_progress``; ``planned`` then too: nothing counts yet): each section's
    # name and its tournament as it stands (the TRF of its results file).
    under_way: tuple[tuple[str, Tournament], ...] = ()


@dataclass(frozen=True)
class Season:
    name: str
    rules: RuleSet
    events: tuple[SeasonEvent, ...]
    players: tuple[ListedPlayer, ...] = ()
    aliases: tuple[Alias, ...] = ()
    ratings: RatingStore | None = field(default=None, compare=False, repr=False)
    start: datetime.date | None = None
    end: datetime.date | None = None
    folder: str = ""
    language: str = "en"  # the language of its pages (grandprix.language)

    @property
    def calendar(self) -> int:
        """The events of the season's competition, played or planned (D-LUP-1)."""
        return sum(e.counts for e in self.events)

    def day_of(self, as_of: datetime.date | None = None) -> datetime.date | None:
        """The day the standings stand on: ``as_of``, or the day of the last event of the
        competition played (None before any); the rules in force that day count (DWO-2)."""
        if as_of is not None:
            return as_of
        return max((e.date for e in self.counted_events()), default=None)

    def counted_events(self, as_of: datetime.date | None = None) -> list[SeasonEvent]:
        """The events whose results make the standings: played (not planned), inside the
        competition, on or before ``as_of``."""
        return [
            e
            for e in self.events
            if not e.planned and e.counts and (as_of is None or e.date <= as_of)
        ]

    @cached_property
    def directory(self) -> Directory:
        """The people of the season, from players.csv, aliases.csv and every results file,
        made once for this season (the standings, the divisions, the prizes and the site's
        pages ask it about the same players; a new directory learns them again, 0.3-0.5 s for
        the 500,000 rows of a 10,000-event season)."""
        seen = (s.section.columns for e in self.events for s in e.sections)
        return Directory(self.players, self.rules, self.aliases, seen)


def product(factors: tuple[tuple[str, Fraction], ...]) -> Fraction:
    """The product of multipliers given with their reasons."""
    return math.prod((value for _, value in factors), start=Fraction(1))


@dataclass(frozen=True, eq=False)
class Valuation:
    """What a place span is worth under one table and multiplier, computed once and shared by
    every player (and every event) it applies to."""

    id: int  # index in the season's list of valuations
    base: Fraction  # before multipliers
    values: tuple[Fraction, ...]  # table values of the places shared
    event_weight: Fraction
    section_weight: Fraction
    points: Fraction  # base x factor x event_weight x section_weight + extra
    notes: tuple[str, ...] = ()
    factors: tuple[tuple[str, Fraction], ...] = ()  # the section's multipliers, with reasons
    bonuses: tuple[tuple[str, Fraction], ...] = ()  # added after the multipliers, with reasons
    terms: tuple[tuple[str, Fraction], ...] = ()  # the weighted terms of ``points.terms``: base
    floored_from: Fraction | None = None  # the base before the minimum raised it (LUP-1)

    @property
    def factor(self) -> Fraction:
        """The product of the section's multipliers (FC-1 rating factor, NW-1 class)."""
        return product(self.factors)

    @property
    def extra(self) -> Fraction:
        """The bonuses (KW-4 places gained, KW-5 every round played)."""
        return sum((value for _, value in self.bonuses), Fraction(0))


class Origin(NamedTuple):
    """Where awards were earned: one event section, shared by all the awards made in it (half
    a million awards in a large season need not repeat it)."""

    event: int  # SeasonEvent.index
    event_name: str
    date: datetime.date
    section: str
    table_name: str = ""  # tournament class, when tables go by class
    category: str = ""  # the event's category (season.toml `category`)


class Award(NamedTuple):
    """What one player earned in one section of one event, and why."""

    origin: Origin
    player: PlayerKey
    name: str
    first: int  # place span (after skipping ineligible players, if the rules say so)
    last: int
    score: Fraction  # the player's score in the event
    valuation: Valuation
    overall: str = ""  # the place among all players, when ineligible players were skipped

    @property
    def event(self) -> int:
        """The event's index (``SeasonEvent.index``)."""
        return self.origin.event

    @property
    def event_name(self) -> str:
        return self.origin.event_name

    @property
    def date(self) -> datetime.date:
        return self.origin.date

    @property
    def section(self) -> str:
        return self.origin.section

    @property
    def table_name(self) -> str:
        return self.origin.table_name

    @property
    def category(self) -> str:
        return self.origin.category

    @property
    def place(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    @property
    def points(self) -> Fraction:
        return self.valuation.points

    @property
    def base(self) -> Fraction:
        return self.valuation.base

    @property
    def values(self) -> tuple[Fraction, ...]:
        return self.valuation.values

    @property
    def event_weight(self) -> Fraction:
        return self.valuation.event_weight

    @property
    def section_weight(self) -> Fraction:
        return self.valuation.section_weight

    @property
    def factor(self) -> Fraction:
        return self.valuation.factor

    @property
    def extra(self) -> Fraction:
        return self.valuation.extra

    @property
    def notes(self) -> tuple[str, ...]:
        return self.valuation.notes


class AwardRows:
    """Awards as columns: the i-th entry of each list is one award (a season's half a million
    awards are counted and ranked without a record each). ``award`` makes the record of one
    row when something asks for it (a page, an explanation), the same object every time."""

    __slots__ = (
        "_made",
        "first",
        "last",
        "name",
        "origin",
        "overall",
        "player",
        "repeats",
        "score",
        "valuation",
    )

    def __init__(self) -> None:
        self.origin: list[Origin] = []
        self.player: list[PlayerKey] = []
        self.name: list[str] = []
        self.first: list[int] = []
        self.last: list[int] = []
        self.score: list[Fraction] = []
        self.valuation: list[Valuation] = []
        self.overall: list[str] = []
        self._made: list[Award | None] = []  # by row, as far as records were asked
        # Whether a player may have two rows in one event (two sections of it): when not, a
        # player's events are their rows, and the ranking need not count them.
        self.repeats = False

    def __len__(self) -> int:
        return len(self.player)

    def extend(self, other: AwardRows) -> None:
        """Every row of ``other`` added after these (the awards of a season, event by event)."""
        for column in _COLUMNS:
            getattr(self, column).extend(getattr(other, column))
        self.repeats |= other.repeats

    def add(self, award: Award) -> None:
        """One more row, from its record (its player may have another row in its event)."""
        for column, value in zip(_COLUMNS, award, strict=True):
            getattr(self, column).append(value)
        self.repeats = True

    def award(self, row: int) -> Award:
        """The record of ``row``, made at the first ask and kept (the pages of a line ask for
        the same rows; two threads asking at once may each make one, equal)."""
        made = self._made
        if len(made) < len(self.player):
            made += [None] * (len(self.player) - len(made))
        found = made[row]
        if found is None:
            found = made[row] = Award(
                self.origin[row],
                self.player[row],
                self.name[row],
                self.first[row],
                self.last[row],
                self.score[row],
                self.valuation[row],
                self.overall[row],
            )
        return found

    def awards(self, rows: Sequence[int]) -> tuple[Award, ...]:
        return tuple(map(self.award, rows))


_COLUMNS = Award._fields  # AwardRows has a column of each


class Held:
    """A line's awards as rows of one ``AwardRows``: all of them in the season's order, and
    which count (None: all of them). Equal when the awards are. The rows are kept as given: an
    ``array`` of them holds half a million rows in 4 MB, not as half a million ``int``s."""

    __slots__ = ("_awards", "counted_rows", "dropped_rows", "rows", "table")

    def __init__(
        self,
        table: AwardRows,
        rows: Sequence[int],
        counted: Sequence[int] | None = None,
        dropped: Sequence[int] = (),
    ):
        self.table = table
        self.rows = rows
        self.counted_rows = counted
        self.dropped_rows = dropped
        self._awards: tuple[Award, ...] | None = None

    @property
    def awards(self) -> tuple[Award, ...]:
        if self._awards is None:
            self._awards = self.table.awards(self.rows)
        return self._awards

    @property
    def counted(self) -> tuple[Award, ...]:
        if self.counted_rows is None:
            return self.awards
        return self.table.awards(self.counted_rows)

    @property
    def dropped(self) -> tuple[Award, ...]:
        return self.table.awards(self.dropped_rows)

    @property
    def counted_number(self) -> int:
        return len(self.rows if self.counted_rows is None else self.counted_rows)

    def places_in(self, event: int | None) -> list[int]:
        """The first place of each award in event ``event`` (its sections)."""
        table = self.table
        return [table.first[r] for r in self.rows if table.origin[r].event == event]

    def _key(self) -> tuple[object, ...]:
        return (self.awards, self.counted, self.dropped)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Held) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Held({len(self.rows)} awards, {self.counted_number} counted)"


@dataclass(frozen=True)
class Line:
    """A player's season: every award, which count, the bonus and the total."""

    player: PlayerKey
    name: str
    held: Held  # the awards, as rows of the season's awards
    events: int
    bonus: Fraction
    total: Fraction
    rank_first: int = 0
    rank_last: int = 0

    @property
    def awards(self) -> tuple[Award, ...]:
        return self.held.awards

    @property
    def counted(self) -> tuple[Award, ...]:
        return self.held.counted

    @property
    def dropped(self) -> tuple[Award, ...]:
        return self.held.dropped

    @property
    def rank(self) -> str:
        if self.rank_first == self.rank_last:
            return str(self.rank_first)
        return f"{self.rank_first}-{self.rank_last}"

    def results(self) -> list[tuple[Award, bool]]:
        """Each award of the line, in its rows' order, and whether it counts."""
        held = self.held
        if held.counted_rows is None:
            return [(award, True) for award in held.awards]
        counted = set(held.counted_rows)
        return [(a, r in counted) for a, r in zip(held.awards, held.rows, strict=True)]


Tables = list[tuple[str, list[Line]]]  # (division name, lines); one unnamed without divisions


def section_awards(lines: Sequence[Line]) -> Iterator[tuple[Origin, dict[PlayerKey, Award]]]:
    """The awards of one table's lines by event section, in the table's order: each section's
    origin and its awards by player. A section's rows are adjacent in the table (the awards are
    added section by section), so they are found in runs, not looked up one award at a time."""
    if not lines:
        return
    table = lines[0].held.table
    assert all(line.held.table is table for line in lines), "lines of two computations"
    rows: Iterable[int] = range(len(table))
    if sum(len(line.held.rows) for line in lines) != len(table):  # a division's filter
        rows = sorted(r for line in lines for r in line.held.rows)
    players = table.player
    for origin, run in itertools.groupby(rows, table.origin.__getitem__):
        found = list(run)
        yield (
            origin,
            dict(zip(map(players.__getitem__, found), map(table.award, found), strict=True)),
        )


class Unplaced(NamedTuple):
    """A player of the season's events who is in none of its tables."""

    player: PlayerKey
    name: str
    events: int  # the events they played
    reason: str

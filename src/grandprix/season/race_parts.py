"""The parts the race (``season/race.py``) is made of: its records (``Outlook``, ``Need``) and
statuses, what one event left can give a player (``Chance``), a player as the search sees them
(``Contender``) and the season's tie-break chain applied to outcomes still to come (``Chain``).
"""

from __future__ import annotations

import datetime
import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting, RuleSet
from grandprix.rules.terms import TERM_KINDS
from grandprix.season.model import (
    Award,
    AwardRows,
    Held,
    Line,
    Origin,
    Season,
    SeasonEvent,
    Valuation,
)
from grandprix.season.place_values import base_points
from grandprix.season.points import class_table, table_for
from grandprix.season.standings import rerank

CLINCHED = "clinched"
REACHABLE = "reachable"
OUT_OF_REACH = "out of reach"


@dataclass(frozen=True)
class Outlook:
    """One player's race in one table: the total now, the most still reachable, and the status
    of 1st place and of each prize place of the table."""

    player: PlayerKey
    name: str
    total: Fraction  # now
    best: Fraction | None  # the most still reachable; None: no limit (points by event score)
    places: tuple[tuple[int, str], ...]  # (place, CLINCHED | REACHABLE | OUT_OF_REACH)
    cautious: tuple[int, ...] = ()  # places "reachable" only because the search was cut short
    need: Need | None = None  # what the next event asks for the best place still reachable
    # places "reachable" (not clinched, or not out of reach) only because rivals may end level
    # on points with the player and the season's tie-break between them, which results still
    # to come decide, is not known yet
    undecided: tuple[int, ...] = ()

    def status(self, place: int) -> str:
        return dict(self.places)[place]


ANY_PLACE = 0  # a Need's place: any place of the event, taking part is enough


@dataclass(frozen=True)
class Need:
    """What the next event asks of a player for one place of a table that is still reachable:
    the worst place there (taken alone) that makes the table's place sure whatever anyone else
    does (``sure``; None: not even 1st there does) and the worst place that leaves it within
    reach (``chance``; worse than it, the place is out of reach; None: it stays within reach
    even without playing). ``ANY_PLACE``: any place of the event."""

    place: int  # the place of the table
    event: str  # the next event
    sure: int | None
    chance: int | None
    among: str = ""  # a division that awards its own points (ACF-13): places among its players
    # The worst place there that makes the table's place sure unless a season tie-break not
    # yet known (between players level on points, decided by results still to come) goes
    # against the player; None when no such tie-break stands between it and ``sure``.
    tie: int | None = None
    undecided: bool = False  # ``sure`` or ``chance`` left cautious by such a tie-break


def section_rate(season: Season) -> Fraction:
    """The rate assumed for the section a player plays in an event left: 1, the rate of an
    unweighted top section (UT-7, D-UT-2), or the highest rate any section of the season has."""
    weights = [s.weight for e in season.events for s in e.sections if s.weight is not None]
    return max([Fraction(1), *weights])


@dataclass
class Chance:
    """What one event left can give a player, place span by place span.

    The tables are made to fall from 1st place down (each value raised to the best below it,
    and to the UT-5 value of places below the table), which changes no real table and keeps
    every bound an upper bound. An event without the prize fund its class needs may be of any
    class (ACF-6): each span is worth the most any class gives it.
    """

    event: str
    rules: RuleSet
    tables: tuple[tuple[Fraction, ...], ...]
    rate: Fraction
    _memo: dict[tuple[int, int], Fraction] = field(default_factory=dict)

    @classmethod
    def of(cls, event: SeasonEvent, season: Season) -> Chance:
        points = season.rules.points
        if points.classes and event.prize_fund is None:
            tables = [class_table(c, points) for c in points.classes]
        else:
            tables = [table_for(event, points)[0]]
        falling = tuple(falling_table(t, points.overflow) for t in tables)
        return cls(event.name, season.rules, falling, event.weight * section_rate(season))

    def span(self, first: int, last: int) -> Fraction:
        """Each player's points for sharing places ``first``..``last`` (UT-4, UT-5, LUP-1); with
        a sum of terms, the most they give (``_terms``)."""
        key = (first, last)
        if key not in self._memo:
            if self.rules.points.terms:
                self._memo[key] = max(self._terms(first, last, t) for t in self.tables)
            else:
                self._memo[key] = self.rate * max(
                    base_points(first, last, Fraction(0), list(t), self.rules)[0]
                    for t in self.tables
                )
        return self._memo[key]

    def _terms(self, first: int, last: int, table: Sequence[Fraction]) -> Fraction:
        """The most a sum of terms gives places ``first``..``last``: the place's points, each
        other term's most (``TermKind.most``, rounded up where the term rounds), the bounds of
        the terms that bound those before them, then the minimum (LUP-1); the terms added after
        the multipliers last. Only asked when every term can be bounded (``unbounded_by``)."""
        points = self.rules.points
        total, after = Fraction(0), Fraction(0)
        for term in points.terms:
            kind = TERM_KINDS[term.kind]
            if kind.bound is not None:  # monotone in the sum: a bound of the most is the most
                total = kind.bound(total, term.amount)
                continue
            if term.kind == "place":
                found = base_points(first, last, Fraction(0), list(table), self.rules, floor=False)
                most = found[0]
            elif kind.most is not None:
                most = kind.most(term)
            else:
                raise ValueError(f"the race cannot bound a '{term.kind}' term")
            if term.round == "half-up":
                most = Fraction(math.floor(most + Fraction(1, 2)))
            if term.weighted:
                total += most
            else:
                after += most
        return self.rate * max(total, points.minimum) + after

    @property
    def best(self) -> Fraction:
        return self.span(1, 1)


def falling_table(table: Sequence[Fraction], overflow: Fraction | None) -> tuple[Fraction, ...]:
    out = list(table)
    running = overflow if overflow is not None and out else Fraction(0)
    for i in reversed(range(len(out))):
        running = max(running, out[i])
        out[i] = running
    return tuple(out)


@dataclass(frozen=True)
class Contender:
    """A player of a table as the counting rule sees them, in integer units of the table:
    every result's points (best first), the events played (for the bonus), the total, and the
    results that count now under best N or p%, padded with zeros (to compare players)."""

    values: tuple[int, ...]
    events: int
    total: int
    counted: tuple[int, ...]


class Chain:
    """The season's tie-break chain (LUP-6, D-LUP-2) on an outcome of the events left, ranked
    by the standings' own code (``standings.rerank``, with the table's last event the last
    planned one, which someone will play): the lines of some players of the table, each with
    the results the outcome gives them added as awards of the events left."""

    def __init__(
        self,
        rules: RuleSet,
        counting: Counting,
        calendar: int,
        planned: list[SeasonEvent],
        lines: list[Line],
    ):
        self.rules, self.counting, self.calendar, self.lines = rules, counting, calendar, lines
        self.criteria = tuple(rules.standings.tiebreaks)
        self.origins = [Origin(e.index, e.name, e.date, "", category=e.category) for e in planned]
        self.last_event = max(e.index for e in planned)
        self.source = lines[0].held.table if lines else AwardRows()
        self.first_id = max((v.id for v in self.source.valuation), default=-1) + 1
        self._valuations: dict[Fraction, Valuation] = {}

    def lowers_per_event(self, chances: list[Chance]) -> bool:
        """Whether a rival may lower their total per result counted (``per-event``, Keshmat
        2024-25) by playing: a place of an event left may be worth nothing."""
        return "per-event" in self.criteria and any(
            c.span(k, k) == 0 for c in chances for k in (max(map(len, c.tables)) + 1,)
        )

    def valuation(self, points: Fraction) -> Valuation:
        """A valuation of ``points`` for the awards of an outcome (ids after the table's)."""
        found = self._valuations.get(points)
        if found is None:
            found = Valuation(
                self.first_id + len(self._valuations),
                points,
                (points,),
                Fraction(1),
                Fraction(1),
                points,
            )
            self._valuations[points] = found
        return found

    def ranks(
        self, outcome: Sequence[tuple[int | None, tuple[tuple[int, Fraction] | None, ...]]]
    ) -> list[tuple[int, int]]:
        """Each player's first and last rank among the players of ``outcome``: the index of
        a line of the table (None: a newcomer) and the result the outcome gives them in each
        event left, (place, points) or None when away."""
        source, table = self.source, AwardRows()
        table.repeats = source.repeats
        made = []
        for n, (index, results) in enumerate(outcome):
            rows = array("l")
            if index is None:
                player, name = PlayerKey(f"name:newcomer {n}"), f"newcomer {n}"
            else:
                line = self.lines[index]
                player, name = line.player, line.name
                for r in line.held.rows:
                    rows.append(len(table))
                    for column in Award._fields:  # the row's columns (no Award record)
                        getattr(table, column).append(getattr(source, column)[r])
            for origin, result in zip(self.origins, results, strict=True):
                if result is not None:
                    rows.append(len(table))
                    place, points = result
                    award = (origin, player, name, place, place, Fraction(0))
                    for column, value in zip(
                        Award._fields, (*award, self.valuation(points), ""), strict=True
                    ):
                        getattr(table, column).append(value)
            made.append(Line(player, name, Held(table, rows), 0, Fraction(0), Fraction(0)))
        ranked = rerank(
            made, self.rules, self.calendar, self.counting, datetime.date.max, self.last_event
        )
        where = {line.player: (line.rank_first, line.rank_last) for line in ranked}
        nowhere = (len(made) + 1, len(made) + 1)  # no result at all: in no table
        return [where.get(line.player, nowhere) for line in made]


class CutShort(Exception):
    """The search took more steps than SEARCH_LIMIT."""

"""An event section's final placings: shared places for equal scores, or an ordered tie-break list.

With no tie-breaks, players on equal points share a span of places (UT-4: "6-8"). With a list,
players are ordered by it and only those equal on every criterion share a place (LUP-2). A
standings file with an official rank column keeps that order.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import ge, lt, neg
from typing import NamedTuple, cast

from grandprix.errors import UsageError
from grandprix.model import Columns, Player, Section, common_units, ordered
from grandprix.tiebreaks import Context, Rules, Spec, rules_table
from grandprix.tiebreaks.direct import direct_encounter

_SPAN = re.compile(r"^\s*(\d{1,6})\s*(?:-\s*(\d{1,6}))?\s*$")  # bounded: no huge int()


@dataclass(frozen=True)
class Placing:
    """One player's place: ``first``..``last`` (equal when not shared)."""

    first: int
    last: int
    player: Player
    points: Fraction
    values: tuple[Fraction | None, ...] = ()

    @property
    def place(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    @property
    def shared(self) -> bool:
        return self.first != self.last


@dataclass(frozen=True)
class Placings:
    section: Section
    rules: Rules
    specs: tuple[Spec, ...]
    rows: tuple[Placing, ...]


def place(
    section: Section,
    specs: Sequence[Spec] = (),
    rules: Rules = Rules.FIDE_2024,
    unrated_rating: int | None = None,
    official_order: bool = True,
) -> Placings:
    """Place every player of the section.

    A standings file's rank column is the official order; with ``official_order`` false it is
    ignored and equal scores share a span, as UT-4 wants ("equal total score = tie").
    """
    if not section.has_crosstable:
        if specs:
            raise UsageError(
                f"{section.source}: tie-breaks need every round's results, and this file lists "
                "only final scores; drop --tiebreaks or use the event's crosstable (TRF)"
            )
        rows = (official(section) if official_order else None) or _shared(section)
        return Placings(section, rules, (), rows)
    ctx = Context(section, rules, unrated_rating)
    table = rules_table(rules)
    points = [Fraction(score, ctx.scale) for score in ctx.score]
    keys: list[list[tuple[int, int]]] = [[(0, -score)] for score in ctx.score]
    columns: list[Sequence[Fraction | None]] = []
    for spec in specs:
        if spec.name == "DE":
            ranks = direct_encounter(ctx, spec, _groups(keys))
            column: Sequence[Fraction | None] = [Fraction(r) for r in ranks]
        else:
            column = table[spec.name](ctx, spec)
        columns.append(column)
        for key, part in zip(keys, _sort_keys(column, spec.lower_is_better), strict=True):
            key.append(part)
    order = sorted(range(ctx.size), key=lambda i: (keys[i], section.players[i].start_no))
    placed = tuple(
        Placing(first, last, section.players[i], points[i], tuple(col[i] for col in columns))
        for first, last, members in share_places(order, lambda i: keys[i])
        for i in members
    )
    return Placings(section, rules, tuple(specs), placed)


Span = tuple[int, int, list[int]]  # first place, last place, the players sharing them


def share_places(order: list[int], key: Callable[[int], object]) -> Iterator[Span]:
    """Players equal on ``key`` share the span of places they occupy (UT-4, UCC-10): runs of
    equal keys in ``order``, each with the first and last place it covers."""
    first = 1
    for _, run in itertools.groupby(order, key):
        members = list(run)
        yield first, first + len(members) - 1, members
        first += len(members)


def _sort_keys(column: Sequence[Fraction | None], lower_is_better: bool) -> list[tuple[int, int]]:
    """Exact integer sort keys for one tie-break column, best first; missing values last."""
    scale = math.lcm(*(v.denominator for v in column if v is not None))
    sign = 1 if lower_is_better else -1
    return [
        (1, 0) if v is None else (0, sign * v.numerator * (scale // v.denominator)) for v in column
    ]


def _groups(keys: list[list[tuple[int, int]]]) -> list[list[int]]:
    """Indices of players equal on every criterion so far."""
    groups: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(tuple(key), []).append(i)
    return list(groups.values())


@lru_cache(maxsize=4096)
def parse_rank(text: str) -> tuple[int, int] | None:
    """'3' -> (3, 3); '2-3' -> (2, 3); anything else -> None. Each text parsed once while it is
    among the last 4,096 (a season's files repeat the same places)."""
    match = _SPAN.match(text)
    if not match:
        return None
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else first
    return (first, last) if first >= 1 and last >= first else None


Row = tuple[int, int, int]  # first place, last place, the player's row in the section


def official(section: Section) -> tuple[Placing, ...] | None:
    """The order of the rank column, when every row has a rank (a standings list's, or a
    crosstable export's such as chess-results' `Rk.`)."""
    rows = official_rows(section.columns)
    return None if rows is None else _placings(section, rows)


def official_rows(columns: Columns) -> list[Row] | None:
    """``official`` read from the section's columns: (first, last, row) in order, as
    ``read_ranks`` reads them (dense ranks as the places they mean). None when a row has no
    rank, or when the ranks clash (two players would take one place): the section is then
    placed by points, by every reader of it alike."""
    return read_ranks(columns).rows


class RankClash(NamedTuple):
    """Ranks of a list that cannot all be competition ranks: ``row``'s rank (the places
    ``places``) falls on places that the rows ``above`` (ranked just before it,
    ``their_rank``) hold already, ``held``; the first place after theirs is ``free``. Dense
    ranks (1, 2, 2, 3) clash so: the 3 after two rows ranked 2, who hold places 2-3; its place
    is the free one, 4."""

    row: int
    places: tuple[int, int]
    above: tuple[int, ...]
    their_rank: str  # as the file gives it: '2', or '2-3'
    held: tuple[int, int]
    free: int


class Against(NamedTuple):
    """Two rows whose places contradict their points: ``lower``, placed below ``upper``, has
    more points (``shared`` false), or shares its span of places on other points."""

    upper: int
    lower: int
    shared: bool


class RankReading(NamedTuple):
    """A rank column read: its rows in order with their places (None: no rank on some row, a
    clash not of dense ranks, or places against the points), its first clash as competition
    ranks, whether the places are dense ranks read as the places they mean, and the first two
    rows whose places contradict their points (``against``: the upper, the lower)."""

    rows: list[Row] | None
    clash: RankClash | None = None
    dense: bool = False
    against: Against | None = None


def read_ranks(columns: Columns) -> RankReading:
    """The rows in the order of the rank column, each with the places it holds.

    Competition ranks, the way standings print a tie: tied players take a span of places and
    the next rank skips it ('2-3' or a number repeated: 1, 2, 2, 4). A number given to k rows
    holds k places from it (2 given to two rows: places 2-3). Ranks may leave places out (1, 3:
    a row taken out of the list keeps its place taken).

    Places are never held twice. Dense ranks, where the rank after a tie is the next number
    (1, 2, 2, 3, as some club programs print them: SK Dworp's), are read as the places they
    mean (1, 2-3, 2-3, 4), with the clash they make as competition ranks for the reader's
    warning: a column is dense when its ranks are whole numbers, every one from 1 to the
    highest; where no tie has a rank below it the two readings agree, and there is no clash.
    Any other clash (a rank on places the rows above it hold, not dense: 1, 2, 2, 3, 5; a span
    '2-3' given to three rows) leaves no rows: the reader refuses the file.

    Places that contradict the points (a player placed below one with fewer points, or
    sharing a place with one of other points) are not read either: a score is the first
    criterion of every standings, so the players are placed by points (UT-4), as a season
    whose places go by points would place them anyway, and the season's check says why."""
    size = len(columns.rank)
    if size and columns.rank == _counting(size) and ordered(common_units(columns.points)[0], ge):
        return RankReading(_in_order(size))  # 1, 2, 3, ... down the rows, points never rising
    reading = _competition(columns)
    if reading.rows is None:
        return reading
    against = _against_points(columns.points, reading.rows)
    return reading if against is None else reading._replace(rows=None, against=against)


@lru_cache(maxsize=1024)
def _counting(size: int) -> tuple[str, ...]:
    """The ranks '1', '2', ... of ``size`` rows."""
    return tuple(str(place) for place in range(1, size + 1))


def _in_order(size: int) -> list[Row]:
    """The rows of ranks '1', '2', ... in their order, each on its own place."""
    return [(i + 1, i + 1, i) for i in range(size)]


def _against_points(points: Sequence[Fraction], rows: list[Row]) -> Against | None:
    """The first two rows in place order whose places contradict their points: the lower
    shares the upper's span of places on other points, or has more points; None when the
    points agree."""
    units, _ = common_units(points)
    pairs = itertools.pairwise(rows)
    if ordered([units[i] for _, _, i in rows], ge) and all(
        units[i] == units[j] for (*span, i), (*below, j) in pairs if span == below
    ):
        return None
    for (*span, i), (*below, j) in itertools.pairwise(rows):
        if span == below and units[i] != units[j]:
            return Against(i, j, shared=True)
        if units[i] < units[j]:
            return Against(i, j, shared=False)
    return None


def _competition(columns: Columns) -> RankReading:
    """``read_ranks`` before the points are compared: the places of the column as
    competition ranks, or as dense ranks when they are."""
    ranks = list(map(parse_rank, columns.rank))
    if not ranks or None in ranks:
        return RankReading(None)
    spans = cast(list[tuple[int, int]], ranks)
    start_no = columns.start_no
    order = sorted(range(len(spans)), key=lambda i: (spans[i], start_no[i]))
    firsts = Counter(span[0] for span in spans)
    rows: list[Row] = []
    group: list[int] = []  # the rows of the last span read
    for i in order:
        first, last = spans[i]
        if first == last and firsts[first] > 1:  # a repeated number is a shared place
            last = first + firsts[first] - 1
        if rows:
            held = rows[-1][0], rows[-1][1]
            same = (first, last) == held and len(group) <= last - first
            if not same and first <= held[1]:
                above = tuple(group)
                their = columns.rank[above[0]]
                clash = RankClash(i, (first, last), above, their, held, held[1] + 1)
                return _dense(spans, order, firsts, clash)
            if not same:
                group = []
        group.append(i)
        rows.append((first, last, i))
    return RankReading(rows)


def _dense(
    spans: list[tuple[int, int]], order: list[int], counts: Counter[int], clash: RankClash
) -> RankReading:
    """Ranks that clash as competition ranks, read as dense ranks when they are (whole
    numbers, every one from 1 to the highest): dense rank d holds the places after every row
    ranked above it, as many as the rows ranked d."""
    if any(first != last for first, last in spans) or len(counts) != max(counts):
        return RankReading(None, clash)
    place, starts = 1, {}
    for dense in range(1, len(counts) + 1):
        starts[dense] = place
        place += counts[dense]
    rows = []
    for i in order:
        first = starts[spans[i][0]]
        rows.append((first, first + counts[spans[i][0]] - 1, i))
    return RankReading(rows, clash, dense=True)


def _shared(section: Section) -> tuple[Placing, ...]:
    """Equal points share a span of places."""
    return _placings(section, shared_rows(section.columns))


def shared_rows(columns: Columns) -> list[Row]:
    """``_shared`` read from the section's columns: (first, last, row) in order."""
    return [(first, last, i) for first, last, members in shared_spans(columns) for i in members]


def shared_spans(columns: Columns) -> list[Span]:
    """UT-4: equal total scores share the span of places they occupy; best score first, then
    by start number. Sorted on exact integer keys (scores over their common denominator):
    comparing Fractions directly is what made large seasons slow."""
    units, _ = common_units(columns.points)
    seeds = columns.start_no
    if ordered(units, ge) and ordered(seeds, lt):
        order = list(range(len(units)))  # the usual list: in that order already (C loops)
    else:
        order = [i for *_, i in sorted(zip(map(neg, units), seeds, itertools.count()))]
    return list(share_places(order, units.__getitem__))


def _placings(section: Section, rows: list[Row]) -> tuple[Placing, ...]:
    """The placings of ``rows``, with the section's player records."""
    players = section.players
    return tuple(Placing(first, last, players[i], players[i].points) for first, last, i in rows)

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
from typing import cast

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


@lru_cache(maxsize=4096)
def span_text(first: int, last: int) -> str:
    """A place span as people write it: '3', or '2-4' for a shared place (one string for each
    span: a large season's awards hold hundreds of thousands)."""
    return str(first) if first == last else f"{first}-{last}"


Row = tuple[int, int, int]  # first place, last place, the player's row in the section


def official(section: Section) -> tuple[Placing, ...] | None:
    """The order of the rank column, when every row has a rank (a standings list's, or a
    crosstable export's such as chess-results' `Rk.`)."""
    rows = official_rows(section.columns)
    return None if rows is None else _placings(section, rows)


def official_rows(columns: Columns) -> list[Row] | None:
    """``official`` read from the section's columns: (first, last, row) in order."""
    ranks = list(map(parse_rank, columns.rank))
    if not ranks or None in ranks:
        return None
    spans = cast(list[tuple[int, int]], ranks)
    start_no = columns.start_no
    order = sorted(range(len(spans)), key=lambda i: (spans[i], start_no[i]))
    firsts = Counter(span[0] for span in spans)
    rows = []
    for i in order:
        first, last = spans[i]
        if first == last and firsts[first] > 1:  # a repeated number is a shared place
            last = first + firsts[first] - 1
        rows.append((first, last, i))
    return rows


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

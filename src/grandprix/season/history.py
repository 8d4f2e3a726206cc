"""The season as it stood after each event: earlier ranks, running totals, rank histories.

Used by the site's movement column, charts, player pages and "standings after this event" pages.
Ranks are kept for the last ``HISTORY_LIMIT`` played event dates (every date of any real Grand
Prix): a larger season's rank charts and "standings after" pages cover its latest dates.
"""

from __future__ import annotations

import datetime
import itertools
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable
from fractions import Fraction

from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting
from grandprix.season.divisions import division_counting
from grandprix.season.model import Line, Season, SeasonEvent, Tables
from grandprix.season.standings import Placed, Stood, player_line, rerank_each, unit_values

HISTORY_LIMIT = 100  # the latest played event dates whose ranks are kept
ROWS_KEPT = 500  # the lines of each table kept for each date (a page of standings)


class History:
    """Every table as it stood after each of the last ``HISTORY_LIMIT`` played event dates
    made in one pass (``rerank_each``) and kept small: each player's rank on
    each date (the rank charts) and each table's first ``top`` lines (the "standings after"
    pages).

    ``previous``: the history of the season before a change (the server's last snapshot). A
    table's dates before the first date whose results differ (any row of the table: player,
    event, section, place, points, category) are taken from it when the rules are the same
    (and the calendar's length, where a share of it counts): results added on the latest date
    rank that date alone."""

    def __init__(
        self, season: Season, tables: Tables, top: int, previous: History | None = None
    ) -> None:
        played = season.counted_events()
        every = sorted({e.date for e in played})
        last: dict[datetime.date, int] = {}
        for event in played:
            last[event.date] = max(last.get(event.date, event.index), event.index)
        days = list(zip(every, itertools.accumulate((last[d] for d in every), max), strict=True))
        self.dates = every[-HISTORY_LIMIT:]
        self.earlier = len(every) - len(self.dates)  # the played dates before the ones kept
        self.days = days
        self.rules, self.calendar, self.top = season.rules, season.calendar, top
        self._tables = dict(tables)
        self._signatures: dict[str, dict[datetime.date, Counter[Signature]]] = {}
        self.stood: dict[str, list[Stood]] = {}
        self.countings = {name: counting_of(season, name) for name, _ in tables}
        for name, lines in tables:
            if not lines:
                self.stood[name] = []
                continue
            kept = self._kept(name, previous)
            made: Iterable[Stood]
            if len(kept) == len(self.dates):
                made = []
            elif kept and len(kept) == len(self.dates) - 1 and _final(season, name, lines, days):
                made = [_as_it_is(lines, days[-1][0], top)]
            elif season.rules.counting.changes:  # DWO-2: each date as its day's rule counts
                made = _by_day_rule(season, name, lines, days, top, len(self.dates) - len(kept))
            else:
                made = rerank_each(
                    lines,
                    season.rules,
                    self.calendar,
                    self.countings[name],
                    days,
                    top,
                    len(self.dates) - len(kept),
                )
            self.stood[name] = [*kept, *made]

    def _kept(self, name: str, previous: History | None) -> list[Stood]:
        """The table's dates that ``previous`` has as they are (before the first that
        differs)."""
        if (
            previous is None
            or name not in previous.stood
            or (previous.rules, previous.top) != (self.rules, self.top)
            # a share of the calendar counts (LUP-3): its length changes every line
            or (self.countings[name].mode == "percent" and previous.calendar != self.calendar)
        ):
            return []
        old, new = previous.signatures(name), self.signatures(name)
        kept = []
        earlier = dict(zip(previous.dates, previous.stood[name], strict=False))
        for (day, last_event), was in zip(self.days, previous.days, strict=False):
            if was != (day, last_event) or old.get(day) != new.get(day):
                break
            if day in earlier and day >= self.dates[0]:
                kept.append(earlier[day])
            elif day >= self.dates[0]:
                break  # (before the previous window)
        return kept

    def signatures(self, name: str) -> dict[datetime.date, Counter[Signature]]:
        """The rows of table ``name`` of each date, as what ranks them sees them (made when a
        history after a change first compares itself with this one)."""
        found = self._signatures.get(name)
        if found is None:
            found = self._signatures[name] = signatures(self._tables[name])
        return found

    def ranks(self, division: str, player: PlayerKey) -> list[int | None]:
        """The player's first rank in the table after each date (None before any result)."""
        return [stood.rank(player) or None for stood in self.stood[division]]

    def after(self, day: datetime.date) -> list[tuple[str, Stood]]:
        """Each table as it stood on ``day`` (one of ``dates``)."""
        at = bisect_left(self.dates, day)
        none = Stood(day, array("i"), array("i"), (), (), {})  # a table without lines
        return [(name, stood[at] if stood else none) for name, stood in self.stood.items()]

    def before(self) -> dict[str, dict[PlayerKey, int]]:
        """Each table's ranks on the date before the last one (the movement column); nothing
        before a second date."""
        if len(self.dates) < 2:
            return {}
        return {name: stood[-2].ranks() if stood else {} for name, stood in self.stood.items()}


Signature = tuple[object, ...]


def _by_day_rule(
    season: Season,
    name: str,
    lines: list[Line],
    days: list[tuple[datetime.date, int]],
    top: int,
    shown: int,
) -> list[Stood]:
    """The table on each of the last ``shown`` days, each ranked as the rule of its day counts
    (DWO-2: the best N changed from a date): the days under one rule in one pass."""
    out: list[Stood] = []
    wanted = days[len(days) - shown :]
    start = 0
    while start < len(wanted):
        counting = counting_of(season, name, wanted[start][0])
        end = start + 1
        while end < len(wanted) and counting_of(season, name, wanted[end][0]) == counting:
            end += 1
        upto = days[: len(days) - shown + end]  # every day up to the group's last
        out.extend(
            rerank_each(lines, season.rules, season.calendar, counting, upto, top, end - start)
        )
        start = end
    return out


def _final(
    season: Season, name: str, lines: list[Line], days: list[tuple[datetime.date, int]]
) -> bool:
    """Whether the table as ranked is the table as it stood on the last date: its own ranking
    (not a division that filters the overall table, whose ranks come from it), with the same
    last event for the tie-break (``rank_lines`` takes the last event of its rows)."""
    division = next((d for d in season.rules.divisions if d.name == name), None)
    if division is not None and division.award == "filter":
        return False
    table = lines[0].held.table
    return max(origin.event for origin in table.origin) == days[-1][1]


def _as_it_is(lines: list[Line], day: datetime.date, top: int) -> Stood:
    """The table as ranked, as it stood on its last date (``rerank`` gives the same)."""
    players = tuple(line.player for line in lines)
    firsts = array("i", (line.rank_first for line in lines))
    where = {player: k for k, player in enumerate(players)}
    top_lines = tuple(map(Placed.of, lines[:top]))
    return Stood(day, array("i", range(len(lines))), firsts, top_lines, players, where)


def signatures(lines: list[Line]) -> dict[datetime.date, Counter[Signature]]:
    """What the table's rows of each date are, as what ranks them sees them (event, section,
    date, category, player, name, place, points)."""
    if not lines:
        return {}
    table = lines[0].held.table
    found: dict[datetime.date, Counter[Signature]] = defaultdict(Counter)
    origin, player, name, first, last = (
        table.origin,
        table.player,
        table.name,
        table.first,
        table.last,
    )
    valuation = table.valuation
    for line in lines:
        for r in line.held.rows:
            points = valuation[r].points  # as two integers: a Fraction's hash is slow
            found[origin[r].date][
                origin[r],
                player[r],
                name[r],
                first[r],
                last[r],
                points.numerator,
                points.denominator,
            ] += 1
    return dict(found)


def kept_dates(season: Season) -> set[datetime.date]:
    """The played event dates that ``History`` keeps: the latest ``HISTORY_LIMIT``."""
    return set(sorted({e.date for e in season.counted_events()})[-HISTORY_LIMIT:])


def counting_of(season: Season, division: str, day: datetime.date | None = None) -> Counting:
    """How the table of ``division`` ('' without divisions) counts a player's results on
    ``day`` (by default the day its standings stand on, DWO-2)."""
    rules = season.rules
    found = next((d for d in rules.divisions if d.name == division), None)
    counting = rules.counting
    if found is not None and found.award != "filter":  # a filter keeps the overall totals
        counting = division_counting(found, rules)
    return counting.on(season.day_of(day))


def running_totals(
    season: Season, division: str, line: Line, played: list[SeasonEvent]
) -> list[Fraction]:
    """The line's total after each event played, counted as its table counts them."""
    counting = counting_of(season, division)
    table, rows = line.held.table, line.held.rows
    scale, values = unit_values({table.valuation[r] for r in rows}, counting.bonus_per_event)
    by_event: dict[int, list[int]] = defaultdict(list)  # the line's rows, by event
    for r in rows:
        by_event[table.origin[r].event].append(r)
    so_far: list[int] = []
    totals = []
    total = Fraction(0)
    for event in played:
        if event.index in by_event:  # the total changes only with the line's own results
            so_far.extend(by_event[event.index])
            units = [values[table.valuation[r].id] for r in so_far]
            changed = season.rules.counting.changes  # DWO-2: the rule of the event's day
            then = counting_of(season, division, event.date) if changed else counting
            total = player_line(line.player, table, so_far, units, then, season.calendar, scale)[
                0
            ].total
        totals.append(total)
    return totals

"""The season as it stood after each event: earlier ranks, running totals, rank histories.

Used by the site's movement column, charts, player pages and "standings after this event" pages.
Ranks after every event are computed only while the calendar has at most ``HISTORY_LIMIT``
played event dates (any real Grand Prix); a larger season gets its movement column and charts of
totals, but no rank history and no standings page per event.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from fractions import Fraction

from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting
from grandprix.season.divisions import division_counting
from grandprix.season.model import Line, Season, SeasonEvent
from grandprix.season.report import Tables
from grandprix.season.standings import player_line, rerank, unit_values

HISTORY_LIMIT = 100  # played event dates up to which ranks after every event are kept


def ranks_on(season: Season, tables: Tables, as_of: datetime.date) -> Tables:
    """Every table as it stood on ``as_of`` (its lines ranked again from their awards)."""
    played = [e for e in season.events if not e.planned and e.date <= as_of]
    last_event = max((e.index for e in played), default=None)
    return [
        (name, rerank(lines, season.rules, len(season.events), counting_of(season, name), as_of,
                      last_event))
        for name, lines in tables
    ]  # fmt: skip


def history(season: Season, tables: Tables) -> dict[datetime.date, Tables] | None:
    """The tables after each played event date, or None beyond ``HISTORY_LIMIT`` dates."""
    dates = sorted({e.date for e in season.events if not e.planned})
    if len(dates) > HISTORY_LIMIT:
        return None
    return {day: ranks_on(season, tables, day) for day in dates}


def previous_ranks(
    season: Season, tables: Tables, played: list[SeasonEvent]
) -> dict[str, dict[PlayerKey, int]]:
    """Ranks before the last event date, by division, for the movement column."""
    if len(played) < 2:
        return {}
    last = played[-1].date
    earlier = [e for e in played if e.date < last]
    if not earlier:
        return {}
    as_of = max(e.date for e in earlier)
    last_event = max(e.index for e in earlier if e.date <= as_of)
    out = {}
    for name, lines in tables:
        counting = counting_of(season, name)
        ranked = rerank(lines, season.rules, len(season.events), counting, as_of, last_event)
        out[name] = {line.player: line.rank_first for line in ranked}
    return out


def counting_of(season: Season, division: str) -> Counting:
    """How the table of ``division`` ('' without divisions) counts a player's results."""
    rules = season.rules
    found = next((d for d in rules.divisions if d.name == division), None)
    if found is None or found.award == "filter":  # a filter keeps the overall totals
        return rules.counting
    return division_counting(found, rules)


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
            total = player_line(line.player, table, so_far, units, counting, len(season.events),
                                scale)[0].total  # fmt: skip
        totals.append(total)
    return totals

"""Season totals and ranking: awards -> counted results + bonus -> ordered standings."""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

from grandprix.placings import spans
from grandprix.rules.schema import Counting, RuleSet
from grandprix.season.identity import Directory
from grandprix.season.model import Award, Line, Season
from grandprix.season.points import event_awards


def season_awards(season: Season, as_of: datetime.date | None = None) -> list[Award]:
    """Every award of every event played (on or before ``as_of``)."""
    directory = Directory(season.players)
    awards: list[Award] = []
    for event in season.events:
        if event.planned or (as_of is not None and event.date > as_of):
            continue
        awards.extend(event_awards(event, season.rules, directory))
    return awards


def counted_number(counting: Counting, calendar: int, played: int) -> int:
    """How many results count: all, the best N (ACF-14), or ceil(p% of the calendar) (LUP-3).

    D-LUP-1: the percentage is of the events in the season's calendar, not of those played so
    far, so the number stays the same all season (10 events -> 7, 19 -> 14).
    """
    if counting.mode == "best":
        return counting.best
    if counting.mode == "percent":
        return math.ceil(counting.percent * calendar / 100)
    return played


def _best_first(award: Award) -> tuple[Fraction, datetime.date, str, str]:
    return (-award.points, award.date, award.event_name, award.section)


def player_line(player: str, awards: list[Award], rules: RuleSet, calendar: int) -> Line:
    """One player's season: counted and dropped results, bonus and total (LUP-3)."""
    events = len({a.event for a in awards})
    ordered = sorted(awards, key=_best_first)
    keep = counted_number(rules.counting, calendar, len(ordered))
    counted, dropped = ordered[:keep], ordered[keep:]
    bonus = rules.counting.bonus_per_event * events  # counted whether or not among the best
    total = sum((a.points for a in counted), Fraction(0)) + bonus
    name = awards[0].name
    return Line(player, name, tuple(awards), tuple(counted), tuple(dropped), events, bonus, total)


def _criteria(line: Line, rules: RuleSet, last_event: int | None) -> tuple[object, ...]:
    """The sort key: total, then the season tie-break chain (LUP-6, D-LUP-2)."""
    key: list[object] = [-line.total]
    for name in rules.standings.tiebreaks:
        if name == "discarded":
            key.append(-sum((a.points for a in line.dropped), Fraction(0)))
        elif name == "best":
            key.append(-max((a.points for a in line.awards), default=Fraction(0)))
        elif name == "last-event":
            places = [a.first for a in line.awards if a.event == last_event]
            key.append((0, min(places)) if places else (1, 0))  # absent: after all who played
        elif name == "events":
            key.append(-line.events)
    return tuple(key)


def standings(season: Season, as_of: datetime.date | None = None) -> list[Line]:
    """The season standings, best first, with shared ranks where the chain cannot separate."""
    awards = season_awards(season, as_of)
    by_player: dict[str, list[Award]] = defaultdict(list)
    for award in awards:
        by_player[award.player].append(award)
    calendar = len(season.events)
    lines = [player_line(p, a, season.rules, calendar) for p, a in by_player.items()]
    played = [a.event for a in awards]
    last_event = max(played) if played else None
    keys = {line.player: _criteria(line, season.rules, last_event) for line in lines}
    lines.sort(key=lambda line: (keys[line.player], line.name, line.player))
    return [
        replace(lines[i], rank_first=first, rank_last=last)
        for first, last, members in spans(list(range(len(lines))), lambda i: keys[lines[i].player])
        for i in members
    ]

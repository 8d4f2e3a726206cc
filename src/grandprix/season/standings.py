"""Season totals and ranking: awards -> counted results + bonus -> ordered standings.

Totals are summed as integers over the common denominator of every value the season can award,
so they stay exact without adding Fractions half a million times.
"""

from __future__ import annotations

import datetime
import itertools
import math
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from operator import attrgetter, itemgetter, le, ne
from typing import NamedTuple

from grandprix.model import ordered
from grandprix.placings import share_places
from grandprix.players import PlayerKey
from grandprix.rules.event_points import under
from grandprix.rules.schema import Counting, RuleSet
from grandprix.season.identity import Directory
from grandprix.season.model import (
    AwardRows,
    Held,
    Line,
    Origin,
    Season,
    SeasonEvent,
    Tables,
    Valuation,
)
from grandprix.season.points import Valuations, event_awards


class AwardMemo:
    """Event awards kept between computations of one season folder (the workspace's previews):
    an event's awards are reused while the event (its sections the same objects, as the file
    cache gives them), the rules and the season's people are the same; anything else starts
    the memo again. Its valuations hold every value made since, so it serves the standings
    only (not the site, which lists the valuations)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rules: RuleSet | None = None
        self.directory: Directory | None = None
        self.valuations: Valuations | None = None
        self.events: dict[int, tuple[SeasonEvent, AwardRows]] = {}

    def start(self, rules: RuleSet, directory: Directory) -> tuple[Directory, Valuations]:
        """The directory and valuations to use: the memo's own while they still hold."""
        known = self.directory
        if (
            self.valuations is None
            or known is None
            or self.rules != rules
            or known.sameness() != directory.sameness()
        ):
            self.rules, self.directory, self.valuations = rules, directory, Valuations(rules)
            self.events = {}
        assert self.directory is not None and self.valuations is not None
        return self.directory, self.valuations

    def awards(self, event: SeasonEvent, directory: Directory, valuations: Valuations) -> AwardRows:
        """The awards of ``event``, reused when the same event was placed before."""
        known = self.events.get(event.index)
        if known is not None and known[0] == event:
            return known[1]
        assert self.rules is not None
        found = event_awards(event, self.rules, directory, valuations)
        self.events[event.index] = (event, found)
        return found


def season_awards(
    season: Season, as_of: datetime.date | None = None, memo: AwardMemo | None = None
) -> tuple[AwardRows, Valuations]:
    """Every award of every event played (on or before ``as_of``), and their valuations."""
    played = season.counted_events(as_of)
    directory = season.directory
    awards = AwardRows()
    if memo is not None:
        with memo.lock:
            directory, valuations = memo.start(season.rules, directory)
            for event in played:
                awards.extend(memo.awards(event, directory, valuations))
        return awards, valuations
    valuations = Valuations(season.rules)
    for event in played:
        event_awards(event, season.rules, directory, valuations, awards)
    return awards, valuations


def counted_number(counting: Counting, calendar: int, played: int, most: int = 0) -> int:
    """How many results count: all, the best N (ACF-14), ceil(p% of the calendar) (LUP-3), or
    the most events anyone played less ``drop`` (Keshmat 2024-25: n - 1).

    D-LUP-1: the percentage is of the events in the season's calendar, not of those played so
    far, so the number stays the same all season (10 events -> 7, 19 -> 14).
    """
    if counting.mode == "best":
        return counting.best
    if counting.mode == "percent":
        return math.ceil(counting.percent * calendar / 100)
    if counting.mode == "most-minus":
        return max(0, most - counting.drop)
    return played


def player_line(
    player: PlayerKey,
    table: AwardRows,
    rows: Sequence[int],
    units: list[int],
    counting: Counting,
    calendar: int,
    scale: int,
    most: int = 0,
    events: int | None = None,
) -> tuple[Line, tuple[int | Fraction, ...]]:
    """One player's season (counted and dropped results, bonus, total; LUP-3) from their rows
    of ``table`` and those rows' values in units (``units[k]`` is the value of ``rows[k]``),
    and the raw values of the season tie-break chain. ``most``: the most events any player has
    played; ``events``: the player's, when already counted (two sections of one event are
    one)."""
    if events is None:
        events = len({table.origin[r].event for r in rows})
    keep = counted_number(counting, calendar, len(rows), most)
    caps = counting.per_category
    held = Held(table, rows)  # everything counts: no need to rank the results
    total, dropped_units = sum(units), 0
    if keep < len(rows) or caps:
        origin = table.origin
        valued = zip(units, rows, strict=True)
        ordered = sorted(valued, key=lambda item: _best_first(item[0], origin[item[1]]))
        best, rest = _best(table, ordered, keep, caps)
        held = Held(table, rows, _rows(r for _, r in best), _rows(r for _, r in rest))
        total, dropped_units = sum(u for u, _ in best), sum(u for u, _ in rest)
    value: int | Fraction = total
    if counting.total == "mean":  # KEN-3: the mean of the results counted
        value = Fraction(total, held.counted_number or 1)
    if counting.round == "half-up":  # KEN-3: to a whole number, as spreadsheets round
        value = math.floor(Fraction(value, scale) + Fraction(1, 2)) * scale
    per_event = counting.bonus_per_event
    bonus = per_event * events if per_event else per_event  # counted, among the best or not
    if bonus:
        value += bonus.numerator * (scale // bonus.denominator)
    line = Line(player, table.name[rows[0]], held, events, bonus, Fraction(value, scale))
    return line, (value, dropped_units, max(units))


def _rows(rows: Iterable[int] = ()) -> array[int]:
    """Rows of a table, kept compact (``Held``)."""
    return array("l", rows)


_EVENT = itemgetter(0)  # an Origin's event
_FIRST = itemgetter(0)  # a sort key's first part
_DATE = itemgetter(2)  # an Origin's date
_VALUATION_ID = attrgetter("id")


def _best_first(units: int, origin: Origin) -> tuple[object, ...]:
    """The order of a player's results for counting the best: value, then date, event, section."""
    return (-units, origin.date, origin.event_name, origin.section)


def _best(
    table: AwardRows, ordered: list[tuple[int, int]], keep: int, caps: dict[str, int]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The best ``keep`` results (units, row of ``table``), best first, at most ``caps[c]`` of an
    event category c and of every category under it ("fast" limits "fast/blitz" as well; KW-7,
    FC-5). Taking each result in turn while every limit over it has room is the best choice when
    the limits nest: the results allowed then form a matroid, on which the greedy choice is
    optimal."""
    counted: list[tuple[int, int]] = []
    dropped: list[tuple[int, int]] = []
    used: dict[str, int] = defaultdict(int)
    for item in ordered:
        limits = under(table.origin[item[1]].category, caps)
        if len(counted) < keep and all(used[c] < caps[c] for c in limits):
            counted.append(item)
            for c in limits:
                used[c] += 1
        else:
            dropped.append(item)
    return counted, dropped


def chain(
    line: Line,
    discarded: int | Fraction,
    best: int | Fraction,
    rules: RuleSet,
    last_event: int | None,
) -> list[tuple[str, object]]:
    """The season tie-break chain of a line after its total, in order: (criterion, sort value,
    smaller first) (LUP-6, D-LUP-2)."""
    out: list[tuple[str, object]] = []
    for name in rules.standings.tiebreaks:
        if name == "discarded":
            out.append((name, -discarded))
        elif name == "best":
            out.append((name, -best))
        elif name == "last-event":
            places = line.held.places_in(last_event)
            out.append((name, (0, min(places)) if places else (1, 0)))  # absent: after all
        elif name == "events":
            out.append((name, -line.events))
        elif name == "per-event":  # Keshmat 2024-25: total / results counted, higher first
            counted = line.held.counted_number
            out.append((name, -line.total / counted if counted else 0))
        elif name == "countback":  # DWO-3: the best result, then the second best, ...
            out.append((name, countback(line)))
    return out


def countback(line: Line) -> tuple[Fraction, ...]:
    """DWO-3's sort value: every result worth something, counted or not, the best first,
    negated (smaller first), ended by 0: a player with a further result worth more than
    nothing ranks above one whose results end there; a result worth nothing decides nothing."""
    return (*sorted(-a.points for a in line.awards if a.points), Fraction(0))


def _criteria(
    line: Line, raw: tuple[int | Fraction, ...], rules: RuleSet, last_event: int | None
) -> tuple[object, ...]:
    """The sort key: the results counted, more first, where the rules rank by them first
    (KEN-4); the total; then the season tie-break chain (LUP-6, D-LUP-2)."""
    total, discarded, best = raw
    tier = (-line.held.counted_number,) if rules.standings.first_by_counted else ()
    chained = (value for _, value in chain(line, discarded, best, rules, last_event))
    return (*tier, -total, *chained)


def deciding(upper: Line, lower: Line, rules: RuleSet, last_event: int | None) -> str | None:
    """The criterion of the chain that put ``upper`` before ``lower`` on equal totals, or None
    when none separates them."""

    def values(line: Line) -> list[tuple[str, object]]:
        dropped = sum((a.points for a in line.dropped), Fraction(0))
        best = max((a.points for a in line.awards), default=Fraction(0))
        return chain(line, dropped, best, rules, last_event)

    counted = upper.held.counted_number, lower.held.counted_number
    if rules.standings.first_by_counted and counted[0] != counted[1]:
        return "counted"  # KEN-4: before the total and the chain
    for (name, mine), (_, theirs) in zip(values(upper), values(lower), strict=True):
        if mine != theirs:
            return name
    return None


def standings(
    season: Season, as_of: datetime.date | None = None, memo: AwardMemo | None = None
) -> list[Line]:
    """The season standings, best first, with shared ranks where the chain cannot separate."""
    awards, valuations = season_awards(season, as_of, memo)
    counting = season.rules.counting.on(season.day_of(as_of))
    return rank_lines(awards, valuations, season.rules, season.calendar, counting)


def rank_lines(
    awards: AwardRows,
    valuations: Valuations,
    rules: RuleSet,
    calendar: int,
    counting: Counting,
) -> list[Line]:
    """Awards -> one line per player -> ordered, with shared ranks (rank '9-10')."""
    by_player: dict[PlayerKey, array[int]] = defaultdict(_rows)
    for r, player in enumerate(awards.player):
        by_player[player].append(r)
    return _ranked(
        awards,
        by_player.items(),
        valuations.items,
        rules,
        calendar,
        counting,
        max(map(_EVENT, awards.origin), default=None),
    )


def rerank(
    lines: list[Line],
    rules: RuleSet,
    calendar: int,
    counting: Counting,
    as_of: datetime.date,
    last_event: int | None,
) -> list[Line]:
    """The same table as it stood on ``as_of``, from the awards already in its lines (no event
    is placed again; the lines of one table share its awards, one line a player). ``last_event``
    is the last event played by then, for the tie-break."""
    if not lines:
        return []
    table = lines[0].held.table
    assert all(line.held.table is table for line in lines), "lines of two computations"
    dates = list(map(_DATE, table.origin))
    if ordered(dates, le):  # the awards event by event, in the calendar's order: a line's
        end = bisect_right(dates, as_of)  # awards by then are the rows before ``end``
        kept = [(line.player, line.held.rows[: bisect_left(line.held.rows, end)]) for line in lines]
    else:
        kept = [
            (line.player, _rows(r for r in line.held.rows if dates[r] <= as_of)) for line in lines
        ]
    valuations = set(table.valuation)
    return _ranked(
        table,
        [(player, rows) for player, rows in kept if rows],
        valuations,
        rules,
        calendar,
        counting,
        last_event,
    )


class Placed(NamedTuple):
    """A line of a table as it stood on one date: who, the total and events then, the rank."""

    player: PlayerKey
    name: str
    total: Fraction
    events: int
    rank_first: int = 0
    rank_last: int = 0

    @property
    def rank(self) -> str:
        same = self.rank_first == self.rank_last
        return str(self.rank_first) if same else f"{self.rank_first}-{self.rank_last}"

    @classmethod
    def of(cls, line: Line) -> Placed:
        return cls(line.player, line.name, line.total, line.events)


class Stood:
    """A table as it stood on one date (``rerank``'s result, kept small): its lines' indexes
    (k of the table's k-th line, whose player is ``keys[k]``) in their order on the date, the
    first rank of each place in that order, and the first ``top`` places as they stood (their
    ranks set by ``top_lines``). Nothing in it holds the season's awards: a date kept by the
    histories of later seasons keeps no earlier season alive. Each player's rank by k is made
    when first asked for (a player's page asks it of every date)."""

    __slots__ = ("_by_k", "date", "firsts", "keys", "order", "top", "where")

    def __init__(
        self,
        date: datetime.date,
        order: array[int],  # 4-byte whole numbers: a date of 20,000 players in 80 KB
        firsts: array[int],
        top: tuple[Placed, ...],
        keys: tuple[PlayerKey, ...],  # the table's players, by k (shared by its dates)
        where: dict[PlayerKey, int],  # and each one's k
    ) -> None:
        self.date, self.order, self.firsts, self.top = date, order, firsts, top
        self.keys, self.where = keys, where
        self._by_k: array[int] | None = None

    @property
    def players(self) -> int:
        """How many players the table had then."""
        return len(self.order)

    def rank(self, player: PlayerKey) -> int:
        """The player's first rank on the date; 0 before they had a result."""
        k = self.where.get(player)
        if k is None:
            return 0
        by_k = self._by_k
        if by_k is None:  # (two threads may both make it: the same array)
            by_k = array("i", bytes(4 * len(self.keys)))
            for place, line in zip(self.firsts, self.order, strict=True):
                by_k[line] = place
            self._by_k = by_k
        return by_k[k]

    def ranks(self) -> dict[PlayerKey, int]:
        """Every player's first rank on the date (those with a result by then)."""
        return dict(zip(map(self.keys.__getitem__, self.order), self.firsts, strict=True))

    def top_lines(self) -> list[Placed]:
        """The first places, ranked as they stood (shared ranks: '2-6')."""
        firsts = self.firsts
        return [
            placed._replace(rank_first=firsts[i], rank_last=bisect_right(firsts, firsts[i]))
            for i, placed in enumerate(self.top)
        ]


def rerank_each(
    lines: list[Line],
    rules: RuleSet,
    calendar: int,
    counting: Counting,
    days: Sequence[tuple[datetime.date, int | None]],
    top: int,
    shown: int | None = None,
) -> Iterator[Stood]:
    """``rerank(lines, ..., as_of, last_event)`` for each (as_of, last_event) of ``days`` in
    date order (only the last ``shown`` of them when given), equal to it rank for rank, made in
    one pass: a player's line is made again only on a date that brings them a result (or, when
    the number counted follows the most events anyone played, when that number moves), a sort
    key only when the line or the last event's places change, and each date's order is sorted
    from the last one's, which is nearly in order already."""
    if not lines:
        return
    table = lines[0].held.table
    assert all(line.held.table is table for line in lines), "lines of two computations"
    dates = list(map(_DATE, table.origin))
    scale, values = unit_values(set(table.valuation), counting.bonus_per_event)
    units = list(map(values.__getitem__, map(_VALUATION_ID, table.valuation)))
    events_of = list(map(_EVENT, table.origin))
    on_day: dict[datetime.date, list[int]] = defaultdict(list)  # the players of each day
    in_event: dict[int | None, list[int]] = defaultdict(list)  # and of each event
    for k, line in enumerate(lines):
        for day in dict.fromkeys(dates[r] for r in line.held.rows):
            on_day[day].append(k)
        for event in dict.fromkeys(events_of[r] for r in line.held.rows):
            in_event[event].append(k)
    ordered_days = sorted(on_day)
    players = tuple(line.player for line in lines)
    index = {player: k for k, player in enumerate(players)}
    by_last = "last-event" in rules.standings.tiebreaks
    owns: list[array[int]] = [_rows()] * len(lines)  # each player's rows by the date
    counts = [0] * len(lines)  # and their events
    made: dict[int, Line] = {}  # each player's line by the date, once they have one
    raws: dict[int, tuple[int | Fraction, ...]] = {}
    keys: dict[int, tuple[object, ...]] = {}  # and its sort key on the date
    order: list[int] = []  # the players with a line, in the last date's order
    placed: set[int] = set()  # the players in ``order``
    stale: set[int] = set()  # the players whose line is to be made again
    most, seen, last = 0, 0, None
    first_shown = max(0, len(days) - shown) if shown is not None else 0
    for n, (as_of, last_event) in enumerate(days):
        changed: set[int] = set()
        while seen < len(ordered_days) and ordered_days[seen] <= as_of:
            changed.update(on_day[ordered_days[seen]])
            seen += 1
        order.extend(sorted(k for k in changed if k not in placed))
        placed.update(changed)
        stale |= changed
        if n < first_shown:
            continue  # (the lines are made on the first date shown)
        for k in stale:
            own = owns[k] = _rows(r for r in lines[k].held.rows if dates[r] <= as_of)
            counts[k] = len(set(map(events_of.__getitem__, own))) if table.repeats else len(own)
            most = max(most, counts[k])
        # Every line's counted number follows ``most`` when it is the most events less some.
        redo = order if counting.mode == "most-minus" else stale
        for k in redo:
            own = owns[k]
            made[k], raws[k] = player_line(
                lines[k].player,
                table,
                own,
                list(map(units.__getitem__, own)),
                counting,
                calendar,
                scale,
                most,
                counts[k],
            )
        redo, stale = set(redo), set()
        if n == first_shown:
            again: Iterable[int] = order
        else:  # the lines made again, and the players of the last event before and now
            again = set(redo)
            if by_last and last_event != last:
                again.update(in_event.get(last, ()), in_event.get(last_event, ()))
        for k in again:
            keys[k] = (_criteria(made[k], raws[k], rules, last_event), made[k].name, made[k].player)
        last = last_event
        order.sort(key=keys.__getitem__)
        ranking = list(map(_FIRST, map(keys.__getitem__, order)))  # without the names
        starts = [0, *itertools.compress(range(1, len(order)), map(ne, ranking, ranking[1:]))]
        firsts = array("i")
        for start, end in zip(starts, [*starts[1:], len(order)], strict=True):
            firsts.extend(itertools.repeat(start + 1, end - start))  # players equal share
        top_lines = tuple(Placed.of(made[k]) for k in order[:top])
        yield Stood(as_of, array("i", order), firsts, top_lines, players, index)


def _ranked(
    table: AwardRows,
    players: Iterable[tuple[PlayerKey, Sequence[int]]],
    valuations: Iterable[Valuation],
    rules: RuleSet,
    calendar: int,
    counting: Counting,
    last_event: int | None,
) -> list[Line]:
    """The lines of each player's rows of ``table`` (``valuations``: every valuation of the
    rows, valued in whole numbers by ``unit_values``), ranked."""
    scale, values = unit_values(valuations, counting.bonus_per_event)
    units = list(map(values.__getitem__, map(_VALUATION_ID, table.valuation)))  # of each row
    groups = list(players)
    if table.repeats:  # a player's events counted (two sections of one event are one)
        events = list(map(_EVENT, table.origin))
        played = [len(set(map(events.__getitem__, own))) for _, own in groups]
    else:  # nobody has two rows in one event
        played = [len(own) for _, own in groups]
    most = max(played, default=0)
    lines, keys = [], []
    for (player, own), count in zip(groups, played, strict=True):
        line, raw = player_line(
            player,
            table,
            own,
            list(map(units.__getitem__, own)),
            counting,
            calendar,
            scale,
            most,
            count,
        )
        lines.append(line)
        keys.append(_criteria(line, raw, rules, last_event))
    order = sorted(range(len(lines)), key=lambda i: (keys[i], lines[i].name, lines[i].player))
    return [
        _with_rank(lines[i], first, last)
        for first, last, members in share_places(order, keys.__getitem__)
        for i in members
    ]


def unit_values(valuations: Iterable[Valuation], bonus: Fraction) -> tuple[int, list[int]]:
    """The scale (the least common multiple of the valuations' denominators and the bonus's)
    and each valuation's points as a whole number of 1/scale, by ``Valuation.id``: totals are
    then summed and compared as integers, exactly."""
    valued = list(valuations)
    scale = math.lcm(bonus.denominator, *{v.points.denominator for v in valued})
    values = [0] * (max((v.id for v in valued), default=0) + 1)
    for v in valued:
        values[v.id] = v.points.numerator * (scale // v.points.denominator)
    return scale, values


def _with_rank(line: Line, first: int, last: int) -> Line:
    """``replace(line, rank_first=first, rank_last=last)`` without checking every field again
    (a line per player of the season)."""
    ranked = object.__new__(Line)
    object.__setattr__(
        ranked, "__dict__", {**line.__dict__, "rank_first": first, "rank_last": last}
    )
    return ranked


def division_standings(
    season: Season,
    as_of: datetime.date | None = None,
    only: str | None = None,
    memo: AwardMemo | None = None,
) -> Tables:
    """Each division's standings (ACF-13, ACF-14); one unnamed table without divisions.
    ``memo``: the season's awards kept from an earlier computation (the overall table's)."""
    from grandprix.season.divisions import (
        division_awards,
        division_counting,
        divisions_of,
        filtered,
        profiles,
    )

    rules = season.rules
    if not rules.divisions:
        return [("", standings(season, as_of, memo))]
    played = season.counted_events(as_of)
    directory = season.directory
    found = {k: divisions_of(p, rules, season) for k, p in profiles(season, directory).items()}
    out = []
    overall: list[Line] | None = None
    for division in rules.divisions:
        if only is not None and division.name != only:
            continue
        members = {key for key, names in found.items() if division.name in names}
        if division.award == "filter":
            overall = overall if overall is not None else standings(season, as_of, memo)
            out.append((division.name, filtered(overall, members)))
            continue
        valuations = Valuations(rules)
        awards = AwardRows()
        for event in played:
            awards.extend(division_awards(event, division, rules, directory, members, valuations))
        counting = division_counting(division, rules).on(season.day_of(as_of))
        out.append(
            (division.name, rank_lines(awards, valuations, rules, season.calendar, counting))
        )
    return out

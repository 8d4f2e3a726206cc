"""Season totals and ranking: awards -> counted results + bonus -> ordered standings.

Totals are summed as integers over the common denominator of every value the season can award,
so they stay exact without adding Fractions half a million times.
"""

from __future__ import annotations

import datetime
import math
import threading
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction
from operator import attrgetter, itemgetter

from grandprix.placings import share_places
from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting, RuleSet, under
from grandprix.season.identity import Directory
from grandprix.season.model import Award, Line, Season, SeasonEvent
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
        self.events: dict[int, tuple[SeasonEvent, list[Award]]] = {}

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

    def awards(
        self, event: SeasonEvent, directory: Directory, valuations: Valuations
    ) -> list[Award]:
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
) -> tuple[list[Award], Valuations]:
    """Every award of every event played (on or before ``as_of``), and their valuations."""
    played = [e for e in season.events if not e.planned and (as_of is None or e.date <= as_of)]
    directory = season_directory(season)
    awards: list[Award] = []
    if memo is not None:
        with memo.lock:
            directory, valuations = memo.start(season.rules, directory)
            for event in played:
                awards.extend(memo.awards(event, directory, valuations))
        return awards, valuations
    valuations = Valuations(season.rules)
    for event in played:
        awards.extend(event_awards(event, season.rules, directory, valuations))
    return awards, valuations


def season_directory(season: Season) -> Directory:
    """The people of the season, from players.csv, aliases.csv and every results file: one
    directory for each season read, kept while the season is (the standings, the divisions,
    the prizes and the site's pages ask it about the same players; each new directory would
    learn them again, 0.3-0.5 s for the 500,000 rows of a 10,000-event season)."""
    with _DIRECTORIES_LOCK:
        found = _DIRECTORIES.get(id(season))
        if found is None:
            seen = (s.section.columns for e in season.events for s in e.sections)
            found = Directory(season.players, season.rules, season.aliases, seen)
            _DIRECTORIES[id(season)] = found
            weakref.finalize(season, _DIRECTORIES.pop, id(season), None)
    return found


_DIRECTORIES: dict[int, Directory] = {}  # by id() of a season still alive
_DIRECTORIES_LOCK = threading.Lock()


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
    awards: list[tuple[int, Award]],
    counting: Counting,
    calendar: int,
    scale: int,
    most: int = 0,
    events: int | None = None,
) -> tuple[Line, tuple[int, ...]]:
    """One player's season (counted and dropped results, bonus, total; LUP-3) from their awards
    with their value in units, and the raw values of the season tie-break chain. ``most``: the
    most events any player has played; ``events``: the player's, when already counted."""
    if events is None:
        events = _events_of(awards)
    units, own = zip(*awards, strict=True)  # the values and the awards, as two tuples
    keep = counted_number(counting, calendar, len(awards), most)
    caps = counting.per_category
    counted: tuple[Award, ...] = own  # everything counts: no need to rank the results
    dropped: tuple[Award, ...] = ()
    total, dropped_units = sum(units), 0
    if keep < len(awards) or caps:
        ordered = sorted(awards, key=_best_first)
        best, rest = _best(ordered, keep, caps)
        counted, dropped = tuple(a for _, a in best), tuple(a for _, a in rest)
        total, dropped_units = sum(u for u, _ in best), sum(u for u, _ in rest)
    per_event = counting.bonus_per_event
    bonus = per_event * events if per_event else per_event  # counted, among the best or not
    if bonus:
        total += bonus.numerator * (scale // bonus.denominator)
    line = Line(player, own[0].name, own, counted, dropped, events, bonus, Fraction(total, scale))
    return line, (total, dropped_units, max(units))


def _events_of(awards: list[tuple[int, Award]]) -> int:
    """The number of events of a player's awards (two sections of one event are one)."""
    return len(set(map(_EVENT, map(_AWARD, awards))))


_AWARD, _EVENT = itemgetter(1), attrgetter("origin.event")
_VALUATION_ID, _POINTS = attrgetter("valuation.id"), attrgetter("valuation.points")


def _best_first(item: tuple[int, Award]) -> tuple[object, ...]:
    """The order of a player's results for counting the best: value, then date, event, section."""
    origin = item[1].origin
    return (-item[0], origin.date, origin.event_name, origin.section)


def _best(
    ordered: list[tuple[int, Award]], keep: int, caps: dict[str, int]
) -> tuple[list[tuple[int, Award]], list[tuple[int, Award]]]:
    """The best ``keep`` results, best first, at most ``caps[c]`` of an event category c and of
    every category under it ("fast" limits "fast/blitz" as well; KW-7, FC-5). Taking each result
    in turn while every limit over it has room is the best choice when the limits nest: the
    results allowed then form a matroid, on which the greedy choice is optimal."""
    counted: list[tuple[int, Award]] = []
    dropped: list[tuple[int, Award]] = []
    used: dict[str, int] = defaultdict(int)
    for item in ordered:
        limits = under(item[1].category, caps)
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
            places = [a.first for a in line.awards if a.event == last_event]
            out.append((name, (0, min(places)) if places else (1, 0)))  # absent: after all
        elif name == "events":
            out.append((name, -line.events))
        elif name == "per-event":  # Keshmat 2024-25: total / results counted, higher first
            out.append((name, -line.total / len(line.counted) if line.counted else 0))
    return out


def _criteria(
    line: Line, raw: tuple[int, ...], rules: RuleSet, last_event: int | None
) -> tuple[object, ...]:
    """The sort key: total, then the season tie-break chain (LUP-6, D-LUP-2)."""
    total, discarded, best = raw
    return (-total, *(value for _, value in chain(line, discarded, best, rules, last_event)))


def deciding(upper: Line, lower: Line, rules: RuleSet, last_event: int | None) -> str | None:
    """The criterion of the chain that put ``upper`` before ``lower`` on equal totals, or None
    when none separates them."""

    def values(line: Line) -> list[tuple[str, object]]:
        dropped = sum((a.points for a in line.dropped), Fraction(0))
        best = max((a.points for a in line.awards), default=Fraction(0))
        return chain(line, dropped, best, rules, last_event)

    for (name, mine), (_, theirs) in zip(values(upper), values(lower), strict=True):
        if mine != theirs:
            return name
    return None


def standings(
    season: Season, as_of: datetime.date | None = None, memo: AwardMemo | None = None
) -> list[Line]:
    """The season standings, best first, with shared ranks where the chain cannot separate."""
    awards, valuations = season_awards(season, as_of, memo)
    return rank_lines(awards, valuations, season.rules, len(season.events), season.rules.counting)


def rank_lines(
    awards: list[Award],
    valuations: Valuations,
    rules: RuleSet,
    calendar: int,
    counting: Counting,
) -> list[Line]:
    """Awards -> one line per player -> ordered, with shared ranks (rank '9-10')."""
    bonus = counting.bonus_per_event
    scale = math.lcm(bonus.denominator, *{v.points.denominator for v in valuations.items})
    values = [v.points.numerator * (scale // v.points.denominator) for v in valuations.items]
    by_player: dict[PlayerKey, list[Award]] = defaultdict(list)
    for award in awards:
        by_player[award.player].append(award)
    last_event = max(map(_EVENT, awards), default=None)

    def units(own: list[Award]) -> Iterable[int]:
        return map(values.__getitem__, map(_VALUATION_ID, own))

    return _ranked(by_player, rules, calendar, counting, scale, last_event, units)


def rerank(
    lines: list[Line],
    rules: RuleSet,
    calendar: int,
    counting: Counting,
    as_of: datetime.date,
    last_event: int | None,
) -> list[Line]:
    """The same table as it stood on ``as_of``, from the awards already in its lines (no event
    is placed again). ``last_event`` is the last event played by then, for the tie-break."""
    awards = [a for line in lines for a in line.awards if a.date <= as_of]
    bonus = counting.bonus_per_event
    scale = math.lcm(bonus.denominator, *{a.points.denominator for a in awards})
    by_player: dict[PlayerKey, list[Award]] = defaultdict(list)
    for award in awards:
        by_player[award.player].append(award)

    def units(own: list[Award]) -> Iterable[int]:
        return (p.numerator * (scale // p.denominator) for p in map(_POINTS, own))

    return _ranked(by_player, rules, calendar, counting, scale, last_event, units)


def _ranked(
    by_player: dict[PlayerKey, list[Award]],
    rules: RuleSet,
    calendar: int,
    counting: Counting,
    scale: int,
    last_event: int | None,
    units: Callable[[list[Award]], Iterable[int]],
) -> list[Line]:
    """The lines of each player's awards (``units``: the awards' values over ``scale``),
    ranked."""
    lines, keys = [], []
    events = [len(set(map(_EVENT, own))) for own in by_player.values()]
    most = max(events, default=0)
    for (player, own), played in zip(by_player.items(), events, strict=True):
        valued = list(zip(units(own), own, strict=True))  # one player's at a time
        line, raw = player_line(player, valued, counting, calendar, scale, most, played)
        lines.append(line)
        keys.append(_criteria(line, raw, rules, last_event))
    order = sorted(range(len(lines)), key=lambda i: (keys[i], lines[i].name, lines[i].player))
    return [
        _with_rank(lines[i], first, last)
        for first, last, members in share_places(order, keys.__getitem__)
        for i in members
    ]


def _with_rank(line: Line, first: int, last: int) -> Line:
    """``replace(line, rank_first=first, rank_last=last)`` without checking every field again
    (a line per player of the season)."""
    ranked = object.__new__(Line)
    object.__setattr__(ranked, "__dict__", {**line.__dict__, "rank_first": first,
                                            "rank_last": last})  # fmt: skip
    return ranked


def division_standings(
    season: Season,
    as_of: datetime.date | None = None,
    only: str | None = None,
    memo: AwardMemo | None = None,
) -> list[tuple[str, list[Line]]]:
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
    played = [e for e in season.events if not e.planned and (as_of is None or e.date <= as_of)]
    directory = season_directory(season)
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
        awards = [
            a
            for event in played
            for a in division_awards(event, division, rules, directory, members, valuations)
        ]
        counting = division_counting(division, rules)
        out.append(
            (division.name, rank_lines(awards, valuations, rules, len(season.events), counting))
        )
    return out

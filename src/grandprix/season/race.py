"""The race at a glance: for each table and each player, whether 1st place and each prize place
is already clinched, still reachable or out of reach, and the most the player can still total.

Pure: the season (its standings and its planned events) in, plain records out.

What an event left can give is read from the rule set as ``season/points.py`` applies it: the
points table (by tournament class from the prize fund, ACF-6 and ACF-13.1), shared places (UT-4),
places below the table (UT-5), the minimum for every participant (LUP-1), the event's weight
(UT-6) and the rate of the section played (UT-7). How much of it adds to a total follows the
counting rule: every result, the best N (ACF-14), the best ceil(p% of the calendar) (LUP-3,
D-LUP-1), plus the bonus for every event played (LUP-3). A division that awards its own points
(ACF-13) is raced on those points and its own best N; a division that filters the overall
standings (LUP-5) on the overall totals of its players.

Equal totals go by the season's tie-break chain (LUP-6, D-LUP-2), ranked by the standings'
own code (``standings.rerank``) on the outcome in question, never by a copy of it:

- "out of reach" and the place a player needs at the next event for a chance: the player takes
  that place (and 1st place in every later event) while everyone else stays away. That is the
  player's best outcome on the chain too (a rival who plays gains points, points not counted, a
  best result, a place in the last event, an event), so a tie-break lost there is lost in every
  outcome. The one exception, a result worth nothing that lowers a rival's total per result
  counted (``per-event``), leaves the place within reach, ``undecided``;
- "clinched" and the place that makes it sure: a rival whose most is the player's total exactly
  can only end level. Their best way of ending level plays a set of the events left, 1st in
  each (more points, points not counted, a best result, a place in the last event are all
  better for them, and any way of ending level with fewer points ends level with these), so
  each set is ranked with the player; a rival who loses every one never passes the player;
- a place that rivals can take from the player only on equal points in some other way (several
  rivals together, or a search cut short) depends on tie-breaks that results still to come
  decide: the place stays "reachable" and is listed in ``Outlook.undecided``, and ``Need.tie``
  names the place that makes it sure unless such a tie-break goes against the player.

Without a chain, equal totals share the place: "reachable", as is a place shared by the chain
exhausted. With no event left the rank is known and decides.

Exact, given what is known of the events left (``site/words/season.race_assumptions`` says it
in words):

- ``total`` and ``best``: a player's total never falls (a new result is counted or dropped, never
  subtracted; points are never negative), and the most is 1st place in every event left;
- "out of reach", for every place: the player wins every event left while everyone else stays
  away, which gives the player their most and every rival their least at once;
- "clinched", for every place: the player stays away (their least). For 1st place one rival who
  can reach the player's total is enough. For a place k >= 2, k rivals must get there together,
  and they cannot all win the same event: rivals who overtake together lose nothing when they
  alone play each event left and share its first places among themselves (a table falls from
  1st place down; a tie is worth the mean of the places it spans, UT-4, or the best of them), so
  a search over who they are and their order in each event, ties included, decides it. Two
  rivals tied for 1st-2nd may both pass where 1st and 2nd would take only one past.

Conservative, so that "clinched" and "out of reach" are never wrong:

- anyone not yet in a table may enter it by playing an event left (``newcomers`` limits them);
- an event left is played in one section, at the rate of the top section (1) or the highest
  rate any section of the season has, whichever is more (UT-7, D-UT-2); an event without the
  prize fund its class needs may be of the class worth the most (ACF-6); a table that does not
  fall from 1st place down is raised until it does; points by event score have no limit while
  an event is left (its number of rounds is unknown);
- the search stops after ``SEARCH_LIMIT`` ways (never in the seasons it is meant for: a few
  events left, prize places 1st to 5th) and then answers "reachable"; ``cautious`` names them.

Divisions are those of today: who belongs to one is decided on the dates the rule set names,
and a player outside a division enters it only as a newcomer.
"""

from __future__ import annotations

import datetime
import itertools
import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from grandprix.language import N_
from grandprix.players import PlayerKey
from grandprix.rules.schema import Conditions, Counting, Prize, RuleSet
from grandprix.rules.terms import TERM_KINDS
from grandprix.season.divisions import division_counting
from grandprix.season.model import (
    Award,
    AwardRows,
    Held,
    Line,
    Origin,
    Season,
    SeasonEvent,
    Tables,
    Valuation,
)
from grandprix.season.place_values import base_points
from grandprix.season.points import class_table, table_for
from grandprix.season.standings import counted_number, division_standings, rerank, standings

CLINCHED = "clinched"
REACHABLE = "reachable"
OUT_OF_REACH = "out of reach"
SEARCH_LIMIT = 200_000  # steps (players compared, ways of sharing an event) before "reachable"


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


def remaining_events(season: Season) -> list[SeasonEvent]:
    """The events of the competition still to be played (``planned``, no results yet)."""
    return [e for e in season.events if e.planned and e.counts]


def prize_places(season: Season, ranking: str) -> tuple[int, ...]:
    """1st place and every place of the table that a prize goes by: the prizes of that ranking
    with no condition of their own, one place each in list order (money and titles counted
    apart). A prize for some players only (a rating band, the best of each region, ACF-8) is
    not a place of the table."""
    plain = [p for p in season.rules.prizes.prize if p.ranking == ranking and _plain(p)]
    money = sum(1 for p in plain if p.amount is not None)
    titles = len(plain) - money
    return tuple(range(1, max(1, money, titles) + 1))


def _plain(prize: Prize) -> bool:
    default = Conditions()
    return prize.each is None and all(
        getattr(prize, name) == getattr(default, name) for name in Conditions.model_fields
    )


def race(
    season: Season, newcomers: int | None = None, tables: Tables | None = None
) -> dict[str, list[Outlook]]:
    """Every table's race, by division name ('' for the overall table), in standings order.

    ``newcomers``: how many players not yet in a table may still enter it by playing an event
    left; None (the default) for any number. A table is listed for each division, and the
    overall one when there are no divisions or a prize goes down it (as the prizes do).
    ``tables``: the division standings when the caller has them already.
    """
    planned = remaining_events(season)
    chances = [_Chance.of(e, season) for e in planned]
    unbounded = (by_score(season.rules) or bool(unbounded_by(season.rules))) and bool(planned)
    out: dict[str, list[Outlook]] = {}
    own = {  # a division that awards its own points among some players only (ACF-13)
        d.name
        for d in season.rules.divisions
        if d.award == "rerank"
        and any(getattr(d, name) != getattr(Conditions(), name) for name in Conditions.model_fields)
    }
    for name, lines, counting in _tables(season, tables):
        places = prize_places(season, name)
        if not planned:
            out[name] = [_final(line, places) for line in lines]
            continue
        table = _Table(lines, counting, season.calendar, chances, places, unbounded, newcomers)
        table.chain = _Chain(season.rules, counting, season.calendar, planned, lines)
        table.among = name if name in own else ""
        out[name] = [table.outlook(i, places) for i in range(len(lines))]
    return out


def by_score(rules: RuleSet) -> bool:
    """Whether an event's points go by the scores its players make."""
    return rules.points.from_score and rules.points.score_factor > 0


def unbounded_by(rules: RuleSet) -> list[str]:
    """What makes an event left worth an amount the race cannot bound from the rule set alone:
    points that depend on the field (its size, seeds, ratings, rounds; KW-3, KW-4, KW-5, FC-1,
    FC-3), on the category of the event, or counting rules that change with the events played
    (KC-2, KW-7). The race then sets no limit, so its statuses stay true."""
    found: list[str] = []
    for points in (rules.points, *rules.points.categories.values()):
        if points.bands or points.top_percent is not None or points.paid_places:
            found.append(N_("the size of its field"))
        if points.gain is not None:
            found.append(N_("the players' seeds"))
        if points.completion:
            found.append(N_("who plays every round"))
        if points.rating_factor is not None:
            found.append(N_("the ratings of its field"))
        if any(c.factor != 1 for c in points.classes) or points.first_outright is not None:
            found.append(N_("its prize fund or its winner"))
        if points.ties == "split":
            found.append(N_("its tie-breaks"))
        found.extend(TERM_KINDS[t.kind].depends for t in points.terms if TERM_KINDS[t.kind].depends)
    if rules.points.categories:
        found.append(N_("its category"))
    if rules.counting.mode == "most-minus" or rules.counting.per_category or rules.counting.changes:
        found.append(N_("how many results will count"))
    if rules.counting.total == "mean" or rules.standings.first_by_counted:  # KEN-3, KEN-4
        found.append(N_("a mean of the results counted"))
    if rules.counting.round != "none":  # KEN-3: a total rounded can tie one it was below
        found.append(N_("the rounding of the totals"))
    return list(dict.fromkeys(found))


def _tables(season: Season, known: Tables | None) -> list[tuple[str, list[Line], Counting]]:
    """Each table with the counting rule its totals follow: a division that awards its own
    points may count its own best N (ACF-14); a division that filters the overall standings
    keeps the overall totals (LUP-5)."""
    rules = season.rules
    tables = known if known is not None else division_standings(season)
    if rules.divisions and any(p.ranking == "" for p in rules.prizes.prize):
        tables = [("", standings(season)), *tables]
    divisions = {d.name: d for d in rules.divisions}
    out = []
    for name, lines in tables:
        division = divisions.get(name) if name else None
        counting = rules.counting.on(season.day_of())
        if division is not None and division.award == "rerank":
            counting = division_counting(division, rules).on(season.day_of())
        out.append((name, lines, counting))
    return out


def _final(line: Line, places: tuple[int, ...]) -> Outlook:
    """No event left: the rank is known, and a shared rank across a place decides nothing."""
    statuses = []
    for place in places:
        if line.rank_last <= place:
            statuses.append((place, CLINCHED))
        elif line.rank_first > place:
            statuses.append((place, OUT_OF_REACH))
        else:
            statuses.append((place, REACHABLE))
    return Outlook(line.player, line.name, line.total, line.total, tuple(statuses))


def section_rate(season: Season) -> Fraction:
    """The rate assumed for the section a player plays in an event left: 1, the rate of an
    unweighted top section (UT-7, D-UT-2), or the highest rate any section of the season has."""
    weights = [s.weight for e in season.events for s in e.sections if s.weight is not None]
    return max([Fraction(1), *weights])


@dataclass
class _Chance:
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
    def of(cls, event: SeasonEvent, season: Season) -> _Chance:
        points = season.rules.points
        if points.classes and event.prize_fund is None:
            tables = [class_table(c, points) for c in points.classes]
        else:
            tables = [table_for(event, points)[0]]
        falling = tuple(_falling(t, points.overflow) for t in tables)
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


def _falling(table: Sequence[Fraction], overflow: Fraction | None) -> tuple[Fraction, ...]:
    out = list(table)
    running = overflow if overflow is not None and out else Fraction(0)
    for i in reversed(range(len(out))):
        running = max(running, out[i])
        out[i] = running
    return tuple(out)


@dataclass(frozen=True)
class _Player:
    """A player of a table as the counting rule sees them, in integer units of the table:
    every result's points (best first), the events played (for the bonus), the total, and the
    results that count now under best N or p%, padded with zeros (to compare players)."""

    values: tuple[int, ...]
    events: int
    total: int
    counted: tuple[int, ...]


class _Chain:
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

    def lowers_per_event(self, chances: list[_Chance]) -> bool:
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


class _CutShort(Exception):
    """The search took more steps than SEARCH_LIMIT."""


class _Table:
    """The race of one table, in integer units (as the standings add: every value the table
    can hold over one common denominator)."""

    def __init__(
        self,
        lines: list[Line],
        counting: Counting,
        calendar: int,
        chances: list[_Chance],
        places: tuple[int, ...],
        unbounded: bool,
        newcomers: int | None,
    ):
        self.lines = lines
        self.counting = counting
        self.calendar = calendar
        self.unbounded = unbounded
        self.newcomers = newcomers
        largest = max(places)
        spans = [
            [
                c.span(first, last)
                for first in range(1, largest + 1)
                for last in range(first, largest + 1)
            ]
            for c in chances
        ]
        numbers = {a.points for ln in lines for a in ln.awards}
        numbers |= {counting.bonus_per_event, *(v for values in spans for v in values)}
        self.scale = math.lcm(*(n.denominator for n in numbers))
        self.chances = chances
        self.bonus = self.units(counting.bonus_per_event)
        self.keep = counted_number(counting, calendar, 0)  # best N or p% (not all)
        self.players = [
            self.player(sorted((self.units(a.points) for a in ln.awards), reverse=True), ln.events)
            for ln in lines
        ]
        self.newcomer = self.player([], 0)
        self.most = [self.units(c.best) for c in chances]
        self.bests = [self.best(p) for p in self.players]
        self.newcomer_best = self.best(self.newcomer)
        self.totals = sorted(p.total for p in self.players)  # to count players above a total
        # and those who can reach a total (every player's most, when it has a limit)
        self.reach = [] if unbounded else sorted(b for b in self.bests if b is not None)
        self.tries = 0
        self.among = ""  # the division whose players' places count (ACF-13), if any
        self._options: dict[int, list[list[tuple[int, ...]]]] = {}
        self.chain: _Chain | None = None  # the season's tie-breaks, when the table has any
        # the players in the order of ``totals``, and those whose most is each total
        self.order = sorted(range(len(lines)), key=lambda i: self.players[i].total)
        self.at_best: dict[int, list[int]] = {}
        for i, most in enumerate(self.bests):
            if most is not None:
                self.at_best.setdefault(most, []).append(i)

    def units(self, value: Fraction) -> int:
        return value.numerator * (self.scale // value.denominator)

    def player(self, values: list[int], events: int) -> _Player:
        counted = (*values[: self.keep], *[0] * max(0, self.keep - len(values)))
        return _Player(tuple(values), events, self.total(values, events, ()), counted)

    def total(self, values: Sequence[int], events: int, new: Sequence[int]) -> int:
        """The total with ``new`` results from events left: the counted results (all, the best
        N of ACF-14, or the best ceil(p%) of the calendar of LUP-3 and D-LUP-1) plus the bonus
        for every event played, counted or not (LUP-3)."""
        pool = sorted((*values, *new), reverse=True)
        keep = counted_number(self.counting, self.calendar, len(pool))
        return sum(pool[:keep]) + self.bonus * (events + len(new))

    def best(self, player: _Player) -> int | None:
        """The most the player can total: 1st place in every event left."""
        return None if self.unbounded else self.total(player.values, player.events, self.most)

    def outlook(self, index: int, places: tuple[int, ...]) -> Outlook:
        line = self.lines[index]
        statuses, cautious, undecided = [], [], []
        for place in places:
            status, open_tie = self.status(index, place)
            if status is None:
                cautious.append(place)
            if open_tie and status != CLINCHED and status != OUT_OF_REACH:
                undecided.append(place)
            statuses.append((place, status or REACHABLE))
        best = self.bests[index]
        open_places = [place for place, status in statuses if status == REACHABLE]
        return Outlook(
            line.player,
            line.name,
            line.total,
            None if best is None else Fraction(best, self.scale),
            tuple(statuses),
            tuple(cautious),
            self.need(index, open_places[0]) if open_places and not self.unbounded else None,
            tuple(undecided),
        )

    def status(self, index: int, place: int) -> tuple[str | None, bool]:
        """The status of ``place`` for one player (None: reachable as far as the search went),
        and whether a tie-break not yet known keeps it from being clinched or out of reach."""
        mine, best = self.players[index].total, self.bests[index]
        away: tuple[int | None, ...] = (None,) * len(self.chances)
        # Out of reach: even winning every event left while the others stay away, ``place``
        # players or more stay ahead, on points or on the season's tie-breaks. Exact.
        open_tie = False
        if best is not None:
            if len(self.totals) - bisect_right(self.totals, best) >= place:
                return OUT_OF_REACH, False
            got = self.reaches(index, place, (1,) * len(self.chances))
            if got is False:
                return OUT_OF_REACH, False
            open_tie = got is None
        status, undecided = self.held(index, place, mine, away)
        return status, open_tie or undecided

    def reaches(self, index: int, place: int, places: tuple[int | None, ...]) -> bool | None:
        """Whether the player, taking ``places`` in the events left (None: away) while everyone
        else stays away, ends ``place`` or better: on points, or level on points and ahead on
        the season's tie-break chain as the standings rank that outcome (LUP-6, D-LUP-2; a
        place shared when the chain is exhausted counts). None when a tie-break decides it that
        results still to come may change (``per-event``: a rival's result worth nothing)."""
        player = self.players[index]
        gains = [
            self.units(c.span(p, p))
            for c, p in zip(self.chances, places, strict=True)
            if p is not None
        ]
        mine = self.total(player.values, player.events, gains)
        above = len(self.totals) - bisect_right(self.totals, mine)
        if above >= place:
            return False
        start = bisect_left(self.totals, mine)
        level = len(self.totals) - start - above - (player.total == mine)
        if above + level < place or self.chain is None or not self.chain.criteria:
            return True  # without a chain, players level on points share the place
        if self.chain.lowers_per_event(self.chances):
            return None
        away: tuple[int | None, ...] = (None,) * len(self.chances)
        outcome = [(index, self.results(places))]
        outcome += [(i, self.results(away)) for i in self.order[start:] if i != index]
        first, _ = self.chain.ranks(outcome)[0]
        return first <= place

    def results(self, places: tuple[int | None, ...]) -> tuple[tuple[int, Fraction] | None, ...]:
        """Each event left's (place taken alone, points), or None when away."""
        return tuple(
            None if p is None else (p, c.span(p, p))
            for c, p in zip(self.chances, places, strict=True)
        )

    def held(
        self, index: int, place: int, mine: int, places: tuple[int | None, ...]
    ) -> tuple[str | None, bool]:
        """Whether the player, on ``mine`` (their results and ``places`` in the events left)
        and away from every event left after those, has clinched ``place``: CLINCHED,
        REACHABLE (rivals can end above, or level and ahead on the season's tie-breaks), or
        None (as far as the search went); and whether a tie-break not yet known is all that
        keeps the place from being clinched (the status stays cautious)."""
        if self.unbounded or self.chain is None or not self.chain.criteria:
            return self.clinched(index, place, mine), False
        losers, winners, unknown, newcomer_loses = self.level_finishes(index, mine, places)
        found = self.clinched(index, place, mine, losers, newcomer_loses)
        if found != REACHABLE:
            return found, False
        # Rivals who must end above the player (every level finish lost) cannot take it: only
        # equal points can. Known when one rival's way of ending level and ahead, with everyone
        # else away, leaves ``place`` players ahead or sharing, as the standings rank it.
        if self.clinched(index, place, mine + 1) != CLINCHED:
            return found, False
        if unknown:
            return found, True
        start = bisect_left(self.totals, mine)
        assert self.chain is not None
        for rival, chosen in winners:
            away = self.results((None,) * len(self.chances))
            outcome = [(index, self.results(places)), (rival, self.results(chosen))]
            outcome += [(i, away) for i in self.order[start:] if i not in (index, rival)]
            if self.chain.ranks(outcome)[0][1] > place:
                return found, False
        return found, True

    def level_finishes(
        self, index: int, mine: int, places: tuple[int | None, ...]
    ) -> tuple[frozenset[int], list[tuple[int | None, tuple[int | None, ...]]], bool, bool]:
        """The rivals whose most is ``mine`` exactly: they can only end level with the player.
        Their best ways of ending level play a set of the events left and win each (every way
        with fewer points there ends level with these, and with no more points not counted, no
        better best result, no better place in the last event and no more events), so each set
        is ranked with the player by the standings' chain. Returns those who lose every one,
        each other rival's first way of ending level and ahead or sharing the place (its
        events won), whether a rival was not tried (too many sets), and whether a newcomer
        loses every one."""
        rivals: list[int | None] = [i for i in self.at_best.get(mine, ()) if i != index]
        if self.newcomer_best == mine and self.newcomers != 0:
            rivals.append(None)
        mine_results = self.results(places)
        sets = list(itertools.product((None, 1), repeat=len(self.chances)))
        if len(sets) * len(rivals) > SEARCH_LIMIT:
            return frozenset(), [], bool(rivals), False
        assert self.chain is not None
        losers: set[int] = set()
        winners: list[tuple[int | None, tuple[int | None, ...]]] = []
        newcomer_loses = False
        for rival in rivals:
            player = self.newcomer if rival is None else self.players[rival]
            wins = False
            for chosen in sets:
                gains = [self.most[k] for k, p in enumerate(chosen) if p is not None]
                if not gains and rival is None:
                    continue  # a newcomer with no result is in no table
                if self.total(player.values, player.events, gains) != mine:
                    continue
                ranks = self.chain.ranks([(index, mine_results), (rival, self.results(chosen))])
                if ranks[1][0] <= ranks[0][0]:  # ahead of the player, or sharing the place
                    wins = True
                    winners.append((rival, chosen))
                    break
            if not wins and rival is None:
                newcomer_loses = True
            elif not wins and rival is not None:
                losers.add(rival)
        return frozenset(losers), winners, False, newcomer_loses

    def clinched(
        self,
        index: int,
        place: int,
        mine: int,
        losers: frozenset[int] = frozenset(),
        newcomer_loses: bool = False,
    ) -> str | None:
        """Whether no ``place`` rivals can end on ``mine`` or above while the player stays
        there: CLINCHED, REACHABLE or None (as far as the search went). ``losers``: rivals
        (and a newcomer, ``newcomer_loses``) who never end above ``mine`` and lose the
        tie-break in every level finish, left out."""
        # Clinched: no ``place`` rivals can end level or above while this player stays away.
        level = len(self.totals) - bisect_left(self.totals, mine)  # everyone level or above
        level -= self.players[index].total >= mine  # but the player
        level -= sum(1 for i in losers if self.players[i].total >= mine)
        if level >= place:
            return REACHABLE
        needed = place - level
        # The rivals: the others below ``mine`` who can reach it, counted first (a player's
        # most is never below their total, so those who can reach it less those already at it).
        player, most = self.players[index], self.bests[index]
        below = bisect_left(self.totals, mine)
        able = below if self.unbounded else len(self.reach) - bisect_left(self.reach, mine)
        count = able - (0 if self.unbounded else len(self.totals) - below)
        count -= player.total < mine and (most is None or most >= mine)
        count -= sum(1 for i in losers if self.players[i].total < mine)
        fresh = 0
        if not newcomer_loses and (self.newcomer_best is None or self.newcomer_best >= mine):
            fresh = needed if self.newcomers is None else min(needed, self.newcomers)
        if count + fresh < needed:
            return CLINCHED
        if self.unbounded or needed == 1:
            return REACHABLE  # one rival alone wins every event left; scores without limit
        rivals = [
            rival
            for i, (rival, best) in enumerate(zip(self.players, self.bests, strict=True))
            if i != index
            and i not in losers
            and rival.total < mine
            and (best is None or best >= mine)
        ]
        found = self.together(mine, needed, rivals + [self.newcomer] * fresh)
        if found is None:
            return None
        return REACHABLE if found else CLINCHED

    def need(self, index: int, place: int) -> Need:
        """What the next event asks of the player for ``place`` (see ``Need``), from the same
        tests as the statuses: "sure" is ``held`` with the player's result there added and
        nothing after it (the rivals free to take any place of it, so it is never claimed
        wrongly), "chance" the test of "out of reach" with that result and 1st place in every
        later event."""
        player, chance = self.players[index], self.chances[0]
        places = len(chance.tables[0]) if len(chance.tables) == 1 else max(map(len, chance.tables))
        last = places + 1  # every place from here on is worth the same
        later: tuple[int | None, ...] = (None,) * (len(self.chances) - 1)
        memo: dict[int, tuple[str | None, bool]] = {}
        open_chance = False

        def total(at: int, later: tuple[int, ...]) -> int:
            gain = self.units(chance.span(at, at))
            return self.total(player.values, player.events, (gain, *later))

        def held(at: int) -> tuple[str | None, bool]:
            if at not in memo:
                memo[at] = self.held(index, place, total(at, ()), (at, *later))
            return memo[at]

        def sure(at: int) -> bool:
            return held(at)[0] == CLINCHED

        def tie(at: int) -> bool:
            status, undecided = held(at)
            return status == CLINCHED or undecided

        def within(at: int | None) -> bool:
            nonlocal open_chance
            got = self.reaches(index, place, (at, *(1,) * (len(self.chances) - 1)))
            open_chance |= got is None
            return got is not False  # a tie-break not yet known: within reach

        worst_sure = _worst(sure, last)
        worst_tie = _worst(tie, last)
        chance_place = None if within(None) else _worst(within, last)
        return Need(
            place,
            chance.event,
            worst_sure,
            chance_place,
            self.among,
            None if worst_tie == worst_sure else worst_tie,
            worst_tie != worst_sure or open_chance,
        )

    def dominates(self, a: _Player, b: _Player) -> bool:
        """Whether ``a`` ends at least as high as ``b`` with any same results: ``a`` may take
        ``b``'s place in any way of passing a player."""
        if self.counting.mode == "all":
            return a.total >= b.total
        bonus = self.bonus == 0 or a.events >= b.events
        return bonus and all(x >= y for x, y in zip(a.counted, b.counted, strict=True))

    def strength(self, player: _Player) -> tuple[object, ...]:
        """A sort key that puts a dominating player before those it dominates."""
        if self.counting.mode == "all":
            return (player.total,)
        return (player.counted, player.events)

    def together(self, target: int, needed: int, pool: list[_Player]) -> bool | None:
        """Whether ``needed`` players of the pool can all end on ``target`` or more at once;
        None when the search was cut short.

        Who they are: a player is only tried when every player who dominates them is (any way
        of passing with the weaker one works with the stronger one in their place)."""
        pool = sorted(pool, key=self.strength, reverse=True)  # dominating players first
        self.tries = 0

        def dominates(a: _Player, b: _Player) -> bool:
            self.count()
            return self.dominates(a, b)

        try:
            for chosen in _closed_subsets(pool, needed, dominates):
                if self.assign([pool[i] for i in chosen], target):
                    return True
        except _CutShort:
            return None
        return False

    def count(self) -> None:
        """One more step of the search; stop it past SEARCH_LIMIT."""
        self.tries += 1
        if self.tries > SEARCH_LIMIT:
            raise _CutShort

    def options(self, size: int) -> list[list[tuple[int, ...]]]:
        """For each event left, every distinct way ``size`` players alone in it can share its
        points: its first places in every order, ties included (UT-4)."""
        if size not in self._options:
            orders = list(_ordered_partitions(tuple(range(size))))
            self._options[size] = [
                sorted({tuple(self.units(v) for v in _values(b, c, size)) for b in orders})
                for c in self.chances
            ]
        return self._options[size]

    def assign(self, members: list[_Player], target: int) -> bool:
        """Whether the members, alone in every event left and taking its first places among
        themselves in some order (ties included), can all reach ``target``.

        A depth-first search over the events left. At each event a member must take at least
        what still lets them reach the target with 1st place in every later event; two
        identical members with the same results so far are tried in one order only; a
        position that failed is not tried again."""
        ways = self.options(len(members))
        twins = [(j, i) for i in range(len(members)) for j in range(i) if members[j] == members[i]]
        failed: set[tuple[object, ...]] = set()

        def reaches(member: _Player, new: tuple[int, ...]) -> bool:
            return self.total(member.values, member.events, new) >= target

        def go(event: int, got: tuple[tuple[int, ...], ...]) -> bool:
            if event == len(ways):
                return True  # every member was checked to reach the target at the last event
            state = (event, tuple(tuple(sorted(g)) for g in got))
            if state in failed:
                return False
            rest = tuple(self.most[event + 1 :])
            values = sorted({v for vector in ways[event] for v in vector})
            floor = []
            for member, g in zip(members, got, strict=True):
                least = next((v for v in values if reaches(member, (*g, v, *rest))), None)
                if least is None:
                    failed.add(state)
                    return False
                floor.append(least)
            same = [(j, i) for j, i in twins if got[j] == got[i]]
            for vector in ways[event]:
                self.count()
                if any(v < f for v, f in zip(vector, floor, strict=True)):
                    continue
                if any(vector[j] < vector[i] for j, i in same):
                    continue
                if go(event + 1, tuple((*g, v) for g, v in zip(got, vector, strict=True))):
                    return True
            failed.add(state)
            return False

        return go(0, tuple(() for _ in members))


def _worst(test: Callable[[int], bool], last: int) -> int | None:
    """The worst place (1 to ``last``) that passes ``test``, which a better place passes as well:
    None when not even 1st place does, ``ANY_PLACE`` when ``last`` (every place from it on is
    worth the same) does."""
    if not test(1):
        return None
    if test(last):
        return ANY_PLACE
    good, bad = 1, last
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if test(middle) else (good, middle)
    return good


def _values(
    blocks: tuple[tuple[int, ...], ...], chance: _Chance, size: int
) -> tuple[Fraction, ...]:
    """Each member's points when the blocks take the first places in order, each block
    sharing the places it spans."""
    won = [Fraction(0)] * size
    first = 1
    for block in blocks:
        value = chance.span(first, first + len(block) - 1)
        for i in block:
            won[i] = value
        first += len(block)
    return tuple(won)


def _ordered_partitions(items: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to order the items with ties: blocks in order, each block tied."""
    if not items:
        yield ()
        return
    for size in range(1, len(items) + 1):
        for block in itertools.combinations(items, size):
            rest = tuple(i for i in items if i not in block)
            for tail in _ordered_partitions(rest):
                yield (block, *tail)


def _closed_subsets(
    pool: list[_Player], needed: int, dominates: Callable[[_Player, _Player], bool]
) -> Iterator[tuple[int, ...]]:
    """Subsets of ``needed`` players of the pool (sorted dominating first) that never leave
    out an earlier player dominating one they take; the strongest first."""

    def go(start: int, chosen: tuple[int, ...], left: list[int]) -> Iterator[tuple[int, ...]]:
        if len(chosen) == needed:
            yield chosen
            return
        left = list(left)
        for i in range(start, len(pool) - (needed - len(chosen)) + 1):
            if not any(dominates(pool[j], pool[i]) for j in left):
                yield from go(i + 1, (*chosen, i), left)
            left.append(i)

    yield from go(0, (), [])

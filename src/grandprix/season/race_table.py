"""The race of one table (``season/race.py``): for each player, each place of the table
clinched, still reachable or out of reach, and what the next event asks, found by a search over
the rivals and the events left that stops after ``SEARCH_LIMIT`` steps ("reachable").
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from grandprix.rules.schema import Counting
from grandprix.season.model import (
    Line,
)
from grandprix.season.race_parts import (
    ANY_PLACE,
    CLINCHED,
    OUT_OF_REACH,
    REACHABLE,
    Chain,
    Chance,
    Contender,
    CutShort,
    Need,
    Outlook,
)
from grandprix.season.standings import counted_number

SEARCH_LIMIT = 200_000  # steps (players compared, ways of sharing an event) before "reachable"


class Table:
    """The race of one table, in integer units (as the standings add: every value the table
    can hold over one common denominator)."""

    def __init__(
        self,
        lines: list[Line],
        counting: Counting,
        calendar: int,
        chances: list[Chance],
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
        self.chain: Chain | None = None  # the season's tie-breaks, when the table has any
        # the players in the order of ``totals``, and those whose most is each total
        self.order = sorted(range(len(lines)), key=lambda i: self.players[i].total)
        self.at_best: dict[int, list[int]] = {}
        for i, most in enumerate(self.bests):
            if most is not None:
                self.at_best.setdefault(most, []).append(i)

    def units(self, value: Fraction) -> int:
        return value.numerator * (self.scale // value.denominator)

    def player(self, values: list[int], events: int) -> Contender:
        counted = (*values[: self.keep], *[0] * max(0, self.keep - len(values)))
        return Contender(tuple(values), events, self.total(values, events, ()), counted)

    def total(self, values: Sequence[int], events: int, new: Sequence[int]) -> int:
        """The total with ``new`` results from events left: the counted results (all, the best
        N of ACF-14, or the best ceil(p%) of the calendar of LUP-3 and D-LUP-1) plus the bonus
        for every event played, counted or not (LUP-3)."""
        pool = sorted((*values, *new), reverse=True)
        keep = counted_number(self.counting, self.calendar, len(pool))
        return sum(pool[:keep]) + self.bonus * (events + len(new))

    def best(self, player: Contender) -> int | None:
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

    def dominates(self, a: Contender, b: Contender) -> bool:
        """Whether ``a`` ends at least as high as ``b`` with any same results: ``a`` may take
        ``b``'s place in any way of passing a player."""
        if self.counting.mode == "all":
            return a.total >= b.total
        bonus = self.bonus == 0 or a.events >= b.events
        return bonus and all(x >= y for x, y in zip(a.counted, b.counted, strict=True))

    def strength(self, player: Contender) -> tuple[object, ...]:
        """A sort key that puts a dominating player before those it dominates."""
        if self.counting.mode == "all":
            return (player.total,)
        return (player.counted, player.events)

    def together(self, target: int, needed: int, pool: list[Contender]) -> bool | None:
        """Whether ``needed`` players of the pool can all end on ``target`` or more at once;
        None when the search was cut short.

        Who they are: a player is only tried when every player who dominates them is (any way
        of passing with the weaker one works with the stronger one in their place)."""
        pool = sorted(pool, key=self.strength, reverse=True)  # dominating players first
        self.tries = 0

        def dominates(a: Contender, b: Contender) -> bool:
            self.count()
            return self.dominates(a, b)

        try:
            for chosen in _closed_subsets(pool, needed, dominates):
                if self.assign([pool[i] for i in chosen], target):
                    return True
        except CutShort:
            return None
        return False

    def count(self) -> None:
        """One more step of the search; stop it past SEARCH_LIMIT."""
        self.tries += 1
        if self.tries > SEARCH_LIMIT:
            raise CutShort

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

    def assign(self, members: list[Contender], target: int) -> bool:
        """Whether the members, alone in every event left and taking its first places among
        themselves in some order (ties included), can all reach ``target``.

        A depth-first search over the events left. At each event a member must take at least
        what still lets them reach the target with 1st place in every later event; two
        identical members with the same results so far are tried in one order only; a
        position that failed is not tried again."""
        ways = self.options(len(members))
        twins = [(j, i) for i in range(len(members)) for j in range(i) if members[j] == members[i]]
        failed: set[tuple[object, ...]] = set()

        def reaches(member: Contender, new: tuple[int, ...]) -> bool:
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


def _values(blocks: tuple[tuple[int, ...], ...], chance: Chance, size: int) -> tuple[Fraction, ...]:
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
    pool: list[Contender], needed: int, dominates: Callable[[Contender, Contender], bool]
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

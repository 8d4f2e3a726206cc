"""Property tests of the pairing of a Swiss tournament round by round (``grandprix.pairing``),
with gacrux as the engine: random tournaments of 5-40 players and 3-9 rounds, with wins,
draws, forfeits either way and double forfeits, half-, full- and zero-point byes announced,
a withdrawal now and then and sometimes a forbidden pair.

Every pairing meets the absolute criteria twice over: ``criteria.violations`` finds nothing,
and a check written here from the rules themselves (C.04.1 arts. 2-4, 6, 7; C.04.3 [C1]-[C3],
record 260) finds nothing either, so that the refusal path is not trusted to check itself.
A round that gacrux cannot pair is refused only when no pairing meets the criteria at all.
A tournament written as TRF in the middle of a round reads back the same, and the next round
paired from the file read back is the round paired from the tournament in memory.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.errors import UsageError
from grandprix.model import Player, ResultKind, Section
from grandprix.pairing.baku import baku
from grandprix.pairing.criteria import PairingRefused, violations
from grandprix.pairing.engine import pair_next
from grandprix.pairing.records import Forbidden
from grandprix.pairing.state import (
    Board,
    Pairing,
    Tournament,
    announce_bye,
    closed,
    enter_result,
    read_tournament,
    tournament_text,
    withdraw,
)
from grandprix.writers.trf import write_trf

K = ResultKind
NAME = "random.trf"
Engine = Callable[[Tournament, int, set[int]], list[tuple[int, int]]]
# Every spelling of every result a director may type, the forfeits among them.
RESULTS = ("1-0", "0-1", "1-0", "0-1", "½-½", "1/2-1/2", "=", "+-", "-+", "--")
# Written from C.04.1 and C.04.3, not taken from the package.
PLAYED = frozenset({K.WIN, K.DRAW, K.LOSS, K.WIN_UNRATED, K.DRAW_UNRATED, K.LOSS_UNRATED})
NO_PAB_AFTER = frozenset({K.PAIRING_BYE, K.FORFEIT_WIN, K.FULL_BYE})  # U, +, F


# Tiny tournaments and the day's changes.


def new_tournament(players: int, rounds: int, accelerated: bool = False) -> Tournament:
    """``players`` players rated 2500 down in steps of 10, no round played, ``rounds`` to play
    (with the Baku acceleration when ``accelerated``), read from its TRF as a director's file
    would be."""
    section = Section(
        name="Random Swiss",
        players=tuple(
            Player(n, f"Player {n:02d}", rating=2500 - 10 * n, declared_points=Fraction(0))
            for n in range(1, players + 1)
        ),
        rounds=rounds,
        headers=(("012", "Random Swiss"), ("092", "Swiss System")),
    )
    t = read_tournament(NAME, write_trf(section).encode("utf-8"))
    if accelerated:
        t = read_back(replace(t, plan=replace(t.plan, accelerations=baku(players, rounds))))
    return t


def read_back(t: Tournament) -> Tournament:
    return read_tournament(NAME, tournament_text(t).encode("utf-8"))


def forbid(t: Tournament, number: int, a: int, b: int) -> Tournament:
    rule = Forbidden(number, t.plan.rounds, (a, b))
    return replace(t, plan=replace(t.plan, forbidden=(*t.plan.forbidden, rule)))


def announce(t: Tournament, rng: random.Random, number: int) -> Tournament:
    """Byes asked for round ``number`` (half-, zero- and full-point), a withdrawal now and then
    (while more than 4 would stay), sometimes a pair forbidden from this round on."""
    players = len(t.section.players)
    gone = {n for (n, r), kind in t.plan.byes.items() if r == number and kind is K.ZERO_BYE}
    for n in range(1, players + 1):
        if (n, number) in t.plan.byes:
            continue  # withdrawn before
        roll = rng.random()
        if roll < 0.05:
            t = announce_bye(t, n, number, K.HALF_BYE)
        elif roll < 0.07:
            t = announce_bye(t, n, number, K.ZERO_BYE)
        elif roll < 0.08:
            t = announce_bye(t, n, number, K.FULL_BYE)
        elif roll < 0.09 and len(gone) < players - 4:
            t = withdraw(t, n)
            gone.add(n)
    if rng.random() < 0.25:
        a, b = rng.sample(range(1, players + 1), 2)
        t = forbid(t, number, a, b)
    return t


# The absolute criteria, checked here from the rules.


def played_opponents(t: Tournament) -> set[tuple[int, int]]:
    return {
        (p.start_no, r.opponent)
        for p in t.section.players
        for r in p.rounds
        if r.kind in PLAYED and r.opponent is not None
    }


def colour_history(t: Tournament, start_no: int) -> list[str]:
    player = t.section.player(start_no)
    return [r.colour or "" for r in player.rounds if r.kind in PLAYED]


def colour_broken(sequence: list[str]) -> bool:
    """C.04.1 arts. 6, 7: a colour difference above 2 or below -2, or one colour three times
    in a row (played games only)."""
    difference = sequence.count("w") - sequence.count("b")
    return abs(difference) > 2 or (len(sequence) >= 3 and len(set(sequence[-3:])) == 1)


def topscorer(t: Tournament, start_no: int, number: int) -> bool:
    """C.04.3 art. 1.8: more than half the maximum score, when the last round is paired."""
    maximum = t.section.scoring.win * (number - 1)
    return number == t.plan.rounds and t.section.player(start_no).points * 2 > maximum


def colours_allowed(t: Tournament, number: int, white: int, black: int) -> bool:
    """[C3] with its one exception: a topscorer on the board when the last round is paired."""
    if topscorer(t, white, number) or topscorer(t, black, number):
        return True
    return not (
        colour_broken([*colour_history(t, white), "w"])
        or colour_broken([*colour_history(t, black), "b"])
    )


def board_allowed(t: Tournament, number: int, white: int, black: int) -> bool:
    """[C1] no rematch of a played game, record 260, and [C3] with White and Black as given."""
    return (
        (white, black) not in played_opponents(t)
        and not any(rule.forbids(white, black, number) for rule in t.plan.forbidden)
        and colours_allowed(t, number, white, black)
    )


def pab_allowed(t: Tournament, start_no: int) -> bool:
    """C.04.1 art. 4, [C2]: no pairing-allocated bye after a U, a + or an F."""
    return not any(r.kind in NO_PAB_AFTER for r in t.section.player(start_no).rounds)


def broken_rules(t: Tournament, pairing: Pairing) -> list[str]:
    """What the pairing of round ``pairing.number`` breaks, ``t`` being the tournament before
    it: every present player placed once, no rematch of a played game, no forbidden pair, no
    colour rule broken, the bye only for an odd number and never twice or after U, + or F."""
    number = pairing.number
    everyone = {p.start_no for p in t.section.players}
    asked = t.plan.byes_in(number)
    present = everyone - set(asked)
    out = []
    if dict(pairing.unpaired) != asked:
        out.append(f"unpaired {dict(pairing.unpaired)} are not the byes asked {asked}")
    placed = Counter(n for b in pairing.boards for n in (b.white, b.black))
    if pairing.bye is not None:
        placed[pairing.bye] += 1
    if placed != Counter(present):
        out.append(f"not every present player placed once: {sorted(placed.elements())}")
    if (pairing.bye is not None) != (len(present) % 2 == 1):
        out.append(f"pairing-allocated bye {pairing.bye} with {len(present)} present")
    met = played_opponents(t)
    for b in pairing.boards:
        if (b.white, b.black) in met:
            out.append(f"board {b.number}: {b.white} and {b.black} meet twice")
        if any(rule.forbids(b.white, b.black, number) for rule in t.plan.forbidden):
            out.append(f"board {b.number}: {b.white} and {b.black} are forbidden")
        if not colours_allowed(t, number, b.white, b.black):
            out.append(f"board {b.number}: a colour rule is broken")
    if pairing.bye is not None:
        pabs = [r for r in t.section.player(pairing.bye).rounds if r.kind is K.PAIRING_BYE]
        if pabs:
            out.append(f"player {pairing.bye} has a second pairing-allocated bye")
        if not pab_allowed(t, pairing.bye):
            out.append(f"player {pairing.bye} gets the bye after U, + or F")
    return out


def legal_pairing_exists(t: Tournament, number: int) -> bool:
    """Whether any pairing of round ``number`` meets the absolute criteria: every present
    player on a board (either colour) or, one of an odd number, given the bye (a search)."""
    present = sorted(
        p.start_no for p in t.section.players if (p.start_no, number) not in t.plan.byes
    )
    partners = {
        a: {
            b
            for b in present
            if b != a and (board_allowed(t, number, a, b) or board_allowed(t, number, b, a))
        }
        for a in present
    }
    failed: set[frozenset[int]] = set()

    def matched(left: frozenset[int]) -> bool:
        if not left:
            return True
        if left in failed:
            return False
        first = min(left)
        for other in partners[first] & left:
            if matched(left - {first, other}):
                return True
        failed.add(left)
        return False

    everyone = frozenset(present)
    if len(present) % 2 == 0:
        return matched(everyone)
    return any(matched(everyone - {n}) for n in present if pab_allowed(t, n))


def random_results(t: Tournament, rng: random.Random) -> list[tuple[int, str]]:
    """A result for every board of the current round, in a random order."""
    assert t.current is not None
    boards = list(t.current.boards)
    rng.shuffle(boards)
    return [(b.number, rng.choice(RESULTS)) for b in boards]


def pair(t: Tournament, colour: str) -> tuple[Tournament, Pairing] | None:
    """The next round paired by gacrux (``colour`` the initial colour, when it is drawn); None
    when it is refused because no pairing meets the absolute criteria (checked by a search)."""
    number = closed(t).next_round
    try:
        return pair_next(t, lambda: colour)
    except PairingRefused:
        raise  # gacrux answered a pairing that breaks a criterion: the test fails
    except UsageError as refused:
        assert "cannot be paired under the absolute criteria" in str(refused)
        assert not legal_pairing_exists(closed(t), number), str(refused)
        return None


def fixed(pairs: list[tuple[int, int]]) -> Engine:
    """A test engine answering ``pairs`` (White, Black; Black 0 the pairing-allocated bye)."""
    return lambda t, number, absent: pairs


def played(players: int, rounds: int, *games: list[tuple[int, int, str]]) -> Tournament:
    """A tournament after the rounds given, each a list of (White, Black, result) boards, Black
    0 the pairing-allocated bye."""
    t = new_tournament(players, rounds)
    for boards in games:
        pairs = [(w, b) for w, b, _ in boards]
        t, pairing = pair_next(t, lambda: "w", engine=fixed(pairs))
        results = {(w, b): r for w, b, r in boards}
        for board in pairing.boards:
            t = enter_result(t, board.number, results[(board.white, board.black)])
    return closed(t)


def proposal(t: Tournament, pairs: list[tuple[int, int]]) -> Pairing:
    """The next round as an engine proposes it (not checked)."""
    number = t.next_round
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate(((w, b) for w, b in pairs if b), 1))
    bye = next((w for w, b in pairs if not b), None)
    return Pairing(number, boards, bye, tuple(sorted(t.plan.byes_in(number).items())))


def refused(t: Tournament, pairs: list[tuple[int, int]]) -> tuple[list[str], list[str]]:
    """What ``pair_next`` says of the pairs it refuses, and what ``broken_rules`` says."""
    with pytest.raises(PairingRefused) as caught:
        pair_next(t, lambda: "w", engine=fixed(pairs))
    return list(caught.value.found), broken_rules(t, proposal(t, pairs))


def test_c1_a_played_game_is_not_played_again_a_forfeited_one_may_be() -> None:
    t = played(6, 3, [(1, 3, "1-0"), (2, 4, "+-"), (5, 6, "1/2-1/2")])
    package, here = refused(t, [(3, 1), (4, 2), (6, 5)])
    assert len(package) == 2 and "3 and 1 have played each other" in " ".join(package)
    assert "6 and 5 have played each other" in " ".join(package)
    assert here == ["board 1: 3 and 1 meet twice", "board 3: 6 and 5 meet twice"]
    _, pairing = pair_next(t, lambda: "w", engine=fixed([(4, 2), (3, 5), (6, 1)]))
    board = pairing.board_of(4)
    assert board is not None and (board.white, board.black) == (4, 2)
    assert broken_rules(t, pairing) == []


# Four players who have met each other: 1 and 2 in a double forfeit, which is no game.
ALL_MET = (
    [(1, 3, "1-0"), (2, 4, "0-1")],
    [(4, 1, "0-1"), (3, 2, "=")],
    [(1, 2, "--"), (3, 4, "1-0")],
)


def test_a_round_no_pairing_can_meet_is_refused_and_none_could() -> None:
    t = played(4, 4, *ALL_MET)
    assert not legal_pairing_exists(t, 4)
    with pytest.raises(UsageError, match="cannot be paired under the absolute criteria"):
        pair_next(t, lambda: "w")


def test_players_whose_game_was_double_forfeited_may_meet_again() -> None:
    t = announce_bye(played(4, 4, *ALL_MET), 3, 4, K.HALF_BYE)
    assert legal_pairing_exists(t, 4)
    _, pairing = pair_next(t, lambda: "w")
    board = pairing.board_of(1)
    assert board is not None and {board.white, board.black} == {1, 2}
    assert pairing.bye == 4 and broken_rules(t, pairing) == []


def test_c2_no_pairing_bye_after_a_forfeit_win_or_a_full_point_bye() -> None:
    t = played(5, 3, [(1, 2, "+-"), (3, 4, "1-0"), (5, 0, "")])
    t = announce_bye(t, 3, 2, K.FULL_BYE)
    t, _ = pair_next(t, lambda: "w", engine=fixed([(5, 1), (2, 4)]))
    for board in t.current.boards if t.current else ():
        t = enter_result(t, board.number, "1/2-1/2")
    t = closed(t)
    for had in (1, 3, 5):  # a +, an F, a U
        others = [n for n in range(1, 6) if n != had]
        pairs = [(others[0], others[1]), (others[2], others[3]), (had, 0)]
        package, here = refused(t, pairs)
        assert any(f"bye goes to player {had}" in line for line in package), package
        assert any(f"player {had} gets the bye" in line for line in here), here


def test_every_present_player_is_placed_once_and_the_absent_not_at_all() -> None:
    t = announce_bye(new_tournament(6, 3), 6, 1, K.HALF_BYE)
    package, here = refused(t, [(1, 2), (3, 4), (5, 6)])
    assert package and here
    package, here = refused(t, [(1, 2), (3, 4), (1, 0)])
    assert any("placed twice" in line for line in package)
    assert any("placed once" in line for line in here)


def test_a_forbidden_pair_is_not_paired() -> None:
    t = forbid(new_tournament(4, 3), 1, 2, 4)
    package, here = refused(t, [(1, 3), (2, 4)])
    assert any("may not be paired" in line for line in package)
    assert here == ["board 2: 2 and 4 are forbidden"]


# Player 1 has Black, White, White; 6 Black, White, Black; the others cannot meet again.
THIRD_WHITE_AHEAD = (
    [(2, 1, "0-1"), (3, 4, "1-0"), (5, 6, "1-0")],
    [(1, 3, "1-0"), (4, 5, "0-1"), (6, 2, "1-0")],
    [(1, 4, "1-0"), (2, 5, "1-0"), (3, 6, "0-1")],
)
THIRD_WHITE = [(1, 6), (4, 2), (5, 3)]


def test_c3_no_third_white_in_a_row_before_the_last_round() -> None:
    t = played(6, 5, *THIRD_WHITE_AHEAD)
    package, here = refused(t, THIRD_WHITE)
    assert len(package) == 1 and "player 1 would have White three times" in package[0]
    assert len(here) == 1 and "a colour rule is broken" in here[0]


def test_c3_a_topscorer_may_have_a_third_white_in_the_last_round() -> None:
    t = played(6, 4, *THIRD_WHITE_AHEAD)  # player 1: 3 points of 3, before the last round
    paired, pairing = pair_next(t, lambda: "w", engine=fixed(THIRD_WHITE))
    assert broken_rules(t, pairing) == [] and violations(t, pairing) == []
    assert paired.current == pairing


SIZES = {
    "seed": st.integers(0, 10**6),
    "players": st.integers(5, 40),
    "rounds": st.integers(3, 9),
    "accelerated": st.booleans(),
}


@settings(max_examples=25, deadline=None)
@given(**SIZES)
def test_every_round_gacrux_pairs_meets_the_absolute_criteria(
    seed: int, players: int, rounds: int, accelerated: bool
) -> None:
    rng = random.Random(seed)
    t = new_tournament(players, rounds, accelerated)
    for number in range(1, rounds + 1):
        t = announce(t, rng, number)
        before = closed(t)
        paired = pair(t, rng.choice("wb"))
        if paired is None:
            return
        t, pairing = paired
        assert pairing.number == number
        assert violations(before, pairing) == []
        assert broken_rules(before, pairing) == []
        for board, result in random_results(t, rng):
            t = enter_result(t, board, result)


def same_state(a: Tournament, b: Tournament) -> bool:
    """The same players with the same rounds, the same plan and current round (the section's
    count of rounds aside: ``test_a_round_paired_after_a_finished_one_reads_back_equal``)."""
    return (a.section.players, a.plan, a.current) == (b.section.players, b.plan, b.current)


@settings(max_examples=20, deadline=None)
@given(**SIZES)
def test_a_tournament_read_back_mid_round_is_the_same_and_pairs_the_same(
    seed: int, players: int, rounds: int, accelerated: bool
) -> None:
    rng = random.Random(seed)
    t = back = new_tournament(players, rounds, accelerated)
    for number in range(1, rounds + 1):
        asked = rng.randrange(10**6)
        t = announce(t, random.Random(asked), number)
        back = announce(read_back(back), random.Random(asked), number)
        assert same_state(back, closed(t))  # every result in, and the byes asked
        colour = rng.choice("wb")
        mine, theirs = pair(t, colour), pair(back, colour)
        if mine is None or theirs is None:
            assert mine is None and theirs is None
            return
        assert theirs[1] == mine[1]
        t = rng.choice((mine, theirs))[0]
        assert same_state(read_back(t), t)  # just paired, no result in
        results = random_results(t, rng)
        cut = rng.randrange(len(results)) if results else 0
        for board, result in results[:cut]:
            t = enter_result(t, board, result)
        back = read_back(t)
        assert same_state(back, t)  # some results in, some not
        for board, result in results[cut:]:
            t = enter_result(t, board, result)
            back = enter_result(back, board, result)
    assert same_state(read_back(back), closed(t))


def test_the_first_round_read_back_mid_round_is_equal_to_the_tournament_in_memory() -> None:
    t, pairing = pair_next(new_tournament(6, 3), lambda: "w")
    assert read_back(t) == t
    t = enter_result(t, pairing.boards[0].number, "1/2-1/2")
    assert read_back(t) == t


def test_a_round_paired_after_a_finished_one_reads_back_equal() -> None:
    t, pairing = pair_next(new_tournament(4, 3), lambda: "w")
    for board in pairing.boards:
        t = enter_result(t, board.number, "1-0")
    t, _ = pair_next(t, lambda: "w")
    assert read_back(t) == t

"""The FIDE Dutch system (C.04.3, in force from 1 February 2026) worked by hand on tiny
tournaments, then asked of ``pair_next`` with its default engine, gacrux: round 1, the absolute
criteria [C1] no rematch, [C2] the pairing-allocated bye (PAB), [C3] absolute colour
preferences with the topscorers' exception, the board order (C.04.2), byes asked for and
withdrawals (TRF-2026 record 240), forbidden pairs (record 260), the Baku acceleration (C.04.7,
record 250); the check that refuses an engine's pairing breaking an absolute criterion; and the
tournament written as TRF and read back.

Each tournament is written as TRF text by ``trf`` from its rounds: ``(white, black, result)``
for a game, ``(player, 0, code)`` for a round without an opponent (U, F, H, Z), as an engine
answers a bye. Players are numbered by rating, so a start number is also the pairing number
(TPN) and, between equal scores, the rank (C.04.3 art. 1.2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from grandprix.errors import UsageError
from grandprix.model import ResultKind
from grandprix.pairing.baku import baku
from grandprix.pairing.criteria import PairingRefused
from grandprix.pairing.engine import pair_next
from grandprix.pairing.records import Acceleration, Forbidden
from grandprix.pairing.state import (
    Pairing,
    Tournament,
    announce_bye,
    board_order,
    closed,
    enter_result,
    read_tournament,
    tournament_text,
    withdraw,
)

K = ResultKind
Game = tuple[int, int, str]  # (white, black, result); black 0: no opponent, result a bye code
Engine = Callable[[Tournament, int, set[int]], list[tuple[int, int]]]

# Each side's code of a result as entered, and the points of each code.
_CODES = {r: (r[0], r[-1]) for r in ("1-0", "0-1", "=", "+-", "-+", "--")}
_POINTS = {code: Fraction(1) for code in "1+UF"} | {"=": Fraction(1, 2), "H": Fraction(1, 2)}


def trf(
    players: int,
    rounds: int,
    history: Sequence[Sequence[Game]] = (),
    initial: str = "W",
    records: Sequence[str] = (),
) -> str:
    """A TRF-2026 file: ``players`` players rated from 2490 down, ``rounds`` rounds planned
    (142/XXR), the initial colour (152; '' none drawn yet), the finished rounds of
    ``history`` and further ``records`` (240, 250, 260)."""
    blocks: dict[int, list[str]] = {n: [] for n in range(1, players + 1)}
    for games in history:
        for white, black, result in games:
            if not black:
                blocks[white].append(f"0000 - {result}")
                continue
            code_w, code_b = _CODES[result]
            blocks[white].append(f"{black:>4} w {code_w}")
            blocks[black].append(f"{white:>4} b {code_b}")
    lines = ["012 Pairing rules", f"XXR {rounds}"]
    lines += [f"152 {initial}"] if initial else []
    for n, own in blocks.items():
        points = sum((_POINTS.get(b[-1], Fraction(0)) for b in own), Fraction(0))
        name = f"Player {n:02d}, Test"
        line = (
            f"001 {n:4d} m    {name:<33} {2500 - 10 * n:4d} NOR {n:11d} 2000/01/01 "
            f"{float(points):4.1f} {n:4d}  " + "".join(f"{b:<10}" for b in own)
        )
        lines.append(line.rstrip())
    return "\n".join([*lines, *records]) + "\n"


def tournament(
    players: int,
    rounds: int,
    history: Sequence[Sequence[Game]] = (),
    initial: str = "W",
    records: Sequence[str] = (),
) -> Tournament:
    """The tournament of ``trf``, read as a file would be."""
    text = trf(players, rounds, history, initial, records)
    return read_tournament("rules.trf", text.encode("utf-8"))


def paired(t: Tournament, engine: Engine | None = None) -> Pairing:
    """The next round as ``pair_next`` pairs it (White drawn if no initial colour is set)."""
    return pair_next(t, lambda: "w", engine)[1]


def boards(pairing: Pairing) -> list[tuple[int, int]]:
    """The boards in their order, (White, Black)."""
    assert [b.number for b in pairing.boards] == list(range(1, len(pairing.boards) + 1))
    return [(b.white, b.black) for b in pairing.boards]


def fake(pairs: list[tuple[int, int]]) -> Engine:
    """An engine that answers ``pairs`` whatever the tournament."""
    return lambda _tournament, _number, _absent: list(pairs)


def played_out(t: Tournament, result: str = "1-0") -> Tournament:
    """The tournament with its next round paired and every board given ``result``."""
    t, pairing = pair_next(t, lambda: "w")
    for board in pairing.boards:
        t = enter_result(t, board.number, result)
    return t


def read_back(t: Tournament) -> Tournament:
    return read_tournament("again.trf", tournament_text(t).encode("utf-8"))


# Round 1


@pytest.mark.parametrize(
    ("initial", "expected"),
    [
        ("W", [(1, 5), (6, 2), (3, 7), (8, 4)]),
        ("B", [(5, 1), (2, 6), (7, 3), (4, 8)]),
    ],
)
def test_round_1_top_half_meets_bottom_half_colours_alternating_from_the_initial_colour(
    initial: str, expected: list[tuple[int, int]]
) -> None:
    """Round 1 of 8 players: one bracket on 0 points, S1 = 1-4 against S2 = 5-8 in order (C.04.3:
    the first candidate pairs S1[i] with S2[i], and here nothing rules it out). Nobody has a colour
    preference, so the higher-ranked player of each board takes the initial colour of record 152
    when his TPN is odd and the other colour when it is even (C.04.3 art. 5.2): with W, 1 and 3
    White, 2 and 4 Black; with B the mirror. All scores are 0: the boards follow the lower start
    number (C.04.2)."""
    assert boards(paired(tournament(8, 5, initial=initial))) == expected


def test_round_1_initial_colour_is_drawn_when_the_file_has_none() -> None:
    """No 152 record: the initial colour is drawn by lot before round 1 (``draw_colour``), kept
    in the plan and written as 152, and round 1 is paired with it."""
    t, pairing = pair_next(tournament(8, 5, initial=""), lambda: "b")
    assert boards(pairing) == [(5, 1), (2, 6), (7, 3), (4, 8)]
    assert t.plan.initial_colour == "b"
    assert "\n152 B\n" in tournament_text(t)


def test_c2_round_1_of_an_odd_field_gives_the_pab_to_the_last_player() -> None:
    """5 players: the odd number to pair gives one the PAB (C.04.1 art. 3), the lowest in the
    ranking: everybody has 0 points ([C5]: lowest score) and 5 is the last by TPN; then
    S1 = 1, 2 against S2 = 3, 4."""
    pairing = paired(tournament(5, 5))
    assert boards(pairing) == [(1, 3), (4, 2)]
    assert pairing.bye == 5


# [C1] no rematch


def test_c1_no_rematch_when_the_natural_pairing_repeats_round_1() -> None:
    """4 players, round 1 1-3 and 4-2 both drawn: all on ½, and the natural pairing of the one
    bracket, 1-3 and 2-4, repeats both games (C.04.1 art. 2, C.04.3 art. 2.1.1 [C1]). Left are
    1-2 with 3-4 and 1-4 with 2-3; 1 and 4 had White and 2 and 3 Black, so 1-2 and 3-4 give
    every player the colour he is due (alternation, art. 5.2) and 1-4 / 2-3 none of them. Board
    order: equal scores and sums, the board of player 1 first."""
    t = tournament(4, 5, [[(1, 3, "="), (4, 2, "=")]])
    assert boards(paired(t)) == [(2, 1), (3, 4)]


def test_c1_a_double_forfeit_is_not_a_meeting() -> None:
    """6 players, round 1: 1-4 double forfeit, 5-2 and 3-6 drawn. The ½ bracket {2, 3, 5, 6}
    cannot pair 2-5 or 3-6 [C1]; of 2-3 / 5-6 and 2-6 / 3-5 the first gives everyone his colour
    (2 and 6 had Black, 3 and 5 White). 1 and 4 did not play: a game that did not take place is
    no meeting (C.04.2), so the 0 bracket pairs them again; neither has a colour, 1 (odd TPN)
    takes the initial colour."""
    t = tournament(6, 5, [[(1, 4, "--"), (5, 2, "="), (3, 6, "=")]])
    assert boards(paired(t)) == [(2, 3), (6, 5), (1, 4)]


@pytest.mark.parametrize(
    ("first_game", "expected"),
    [
        ("+-", [(2, 3), (1, 4), (6, 5)]),
        ("1-0", [(2, 3), (6, 1), (5, 4)]),
    ],
    ids=["forfeit", "played"],
)
def test_c1_a_forfeit_does_not_count_as_having_met(
    first_game: str, expected: list[tuple[int, int]]
) -> None:
    """6 players, round 3 of 5. Round 1: 1-4 (the game under test), 5-2 0-1, 3-6 1-0; round 2:
    2-1 1-0, 3-5 1-0, 4-6 1-0. Scores: 2 and 3 on 2, 1 and 4 on 1, 5 and 6 on 0, and each
    bracket's natural pair (2-3, 1-4, 5-6) is new but for 1-4.

    Forfeit: 1 and 4 never played (C.04.2: a forfeit is no meeting, [C1] allows them), so every
    bracket pairs in itself. Colours: 3 had White twice (absolute Black, art. 1.7.1) against 2
    (B, W: mild Black); 1 played only Black (strong White) against 4 (only White); 6 had Black
    twice (absolute White) against 5.

    Played: 1-4 is a rematch, so 1 and 4 both float down to 5 and 6; 4-6 met in round 2,
    which leaves 1-6 and 4-5 (6 absolutely White, 5 had W, B and 4 B, W)."""
    t = tournament(
        6,
        5,
        [
            [(1, 4, first_game), (5, 2, "0-1"), (3, 6, "1-0")],
            [(2, 1, "1-0"), (3, 5, "1-0"), (4, 6, "1-0")],
        ],
    )
    assert boards(paired(t)) == expected


# [C2] the pairing-allocated bye


def c2_history(first: str) -> list[list[Game]]:
    """5 players and a sixth who never plays, 3 rounds: player 5's first round is ``first``
    (a PAB, a full-point, half-point or zero-point bye, or a forfeit win over 6), and 5 loses
    both games after it. 1 had the PAB in round 2, 3 in round 3; 2 and 4 never had one."""
    if first == "+":
        opening: list[Game] = [(5, 6, "+-")]
    else:
        opening = [(5, 0, first), (6, 0, "Z")]
    return [
        [(1, 3, "1-0"), (4, 2, "="), *opening],
        [(1, 0, "U"), (2, 5, "1-0"), (3, 4, "1-0"), (6, 0, "Z")],
        [(3, 0, "U"), (5, 4, "0-1"), (2, 1, "="), (6, 0, "Z")],
    ]


def c2_tournament(first: str) -> Tournament:
    """``c2_history`` before round 4 of 5, player 6 withdrawn."""
    return withdraw(tournament(6, 5, c2_history(first)), 6)


@pytest.mark.parametrize("first", ["U", "F", "+"], ids=["pab", "full-point-bye", "forfeit-win"])
def test_c2_no_pab_for_a_player_who_scored_a_win_without_playing(first: str) -> None:
    """Round 4, players 1-5 (6 withdrawn): 1 on 2½, 2 and 3 on 2, 4 on 1½, 5 on 1. Player 5 is
    alone at the bottom, but had a PAB, a full-point bye or a forfeit win in round 1: a win's
    points without playing, which bars the PAB (C.04.1 art. 4, C.04.3 art. 2.1.2 [C2]; the
    full-point bye is new in 2026). 1 and 3 had the PAB too; of 2 and 4, [C5] gives it to the
    lower score, 4. Left: 1, 2, 3, 5, whose only pairing without a rematch is 1-5, 2-3.
    Colours: 1 (W, B) gets White against 5 (B, W); 2 had White twice (absolute Black).
    Boards: 1-5 has the higher top score (2½)."""
    pairing = paired(c2_tournament(first))
    assert pairing.bye == 4
    assert boards(pairing) == [(1, 5), (3, 2)]
    assert pairing.unpaired == ((6, K.ZERO_BYE),)


@pytest.mark.parametrize("first", ["H", "Z"], ids=["half-point-bye", "zero-point-bye"])
def test_c2_a_half_or_zero_point_bye_does_not_bar_the_pab(first: str) -> None:
    """The same tournament with a half-point or zero-point bye for 5 in round 1: 5 is alone at
    the bottom (½ or 0) and scored less than a win without playing, so nothing bars him
    (C.04.1 art. 4) and [C5] gives him the PAB. 1-4 and 2-3 are the only way to pair players 1
    to 4 without a rematch; 4 had Black twice in a row (absolute White), 2 White twice in a row
    (absolute Black)."""
    pairing = paired(c2_tournament(first))
    assert pairing.bye == 5
    assert boards(pairing) == [(4, 1), (3, 2)]


# [C3] absolute colour preferences


C3_HISTORY: list[list[Game]] = [
    [(1, 4, "="), (5, 2, "0-1"), (3, 6, "0-1")],
    [(1, 2, "0-1"), (4, 6, "0-1"), (3, 5, "1-0")],
]


def test_c3_two_players_due_white_absolutely_never_meet() -> None:
    """6 players before round 3 of 5: 2 and 6 won twice with Black (2 points, two Blacks in a row
    and a colour difference of -2: both absolutely due White, C.04.3 art. 1.7.1), 1 and 3 had White
    twice (absolutely Black). Round 3 is not the last, so nobody is a topscorer (art. 1.8) and 2-6,
    the natural pairing of the top bracket, is barred (art. 2.1.3 [C3]), as is 1-3. With the
    rematches 1-4, 2-5, 3-6, 1-2, 4-6, 3-5 the only legal pairing is 2-3, 6-1, 5-4: each absolute
    preference granted, 5 (W, B) White against 4 (B, W)."""
    assert boards(paired(tournament(6, 5, C3_HISTORY))) == [(2, 3), (6, 1), (5, 4)]


def test_c3_topscorers_may_meet_in_the_last_round() -> None:
    """The same games with 3 rounds planned: round 3 is the last, and 2 and 6, on 2 of 2 points
    (over 50 % of the maximum), are topscorers (art. 1.8), for whom [C3] does not hold: the top
    bracket pairs 2-6. Both are due White with the same colour difference and history; the
    higher-ranked, 2, gets it (art. 5.2) and 6 has Black a third time. Then 3 (1 point, exactly
    50 %: no topscorer) cannot meet 1 (both absolutely Black) and plays 4, 1 plays 5."""
    assert boards(paired(tournament(6, 3, C3_HISTORY))) == [(2, 6), (4, 3), (5, 1)]


# Board order (C.04.2)


# 8 players, 5 rounds, Baku: group A = 1-4, 1 virtual point in rounds 1-2, ½ in round 3.
BAKU_8 = ["250       1.0 001 002 0001 0004", "250       0.5 003 003 0001 0004"]
BAKU_ROUND_1: list[Game] = [(1, 3, "1-0"), (4, 2, "0-1"), (5, 7, "1-0"), (8, 6, "0-1")]


BOARD_HISTORY: list[list[Game]] = [
    [(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "="), (8, 4, "0-1")],
    [(2, 1, "="), (3, 4, "0-1"), (7, 5, "1-0"), (6, 8, "=")],
]


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([(3, 8), (6, 2), (7, 1), (5, 4)], [(5, 4), (7, 1), (6, 2), (3, 8)]),
        ([(8, 7), (2, 6), (3, 1), (4, 5)], [(4, 5), (3, 1), (2, 6), (8, 7)]),
    ],
    ids=["higher-score-then-sum", "then-lower-start-number"],
)
def test_board_order_higher_score_then_sum_then_lower_start_number(
    pairs: list[tuple[int, int]], expected: list[tuple[int, int]]
) -> None:
    """Scores after 2 rounds: 4 on 2; 1, 2, 7 on 1½; 3, 6, 8 on ½; 5 on 0. Boards go by the
    higher score of the pair, then the sum of both, then the better (lower) start number of the
    two, whichever colour he has (C.04.2). 5-4 (2 + 0) comes before 7-1 (1½ + 1½), which comes
    before 6-2 (1½ + ½); 3-1, 2-6 and 8-7 all have 1½ + ½ and follow 1, 2, 7."""
    t = tournament(8, 5, BOARD_HISTORY)
    assert board_order(t.section, t.plan, 3, pairs) == expected


def test_board_order_counts_the_baku_virtual_points() -> None:
    """With Baku (C.04.7 art. 1.5), the pairing score, with the virtual points, also orders the
    boards: in round 2 of 8 players, the losers 3 and 4 of group A have 0 + 1 like the winners 5
    and 6 of group B have 1 + 0, and 3-4 comes first by start number; without the virtual
    points 5-6 (1 + 1) comes before 3-4 (0 + 0)."""
    t = tournament(8, 5, [BAKU_ROUND_1], records=BAKU_8)
    assert board_order(t.section, t.plan, 2, [(5, 6), (3, 4)]) == [(3, 4), (5, 6)]
    plain = replace(t.plan, accelerations=())
    assert board_order(t.section, plain, 2, [(5, 6), (3, 4)]) == [(5, 6), (3, 4)]


# Byes asked for and withdrawals (record 240)


ROUND_1_OF_6: list[Game] = [(1, 4, "1-0"), (5, 2, "0-1"), (3, 6, "1-0")]


@pytest.mark.parametrize(
    ("kind", "code", "points"),
    [
        (K.HALF_BYE, "H", Fraction(1, 2)),
        (K.FULL_BYE, "F", Fraction(1)),
        (K.ZERO_BYE, "Z", Fraction(0)),
    ],
)
@pytest.mark.parametrize("route", ["announce_bye", "record 240"])
def test_a_requested_bye_is_not_paired_scores_its_points_and_the_pab_goes_to_another(
    kind: ResultKind, code: str, points: Fraction, route: str
) -> None:
    """6 players after round 1 (1, 2, 3 won; 4, 5, 6 lost); 6 asks for a bye in round 2. Five
    are left to pair: the 1-point bracket {1, 2, 3} pairs 2-1 (2 had Black, 1 White) and floats
    3 down; 3 meets 4 (S2's first, colours granted: 4-3), and the last, 5, gets the PAB
    (C.04.1 art. 3). Once the round is closed 6 has the bye's points: ½, 1 or 0."""
    if route == "announce_bye":
        t = announce_bye(tournament(6, 5, [ROUND_1_OF_6]), 6, 2, kind)
    else:
        t = tournament(6, 5, [ROUND_1_OF_6], records=[f"240 {code}   2    6"])
    assert t.plan.byes == {(6, 2): kind}
    pairing = paired(t)
    assert boards(pairing) == [(2, 1), (4, 3)]
    assert pairing.bye == 5
    assert pairing.unpaired == ((6, kind),)
    after = played_out(t).with_results()
    six = after.player(6)
    assert (six.rounds[-1].kind, six.points) == (kind, points)
    assert after.player(5).rounds[-1].kind is K.PAIRING_BYE


def test_a_withdrawn_player_is_never_paired_again() -> None:
    """6 withdraws after round 1: a zero-point bye for each round left (record 240 Z). Round 2
    is paired as with a bye asked for (2-1, 4-3, PAB 5). Round 3 (White won every game): 2 on
    2 floats down to the 1-point players 1, 3, 4, 5 and meets 3 (1 and 5 met him); 1 cannot
    meet 4 again and plays 5; the PAB goes to 4, as 5 had it (C.04.1 art. 4). 6 stays on 0."""
    t = withdraw(tournament(6, 5, [ROUND_1_OF_6]), 6)
    assert t.plan.withdrawn_from(6) == 2
    t, pairing = pair_next(t, lambda: "w")
    assert (boards(pairing), pairing.bye, pairing.unpaired) == (
        [(2, 1), (4, 3)],
        5,
        ((6, K.ZERO_BYE),),
    )
    for board in pairing.boards:
        t = enter_result(t, board.number, "1-0")
    t, pairing = pair_next(t, lambda: "w")
    assert (boards(pairing), pairing.bye, pairing.unpaired) == (
        [(3, 2), (1, 5)],
        4,
        ((6, K.ZERO_BYE),),
    )
    assert t.section.player(6).points == 0


# Forbidden pairs (record 260)


NATURAL_ROUND_1 = [(1, 5), (6, 2), (3, 7), (8, 4)]
WITHOUT_1_5 = [(1, 6), (5, 2), (3, 7), (8, 4)]


@pytest.mark.parametrize(
    ("records", "forbidden", "expected"),
    [
        (["260   1   1    1    5"], (), WITHOUT_1_5),
        ([], (Forbidden(1, 199, (1, 5)),), WITHOUT_1_5),
        (["260   2   5    1    5"], (), NATURAL_ROUND_1),
    ],
    ids=["record-260", "plan-forbidden", "other-rounds"],
)
def test_a_forbidden_pair_is_not_paired(
    records: list[str], forbidden: tuple[Forbidden, ...], expected: list[tuple[int, int]]
) -> None:
    """Round 1 of 8 players with 1 and 5 kept apart (record 260, or ``Plan.forbidden``): the
    pair is removed as a rematch would be, so 1-5 gives way to the next transposition of S2,
    1-6 and 2-5 (then 3-7, 4-8); colours as always in round 1 (odd TPN: the initial colour). A
    record for rounds 2-5 leaves round 1 alone."""
    t = tournament(8, 5, records=records)
    t = replace(t, plan=replace(t.plan, forbidden=t.plan.forbidden + forbidden))
    assert boards(paired(t)) == expected


def test_a_260_record_without_a_last_round_keeps_the_pair_apart_in_its_first_round_only() -> None:
    """Record 260 with its last round (columns 9-11) blank or 0 is the first round only, as
    FIDE's reference program reads it; XXP (JaVaFo) has no rounds and holds for all of them."""
    blank = tournament(8, 5, records=["260   2        1    5"])
    zero = tournament(8, 5, records=["260   2   0    1    5"])
    javafo = tournament(8, 5, records=["XXP 1 5"])
    assert blank.plan.forbidden == zero.plan.forbidden == (Forbidden(2, 2, (1, 5)),)
    assert javafo.plan.forbidden[0].forbids(1, 5, 5)


# Baku acceleration (C.04.7, record 250)


A = Fraction(1)
HALF = Fraction(1, 2)


@pytest.mark.parametrize(
    ("players", "rounds", "expected"),
    [
        (12, 7, (Acceleration(A, 1, 2, 1, 6), Acceleration(HALF, 3, 4, 1, 6))),
        (13, 7, (Acceleration(A, 1, 2, 1, 8), Acceleration(HALF, 3, 4, 1, 8))),
        (12, 9, (Acceleration(A, 1, 3, 1, 6), Acceleration(HALF, 4, 5, 1, 6))),
        (13, 9, (Acceleration(A, 1, 3, 1, 8), Acceleration(HALF, 4, 5, 1, 8))),
    ],
)
def test_baku_group_a_and_virtual_points(
    players: int, rounds: int, expected: tuple[Acceleration, ...]
) -> None:
    """C.04.7 art. 1.2 (C.04.5.1 before 2026): group A is the first half of the players rounded up
    to an even number, 2 x ceil(n / 4): 6 of 12, 8 of 13. Art. 1.4: the accelerated rounds are the
    first ceil(R / 2) (4 of 7, 5 of 9); in the first ceil(ceil(R / 2) / 2) of them (2 of 7, 3 of 9)
    group A has a win's points, 1, and ½ in the rest of them; group B never has any."""
    assert baku(players, rounds) == expected


def test_baku_gives_group_a_a_win_of_the_tournament_scoring() -> None:
    """C.04.7 art. 1.4: the virtual points are a win's and half a win's: 3 and 1½ where a win
    scores 3."""
    assert baku(12, 7, Fraction(3)) == (
        Acceleration(Fraction(3), 1, 2, 1, 6),
        Acceleration(Fraction(3, 2), 3, 4, 1, 6),
    )


def test_baku_records_are_written_with_game_points_only() -> None:
    """Record 250 of an individual tournament has its virtual points in columns 10-13 (game
    points) and columns 5-8 (a team's match points) blank, and reads back the same."""
    t = tournament(12, 7)
    t = replace(t, plan=replace(t.plan, accelerations=baku(12, 7)))
    written = [line for line in tournament_text(t).splitlines() if line.startswith("250")]
    assert [line[4:8] for line in written] == ["    ", "    "]
    assert [line[9:13] for line in written] == [" 1.0", " 0.5"]
    assert read_back(t).plan.accelerations == baku(12, 7)


BAKU_12_7 = ["250       1.0 001 002 0001 0006", "250       0.5 003 004 0001 0006"]
BAKU_13_7 = ["250       1.0 001 002 0001 0008", "250       0.5 003 004 0001 0008"]


@pytest.mark.parametrize(
    ("players", "records", "expected", "bye"),
    [
        (12, BAKU_12_7, [(1, 4), (5, 2), (3, 6), (7, 10), (11, 8), (9, 12)], None),
        (13, BAKU_13_7, [(1, 5), (6, 2), (3, 7), (8, 4), (9, 11), (12, 10)], 13),
    ],
)
def test_baku_round_1_pairs_group_a_on_its_own(
    players: int, records: list[str], expected: list[tuple[int, int]], bye: int | None
) -> None:
    """Round 1 of 7 with the Baku records as TRF-2026 writes them (250: virtual game points in
    columns 10-13, match points empty for individuals). Group A has a pairing score of 1 and
    group B of 0 (C.04.7 art. 1.5), so each is a bracket of its own, top half against bottom
    half: of 12, A = 1-6 (1-4, 2-5, 3-6) and B = 7-12 (7-10, 8-11, 9-12); of 13, A = 1-8 and
    B = 9-13, whose last, 13, gets the PAB. Colours by odd TPN (art. 5.2); group A's boards
    first."""
    t = tournament(players, 7, records=records)
    assert t.plan.accelerations == baku(players, 7)
    pairing = paired(t)
    assert boards(pairing) == expected
    assert pairing.bye == bye


def test_baku_round_2_pairs_by_pairing_score() -> None:
    """8 players, 5 rounds, group A = 1-4 with 1 virtual point in rounds 1-2. After round 1
    (1, 2, 5, 6 won) the pairing scores are 1 and 2 on 2, 3 and 4 (0 + 1) with 5 and 6
    (1 + 0) on 1, 7 and 8 on 0. Brackets: 2-1; 3-5 and 6-4 (S1 3, 4 against S2 5, 6, each
    getting his due colour); 7-8."""
    t = tournament(8, 5, [BAKU_ROUND_1], records=BAKU_8)
    assert boards(paired(t)) == [(2, 1), (3, 5), (6, 4), (7, 8)]


def test_no_legal_pairing_is_left_to_the_chief_arbiter() -> None:
    """Round 1 of 4 players all of one family (record 260 for the four): no pairing meets the
    absolute criteria, and C.04.3 art. 1.9.3 leaves the round to the chief arbiter; nothing is
    paired and the message says so."""
    t = tournament(4, 5, records=["260   1   5    1    2    3    4"])
    with pytest.raises(UsageError, match=r"1\.9\.3.*chief arbiter"):
        pair_next(t, lambda: "w")


# The absolute criteria checked on any engine's answer


def c1_tournament() -> Tournament:
    return tournament(4, 5, [[(1, 3, "="), (4, 2, "=")]])


def forbidden_tournament() -> Tournament:
    return tournament(8, 5, records=["260   1   1    1    5"])


@pytest.mark.parametrize(
    ("made", "pairs", "said"),
    [
        (c1_tournament, [(1, 3), (2, 4)], "1 and 3 have played each other already (C.04.1 art. 2"),
        (
            lambda: tournament(6, 5),
            [(1, 4), (3, 6), (2, 0), (5, 0)],
            "2 pairing-allocated byes; at most one (C.04.1 art. 3)",
        ),
        (
            lambda: c2_tournament("U"),
            [(4, 1), (3, 2), (5, 0)],
            "goes to player 5, who had a pairing-allocated bye in round 1 (C.04.1 art. 4, "
            "C.04.3 [C2])",
        ),
        (
            lambda: c2_tournament("F"),
            [(4, 1), (3, 2), (5, 0)],
            "who had a full-point bye in round 1 (C.04.1 art. 4, C.04.3 [C2])",
        ),
        (
            lambda: c2_tournament("+"),
            [(4, 1), (3, 2), (5, 0)],
            "who had a forfeit win in round 1 (C.04.1 art. 4, C.04.3 [C2])",
        ),
        (
            lambda: tournament(6, 5, C3_HISTORY),
            [(2, 6), (5, 1), (4, 3)],
            "player 6 would have a colour difference of -3 (C.04.1 arts. 6, 7; C.04.3 [C3])",
        ),
        (
            lambda: tournament(6, 3, C3_HISTORY),
            [(2, 6), (3, 1), (5, 4)],
            "player 3 would have a colour difference of +3 (C.04.1 arts. 6, 7; C.04.3 [C3])",
        ),
        (
            lambda: c2_tournament("U"),
            [(1, 5), (2, 3), (4, 0)],
            "player 2 would have White three times in a row (C.04.1 arts. 6, 7; C.04.3 [C3])",
        ),
        (lambda: tournament(4, 5), [(1, 3), (4, 1)], "player 1 is placed twice"),
        (
            forbidden_tournament,
            NATURAL_ROUND_1,
            "1 and 5 may not be paired in round 1 (record 260)",
        ),
    ],
    ids=[
        "rematch",
        "two-byes",
        "second-pab",
        "pab-after-full-point-bye",
        "pab-after-forfeit-win",
        "same-absolute-colour",
        "half-the-maximum-is-no-topscorer",
        "same-colour-twice-in-a-row",
        "paired-twice",
        "forbidden-pair",
    ],
)
def test_a_pairing_breaking_an_absolute_criterion_is_refused_naming_it(
    made: Callable[[], Tournament], pairs: list[tuple[int, int]], said: str
) -> None:
    """Whatever the engine, its pairing is checked before it is used, and refused naming the
    broken criterion and the engine: a rematch ([C1]); more than one PAB, or one with an even
    field (C.04.1 art. 3); a PAB to a player who already scored a win's points without playing
    (a PAB, a full-point bye, a forfeit win: [C2]); a player given the colour opposite to his
    absolute preference (art. 1.7.1, [C3]), which takes his colour difference beyond 2 or gives
    him a colour three times in a row (2 of the [C2] tournament, B, W, W, given White again) --
    in the last round too when neither player is a topscorer: 3, on exactly half the maximum,
    is none (art. 1.8 asks for more than 50 %); a player placed twice; a pair of record 260."""
    t = made()
    with pytest.raises(PairingRefused) as refused:
        pair_next(t, lambda: "w", fake(pairs))
    message = str(refused.value)
    assert said in message
    assert f"the pairing of round {t.next_round} by a test engine breaks" in message


@pytest.mark.parametrize(
    ("made", "pairs"),
    [
        (lambda: tournament(6, 3, C3_HISTORY), [(6, 2), (4, 3), (5, 1)]),
        (
            lambda: tournament(6, 5, [[(1, 4, "--"), (5, 2, "="), (3, 6, "=")]]),
            [(2, 3), (6, 5), (4, 1)],
        ),
    ],
    ids=["last-round-topscorers", "forfeit-is-no-meeting"],
)
def test_an_engine_may_pair_what_the_criteria_allow(
    made: Callable[[], Tournament], pairs: list[tuple[int, int]]
) -> None:
    """Not refused: in the last round, 6 (a topscorer, C.04.3 art. 1.8) gets White and 2 (also
    one) a third Black, which [C3] allows for topscorers; and 1 and 4, whose round-1 game was a
    double forfeit, meet again ([C1] counts played games only)."""
    pairing = paired(made(), fake(pairs))
    assert sorted(boards(pairing)) == sorted(pairs)


# Written as TRF and read back


def mid_round() -> Tournament:
    """Round 2 paired with a half-point bye for 6 and the PAB for 5, board 1's result in."""
    t = announce_bye(tournament(6, 5, [ROUND_1_OF_6]), 6, 2, K.HALF_BYE)
    t, _ = pair_next(t, lambda: "w")
    return enter_result(t, 1, "0-1")


def withdrawn_mid_round() -> Tournament:
    return enter_result(
        pair_next(withdraw(tournament(6, 5, [ROUND_1_OF_6]), 6), lambda: "w")[0], 2, "="
    )


def with_byes_forbidden_and_baku() -> Tournament:
    t = announce_bye(mid_round(), 2, 4, K.FULL_BYE)
    t = announce_bye(t, 3, 3, K.ZERO_BYE)
    plan = replace(t.plan, forbidden=(Forbidden(3, 5, (1, 2, 4)),), accelerations=baku(6, 5))
    return replace(t, plan=plan)


def baku_round_1_paired() -> Tournament:
    return pair_next(tournament(13, 7, records=BAKU_13_7), lambda: "w")[0]


@pytest.mark.parametrize(
    "made",
    [mid_round, withdrawn_mid_round, with_byes_forbidden_and_baku, baku_round_1_paired],
    ids=["mid-round", "withdrawn", "byes-forbidden-baku", "baku-round-1"],
)
def test_a_tournament_is_written_as_trf_and_read_back_equal(
    made: Callable[[], Tournament],
) -> None:
    """The state of the day survives the TRF: the finished rounds, the round paired with the
    results so far (a game without result: opponent and colour only), the byes asked for and
    withdrawals (240), the forbidden pairs (260), the acceleration (250)."""
    t = made()
    assert read_back(t) == t


XXS_HALF_PAB = "XXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=0.5 FW=1 FL=0"


def test_c2_the_pab_scores_what_the_tournament_rules_give_it() -> None:
    """C.04.1 art. 3: the PAB scores a win's points unless the tournament's rules say otherwise
    (the same for every PAB). With a PAB worth ½ (XXS, read into the section's scoring), 5, the
    PAB of round 1 of 5 players, has ½ once the round is closed, and the file written then
    reads back (its points column adds up)."""
    t = tournament(5, 5, records=[XXS_HALF_PAB])
    assert t.section.scoring.pairing_bye == Fraction(1, 2)
    t = played_out(t)
    assert t.with_results().player(5).points == Fraction(1, 2)
    assert read_back(t) == closed(t)
    assert read_back(t).section.player(5).rounds[0].points == Fraction(1, 2)


def test_a_round_closed_in_memory_reads_back_equal() -> None:
    """Round 2 played out and round 3 paired without writing the file in between:
    ``pair_next`` closes round 2 into the section, and the file written then reads back as the
    same tournament (a section holding 2 finished rounds)."""
    t = pair_next(played_out(tournament(6, 5, [ROUND_1_OF_6])), lambda: "w")[0]
    assert t.finished_rounds == 2
    assert read_back(t) == t

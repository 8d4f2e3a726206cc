"""FIDE's Baku acceleration (C.04.7 from 2026, C.04.5.1 before): the top group A, the first
2 x ceil(n/4) players by pairing number, is given virtual points for the pairing of the first
rounds: a win's points in the first half (rounded up) of the accelerated rounds and half as
much in the rest, the accelerated rounds being the first half of the tournament (rounded up).
The points only pair; they are never scored."""

from __future__ import annotations

from fractions import Fraction

from grandprix.pairing.records import Acceleration


def baku(players: int, rounds: int, win: Fraction = Fraction(1)) -> tuple[Acceleration, ...]:
    """The 250 records of the Baku acceleration for ``players`` and ``rounds``, ``win`` being
    the points of a win."""
    group_a = min(players, 2 * -(-players // 4))
    accelerated = -(-rounds // 2)
    full = -(-accelerated // 2)
    if group_a == 0 or accelerated == 0:
        return ()
    out = [Acceleration(win, 1, full, 1, group_a)]
    if accelerated > full:
        out.append(Acceleration(win / 2, full + 1, accelerated, 1, group_a))
    return tuple(out)

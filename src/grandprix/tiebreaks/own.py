"""Tie-breaks from the participant's own results (FIDE C.07 art. 7) and Koya (art. 9.2)."""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import ResultKind
from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context

Values = list[Fraction | None]
K = ResultKind


def wins(ctx: Context, spec: Spec) -> Values:
    """WIN: rounds in which the player obtained the points of a win, played or not (art. 7.1)."""
    return [Fraction(sum(1 for p in pts if p == ctx.win)) for pts in ctx.pts]


def games_won(ctx: Context, spec: Spec) -> Values:
    """WON: games won over the board (art. 7.2); forfeits and byes do not count."""
    return [
        Fraction(sum(1 for k, p in zip(kinds, pts, strict=True) if k.played and p == ctx.win))
        for kinds, pts in zip(ctx.kinds, ctx.pts, strict=True)
    ]


def black_games(ctx: Context, spec: Spec) -> Values:
    """BPG: games played over the board with Black (art. 7.3)."""
    return [
        Fraction(sum(1 for k, c in zip(kinds, cols, strict=True) if k.played and c == "b"))
        for kinds, cols in zip(ctx.kinds, ctx.colour, strict=True)
    ]


def black_wins(ctx: Context, spec: Spec) -> Values:
    """BWG: games won over the board with Black (art. 7.4)."""
    out: Values = []
    for i in range(ctx.size):
        count = sum(
            1
            for k, c, p in zip(ctx.kinds[i], ctx.colour[i], ctx.pts[i], strict=True)
            if k.played and c == "b" and p == ctx.win
        )
        out.append(Fraction(count))
    return out


def rounds_elected(ctx: Context, spec: Spec) -> Values:
    """REP (GE in 2024): rounds minus half- and zero-point byes and forfeit losses (art. 7.6).

    Every round after a withdrawal counts as a zero-point bye. A pairing-allocated bye, a full-point
    bye and a forfeit win are rounds the player elected to play.
    """
    return [
        Fraction(
            sum(
                1
                for k, p in zip(kinds, pts, strict=True)
                if k.played or k is K.PAIRING_BYE or p == ctx.win
            )
        )
        for kinds, pts in zip(ctx.kinds, ctx.pts, strict=True)
    ]


def progressive(ctx: Context, spec: Spec) -> Values:
    """PS: sum of the running scores after each round (art. 7.5); /Cn drops the first n terms."""
    out: Values = []
    for pts in ctx.pts:
        running = total = 0
        for r, p in enumerate(pts):
            running += p
            if r >= spec.cut_low:
                total += running
        out.append(ctx.value(total))
    return out


def koya(ctx: Context, spec: Spec) -> Values:
    """KS: points scored against opponents with at least 50% of the maximum score (art. 9.2).

    ``/Lnn`` sets another percentage, ``/L+n`` / ``/L-n`` moves the limit by n half-points. In a
    round robin with byes the maximum excludes the bye rounds.
    """
    max_games = ctx.n
    if ctx.round_robin:
        if ctx.size and ctx.n % ctx.size == 0:
            max_games -= ctx.n // ctx.size
        max_games -= sum(1 for last in ctx.last_paired if last == 0)
    limit = Fraction(spec.koya_percent * ctx.win * max_games, 100) + Fraction(
        spec.koya_shift * ctx.scale, 2
    )
    out: Values = []
    for i in range(ctx.size):
        total = 0
        for r in range(ctx.n):
            o = ctx.opp[i][r]
            if o >= 0 and ctx.score[o] >= limit:
                total += ctx.pts[i][r]
        out.append(ctx.value(total))
    return out

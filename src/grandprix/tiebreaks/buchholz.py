"""Buchholz, Fore Buchholz, Average of Buchholz and Sonneborn-Berger (FIDE C.07 art. 8, 9, 14, 16).

Both the 2024 and the 2026 editions are here; they differ only in the dummy opponent of art. 16.4.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import NamedTuple

from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context, Rules

Values = list[Fraction | None]


class Term(NamedTuple):
    """One round's contribution: the opponent's (or dummy's) score and the term it adds."""

    score: int
    value: int
    vur: bool  # from a voluntary unplayed round (for the cut-1 exception)


def terms(ctx: Context, i: int, spec: Spec, sonneborn: bool, fore: bool = False) -> list[Term]:
    """The contributions of each round of player i to BH/FB (or SB with ``sonneborn``).

    C.07 art. 16.3: opponents count with their adjusted score. Art. 16.4: each unplayed round is
    a game against a dummy whose score is the player's own (2024 rules) or, under the 2026 rules,
    that capped at the scheduled opponent's adjusted score (forfeits, 16.4.1) or at a draw per
    round (other unplayed rounds, 16.4.2). In a pre-determined event (art. 15) forfeits count as
    played and rounds without an opponent count for nothing.
    """
    adj = ctx.adjusted(fore)
    out = []
    last = ctx.n - 1
    for r in range(ctx.n):
        o = ctx.opp[i][r]
        if o >= 0 and (ctx.met_over_the_board(i, r, spec.forfeits_played) or (fore and r == last)):
            score, vur = adj.as_opponent[o], False
        elif ctx.round_robin:
            continue
        else:
            score = adj.own[i]
            if ctx.rules is Rules.FIDE_2026:
                cap = adj.as_opponent[o] if o >= 0 else ctx.draw * ctx.n
                score = min(score, cap)
            vur = ctx.kinds[i][r].voluntary_unplayed
        own = ctx.pts[i][r]
        if fore and r == last and o >= 0:
            own = ctx.draw
        out.append(Term(score, score * own if sonneborn else score, vur))
    return out


def cut(terms_: list[Term], low: int, high: int, rounds: int, exception: bool = True) -> int:
    """Sum of the terms after cutting the ``low`` lowest and ``high`` highest (art. 14).

    The least significant value is the term with the lowest opponent score (then the lowest
    term). Cut-1 exception (2024 art. 16.5, 2026 art. 16.5.1): when the player has voluntary
    unplayed rounds and the lowest of their terms is not lower than the least significant value,
    that term is cut instead. High cuts have no exception.
    """
    low = min(low, rounds)
    high = min(high, rounds - low)
    rest = list(terms_)
    for _ in range(low):
        if not rest:
            break
        lsv = min(rest, key=lambda t: (t.score, t.value))
        victim = lsv
        if exception:
            vurs = [t for t in rest if t.vur]
            if vurs:
                low_vur = min(vurs, key=lambda t: (t.value, t.score))
                if lsv.value <= low_vur.value:
                    victim = low_vur
        rest.remove(victim)
    for _ in range(high):
        if not rest:
            break
        rest.remove(max(rest, key=lambda t: (t.score, t.value)))
    return sum(t.value for t in rest)


def buchholz(ctx: Context, spec: Spec) -> Values:
    """BH: sum of the opponents' adjusted scores (C.07 art. 8.1), with cuts (art. 14)."""
    return [
        ctx.value(cut(terms(ctx, i, spec, False), spec.cut_low, spec.cut_high, ctx.n))
        for i in range(ctx.size)
    ]


def fore_buchholz(ctx: Context, spec: Spec) -> Values:
    """FB: Buchholz as if every paired game of the last round were a draw (C.07 art. 8.3)."""
    return [
        ctx.value(cut(terms(ctx, i, spec, False, fore=True), spec.cut_low, spec.cut_high, ctx.n))
        for i in range(ctx.size)
    ]


def sonneborn_berger(ctx: Context, spec: Spec) -> Values:
    """SB: sum of each opponent's adjusted score times the points scored against them (art. 9.1)."""
    return [
        ctx.value(cut(terms(ctx, i, spec, True), spec.cut_low, spec.cut_high, ctx.n), 2)
        for i in range(ctx.size)
    ]


def average_of_buchholz(ctx: Context, spec: Spec) -> Values:
    """AOB: mean Buchholz (or Fore Buchholz with /F) of the opponents met over the board (art. 8.2).

    Shown with 2 decimals below 9 rounds, 3 below 27, 4 below 73, as the reference program does.
    """
    base = fore_buchholz(ctx, spec) if spec.fore else buchholz(ctx, spec)
    places = 2 if ctx.n < 9 else 3 if ctx.n < 27 else 4 if ctx.n < 73 else 5
    quantum = Decimal(1).scaleb(-places)

    def rounded(mean: Fraction) -> Fraction:
        decimal = Decimal(mean.numerator) / Decimal(mean.denominator)
        return Fraction(decimal.quantize(quantum, ROUND_HALF_UP))

    return [None if mean is None else rounded(mean) for mean in ctx.opponents_mean(base)]

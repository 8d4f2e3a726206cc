"""The 2009 FIDE "virtual opponent" rules for unplayed games (Handbook 2012 C.02 §13.15).

For events held under the tie-break rules in force from the 2009 Congress until C.07 (2023).
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.tiebreaks.buchholz import Term, cut
from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context

Values = list[Fraction | None]


def virtual_terms(ctx: Context, i: int, sonneborn: bool) -> list[Term]:
    """Contributions of player i's rounds, each unplayed round against a virtual opponent (a).

    The virtual opponent of round R scores ``SPR + (win - SfPR) + draw * (n - R)``: the player's
    score before round R, the complement of the player's result in round R, and a draw in every
    later round.
    """
    adjusted = ctx.unplayed_as_draws
    out = []
    before = 0
    for r in range(ctx.n):
        own = ctx.pts[i][r]
        o = ctx.opp[i][r]
        if o >= 0 and ctx.kinds[i][r].played:
            score = adjusted[o]
        else:
            score = before + (ctx.win - own) + ctx.draw * (ctx.n - r - 1)
        out.append(Term(score, score * own if sonneborn else score, False))
        before += own
    return out


def buchholz_2009(ctx: Context, spec: Spec) -> Values:
    """BH under the 2009 rules: cuts remove the lowest values, with no exception."""
    return [
        ctx.value(cut(virtual_terms(ctx, i, False), spec.cut_low, spec.cut_high, ctx.n, False))
        for i in range(ctx.size)
    ]


def sonneborn_berger_2009(ctx: Context, spec: Spec) -> Values:
    """SB under the 2009 rules: a forfeit loss scores nothing, whatever the virtual opponent."""
    return [
        ctx.value(cut(virtual_terms(ctx, i, True), spec.cut_low, spec.cut_high, ctx.n, False), 2)
        for i in range(ctx.size)
    ]

"""lichess's Swiss tie-break: the ``tieBreak`` of a lichess Swiss's results.

lichess ranks a Swiss by points, then by a Sonneborn-Berger of its own, then by performance
(lila ``modules/swiss``: ``SwissScoring.computePlayers`` and ``SwissSheet``, commits a94c61e and
ce7eb94). Its rounds count as follows:

- a game, and a forfeit (a pairing whose game never started): the opponent's score, whole for a
  win and half for a draw, nothing for a loss. The score is the opponent's points as lichess
  counts them (a bye a whole point, a missed first round half), not adjusted;
- a bye given by the pairing: a virtual opponent after the 2009 FIDE rule lichess quotes, who
  has the player's points before the round, loses that round and draws every later one;
- a round missed (late for round one, absent): nothing.
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import ResultKind
from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context

Values = list[Fraction | None]


def sonneborn_berger(ctx: Context, spec: Spec) -> Values:
    """SB as lichess ranks a Swiss: opponents' actual scores, a pairing bye a virtual opponent."""
    out: Values = []
    for i in range(ctx.size):
        total = 0
        before = 0
        for r in range(ctx.n):
            own = ctx.pts[i][r]
            opponent = ctx.opp[i][r]
            if opponent >= 0:
                total += ctx.score[opponent] * own
            elif ctx.kinds[i][r] is ResultKind.PAIRING_BYE:
                virtual = before + ctx.draw * (ctx.n - r - 1)
                total += virtual * ctx.win
            before += own
        out.append(ctx.value(total, 2))
    return out

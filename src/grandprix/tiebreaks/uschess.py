"""US Chess tie-breaks, Official Rules of Chess 7th edition, rule 34E.

Unplayed games: an opponent's score is adjusted by counting each of their unplayed games as a
draw (34E, "adjusted scores"); the player's own unplayed games count as opponents with score 0.
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import ResultKind
from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context

Values = list[Fraction | None]
K = ResultKind


def _opponents(ctx: Context, i: int) -> list[int]:
    """Adjusted scores of player i's opponents, 0 for each of i's own unplayed rounds."""
    adjusted = ctx.unplayed_as_draws
    return [
        adjusted[ctx.opp[i][r]] if ctx.opp[i][r] >= 0 and ctx.kinds[i][r].played else 0
        for r in range(ctx.n)
    ]


def solkoff(ctx: Context, spec: Spec) -> Values:
    """Solkoff (34E2): the sum of the opponents' adjusted scores."""
    return [ctx.value(sum(_opponents(ctx, i))) for i in range(ctx.size)]


def _median(ctx: Context, i: int, modified: bool) -> int:
    scores = sorted(_opponents(ctx, i))
    cut = 2 if ctx.n >= 9 else 1
    half = ctx.win * ctx.n  # twice the 50% mark, in units
    low = high = cut
    if modified:
        twice = 2 * ctx.score[i]
        low = cut if twice >= half else 0  # plus or even score: drop the lowest
        high = cut if twice <= half else 0  # minus or even score: drop the highest
    kept = scores[low : len(scores) - high] if high else scores[low:]
    return sum(kept)


def modified_median(ctx: Context, spec: Spec) -> Values:
    """Modified Median (34E1): Solkoff less the lowest (plus score), the highest (minus score)
    or both (exactly 50%); two at each end from nine rounds on."""
    return [ctx.value(_median(ctx, i, True)) for i in range(ctx.size)]


def median(ctx: Context, spec: Spec) -> Values:
    """Median (Harkness): Solkoff less the highest and the lowest (two each from nine rounds)."""
    return [ctx.value(_median(ctx, i, False)) for i in range(ctx.size)]


_UNPLAYED_WINS = frozenset({K.FORFEIT_WIN, K.FULL_BYE, K.PAIRING_BYE})


def _cumulative(ctx: Context, i: int, rule_book: bool) -> int:
    """Player i's cumulative in units: the running scores summed, less the unplayed points.

    Each unplayed round's deduction is made once, in the total; the running scores themselves
    keep every point, so a bye in round 1 and one in the last round cost the same.
    """
    running = total = 0
    for r in range(ctx.n):
        points = ctx.pts[i][r]
        running += points
        total += running
        kind = ctx.kinds[i][r]
        if rule_book:
            if kind in _UNPLAYED_WINS:
                total -= ctx.win
        elif not kind.played:
            total -= points
    return total


def cumulative(ctx: Context, spec: Spec) -> Values:
    """Cumulative (34E3): summed running scores less unplayed points (SwissSys); /R: unplayed wins.

    With ``S_r`` the player's running score after round r (every point counted: games, byes and
    forfeits) and n rounds, the value is ``S_1 + ... + S_n - U``:

    - by default (SwissSys, what US directors see on their standings) ``U`` is the sum of the
      points scored in unplayed rounds (with 1/½/0 scoring: 1 per forfeit win, full-point bye
      or pairing bye, 1/2 per half-point bye, 0 for zero-point byes, forfeit losses and rounds
      not played);
    - with ``/R`` (the rule book's reading) ``U`` is one
      win's points per unplayed win (forfeit win, full-point bye, pairing bye); a half-point bye
      costs nothing.

    Each unplayed round is subtracted once, whatever its round: it is not taken out of the later
    running scores (that would cost a round-1 bye n times its points, a last-round bye once).
    Sources: the rule as quoted by US clubs reads "subtract one point for each one-point bye or
    forfeit win", with a worked example whose round-1 bye costs 1 in all (Renaissance Knights,
    renaissanceknights.org, "Tiebreak Rules"); the quotations found say nothing of half-point
    byes, and neither the 7th-edition text nor its TD tips could be read here. SwissSys also
    subtracts 1/2 per half-point bye: on 145 US sections (2,992 players) its printed
    Cumulative differs from the rule-book reading by exactly that and nothing else; some
    organisers write it into their rules ("Subtract 0.5 point for each unplayed draw or
    half-point bye", bnasc.org, "Individual tie-breaks explained"). SwissSys is the default
    because it is what US directors and players see.
    """
    return [ctx.value(_cumulative(ctx, i, spec.rule_book)) for i in range(ctx.size)]


def opposition_cumulative(ctx: Context, spec: Spec) -> Values:
    """Cumulative of opposition (34E9): the sum of the opponents' CUM; with /R, of their CUM/R.

    The opponents met over the board count, each with the Cumulative of ``cumulative`` (the
    SwissSys reading by default, the rule book's with ``/R``); the player's own unplayed rounds
    count 0.
    """
    cumulatives = [_cumulative(ctx, i, spec.rule_book) for i in range(ctx.size)]
    return [
        ctx.value(
            sum(
                cumulatives[ctx.opp[i][r]]
                for r in range(ctx.n)
                if ctx.opp[i][r] >= 0 and ctx.kinds[i][r].played
            )
        )
        for i in range(ctx.size)
    ]


def kashdan(ctx: Context, spec: Spec) -> Values:
    """Kashdan (34E7): 4 per win, 2 per draw, 1 per loss over the board; unplayed games 0."""
    weight = {"win": 4, "draw": 2, "loss": 1}
    return [Fraction(sum(weight[k.outcome] for k in kinds if k.played)) for kinds in ctx.kinds]


def sonneborn_berger_us(ctx: Context, spec: Spec) -> Values:
    """Sonneborn-Berger (34E6): adjusted scores of beaten opponents plus half of those drawn."""
    adjusted = ctx.unplayed_as_draws
    out: Values = []
    for i in range(ctx.size):
        total = Fraction(0)
        for r in range(ctx.n):
            o = ctx.opp[i][r]
            if o >= 0 and ctx.kinds[i][r].played:
                outcome = ctx.kinds[i][r].outcome
                if outcome == "win":
                    total += adjusted[o]
                elif outcome == "draw":
                    total += Fraction(adjusted[o], 2)
        out.append(total / ctx.scale)
    return out

"""Rating-based tie-breaks (FIDE C.07 art. 10): ARO, TPR, PTP, APRO, APPO.

They use games played over the board only, and the results 1 / ½ / 0 whatever the event's
scoring. If any participant is unrated they are not computed (None) unless a rating for unrated
players was stated beforehand.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction

from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context

Values = list[Fraction | None]

# FIDE B.02 table 8.1.1: percentage score p (0.50..1.00) -> rating difference dp.
_DP_UPPER = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)
# FIDE B.02 table 8.1.2: the smallest rating difference giving an expected score of
# 0.51, 0.52, ..., 1.00 for the higher-rated player.
_PD_STEPS = (
    4,
    11,
    18,
    26,
    33,
    40,
    47,
    54,
    62,
    69,
    77,
    84,
    92,
    99,
    107,
    114,
    122,
    130,
    138,
    146,
    154,
    163,
    171,
    180,
    189,
    198,
    207,
    216,
    226,
    236,
    246,
    257,
    268,
    279,
    291,
    303,
    316,
    329,
    345,
    358,
    375,
    392,
    412,
    433,
    457,
    485,
    518,
    560,
    620,
    736,
)


def dp(percent: int) -> int:
    """Rating difference for a score of ``percent`` hundredths (0..100), FIDE B.02 8.1.1."""
    return _DP_UPPER[percent - 50] if percent >= 50 else -_DP_UPPER[50 - percent]


def expected(diff: int) -> int:
    """Expected score in hundredths for a rating difference (own minus opponent), capped at 800."""
    step = bisect_left(_PD_STEPS, abs(diff) + 1)
    return 50 + step if diff >= 0 else 50 - step


def _half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def _games(ctx: Context, i: int, spec: Spec) -> tuple[list[int], int] | None:
    """Ratings of player i's over-the-board opponents after cuts, and half-points scored."""
    ratings: list[tuple[int, int]] = []
    for r in range(ctx.n):
        o = ctx.opp[i][r]
        if o < 0 or not ctx.kinds[i][r].played:
            continue
        rating = ctx.ratings[o] if ctx.ratings[o] is not None else ctx.unrated_rating
        assert rating is not None
        outcome = ctx.kinds[i][r].outcome
        ratings.append((rating, 2 if outcome == "win" else 1 if outcome == "draw" else 0))
    low = min(spec.cut_low, ctx.n)
    high = min(spec.cut_high, ctx.n - low)
    ratings.sort(key=lambda t: t[0])
    ratings = ratings[low : len(ratings) - high] if high else ratings[low:]
    if not ratings:
        return None
    return [t[0] for t in ratings], sum(t[1] for t in ratings)


def _usable(ctx: Context) -> bool:
    return ctx.unrated_rating is not None or all(r is not None for r in ctx.ratings)


def average_rating(ctx: Context, spec: Spec) -> Values:
    """ARO: mean rating of the opponents met over the board, rounded half up (art. 10.1)."""
    if not _usable(ctx):
        return [None] * ctx.size
    out: Values = []
    for i in range(ctx.size):
        games = _games(ctx, i, spec)
        out.append(None if games is None else Fraction(_half_up(sum(games[0]), len(games[0]))))
    return out


def _tpr(ratings: list[int], halves: int) -> int:
    percent = _half_up(halves * 50, len(ratings))  # score/games in hundredths, half up
    return _half_up(sum(ratings), len(ratings)) + dp(percent)


def _ptp(ratings: list[int], halves: int) -> int:
    """Lowest R whose expected score against ``ratings`` reaches the score (art. 10.3)."""
    if halves == 0:
        return min(ratings) - 800
    target = halves * 50  # hundredths
    low, high = min(ratings) - 800, max(ratings) + 800
    if sum(expected(high - r) for r in ratings) < target:
        return high
    while high - low > 1:
        mid = (low + high) // 2
        if sum(expected(mid - r) for r in ratings) >= target:
            high = mid
        else:
            low = mid
    return high


def _performance(ctx: Context, spec: Spec, perfect: bool) -> Values:
    if not _usable(ctx):
        return [None] * ctx.size
    out: Values = []
    for i in range(ctx.size):
        games = _games(ctx, i, spec)
        if games is None:
            out.append(None)
        else:
            out.append(Fraction(_ptp(*games) if perfect else _tpr(*games)))
    return out


def performance(ctx: Context, spec: Spec) -> Values:
    """TPR: ARO plus dp of the percentage score, FIDE B.02 table 8.1.1 (art. 10.2)."""
    return _performance(ctx, spec, perfect=False)


def perfect_performance(ctx: Context, spec: Spec) -> Values:
    """PTP: the lowest rating whose expected score equals the score achieved (art. 10.3)."""
    return _performance(ctx, spec, perfect=True)


def _average_of(ctx: Context, base: Values) -> Values:
    """The opponents' mean, rounded half up to a whole rating point (art. 10.4, 10.5)."""
    means = ctx.opponents_mean(base)
    return [None if m is None else Fraction(_half_up(m.numerator, m.denominator)) for m in means]


def average_performance(ctx: Context, spec: Spec) -> Values:
    """APRO: mean TPR of the opponents met over the board (art. 10.4)."""
    return _average_of(ctx, performance(ctx, spec))


def average_perfect_performance(ctx: Context, spec: Spec) -> Values:
    """APPO: mean PTP of the opponents met over the board (art. 10.5)."""
    return _average_of(ctx, perfect_performance(ctx, spec))

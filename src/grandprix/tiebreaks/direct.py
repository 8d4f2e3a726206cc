"""Direct encounter (FIDE C.07 art. 6): the results of the games among the tied players."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grandprix.tiebreaks.codes import Spec
from grandprix.tiebreaks.context import Context


def direct_encounter(ctx: Context, spec: Spec, groups: Sequence[Sequence[int]]) -> list[int]:
    """The place (1 = first) each player takes inside their group of tied players.

    Art. 6.1: if all the tied players met, they are ranked by the points scored against each
    other (repeated pairings are averaged). Art. 6.2: otherwise a player is ranked first only when
    their score exceeds what any other tied player could reach by winning every missing game; the
    rest stay tied. The rule is applied again to every subgroup that is still tied. Forfeits are
    not games unless /P is given or the event is a round robin (art. 15).
    """
    place = [0] * ctx.size
    for group in groups:
        for offset, sub in _rank(ctx, spec, list(group)):
            for i in sub:
                place[i] = offset
    return place


def _rank(ctx: Context, spec: Spec, group: list[int]) -> list[tuple[int, list[int]]]:
    """Split ``group`` into ordered subgroups, each with its 1-based place inside the group."""
    pending = [(1, group)]
    done: list[tuple[int, list[int]]] = []
    while pending:
        start, members = pending.pop()
        if len(members) == 1:
            done.append((start, members))
            continue
        parts = _single_run(ctx, spec, members)
        if len(parts) == 1:
            done.append((start, members))
            continue
        position = start
        for part in parts:
            pending.append((position, part))
            position += len(part)
    return sorted(done)


def _single_run(ctx: Context, spec: Spec, members: list[int]) -> list[list[int]]:
    inside = set(members)
    need = len(members) - 1
    scores: dict[int, Fraction] = {}
    best: dict[int, Fraction] = {}
    all_met = True
    for i in members:
        per_opponent: dict[int, list[int]] = {}
        for r in range(ctx.n):
            o = ctx.opp[i][r]
            if o in inside and ctx.met_over_the_board(i, r, spec.forfeits_played):
                per_opponent.setdefault(o, []).append(ctx.pts[i][r])
        score = sum((Fraction(sum(v), len(v)) for v in per_opponent.values()), Fraction(0))
        scores[i] = score
        best[i] = score
        if not ctx.round_robin and len(per_opponent) < need:
            all_met = False
            best[i] = score + (need - len(per_opponent)) * ctx.win
    if all_met:
        ordered = sorted(members, key=lambda i: -scores[i])
        parts: list[list[int]] = []
        for i in ordered:
            if parts and scores[parts[-1][0]] == scores[i]:
                parts[-1].append(i)
            else:
                parts.append([i])
        return parts
    ordered = sorted(members, key=lambda i: (-scores[i], -best[i]))
    parts = [[ordered[0]]]
    separate = True
    for k in range(1, len(ordered)):
        challenger = max(best[j] for j in ordered[k:])
        if separate and scores[ordered[k - 1]] > challenger:
            parts.append([ordered[k]])
        else:
            parts[-1].append(ordered[k])
            separate = False
    return parts

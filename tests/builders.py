"""Tiny tournaments written the way an arbiter reads a crosstable.

``build(rounds, {"P": ["A w 1", "H", "B b 0", "C w +", "D b 1"], ...})``: each round is either
``OPPONENT COLOUR CODE`` or a bye code alone (``H F U Z``, ``-`` absent, ``X`` withdrawn). Players
named only as opponents get the mirrored result and nothing else (withdrawn elsewhere).
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import Player, ResultKind, Round, Scoring, Section
from grandprix.readers.trf import CODES

K = ResultKind


def build(
    rounds: int,
    table: dict[str, list[str]],
    round_robin: bool = False,
    scoring: Scoring | None = None,
    ratings: dict[str, int] | None = None,
) -> Section:
    scoring = scoring or Scoring()
    names = list(table)
    for tokens in table.values():
        for token in tokens:
            parts = token.split()
            if len(parts) == 3 and parts[0] not in names:
                names.append(parts[0])
    number = {name: i + 1 for i, name in enumerate(names)}
    grid: dict[str, dict[int, Round]] = {name: {} for name in names}
    for name, tokens in table.items():
        for r, token in enumerate(tokens, start=1):
            parts = token.split()
            if len(parts) == 3:
                opp, colour, code = parts
                kind = CODES[code]
                grid[name][r] = Round(r, kind, scoring.points(kind), number[opp], colour)
                if opp not in table:
                    other = kind.opposite
                    assert other is not None, token
                    back = "b" if colour == "w" else "w"
                    grid[opp][r] = Round(r, other, scoring.points(other), number[name], back)
            else:
                kind = K.WITHDRAWN if token == "X" else K.ABSENT if token == "-" else CODES[token]
                grid[name][r] = Round(r, kind, scoring.points(kind))
    players = []
    for name in names:
        rows = tuple(
            grid[name].get(r, Round(r, K.WITHDRAWN, Fraction(0))) for r in range(1, rounds + 1)
        )
        rating = (ratings or {}).get(name)
        players.append(Player(start_no=number[name], name=name, rounds=rows, rating=rating))
    return Section(
        name="test", players=tuple(players), rounds=rounds, scoring=scoring, round_robin=round_robin
    )


def worked_example() -> Section:
    """The 5-round Swiss of the tie-break notes §4: P and the opponents A, B, C, D."""
    return build(
        5,
        {
            "P": ["A w 1", "H", "B b 0", "C w +", "D b 1"],
            "A": ["P b 0", "E1 w 1", "E2 w 1", "E3 w 1", "Z"],
            "B": ["F1 w 1", "F2 w 1", "P w 1", "F3 w 1", "F4 w 0"],
            "C": ["G1 w 1", "G2 w 0", "G3 w =", "P b -", "G4 w 0"],
            "D": ["H1 w 1", "H2 w 1", "H3 w 0", "H4 w 0", "P w 0"],
        },
    )

"""The absolute criteria every Swiss pairing must meet, checked on the engine's answer before
it is written: the engine is not trusted blindly.

- Every player to pair is paired once: on one board, or given the pairing-allocated bye; at
  most one bye, and only when the players to pair are odd in number (C.04.1 c).
- No rematch: two players shall not play each other more than once (C.04.1 b; C.04.3 C.1),
  a game played in full or short counting, a forfeit not (the game did not take place); no
  pair the tournament forbids (record 260).
- The pairing-allocated bye never goes to a player who already had one, who scored a point
  without playing through a forfeit win, or who was given a full-point bye (C.04.1 d;
  C.04.3 C.2).
- No absolute colour preference broken (C.04.1 f, g; C.04.3 A.6 a, C.3): after the round no
  player's colour difference is above 2 or below -2, and no player has the same colour three
  times in a row, counting played games only; in the last round a topscorer (more than half
  the maximum score, C.04.3 A.7) is exempt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from grandprix.errors import UsageError
from grandprix.model import Player, ResultKind
from grandprix.pairing.state import Pairing, Tournament

K = ResultKind
_POINT_WITHOUT_PLAYING = frozenset({K.PAIRING_BYE, K.FORFEIT_WIN, K.FULL_BYE})


class PairingRefused(UsageError):
    """A pairing that breaks an absolute criterion: nothing is written."""

    def __init__(self, number: int, found: Sequence[str], engine: str) -> None:
        self.found = tuple(found)
        lines = "\n".join(f"  {line}" for line in found)
        super().__init__(
            f"the pairing of round {number} by {engine} breaks the absolute criteria; it was "
            f"not written:\n{lines}"
        )


def colours(player: Player) -> list[str]:
    """The colours of the player's played games, in order (C.04.3 A.6: unplayed rounds give
    no colour)."""
    return [r.colour for r in player.rounds if r.kind.played and r.colour in ("w", "b")]


def violations(tournament: Tournament, pairing: Pairing, extra_byes: int = 0) -> list[str]:
    """Every absolute criterion the pairing breaks, said in words (empty when none)."""
    section = tournament.section
    plan = tournament.plan
    number = pairing.number
    players = {p.start_no: p for p in section.players}
    out: list[str] = []
    seen = Counter(n for b in pairing.boards for n in (b.white, b.black))
    if pairing.bye is not None:
        seen[pairing.bye] += 1
    for start_no, _ in pairing.unpaired:
        seen[start_no] += 1
    for start_no in sorted(set(players) | set(seen)):
        if start_no not in players:
            out.append(f"player {start_no} is not in the tournament")
        elif seen[start_no] == 0:
            out.append(f"player {start_no} is neither paired nor given a bye (C.04.1 c)")
        elif seen[start_no] > 1:
            out.append(f"player {start_no} is paired {seen[start_no]} times")
    to_pair = len(players) - len(pairing.unpaired)
    if extra_byes:
        out.append(f"{extra_byes + 1} pairing-allocated byes; at most one (C.04.1 c)")
    if pairing.bye is not None and to_pair % 2 == 0:
        out.append(
            f"a pairing-allocated bye (player {pairing.bye}) with an even number of players "
            f"to pair ({to_pair}) (C.04.1 c)"
        )
    met = {
        (p.start_no, r.opponent)
        for p in section.players
        for r in p.rounds
        if r.kind.played and r.opponent is not None
    }
    for board in pairing.boards:
        pair = (board.white, board.black)
        if pair in met:
            out.append(
                f"board {board.number}: {board.white} and {board.black} have played each "
                "other already (C.04.1 b, C.04.3 C.1)"
            )
        for rule in plan.forbidden:
            if rule.forbids(board.white, board.black, number):
                out.append(
                    f"board {board.number}: {board.white} and {board.black} may not be paired "
                    f"in round {number} (record 260)"
                )
    if pairing.bye is not None and pairing.bye in players:
        had = [r for r in players[pairing.bye].rounds if r.kind in _POINT_WITHOUT_PLAYING]
        if had:
            first = had[0]
            what = {
                K.PAIRING_BYE: "a pairing-allocated bye",
                K.FORFEIT_WIN: "a forfeit win",
                K.FULL_BYE: "a full-point bye",
            }[first.kind]
            out.append(
                f"the pairing-allocated bye goes to player {pairing.bye}, who had {what} in "
                f"round {first.number} (C.04.1 d, C.04.3 C.2)"
            )
    last = number == plan.rounds
    most = _maximum(tournament, number)
    for board in pairing.boards:
        for start_no, colour in ((board.white, "w"), (board.black, "b")):
            player = players.get(start_no)
            if player is None:
                continue
            if last and player.points * 2 > most:
                continue  # a topscorer in the last round (C.04.3 A.7, C.3)
            broken = _colour_broken([*colours(player), colour])
            if broken:
                out.append(f"board {board.number}: player {start_no} {broken} (C.04.1 f, g)")
    return out


def _maximum(tournament: Tournament, number: int) -> Fraction:
    """The most a player can have scored before round ``number``."""
    return tournament.section.scoring.win * (number - 1)


def _colour_broken(sequence: list[str]) -> str:
    """How a colour sequence breaks C.04.1 f or g ('' when it does not)."""
    difference = sequence.count("w") - sequence.count("b")
    if abs(difference) > 2:
        return f"would have a colour difference of {difference:+d}"
    if len(sequence) >= 3 and len(set(sequence[-3:])) == 1:
        name = "White" if sequence[-1] == "w" else "Black"
        return f"would have {name} three times in a row"
    return ""

"""The absolute criteria every Swiss pairing must meet, checked on the engine's answer before
it is written: the engine is not trusted blindly. Articles of the Dutch system (C.04.3) and of
the basic rules for Swiss systems (C.04.1) as in force from 1 February 2026.

- Every player to pair is paired once: on one board, or given the pairing-allocated bye; at
  most one bye, and only when the players to pair are odd in number (C.04.1 art. 3).
- No rematch: two players do not meet twice (C.04.1 art. 2; C.04.3 art. 2.1.1 [C1]), a game
  played in full or short counting, a forfeit not (the game did not take place, C.04.2); no
  pair the tournament forbids (TRF-2026 record 260).
- The pairing-allocated bye never goes to a player who already had one, or who scored a
  win's points in a round without playing: a forfeit win or a full-point bye (C.04.1 art. 4;
  C.04.3 art. 2.1.2 [C2]).
- No absolute colour preference broken (C.04.1 arts. 6, 7; C.04.3 arts. 1.7.1, 2.1.3 [C3]):
  after the round no player's colour difference is above 2 or below -2, and no player has the
  same colour three times in a row, counting played games only (C.04.3 art. 1.6). The one
  exception of the Dutch system: a board with a topscorer (more than half the maximum score
  when the last round is paired, art. 1.8).
"""

from __future__ import annotations

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
    """The colours of the player's played games, in order (C.04.3 art. 1.6: unplayed rounds
    give no colour)."""
    return [r.colour for r in player.rounds if r.kind.played and r.colour in ("w", "b")]


def violations(tournament: Tournament, pairing: Pairing, extra_byes: int = 0) -> list[str]:
    """Every absolute criterion the pairing breaks, said in words (empty when none)."""
    section = tournament.section
    plan = tournament.plan
    number = pairing.number
    players = {p.start_no: p for p in section.players}
    out: list[str] = []
    seen: dict[int, list[str]] = {}
    for b in pairing.boards:
        for n in (b.white, b.black):
            seen.setdefault(n, []).append(f"on board {b.number}")
    if pairing.bye is not None:
        seen.setdefault(pairing.bye, []).append("given the pairing-allocated bye")
    for start_no, kind in pairing.unpaired:
        seen.setdefault(start_no, []).append(f"without a game ({_WITHOUT_GAME.get(kind, kind)})")
    for start_no in sorted(set(players) | set(seen)):
        if start_no not in players:
            out.append(f"player {start_no} is not in the tournament")
        elif start_no not in seen:
            out.append(f"player {start_no} is neither paired nor given a bye (C.04.1 art. 3)")
        elif len(seen[start_no]) > 1:
            out.append(f"player {start_no} is placed twice: {' and '.join(seen[start_no])}")
    to_pair = len(players) - len(pairing.unpaired)
    if extra_byes:
        out.append(f"{extra_byes + 1} pairing-allocated byes; at most one (C.04.1 art. 3)")
    if pairing.bye is not None and to_pair % 2 == 0:
        out.append(
            f"a pairing-allocated bye (player {pairing.bye}) with an even number of players "
            f"to pair ({to_pair}) (C.04.1 art. 3)"
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
                "other already (C.04.1 art. 2, C.04.3 [C1])"
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
                f"round {first.number} (C.04.1 art. 4, C.04.3 [C2])"
            )
    last = number == plan.rounds
    most = _maximum(tournament, number)
    for board in pairing.boards:
        two = [players.get(board.white), players.get(board.black)]
        if last and any(p is not None and p.points * 2 > most for p in two):
            continue  # a topscorer on the board, pairing the last round (art. 1.8, [C3])
        for player, colour in zip(two, "wb", strict=True):
            broken = _colour_broken([*colours(player), colour]) if player is not None else ""
            if broken and player is not None:
                out.append(
                    f"board {board.number}: player {player.start_no} {broken} (C.04.1 arts. "
                    "6, 7; C.04.3 [C3])"
                )
    return out


_WITHOUT_GAME = {
    K.HALF_BYE: "a half-point bye",
    K.FULL_BYE: "a full-point bye",
    K.ZERO_BYE: "a zero-point bye",
    K.ABSENT: "absent",
    K.WITHDRAWN: "withdrawn",
}


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

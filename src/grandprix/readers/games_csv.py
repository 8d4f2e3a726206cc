"""Games CSV: an event as the list of its games, one row a game, as club programs and
spreadsheets keep a rapid or blitz evening.

Columns: ``white`` and ``black`` (the players' names; ``wit``/``zwart`` in Dutch), and the
result either as one ``result`` cell (``1-0``, ``0-1``, ``½-½``, ``1/2-1/2``, forfeits ``+-``,
``-+``, ``--``) or as two cells ``white_result`` and ``black_result`` (``wr``/``zr``: ``1``,
``0``, ``½``/``0.5``, ``+``/``-``). Rounds come from a ``round`` column, or from marker rows
that hold only a first cell (``partij 2``, ``round 2``): each starts the next round. A row whose
black (or white) is ``bye`` gives the other player the pairing-allocated bye of that round.

Players are numbered in the order they first appear and known by their names as written; a
player with no game in a round was not paired in it. The games become a crosstable (``Section``
with rounds), checked as every crosstable is (``crosstable.assemble``).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Final

from grandprix.model import Location, Problem, ResultKind, Section
from grandprix.readers.bounds import Bound, MiB, within
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo, assemble
from grandprix.readers.text import csv_rows, decode, excerpt

K = ResultKind
MAX_ROUNDS: Final = 1000
BOUND: Final = Bound(
    32 * MiB,
    "a games list",
    "a list of 100,000 games is about 4 MB",
    "Save the list of one event's games",
    lines=1_000_000,
)
_ALIASES = {
    "white": "white",
    "wit": "white",
    "black": "black",
    "zwart": "black",
    "result": "result",
    "uitslag": "result",
    "white_result": "white_result",
    "wr": "white_result",
    "black_result": "black_result",
    "zr": "black_result",
    "round": "round",
    "ronde": "round",
    "rd": "round",
}
_BYE = "bye"
_HALF = Fraction(1, 2)
# One player's result cell: its points, or a forfeit.
_CELL = {
    "1": K.WIN,
    "0": K.LOSS,
    "½": K.DRAW,
    "0.5": K.DRAW,
    "0,5": K.DRAW,
    "1/2": K.DRAW,
    "=": K.DRAW,
    "+": K.FORFEIT_WIN,
    "-": K.FORFEIT_LOSS,
}
# A row that starts a round: 'round 2', 'partij 2', 'Rd 2', 'R2', or the number alone.
_MARKER = re.compile(r"(?i)(?:round|ronde|partij|rd|r)?\s*([0-9]{1,4})\.?")
_NUMBER = re.compile(r"[0-9]{1,4}")
# What a bye row's result cell gives the player who has the bye.
_BYES = {
    "": K.PAIRING_BYE,
    "1": K.PAIRING_BYE,
    "+": K.PAIRING_BYE,
    "½": K.HALF_BYE,
    "0.5": K.HALF_BYE,
    "0,5": K.HALF_BYE,
    "1/2": K.HALF_BYE,
    "=": K.HALF_BYE,
    "0": K.ZERO_BYE,
    "-": K.ZERO_BYE,
}
_RESULTS = "1-0, 0-1, ½-½ (or 1/2-1/2), +- or -+ (forfeits), -- (both forfeited)"


def _header(row: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, cell in enumerate(row):
        known = _ALIASES.get(cell.strip().lower().replace(" ", "_"))
        if known is not None:
            out.setdefault(known, i)
    return out


def recognise(suffix: str, head: bytes) -> bool:
    """A games list: a .csv file whose header names a white and a black column and their
    result (one ``result`` column, or one for each side)."""
    if suffix != ".csv":
        return False
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].decode("latin-1")
    found = _header(re.split(r"[,;]", first))
    one = "result" in found
    two = "white_result" in found and "black_result" in found
    return "white" in found and "black" in found and (one or two)


def read_games_csv(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read a games list; the crosstable it makes and every problem found."""
    name = str(path)
    refused: list[Problem] = []
    data = within(path, data, BOUND, refused)
    if data is None:
        return None, refused
    lines, problems = decode(data, name)
    rows = csv_rows(lines, name) if lines else []
    found = _header(rows[0]) if rows else {}
    if "white" not in found or "black" not in found:
        problems.append(
            Problem(
                Location(name, 1),
                "the header row names no 'white' and 'black' columns (a games list: white, "
                "black, result)",
            )
        )
        return None, problems
    reader = _Games(name, found, problems)
    for number, row in enumerate(rows[1:], start=2):
        if any(cell.strip() for cell in row):
            reader.row(number, row)
    if not reader.players:
        problems.append(Problem(Location(name), "the file lists no games"))
        return None, problems
    return reader.section(), problems


class _Games:
    """The rows of one games list, read one by one."""

    def __init__(self, name: str, columns: dict[str, int], problems: list[Problem]) -> None:
        self.name, self.columns, self.problems = name, columns, problems
        self.players: dict[str, RawPlayer] = {}
        self.rounds: dict[int, dict[int, RawRound]] = {}  # start number -> round -> its result
        self.round = 0  # the round of the rows read now (markers)
        self.seen: dict[tuple[int, int], int] = {}  # (start number, round) -> line

    def cell(self, row: list[str], key: str) -> str:
        i = self.columns.get(key)
        return row[i].strip() if i is not None and i < len(row) else ""

    def player(self, name: str, where: Location) -> RawPlayer:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = RawPlayer(len(self.players) + 1, name, where)
        return found

    def row(self, number: int, row: list[str]) -> None:
        where = Location(self.name, number)
        white, black = self.cell(row, "white"), self.cell(row, "black")
        if "round" not in self.columns and not any(c.strip() for c in row[1:]):
            marker = _MARKER.fullmatch(row[0].strip())
            if marker is not None:
                self.round = int(marker[1])
                return
        round_no = self.round
        if "round" in self.columns:
            text = self.cell(row, "round")
            round_no = int(text) if _NUMBER.fullmatch(text) else 0
        if not 1 <= round_no <= MAX_ROUNDS:
            self.problems.append(
                Problem(
                    where,
                    "a game before any round: start each round with a row naming it (round 1) "
                    f"or give a 'round' column of 1 to {MAX_ROUNDS}",
                )
            )
            return
        if not white or not black:
            self.problems.append(
                Problem(where, "a game needs both players: fill 'white' and 'black' (or 'bye')")
            )
            return
        if black.lower() == _BYE or white.lower() == _BYE:
            if black.lower() == white.lower():
                self.problems.append(Problem(where, "a bye needs a player: name who has it"))
                return
            kind = self.bye(row, white.lower() == _BYE, where)
            if kind is not None:
                who = white if black.lower() == _BYE else black
                self.add(self.player(who, where), round_no, kind, None, None, where)
            return
        kinds = self.result(row, where)
        if kinds is None:
            return
        w, b = self.player(white, where), self.player(black, where)
        if w is b:
            self.problems.append(Problem(where, f"{excerpt(white)} is paired with themself"))
            return
        self.add(w, round_no, kinds[0], b.start_no, "w", where)
        self.add(b, round_no, kinds[1], w.start_no, "b", where)

    def bye(self, row: list[str], black_has_it: bool, where: Location) -> ResultKind | None:
        """The bye a row gives: the pairing's (a point) when its result is empty, 1 or +; a
        half-point or zero-point bye for ½ or 0."""
        if "result" in self.columns:
            text = self.cell(row, "result").replace(" ", "").replace("–", "-")
            parts = text.split("-")
            cell = parts[1 if black_has_it else 0] if len(parts) == 2 and parts[0] else text
            field = "result"
        else:
            field = "black_result" if black_has_it else "white_result"
            cell = self.cell(row, field)
        found = _BYES.get(cell)
        if found is None:
            self.problems.append(
                Problem(
                    where,
                    f"field '{field}' = {excerpt(cell)} is not a bye's result: leave it empty or "
                    "write 1 for the pairing's bye, ½ for a half-point bye, 0 for a zero-point bye",
                )
            )
        return found

    def result(self, row: list[str], where: Location) -> tuple[ResultKind, ResultKind] | None:
        if "result" in self.columns:
            text = self.cell(row, "result").replace(" ", "").replace("–", "-")
            if text == "--":
                return K.FORFEIT_LOSS, K.FORFEIT_LOSS
            if text in ("+-", "-+"):
                return (
                    (K.FORFEIT_WIN, K.FORFEIT_LOSS)
                    if text == "+-"
                    else (K.FORFEIT_LOSS, K.FORFEIT_WIN)
                )
            parts = text.split("-")
            white = _CELL.get(parts[0]) if len(parts) == 2 else None
            black = _CELL.get(parts[1]) if len(parts) == 2 else None
            field = "result"
        else:
            text = f"{self.cell(row, 'white_result')}, {self.cell(row, 'black_result')}"
            white = _CELL.get(self.cell(row, "white_result"))
            black = _CELL.get(self.cell(row, "black_result"))
            field = "white_result, black_result"
        if white is None or black is None or white.opposite != black:
            self.problems.append(
                Problem(
                    where,
                    f"field '{field}' = {excerpt(text)} is not a game's result: write {_RESULTS}",
                )
            )
            return None
        return white, black

    def add(
        self,
        player: RawPlayer,
        round_no: int,
        kind: ResultKind,
        opponent: int | None,
        colour: str | None,
        where: Location,
    ) -> None:
        key = (player.start_no, round_no)
        if key in self.seen:
            self.problems.append(
                Problem(
                    where,
                    f"{excerpt(player.name)} plays twice in round {round_no} (also on line "
                    f"{self.seen[key]}): one game a round",
                )
            )
            return
        self.seen[key] = where.line
        self.rounds.setdefault(player.start_no, {})[round_no] = RawRound(
            round_no, kind, opponent, colour, where
        )

    def section(self) -> Section:
        rounds = max((max(r) for r in self.rounds.values() if r), default=0)
        raw = []
        for player in self.players.values():
            mine = self.rounds.get(player.start_no, {})
            player.rounds = [
                mine.get(n) or RawRound(n, K.ABSENT, None, None, player.location)
                for n in range(1, rounds + 1)
            ]
            raw.append(player)
        info = SectionInfo(name=Path(self.name).stem, source=self.name, rounds=rounds)
        return assemble(info, raw, self.problems)

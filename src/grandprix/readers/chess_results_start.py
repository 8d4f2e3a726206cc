"""chess-results.com "Starting rank crosstable" exports: a Swiss list or a round-robin matrix.

Rows are in STARTING RANK order and the first column, ``No.``, is the start number; then the
title (a column without a heading), ``Name``, ``Rtg``, ``FED``, the rounds, ``Pts.``, ``Rk.``
(the final rank) and the tie-break columns ``TB1``... The rounds are either

- Swiss: one column a round (``1.Rd``, ``2.Rd``, ...) whose cells are those of the Final
  Ranking export (``16w1``, `` 9b½``, ``19b-``, ``-1`` a pairing-allocated bye, ``0`` not
  paired), except that the opponent is named by START NUMBER; or
- a round-robin matrix: one column a player, headed by start numbers ``1``..``n``; the cell of
  row i, column j is i's result against j (``1``, ``0``, ``½``, ``+`` / ``-`` for a forfeit,
  ``*`` on the diagonal, empty if not played). The matrix shows neither rounds nor colours: each
  game is placed in the round the FIDE Berger tables give it (C.05 Annex 1; chess-results pairs
  round robins by them), colours are left unknown, and with an odd number of players the player
  the tables pair with the missing number sits the round out (not paired, 0 points).

The "Starting rank crosstable" caption is above the header row in Swiss exports and below the
players in round-robin ones; the reader does not need it.
"""

from __future__ import annotations

import re

from grandprix.model import Location, Problem, ResultKind, Section, Severity
from grandprix.readers.chess_results_sheet import (
    Cell,
    Columns,
    cell_of,
    read_identity,
    read_rounds,
)
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo, assemble
from grandprix.readers.text import excerpt

K = ResultKind
_MATRIX_KIND = {
    "1": K.WIN,
    "0": K.LOSS,
    "½": K.DRAW,
    "=": K.DRAW,
    "0.5": K.DRAW,
    "0,5": K.DRAW,
    "+": K.FORFEIT_WIN,
    "-": K.FORFEIT_LOSS,
}
_MAX_START_NO = 99_999
_WHOLE = re.compile(r"[0-9]{1,5}")


def read_start_table(
    info: SectionInfo,
    grid: list[list[Cell]],
    header_at: int,
    columns: Columns,
    problems: list[Problem],
) -> Section | None:
    """The players under the header row ``grid[header_at]`` (which opens with ``No.``)."""
    header = grid[header_at]
    matrix = [index for index, (text, _) in enumerate(header) if _whole(text) is not None]
    if "name" not in columns or not (columns["rounds"] or matrix):
        problems.append(
            Problem(
                header[0][1],
                "the header row needs Name and round columns ('1.Rd', '2.Rd', ...) or, for a "
                "round robin, one column a player headed 1, 2, 3, ... (export the 'Starting "
                "rank crosstable' from chess-results)",
            )
        )
        return None
    rows: list[list[Cell]] = []
    for row in grid[header_at + 1 :]:
        name_cell = cell_of(row, columns, "name")
        if name_cell is None or not name_cell[0].strip():
            break  # the footer (or, in a round robin, the caption) starts after the players
        rows.append(row)
    if not rows:
        problems.append(Problem(header[0][1], "no player rows under the header row"))
        return None
    players = [_read_row(row, position, columns, problems) for position, row in enumerate(rows, 1)]
    if columns["rounds"]:
        for player, row in zip(players, rows, strict=True):
            read_rounds(player, row, columns, problems)
        info.rounds = len(columns["rounds"])
    else:
        if not _matrix_heads_are_start_numbers(header, matrix, len(players), problems):
            return None
        info.rounds = _read_matrix(players, rows, matrix, problems)
        info.round_robin = True
    return assemble(info, players, problems)


def _read_row(
    row: list[Cell], position: int, columns: Columns, problems: list[Problem]
) -> RawPlayer:
    """A row's start number (``No.``), identity, points and final rank."""
    number = cell_of(row, columns, "number")
    text = number[0].strip() if number else ""
    start_no = _whole(text) or None
    player = read_identity(row, columns, start_no or position, problems)
    if start_no is None:
        player.damaged = True
        problems.append(
            Problem(
                number[1] if number else player.location,
                f"start number {excerpt(text)} of {player.name} in column `No.` is not a whole "
                f"number from 1 to {_MAX_START_NO} (the starting rank: 1, 2, 3, ...); row "
                f"{position} is read as number {position}",
            )
        )
    rank = cell_of(row, columns, "rank")
    if rank is not None and not player.declared_rank:
        problems.append(
            Problem(
                rank[1],
                f"`Rk.` is empty for {player.name} (No. {player.start_no}): in a starting rank "
                "crosstable the row above is not the place above, so the rank column is not "
                "used for the placings; write the player's final rank",
                Severity.WARNING,
            )
        )
    return player


def _matrix_heads_are_start_numbers(
    header: list[Cell], matrix: list[int], players: int, problems: list[Problem]
) -> bool:
    heads = [_whole(header[index][0]) for index in matrix]
    consecutive = matrix == list(range(matrix[0], matrix[0] + len(matrix)))
    if heads == list(range(1, players + 1)) and consecutive:
        return True
    problems.append(
        Problem(
            header[matrix[0]][1],
            f"the round-robin matrix is headed {excerpt(' '.join(map(str, heads)))} but has "
            f"{players} player rows: expected one column a player, side by side, headed 1 to "
            f"{players} (export the whole 'Starting rank crosstable' from chess-results)",
        )
    )
    return False


def _read_matrix(
    players: list[RawPlayer], rows: list[list[Cell]], matrix: list[int], problems: list[Problem]
) -> int:
    """Each player's rounds from their matrix row; the number of rounds (Berger tables)."""
    size = len(players) + len(players) % 2  # an odd field plays the tables of one more
    for player, row in zip(players, rows, strict=True):
        if player.damaged or player.start_no > len(players):
            if not player.damaged:
                problems.append(
                    Problem(
                        player.location.at(1),
                        f"start number {player.start_no} of {player.name} has no column in the "
                        f"matrix (expected 1 to {len(players)}); number the rows 1, 2, 3, ...",
                    )
                )
            player.damaged = True
            continue
        by_round: dict[int, RawRound] = {}
        for opponent in range(1, size + 1):
            if opponent == player.start_no:
                _check_diagonal(player, row, matrix, problems)
                continue
            number = berger_round(player.start_no, opponent, size)
            if opponent > len(players):  # the missing number of an odd field: sits out
                by_round[number] = RawRound(number, K.ABSENT, None, None, player.location)
                continue
            index = matrix[opponent - 1]
            text, where = row[index] if index < len(row) else ("", player.location)
            by_round[number] = _matrix_round(number, opponent, text.strip(), where, problems)
        player.rounds = [by_round[number] for number in sorted(by_round)]
    return size - 1


def _check_diagonal(
    player: RawPlayer, row: list[Cell], matrix: list[int], problems: list[Problem]
) -> None:
    index = matrix[player.start_no - 1]
    text, where = row[index] if index < len(row) else ("*", player.location)
    if text.strip() not in ("*", ""):
        problems.append(
            Problem(
                where,
                f"{player.name} (No. {player.start_no}) has {excerpt(text.strip())} against "
                "themselves: the matrix's diagonal cell should be '*' (is a row or a column "
                "out of order?)",
            )
        )


def _matrix_round(
    number: int, opponent: int, text: str, where: Location, problems: list[Problem]
) -> RawRound:
    """The cell of a player's row in the column of ``opponent``: a result, or empty."""
    if text == "":
        return RawRound(number, K.ABSENT, None, None, where)  # not played (yet)
    kind = _MATRIX_KIND.get(text)
    if kind is None:
        problems.append(
            Problem(
                where,
                f"the result against No. {opponent} {excerpt(text)} is not a result (expected "
                "'1', '½', '0', '+' or '-' for a forfeit, or empty if not played; a double "
                "round robin's two results in one cell are not read)",
            )
        )
        return RawRound(number, K.ABSENT, None, None, where, damaged=True)
    return RawRound(number, kind, opponent, None, where)


def berger_round(first: int, second: int, size: int) -> int:
    """The round in which start numbers ``first`` and ``second`` meet in the Berger tables of
    ``size`` players (even), FIDE Handbook C.05 Annex 1: numbers below ``size`` meeting in round
    r add up to r + 1 (modulo size - 1); ``size`` plays x in the round r with 2x = r + 1."""
    if size in (first, second):
        other = first if second == size else second
        total = 2 * other
    else:
        total = first + second
    return (total - 2) % (size - 1) + 1


def _whole(text: str) -> int | None:
    """A start number written in ASCII digits (a round-robin column head, a ``No.`` cell)."""
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None

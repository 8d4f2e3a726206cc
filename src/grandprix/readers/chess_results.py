"""chess-results.com crosstable exports, as xlsx or as csv of the same sheet.

The reader of the registry's ``chess-results`` format: it finds the header row and reads the
export that row opens. ``Rk.`` opens the "Final Ranking crosstable", read here; ``No.`` opens
the "Starting rank crosstable" (Swiss or round-robin matrix), read by ``chess_results_start``.

In the Final Ranking export rows are in final order. A round cell such as ``19w1``, ``11b½`` or
``67w-`` names the opponent by ROW POSITION in this list, not by start number; ``-1`` / ``-½`` /
``-0`` are byes worth 1, ½ and 0, and ``0`` or an empty cell is a round without pairing. A row
with an empty rank cell shares the place of the row above (read so, with a warning: scripts
that skip such rows lose the player's result).
"""

from __future__ import annotations

from pathlib import Path

from grandprix.model import Location, Problem, Section, Severity
from grandprix.readers import chess_results_start
from grandprix.readers.bounds import within
from grandprix.readers.chess_results_sheet import BOUND as BOUND
from grandprix.readers.chess_results_sheet import (
    Cell,
    Columns,
    cell_of,
    read_cells,
    read_columns,
    read_identity,
    read_metadata,
    read_rounds,
)
from grandprix.readers.crosstable import RawPlayer, SectionInfo, assemble

_RANK_HEADS = ("rk.", "rk")
_NUMBER_HEADS = ("no.", "no")
# A header row at the start of a line of a CSV: the Final Ranking's, or the Starting rank's.
_HEADER_OPENINGS = (b"Rk.,", b"No.,,Name,")  # a line opening the table of a sheet export


def recognise(suffix: str, head: bytes) -> bool:
    """An export: an .xlsx workbook, or a sheet naming Chess-Results or opening its table."""
    if suffix == ".xlsx":
        return True
    # Byte searches, not a regular expression anchored at every line: a season asks this of
    # each of its files.
    return (
        b"Chess-Results" in head
        or head.startswith(_HEADER_OPENINGS)
        or any(b"\n" + opening in head for opening in _HEADER_OPENINGS)
    )


def read_chess_results(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read an export (either kind); return the section and every problem found."""
    name = str(path)
    problems: list[Problem] = []
    data = within(path, data, BOUND, problems)
    if data is None:
        return None, problems
    grid = read_cells(name, data, problems)
    if grid is None:
        return None, problems
    return _read_grid(name, grid, problems), problems


def _read_grid(name: str, grid: list[list[Cell]], problems: list[Problem]) -> Section | None:
    header_at = next((i for i, row in enumerate(grid) if _is_header(row)), None)
    if header_at is None:
        problems.append(
            Problem(
                Location(name, 1),
                "no header row starting with 'Rk.' or 'No.' (export the 'Final Ranking "
                "crosstable' or the 'Starting rank crosstable' from chess-results)",
            )
        )
        return None
    info = SectionInfo(name=Path(name).stem, source=name)
    read_metadata(grid[:header_at], info)
    header = [cell.strip().lower() for cell, _ in grid[header_at]]
    columns = read_columns(header)
    if header[0] in _NUMBER_HEADS:
        return chess_results_start.read_start_table(info, grid, header_at, columns, problems)
    if "name" not in columns or "points" not in columns or not columns["rounds"]:
        problems.append(
            Problem(
                grid[header_at][0][1],
                "the header row needs Name, Pts. and round columns ('1.Rd', '2.Rd', ...)",
            )
        )
        return None
    players: list[RawPlayer] = []
    rank = ""
    for row in grid[header_at + 1 :]:
        name_cell = cell_of(row, columns, "name")
        if name_cell is None or not name_cell[0].strip():
            break  # the footer starts after the players
        player = read_identity(row, columns, len(players) + 1, problems)
        read_rounds(player, row, columns, problems)
        if player.declared_rank:
            rank = player.declared_rank
        elif rank:
            player.declared_rank = rank  # an empty rank cell shares the place above
            _warn_empty_rank(player, row, columns, problems)
        players.append(player)
    if not players:
        problems.append(Problem(grid[header_at][0][1], "no player rows under the header row"))
        return None
    info.rounds = len(columns["rounds"])
    return assemble(info, players, problems)


def _is_header(row: list[Cell]) -> bool:
    """The Final Ranking's header row opens with ``Rk.``; the Starting rank's with ``No.``."""
    first = row[0][0].strip().lower() if row else ""
    if first in _RANK_HEADS:
        return True
    return first in _NUMBER_HEADS and any(cell.strip().lower() == "name" for cell, _ in row)


def _warn_empty_rank(
    player: RawPlayer, row: list[Cell], columns: Columns, problems: list[Problem]
) -> None:
    rank_cell = cell_of(row, columns, "rank")
    where = rank_cell[1] if rank_cell is not None else player.location
    problems.append(
        Problem(
            where,
            f"`Rk.` is empty for {player.name}: read as sharing the place of the row above "
            f"(rank {player.declared_rank}; chess-results leaves it empty for a shared place); "
            "scripts that skip such rows lose this player's result; write the rank if the "
            "place is not shared",
            Severity.WARNING,
        )
    )

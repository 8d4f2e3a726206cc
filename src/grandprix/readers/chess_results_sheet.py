"""The sheet of every chess-results.com crosstable export: its cells, header block and columns.

Both exports (``chess_results``: "Final Ranking crosstable", ``chess_results_start``: "Starting
rank crosstable", Swiss or round-robin matrix) are one sheet, as .xlsx or as .csv of the same
sheet: a header block of ``Key : value`` lines, a header row, one row a player, a footer. This
module turns the file into located cells and reads what the exports share: the header block,
the columns of a header row, a player's name, title, federation, rating, points and rank, and a
Swiss round cell (``19w1``, ``11b½``, ``67w-``, ``-1``, ``0``).

A workbook is read within bounds that no crosstable comes near, checked before the work they
limit: each part of the zip unzipped (``XLSX_PART_LIMIT``, and ``XLSX_RATIO`` times its zipped
size), rows (``XLSX_ROWS``), cells (``XLSX_CELLS``) and one cell's text (``FIELD_LIMIT``, as a
CSV field). The sheet's ``<dimension>`` is not trusted: a row is as long as its last cell.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from grandprix.errors import InputError
from grandprix.model import Location, Problem, ResultKind
from grandprix.readers.bounds import Bound, MiB, too_many_lines
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo
from grandprix.readers.text import csv_rows, decode, excerpt
from grandprix.scores import FIELD_LIMIT, is_rating, parse_score

if TYPE_CHECKING:
    import zipfile

K = ResultKind
Cell = tuple[str, Location]
Columns = dict[str, list[int]]

ROUND = re.compile(r"^(\d{1,3})\.\s*Rd\.?$", re.IGNORECASE)
_GAME = re.compile(r"^(\d{1,5})([wbs])([10½=+\-])$")
_GAME_KIND = {
    "1": K.WIN,
    "0": K.LOSS,
    "½": K.DRAW,
    "=": K.DRAW,
    "+": K.FORFEIT_WIN,
    "-": K.FORFEIT_LOSS,
}
_BYE_KIND = {"-1": K.PAIRING_BYE, "-½": K.HALF_BYE, "-0": K.ZERO_BYE, "0": K.ABSENT, "": K.ABSENT}
_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM"})
# Free lines of the header block that are not the tournament's name.
_NOT_THE_NAME = ("from the", "last update", "final ranking", "starting rank")
# A crosstable of 2,000 players is a sheet of 5 MB and 80,000 cells, zipped about ten to one.
XLSX_PART_LIMIT = 32 * 1024**2  # bytes of one part of the workbook, unzipped
XLSX_RATIO = 100  # most bytes unzipped per byte zipped, for a part over XLSX_RATIO_FREE
XLSX_RATIO_FREE = 1024**2  # bytes unzipped that a part may have at any ratio
XLSX_ROWS = 100_000  # rows of the sheet (a crosstable has one row a player)
XLSX_CELLS = 1_000_000  # cells of the sheet, empty ones before a row's last cell included
# An export, .xlsx or .csv: the file's bytes (a workbook's parts are bounded unzipped above);
# a .csv's lines, as many as a workbook's rows.
BOUND = Bound(
    32 * MiB,
    "a chess-results export",
    "a crosstable of 2,000 players is about 5 MB as .csv, 500 KB as .xlsx",
    "Export the crosstable from chess-results again",
)
CSV_BOUND = BOUND._replace(lines=XLSX_ROWS)


def read_cells(name: str, data: bytes, problems: list[Problem]) -> list[list[Cell]] | None:
    """The sheet as rows of (text, location) cells; None (with a problem) if it is unreadable."""
    if name.lower().endswith(".xlsx"):
        return _xlsx_rows(name, data, problems)
    too_long = too_many_lines(name, data, CSV_BOUND)
    if too_long is not None:
        problems.append(too_long)
        return None
    lines, decoding = decode(data, name)
    problems += decoding
    try:
        rows = csv_rows(lines, name, delimiter=",")
    except InputError as exc:
        problems += exc.problems
        return None
    return [
        [(cell, Location(name, number, col)) for col, cell in enumerate(row, start=1)]
        for number, row in enumerate(rows, start=1)
    ]


def _xlsx_rows(name: str, data: bytes, problems: list[Problem]) -> list[list[Cell]] | None:
    import zipfile  # (imported when a workbook is read: most seasons have none)

    import openpyxl
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    try:  # a damaged workbook fails in many ways inside openpyxl, zipfile and the XML parser
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            too_big = _oversized_part(name, archive.infolist(), len(data))
        if too_big is not None:
            problems.append(too_big)
            return None
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            sheet = book.worksheets[0]
            if isinstance(sheet, ReadOnlyWorksheet):
                sheet.reset_dimensions()  # rows as long as their last cell, not the dimension's
            grid = _grid(name, sheet.iter_rows(values_only=True), problems)
        finally:
            book.close()
    except zipfile.BadZipFile:
        problems.append(
            Problem(
                Location(name),
                "not a readable xlsx workbook: the file is not a zip archive "
                "(is it damaged, or another format named .xlsx?)",
            )
        )
        return None
    except Exception as exc:
        problems.append(
            Problem(
                Location(name),
                f"not a readable xlsx workbook ({type(exc).__name__}); "
                "open it in a spreadsheet program and save it again as .xlsx",
            )
        )
        return None
    return grid


def _oversized_part(name: str, parts: list[zipfile.ZipInfo], size: int) -> Problem | None:
    """A problem for the first part of the workbook that unzips past the bounds: over
    ``XLSX_PART_LIMIT`` bytes, or over ``XLSX_RATIO`` times its zipped size (a zip bomb). The
    sizes are the zip's own headers; the zip module reads no more than they declare."""
    fix = (
        "no crosstable is that large; export the crosstable from chess-results again, or open "
        "the workbook in a spreadsheet program and save it as .xlsx"
    )
    for part in parts:
        packed = max(1, min(part.compress_size, size))
        unpacked = part.file_size
        if unpacked > XLSX_PART_LIMIT:
            return Problem(
                Location(name),
                f"the workbook's part {excerpt(part.filename)} unzips to {unpacked:,} bytes, "
                f"more than {XLSX_PART_LIMIT:,}: {fix}",
            )
        if unpacked > XLSX_RATIO_FREE and unpacked > XLSX_RATIO * packed:
            return Problem(
                Location(name),
                f"the workbook's part {excerpt(part.filename)} unzips to {unpacked:,} bytes "
                f"from {packed:,}, more than {XLSX_RATIO} times its size (as a zip bomb "
                f"does): {fix}",
            )
    return None


def _grid(
    name: str, rows: Iterable[Sequence[object]], problems: list[Problem]
) -> list[list[Cell]] | None:
    """The sheet's rows as located cells; None, with a problem, at the first row past
    ``XLSX_ROWS`` or ``XLSX_CELLS``, or the first cell longer than ``FIELD_LIMIT``."""
    from openpyxl.utils import get_column_letter

    grid: list[list[Cell]] = []
    cells = 0
    for number, row in enumerate(rows, start=1):
        cells += len(row)
        if number > XLSX_ROWS or cells > XLSX_CELLS:
            what = f"{XLSX_ROWS:,} rows" if number > XLSX_ROWS else f"{XLSX_CELLS:,} cells"
            problems.append(
                Problem(
                    Location(name, number),
                    f"the sheet goes on past {what} (at row {number:,}): no crosstable is that "
                    "large; delete what lies below or beside the table (a stray cell far "
                    "from it makes the sheet reach it) and save the workbook again",
                )
            )
            return None
        texts = [_text(value) for value in row]
        if texts and max(map(len, texts)) > FIELD_LIMIT:
            col = next(col for col, text in enumerate(texts, start=1) if len(text) > FIELD_LIMIT)
            problems.append(
                Problem(
                    Location(name, number, col),
                    f"cell {get_column_letter(col)}{number} holds {len(texts[col - 1]):,} "
                    f"characters, more than {FIELD_LIMIT:,} (no name, rating or result is this "
                    "long); shorten it or clear the cell",
                )
            )
            return None
        grid.append([(text, Location(name, number, col)) for col, text in enumerate(texts, 1)])
    return grid


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_metadata(rows: list[list[Cell]], info: SectionInfo) -> None:
    """The header block above the header row: ``Key : value`` lines, the tournament's name."""
    headers = []
    for row in rows:
        text = row[0][0].strip() if row else ""
        if " : " in text:
            key, value = text.split(" : ", 1)
            headers.append((key.strip(), value.strip()))
            if key.strip().lower() == "date":
                info.date = value.strip().replace("/", "-")
        elif (
            text
            and not text.lower().startswith(_NOT_THE_NAME)
            and info.name == Path(info.source).stem
        ):
            info.name = text  # the first free line is the tournament's name
    info.headers = tuple(headers)
    kind = dict((k.lower(), v.lower()) for k, v in headers).get("tournament type", "")
    info.round_robin = True if "round robin" in kind else False if "swiss" in kind else None


def read_columns(header: list[str]) -> Columns:
    """Where each known column is in a header row (lower-case, stripped cells)."""
    columns: Columns = {"rounds": []}
    for index, key in enumerate(header):
        if ROUND.match(key):
            columns["rounds"].append(index)
        elif key == "name":
            columns["name"] = [index]
        elif key.startswith("pts"):
            columns["points"] = [index]
        elif key in ("rtg", "elo", "rating"):
            columns["rating"] = [index]
        elif key == "fed":
            columns["federation"] = [index]
        elif key in ("fideid", "fide-id", "id"):
            columns["id"] = [index]
        elif key in ("rk.", "rk"):
            columns["rank"] = [index]
        elif key in ("no.", "no", "snr"):
            columns["number"] = [index]
        elif key == "" and index == 1:
            columns["title"] = [index]
    return columns


def cell_of(row: list[Cell], columns: Columns, key: str) -> Cell | None:
    """The row's cell in the column ``key``, if the header has it and the row reaches it."""
    return row[columns[key][0]] if key in columns and columns[key][0] < len(row) else None


def read_identity(
    row: list[Cell], columns: Columns, start_no: int, problems: list[Problem]
) -> RawPlayer:
    """A player row's name, title, federation, FIDE id, rating, points and rank (as written)."""
    name_cell = cell_of(row, columns, "name")
    assert name_cell is not None
    player = RawPlayer(start_no=start_no, name=name_cell[0].strip(), location=name_cell[1].at(0))
    rank_cell = cell_of(row, columns, "rank")
    player.declared_rank = rank_cell[0].strip() if rank_cell else ""
    title_cell = cell_of(row, columns, "title")
    if title_cell and title_cell[0].strip().upper() in _TITLES:
        player.title = title_cell[0].strip().upper()
    federation = cell_of(row, columns, "federation")
    player.federation = federation[0].strip() if federation else ""
    ident = cell_of(row, columns, "id")
    player.fide_id = ident[0].strip() if ident else ""
    rating = cell_of(row, columns, "rating")
    if rating and rating[0].strip():
        if is_rating(rating[0].strip()):
            player.rating = int(rating[0]) or None
        else:
            problems.append(Problem(rating[1], f"rating {excerpt(rating[0])} is not a number"))
    points = cell_of(row, columns, "points")
    if points is not None:
        player.declared_points = parse_score(points[0])
        player.points_location = points[1]
        if player.declared_points is None:
            problems.append(
                Problem(points[1], f"points {excerpt(points[0])} are not a number (write e.g. 4.5)")
            )
    return player


def read_rounds(
    player: RawPlayer, row: list[Cell], columns: Columns, problems: list[Problem]
) -> None:
    """The Swiss round cells of a row, appended to the player's rounds."""
    for number, index in enumerate(columns["rounds"], start=1):
        text, where = row[index] if index < len(row) else ("", player.location)
        player.rounds.append(read_round(number, text.strip(), where, problems))


def read_round(number: int, text: str, where: Location, problems: list[Problem]) -> RawRound:
    """One Swiss round cell: opponent number, colour and result; or a bye; or not paired."""
    match = _GAME.match(text)
    if match:
        colour = match.group(2) if match.group(2) in "wb" else None
        return RawRound(number, _GAME_KIND[match.group(3)], int(match.group(1)), colour, where)
    if text in _BYE_KIND:
        return RawRound(number, _BYE_KIND[text], None, None, where)
    problems.append(
        Problem(
            where,
            f"round {number} cell {excerpt(text)} is not a result (expected e.g. '19w1', '11b½', "
            "'67w-', '-1', '-½', '0')",
        )
    )
    return RawRound(number, K.ABSENT, None, None, where)

"""The sheet of every chess-results.com crosstable export: its cells, header block and columns.

Both exports (``chess_results``: "Final Ranking crosstable", ``chess_results_start``: "Starting
rank crosstable", Swiss or round-robin matrix) are one sheet, as .xlsx or as .csv of the same
sheet: a header block of ``Key : value`` lines, a header row, one row a player, a footer. This
module turns the file into located cells and reads what the exports share: the header block,
the columns of a header row, a player's name, title, federation, rating, points and rank, and a
Swiss round cell (``19w1``, ``11b½``, ``67w-``, ``-1``, ``0``).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from grandprix.model import Location, Problem, ResultKind
from grandprix.numbers import is_rating, parse_score
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo
from grandprix.readers.text import decode, excerpt

K = ResultKind
Cell = tuple[str, Location]
Columns = dict[str, list[int]]

ROUND = re.compile(r"^(\d{1,3})\.\s*Rd\.?$", re.IGNORECASE)
_GAME = re.compile(r"^(\d{1,5})([wbs])([10½=+\-])$")
_GAME_KIND = {"1": K.WIN, "0": K.LOSS, "½": K.DRAW, "=": K.DRAW, "+": K.FORFEIT_WIN,
              "-": K.FORFEIT_LOSS}  # fmt: skip
_BYE_KIND = {"-1": K.PAIRING_BYE, "-½": K.HALF_BYE, "-0": K.ZERO_BYE, "0": K.ABSENT, "": K.ABSENT}
_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM"})
# Free lines of the header block that are not the tournament's name.
_NOT_THE_NAME = ("from the", "last update", "final ranking", "starting rank")


def read_cells(name: str, data: bytes, problems: list[Problem]) -> list[list[Cell]] | None:
    """The sheet as rows of (text, location) cells; None (with a problem) if it is unreadable."""
    if name.lower().endswith(".xlsx"):
        return _xlsx_rows(name, data, problems)
    lines, decoding = decode(data, name)
    problems += decoding
    return [
        [(cell, Location(name, number, col)) for col, cell in enumerate(row, start=1)]
        for number, row in enumerate(csv.reader(lines), start=1)
    ]


def _xlsx_rows(name: str, data: bytes, problems: list[Problem]) -> list[list[Cell]] | None:
    import zipfile

    import openpyxl

    grid = []
    try:  # a damaged workbook fails in many ways inside openpyxl, zipfile and the XML parser
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            grid.append(
                [
                    (_text(value), Location(name, number, col))
                    for col, value in enumerate(row, start=1)
                ]
            )
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

"""chess-results.com "Final Ranking crosstable" exports, as xlsx or as csv of the same sheet.

Rows are in final order. A round cell such as ``19w1``, ``11b½`` or ``67w-`` names the opponent
by ROW POSITION in this list, not by start number; ``-1`` / ``-½`` / ``-0`` are byes worth 1, ½
and 0, and ``0`` or an empty cell is a round without pairing. A row with an empty rank cell
shares the place of the row above.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from grandprix.model import Location, Problem, ResultKind, Section, Severity
from grandprix.numbers import is_rating, parse_score
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo, assemble
from grandprix.readers.text import decode, excerpt

K = ResultKind
_ROUND = re.compile(r"^(\d{1,3})\.\s*Rd\.?$", re.IGNORECASE)
_GAME = re.compile(r"^(\d{1,5})([wbs])([10½=+\-])$")
_GAME_KIND = {"1": K.WIN, "0": K.LOSS, "½": K.DRAW, "=": K.DRAW, "+": K.FORFEIT_WIN,
              "-": K.FORFEIT_LOSS}  # fmt: skip
_BYE_KIND = {"-1": K.PAIRING_BYE, "-½": K.HALF_BYE, "-0": K.ZERO_BYE, "0": K.ABSENT, "": K.ABSENT}
_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM"})

Cell = tuple[str, Location]


def recognise(suffix: str, head: bytes) -> bool:
    """An export: an .xlsx workbook, or a sheet naming Chess-Results or opening its table (Rk.)."""
    if suffix == ".xlsx":
        return True
    return b"Chess-Results" in head or b"\nRk.," in head or head.startswith(b"Rk.,")


def read_chess_results(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read an export; return the section and every problem found."""
    name = str(path)
    if data is None:
        data = Path(path).read_bytes()
    problems: list[Problem] = []
    if name.lower().endswith(".xlsx"):
        grid = _xlsx_rows(name, data, problems)
    else:
        lines, problems = decode(data, name)
        grid = [
            [(cell, Location(name, number, col)) for col, cell in enumerate(row, start=1)]
            for number, row in enumerate(csv.reader(lines), start=1)
        ]
    if grid is None:
        return None, problems
    return _read_grid(name, grid, problems), problems


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


def _read_grid(name: str, grid: list[list[Cell]], problems: list[Problem]) -> Section | None:
    header_at = next(
        (i for i, row in enumerate(grid) if row and row[0][0].strip().lower() in ("rk.", "rk")),
        None,
    )
    if header_at is None:
        problems.append(
            Problem(
                Location(name, 1),
                "no header row starting with 'Rk.' (export the 'Final Ranking crosstable' "
                "from chess-results)",
            )
        )
        return None
    info = SectionInfo(name=Path(name).stem, source=name)
    _read_metadata(grid[:header_at], info)
    header = [cell.strip().lower() for cell, _ in grid[header_at]]
    columns = _columns(header)
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
        if len(row) <= columns["name"][0] or not row[columns["name"][0]][0].strip():
            break  # the footer starts after the players
        player = _read_player(row, columns, len(players) + 1, problems)
        if player.declared_rank:
            rank = player.declared_rank
        else:
            player.declared_rank = rank  # an empty rank cell shares the place above
        players.append(player)
    if not players:
        problems.append(Problem(grid[header_at][0][1], "no player rows under the header row"))
        return None
    info.rounds = len(columns["rounds"])
    return assemble(info, players, problems)


def _read_metadata(rows: list[list[Cell]], info: SectionInfo) -> None:
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
            and not text.lower().startswith(("from the", "last update", "final ranking"))
            and info.name == Path(info.source).stem
        ):
            info.name = text  # the first free line is the tournament's name
    info.headers = tuple(headers)
    kind = dict((k.lower(), v.lower()) for k, v in headers).get("tournament type", "")
    info.round_robin = True if "round robin" in kind else False if "swiss" in kind else None


def _columns(header: list[str]) -> dict[str, list[int]]:
    columns: dict[str, list[int]] = {"rounds": []}
    for index, key in enumerate(header):
        if _ROUND.match(key):
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
        elif key == "" and index == 1:
            columns["title"] = [index]
    return columns


def _read_player(
    row: list[Cell], columns: dict[str, list[int]], position: int, problems: list[Problem]
) -> RawPlayer:
    def cell(key: str) -> Cell | None:
        return row[columns[key][0]] if key in columns and columns[key][0] < len(row) else None

    name_cell = cell("name")
    assert name_cell is not None
    player = RawPlayer(start_no=position, name=name_cell[0].strip(), location=name_cell[1].at(0))
    rank_cell = cell("rank")
    player.declared_rank = rank_cell[0].strip() if rank_cell else ""
    if rank_cell is not None and not player.declared_rank and position > 1:
        problems.append(
            Problem(
                rank_cell[1],
                "the rank cell is empty: read as sharing the place of the row above (as "
                "chess-results prints a shared place); write the rank if it is not shared",
                Severity.WARNING,
            )
        )
    title_cell = cell("title")
    if title_cell and title_cell[0].strip().upper() in _TITLES:
        player.title = title_cell[0].strip().upper()
    federation = cell("federation")
    player.federation = federation[0].strip() if federation else ""
    ident = cell("id")
    player.fide_id = ident[0].strip() if ident else ""
    rating = cell("rating")
    if rating and rating[0].strip():
        if is_rating(rating[0].strip()):
            player.rating = int(rating[0]) or None
        else:
            problems.append(Problem(rating[1], f"rating {excerpt(rating[0])} is not a number"))
    points = cell("points")
    if points is not None:
        player.declared_points = parse_score(points[0])
        player.points_location = points[1]
        if player.declared_points is None:
            problems.append(
                Problem(points[1], f"points {excerpt(points[0])} are not a number (write e.g. 4.5)")
            )
    for number, index in enumerate(columns["rounds"], start=1):
        text, where = row[index] if index < len(row) else ("", player.location)
        rnd = _round(number, text.strip(), where, problems)
        if rnd is not None:
            player.rounds.append(rnd)
    return player


def _round(number: int, text: str, where: Location, problems: list[Problem]) -> RawRound | None:
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

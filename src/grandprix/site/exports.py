"""Exports of the standings and results: CSV, JSON (with its schema) and XLSX (UT-8).

The CSV and XLSX rows are the same rows: their text from input files (division, player id and
name, event and section names) goes through ``safe_text``, so that no cell is a formula in a
spreadsheet; the XLSX writes every cell as a string cell, as the CSV has it. JSON is no formula
surface and keeps the text as the files give it.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from grandprix.numbers import show
from grandprix.season.document import SCHEMA, standings_document
from grandprix.season.model import Line, Season
from grandprix.writers.cells import safe_text

if TYPE_CHECKING:
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

Tables = list[tuple[str, list[Line]]]
STANDINGS_COLUMNS = ["division", "rank", "player_id", "name", "points", "events"]
RESULTS_COLUMNS = ["division", "player_id", "name", "date", "event", "section", "place", "score",
                   "points", "counted"]  # fmt: skip


def _results(tables: Tables, decimals: int) -> list[list[str]]:
    rows = []
    for division, lines in tables:
        for line in lines:
            for award in line.awards:
                rows.append(
                    [safe_text(division), safe_text(line.player.id), safe_text(line.name),
                     award.date.isoformat(), safe_text(award.event_name),
                     safe_text(award.section), award.place, show(award.score),
                     show(award.points, decimals), "yes" if award in line.counted else "no"]
                )  # fmt: skip
    return rows


def _standings(tables: Tables, decimals: int) -> list[list[str]]:
    return [
        [
            safe_text(division),
            line.rank,
            safe_text(line.player.id),
            safe_text(line.name),
            show(line.total, decimals),
            str(line.events),
        ]
        for division, lines in tables
        for line in lines
    ]


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def export_json(season: Season, tables: Tables) -> str:
    """season.json: the standings document (``season/document.py``), as SCHEMA describes it."""
    document = standings_document(season, tables)
    # Compact: the indented form is three times the size and four times slower to write.
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


TEXT_EXPORTS = ("standings.csv", "results.csv", "season.json", "season.schema.json")
XLSX_EXPORT = "season.xlsx"


def text_exports(season: Season, tables: Tables) -> dict[str, str]:
    """standings.csv, results.csv, season.json and season.schema.json by name, in that order."""
    decimals = season.rules.standings.decimals
    standings, results = _standings(tables, decimals), _results(tables, decimals)
    texts = (_csv(STANDINGS_COLUMNS, standings), _csv(RESULTS_COLUMNS, results),
             export_json(season, tables), json.dumps(SCHEMA, indent=1))  # fmt: skip
    return dict(zip(TEXT_EXPORTS, texts, strict=True))


def write_text_exports(folder: Path, season: Season, tables: Tables) -> list[str]:
    """standings.csv, results.csv, season.json and season.schema.json written into ``folder``."""
    for name, text in text_exports(season, tables).items():
        (folder / name).write_text(text, encoding="utf-8")
    return list(TEXT_EXPORTS)


def write_xlsx(folder: Path, season: Season, tables: Tables) -> list[str]:
    """season.xlsx: the standings and the results sheets, the same rows as the CSV files, every
    cell a string cell."""
    from openpyxl import Workbook

    decimals = season.rules.standings.decimals
    book = Workbook(write_only=True)
    sheets = [
        ("Standings", STANDINGS_COLUMNS, _standings(tables, decimals)),
        ("Results", RESULTS_COLUMNS, _results(tables, decimals)),
    ]
    for title, header, rows in sheets:
        sheet = book.create_sheet(title)
        sheet.append(header)
        for row in rows:
            sheet.append(_string_cells(sheet, row))
    book.save(folder / XLSX_EXPORT)
    return [XLSX_EXPORT]


def _string_cells(sheet: WriteOnlyWorksheet, row: list[str]) -> list[object]:
    """The row with every value a string cell. openpyxl makes a str that begins with '=' a
    formula and '#N/A' and the like error cells, so a value that begins with '=' or '#' goes in
    as a cell typed string; the others are string cells already (a cell object for every value
    would slow the largest sheets by a quarter)."""
    out: list[object] = list(row)
    for i, value in enumerate(row):
        if value.startswith(("=", "#")):
            from openpyxl.cell import WriteOnlyCell

            cell = WriteOnlyCell(sheet, value)
            cell.data_type = "s"
            out[i] = cell
    return out

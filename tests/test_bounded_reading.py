"""Bounded reading: a file past a bound is refused early, in a located message that says how to
fix it, in little memory, and nothing is stored or written.

The bombs are made here, small on disk (``hostile_bounds``): a workbook whose ``<dimension>``
claims the whole sheet, parts of a workbook and rating lists that
unzip to hundreds of megabytes from one. The command line runs in a process of its own under an
address-space limit (``RLIMIT_AS``), and the peak of its resident memory is read from the
kernel's account of the finished process (``os.wait4``).
"""

from __future__ import annotations

import csv
import datetime
import os
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from grandprix.errors import InputError
from grandprix.model import Problem, Severity
from grandprix.ratings.formats import MAX_RATIO, ListError, read_rows
from grandprix.ratings.store import RatingStore
from grandprix.readers.chess_results import read_chess_results
from grandprix.readers.chess_results_sheet import XLSX_CELLS, XLSX_PART_LIMIT, XLSX_ROWS
from grandprix.readers.text import MIXED_SHOWN, csv_file, csv_rows, decode
from grandprix.scores import FIELD_LIMIT
from hostile import GRANDPRIX, snapshot, zip_bytes
from hostile_bounds import (
    FIELD,
    LINES,
    MB,
    PART,
    crosstable_rows,
    crosstable_workbook,
    cut_fide_list,
    declared_size,
    far_cell_workbook,
    long_cell_workbook,
    long_field,
    many_rows_workbook,
    newline_list,
    nul_list,
    sheet_xml,
    workbook,
    zipped,
)
from synthetic import fide_rating_list, fide_txt_line

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "utah-2012"
ADDRESS_SPACE = 1536 * MB  # the child's limit: a bomb read whole would pass it
PEAK = 300  # MB of resident memory the refusals stay under (they take 30 to 80)
BOMB = 256 * MB  # what the zip bombs here unzip to


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    peak_mb: float


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))  # a runaway read ends, as a failure


def run_capped(argv: list[str], cwd: Path) -> Ran:
    """``grandprix ARGV`` in a process of its own under ``ADDRESS_SPACE``; its exit code,
    output and peak resident memory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [str(GRANDPRIX), *argv],
            cwd=cwd,
            stdout=out,
            stderr=err,
            preexec_fn=_limits,
            env={**os.environ, "COLUMNS": "200", "PYTHONUTF8": "1"},
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            usage.ru_maxrss / 1024,  # KiB on Linux
        )


def season_with_workbook(tmp_path: Path, data: bytes) -> Path:
    """The utah season whose winter_quick results are the workbook ``data``."""
    season = tmp_path / "season"
    shutil.copytree(EXAMPLE, season)
    (season / "winter_quick.xlsx").write_bytes(data)
    toml = season / "season.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'results = "winter_quick.csv"' in text, "test setup"
    toml.write_text(text.replace("winter_quick.csv", "winter_quick.xlsx"), encoding="utf-8")
    return season


def refused_season(tmp_path: Path, data: bytes) -> Ran:
    """``standings`` of the season with the workbook: exit 2, nothing on stdout, nothing
    written anywhere under ``tmp_path``, little memory."""
    season = season_with_workbook(tmp_path, data)
    before = snapshot(tmp_path)
    ran = run_capped(["standings", str(season)], tmp_path)
    assert ran.code == 2, ran.stderr[-2000:]
    assert ran.stdout == ""
    assert "Traceback" not in ran.stderr
    assert snapshot(tmp_path) == before
    assert ran.peak_mb < PEAK, f"{ran.peak_mb:.0f} MB"
    return ran


# --------------------------------------------------------------------------------------------
# Workbooks through the command line, in a limited process


def test_a_dimension_that_claims_the_whole_sheet_is_not_trusted(tmp_path: Path) -> None:
    """A few kilobytes of workbook that, padded as its dimension says (a million rows of
    16,384 cells), would take gigabytes; its one far cell makes the sheet too long."""
    ran = refused_season(tmp_path, far_cell_workbook())
    assert f"winter_quick.xlsx:{XLSX_ROWS + 1}: the sheet goes on past 100,000 rows" in ran.stderr
    assert "delete what lies below or beside the table" in ran.stderr


def test_a_cell_of_hundreds_of_megabytes_is_refused_from_the_zip_headers(tmp_path: Path) -> None:
    """A cell of hundreds of megabytes from one megabyte of zip: the part is refused unread."""
    ran = refused_season(tmp_path, long_cell_workbook(BOMB))
    assert "winter_quick.xlsx: the workbook's part 'xl/worksheets/sheet1.xml' unzips to 268," in (
        ran.stderr
    )
    assert f"more than {XLSX_PART_LIMIT:,}: no crosstable is that large" in ran.stderr


def test_a_shared_strings_part_at_a_zip_bomb_ratio_is_refused(tmp_path: Path) -> None:
    strings = [b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">']
    bomb = workbook(
        sheet_xml(crosstable_rows()), {"xl/sharedStrings.xml": [*strings, b" " * 8 * MB]}
    )
    ran = refused_season(tmp_path, bomb)
    assert "part 'xl/sharedStrings.xml' unzips to" in ran.stderr
    assert f"more than {MAX_RATIO} times its size" in ran.stderr


# --------------------------------------------------------------------------------------------
# Workbooks read by the reader: each bound and the value just inside it


def _read(data: bytes) -> tuple[bool, list[str]]:
    section, problems = read_chess_results(Path("w.xlsx"), data)
    return section is not None, [str(p) for p in problems if p.severity is Severity.ERROR]


def test_the_crosstable_workbook_is_read() -> None:
    read, errors = _read(crosstable_workbook())
    assert read and errors == []


def test_a_cell_of_the_field_bound_is_read_and_one_more_character_is_refused() -> None:
    assert _read(long_cell_workbook(FIELD_LIMIT))[0]
    read, errors = _read(long_cell_workbook(FIELD_LIMIT + 1))
    assert not read
    assert errors == [
        f"w.xlsx:3:3: cell C3 holds {FIELD_LIMIT + 1:,} characters, more than {FIELD_LIMIT:,} "
        "(no name, rating or result is this long); shorten it or clear the cell"
    ]


def test_rows_up_to_the_bound_are_read_and_the_next_is_refused() -> None:
    table = len(crosstable_rows())
    assert _read(many_rows_workbook(XLSX_ROWS - table))[0]
    read, errors = _read(many_rows_workbook(XLSX_ROWS - table + 1))
    assert not read
    assert len(errors) == 1 and errors[0].startswith(f"w.xlsx:{XLSX_ROWS + 1}: the sheet goes on")


def test_a_sheet_of_too_many_cells_is_refused_at_the_row_that_passes_the_bound() -> None:
    width = 16_384  # one cell in the sheet's last column: every row is that long
    rows = XLSX_CELLS // width + 1
    tail = (f'<row r="{n}"><c r="XFD{n}"><v>1</v></c></row>'.encode() for n in range(7, 7 + rows))
    read, errors = _read(workbook(sheet_xml(crosstable_rows(), tail=tail)))
    assert not read
    assert len(errors) == 1 and "past 1,000,000 cells" in errors[0]


def test_a_zip_header_that_declares_less_than_the_part_holds_is_damage() -> None:
    """The zip module reads no more than a part declares, and then finds its checksum wrong."""
    data = zip_bytes({"[Content_Types].xml": b"<Types/>" + b" " * MB})
    read, errors = _read(declared_size(data, 100))
    assert not read and len(errors) == 1 and "not a readable xlsx workbook" in errors[0]


def test_a_part_declaring_four_gigabytes_is_refused_before_it_is_read() -> None:
    read, errors = _read(declared_size(zip_bytes({"[Content_Types].xml": b"<Types/>"}), 2**32 - 1))
    assert not read
    assert errors == [
        "w.xlsx: the workbook's part '[Content_Types].xml' unzips to 4,294,967,295 bytes, more "
        f"than {PART:,}: no crosstable is that large; export the crosstable from chess-results "
        "again, or open the workbook in a spreadsheet program and save it as .xlsx"
    ]


# --------------------------------------------------------------------------------------------
# Rating lists


def import_capped(tmp_path: Path, name: str, data: bytes) -> Ran:
    """``ratings import`` of the list ``data`` into a new store: refused, nothing stored."""
    path = tmp_path / name
    path.write_bytes(data)
    store = tmp_path / "store.sqlite"
    argv = [
        "ratings",
        "import",
        str(path),
        "--kind",
        "fide-standard",
        "--date",
        "2025-01-01",
        "--store",
        str(store),
    ]
    ran = run_capped(argv, tmp_path)
    assert ran.code == 2, ran.stderr[-2000:]
    assert ran.stdout == "" and "Traceback" not in ran.stderr
    assert not store.exists(), "a store was left behind"
    assert ran.peak_mb < PEAK, f"{ran.peak_mb:.0f} MB"
    return ran


@pytest.mark.parametrize("make", [nul_list, newline_list], ids=["nuls", "header-and-newlines"])
def test_a_zip_bomb_rating_list_is_refused_from_its_headers(
    tmp_path: Path, make: Callable[[int], bytes]
) -> None:
    """A megabyte of zip that unzips to NULs, or to newlines after a valid header (each line a
    list entry, read whole): refused from the zip's headers."""
    data = make(BOMB)
    ran = import_capped(tmp_path, "list.zip", data)
    assert "list.zip: the list 'players_list_foa.txt' in the zip unzips to 268," in ran.stderr
    assert f"more than {MAX_RATIO} times its " in ran.stderr
    assert "as only a zip bomb is; download the list again" in ran.stderr


def test_a_list_in_a_zip_at_the_ratio_bound_is_read(tmp_path: Path) -> None:
    text = fide_rating_list(5, 1).encode()
    data = zipped("players_list_foa.txt", [text])
    assert len(text) <= MAX_RATIO * len(data)
    _fmt, rows = read_rows(tmp_path / "list.zip", "fide-standard", data)
    assert len(list(rows)) == 5


def test_a_list_cut_in_the_middle_of_a_line_is_refused_and_nothing_is_stored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(cut_fide_list())
    with RatingStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(ListError) as caught:
            store.import_list(path, "fide-standard", datetime.date(2025, 1, 1))
        assert store.lists() == []
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:21:")
    assert "ends in the middle of line 21" in problem.message
    assert "download the list again" in problem.message


def test_a_whole_last_line_without_a_line_break_is_read(tmp_path: Path) -> None:
    text = fide_rating_list(20, 1)
    _fmt, rows = read_rows(tmp_path / "l.txt", "fide-standard", text.rstrip("\n").encode())
    assert len(list(rows)) == 20
    labels = ("ID Number", "Name", "Fed", "SRtng")
    header = fide_txt_line({label: label for label in labels})
    line = fide_txt_line({"ID Number": "7", "Name": "Seven, A", "Fed": "ITA", "SRtng": "2001"})
    _fmt, rows = read_rows(tmp_path / "l.txt", "fide-standard", f"{header}\n{line}".encode())
    assert [row[0] for row in rows] == ["7"]


def test_a_list_of_more_lines_than_the_bound_is_refused_before_they_are_made(
    tmp_path: Path,
) -> None:
    data = fide_rating_list(2, 1).encode() + b"\n" * LINES
    with pytest.raises(ListError) as caught:
        read_rows(tmp_path / "l.txt", "fide-standard", data)
    assert str(caught.value.problems[0]).startswith(f"{tmp_path / 'l.txt'}:{LINES + 1}: ")


def test_a_list_mixing_utf8_and_latin1_is_refused_at_the_byte(tmp_path: Path) -> None:
    text = fide_rating_list(6, 1).replace("Number 2", "Númber 2")
    data = text.encode().replace(b"Number 4", "Nümber 4".encode("latin-1"))
    with pytest.raises(ListError) as caught:
        read_rows(tmp_path / "l.txt", "fide-standard", data)
    (problem,) = caught.value.problems
    assert problem.location.line == 6 and "byte 0xFC is not UTF-8" in problem.message


def test_an_all_latin1_list_is_read_as_latin1(tmp_path: Path) -> None:
    text = fide_rating_list(3, 1).replace("Number 1", "Nümber 1")
    _fmt, rows = read_rows(tmp_path / "l.txt", "fide-standard", text.encode("latin-1"))
    assert [row[1] for row in rows][1] == "Player, Nümber 1"


def test_a_csv_list_field_past_the_bound_is_located(tmp_path: Path) -> None:
    data = f"id,name,rating\n100,A,2000\n101,{long_field()},1900\n".encode()
    _fmt, rows = read_rows(tmp_path / "l.csv", "national", data)
    with pytest.raises(ListError) as caught:
        list(rows)
    assert str(caught.value.problems[0]).startswith(
        f"{tmp_path / 'l.csv'}:3: a field is longer than {FIELD_LIMIT:,} characters"
    )


# --------------------------------------------------------------------------------------------
# CSV fields and encodings


def test_the_field_bound_is_the_csv_modules_own() -> None:
    assert FIELD_LIMIT == FIELD == csv.field_size_limit()


def test_a_field_of_the_bound_is_read_and_one_more_character_is_located() -> None:
    lines, _ = decode(f"a,b\n1,{long_field(FIELD_LIMIT)}\n".encode(), "f.csv")
    assert len(csv_rows(lines)[1][1]) == FIELD_LIMIT
    lines, _ = decode(f"a,b\n1,2\n1,{long_field()}\n".encode(), "f.csv")
    with pytest.raises(InputError) as caught:
        csv_rows(lines)
    assert [str(p) for p in caught.value.problems] == [
        f"f.csv:3: a field is longer than {FIELD_LIMIT:,} characters (no name, id or result is "
        "this long); shorten it or remove the line"
    ]


def test_a_quote_left_open_is_located_where_it_opens() -> None:
    lines, _ = decode(b'a,b\n1,"open\n' + b"x\n" * (FIELD_LIMIT + 10), "f.csv")
    with pytest.raises(InputError) as caught:
        csv_rows(lines)
    (problem,) = caught.value.problems
    assert str(problem).startswith("f.csv:2: a field is longer than")
    assert 'the quote (") that opens it is not closed' in problem.message


def test_a_players_file_field_past_the_bound_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text(f"id,name\n1,{long_field()}\n", encoding="utf-8")
    problems: list[Problem] = []
    assert csv_file(path, problems) == []
    assert [str(p) for p in problems] == [
        f"{path}:2: a field is longer than {FIELD_LIMIT:,} characters (no name, id or result is "
        "this long); shorten it or remove the line"
    ]


def test_one_latin1_byte_in_a_utf8_file_is_read_as_its_letter_with_a_warning() -> None:
    data = 'name\n"Núñez, Nina"\n"Müller, Max"\n'.encode().replace("ü".encode(), b"\xfc")
    lines, problems = decode(data, "f.csv")
    assert list(lines) == ["name", '"Núñez, Nina"', '"Müller, Max"']
    (warning,) = problems
    assert warning.severity is Severity.WARNING and warning.location.line == 3
    assert str(warning).startswith("f.csv:3:3: warning: byte 0xFC is not UTF-8")
    assert "save the whole file as UTF-8" in warning.message


def test_an_all_latin1_file_is_read_as_latin1_without_a_warning() -> None:
    lines, problems = decode('name\n"Müller, Max"\n'.encode("latin-1"), "f.csv")
    assert list(lines) == ["name", '"Müller, Max"'] and problems == []


def test_many_places_of_the_other_encoding_are_named_a_few_then_counted() -> None:
    rows = [f'"Müller {i}"' for i in range(20)]
    data = ("name\nNúñez\n" + "\n".join(rows) + "\n").encode("latin-1", "replace")
    data = data.replace("Núñez".encode("latin-1"), "Núñez".encode())  # one UTF-8 name
    data = data + "Ünal\n".encode() * 30  # UTF-8 the most used
    lines, problems = decode(data, "f.csv")
    assert lines[3] == '"Müller 1"' and lines[-1] == "Ünal"
    assert len(problems) == MIXED_SHOWN + 1
    assert problems[-1].message.startswith("15 more such place(s)")

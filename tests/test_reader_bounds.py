"""Every reader bounds a file before it reads it: a results file past its format's size is
refused from ``os.stat`` and never opened (a gigabyte refused in a few tens of megabytes),
what is read ends one byte past the bound; lichess's lines are counted before any is made,
chess.com's JSON values before it is parsed, JSON nesting before it is parsed (located, never a
RecursionError); a key given twice in a JSON object is a located error; a zip member is read
no further than its headers declare; a TRF rating written from column 48 is refused.

The command line runs in a process of its own under an address-space limit, and the peak of its
resident memory is read from the kernel's account of the finished process (``os.wait4``). The
files past the size bounds are sparse: a real first line, then a hole that takes no room.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import tracemalloc
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from grandprix import readers
from grandprix.model import Location, Problem, Severity
from grandprix.players import _SEPARATORS, name_key
from grandprix.readers import chesscom, lichess, load_section, standings_csv, trf, uschess_dbf
from grandprix.readers.json_text import MAX_DEPTH, json_tokens, json_value
from grandprix.readers.lichess import read_lichess
from grandprix.readers.trf import read_trf
from grandprix.readers.uschess_dbf import read_uschess_dbf
from grandprix.runtime.files import read_bytes
from hostile import GRANDPRIX
from hostile_bounds import (
    CHESSCOM_GROUP,
    EXAMPLES_UTAH,
    GROUP_HEAD,
    LICHESS_RESULTS,
    USCHESS,
    chesscom_of_numbers,
    declared_size,
    lichess_of_lines,
    nested,
    report_zip,
)

MB = 1024**2
GIB = 1024**3
ADDRESS_SPACE = 1536 * MB  # the child's limit: a gigabyte read whole (twice over) would pass it
PEAK_UNREAD = 100  # MB of a process that refuses a file from its size (it takes 25 to 30)
PEAK_COUNTED = 300  # MB of one that reads 64 MB and counts its lines or values (90 to 220)
PROVO = EXAMPLES_UTAH / "provo_open.trf"
VANCE = "Vance, Xavi                       2346 "  # columns 15-53 of provo_open.trf's line 4


@dataclass
class Ran:
    code: int
    stderr: str
    peak_mb: float


# Run by a fresh interpreter, which forks the command and reports its peak. A process forked
# from this one (the test's worker, hundreds of megabytes) would count this process's resident
# memory as its own peak, exec or not: the kernel keeps the largest the process ever had.
LAUNCHER = """
import json, os, resource, sys
report, limit, *command = sys.argv[1:]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))  # a runaway read ends, as a failure
    os.execv(command[0], command)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_maxrss], out)
"""


def run_measured(*argv: str, cwd: Path) -> Ran:
    """``grandprix ARGV`` in a process of its own under ``ADDRESS_SPACE``: its exit code, its
    messages and the peak of its resident memory (its own alone, from ``os.wait4`` in a small
    launcher: see ``LAUNCHER``)."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryDirectory() as temp,
    ):
        report = Path(temp) / "ran.json"
        subprocess.run(
            [
                sys.executable,
                "-c",
                LAUNCHER,
                str(report),
                str(ADDRESS_SPACE),
                str(GRANDPRIX),
                *argv,
            ],
            cwd=cwd,
            stdout=out,
            stderr=err,
            env={**os.environ, "COLUMNS": "200", "PYTHONUTF8": "1"},
            check=True,
        )
        code, peak = json.loads(report.read_text())
        err.seek(0)
        return Ran(code, err.read().decode("utf-8", "replace"), peak / 1024)  # KiB on Linux


def sparse_file(path: Path, head: bytes, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk: ``head``, then a hole."""
    path.write_bytes(head)
    with path.open("r+b") as stream:
        stream.truncate(size)
    return path


def errors(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems if p.severity is Severity.ERROR]


# --------------------------------------------------------------------------------------------
# A file past its format's size: refused from os.stat, never opened


PAST_THE_SIZE = [
    ("results.ndjson", LICHESS_RESULTS.read_bytes, "lichess results", lichess.MAX_BYTES),
    ("group.json", lambda: GROUP_HEAD, "chess.com results", chesscom.MAX_BYTES),
    ("open.trf", PROVO.read_bytes, "a TRF file", trf.BOUND.limit),
    ("report.zip", report_zip, "a US Chess rating report", uschess_dbf.BOUND.limit),
    ("standings.csv", (EXAMPLES_UTAH / "winter_quick.csv").read_bytes, "a standings CSV",
     standings_csv.BOUND.limit),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "head", "what", "limit"), PAST_THE_SIZE, ids=[case[0] for case in PAST_THE_SIZE]
)
def test_a_gigabyte_results_file_is_refused_from_its_size_unread(
    tmp_path: Path, name: str, head: Callable[[], bytes], what: str, limit: int
) -> None:
    """A gigabyte (read whole, a lichess line of 1 GB, or a zip of a 1 GB member, takes twice
    that): its format recognised from its first bytes, its size refused before it is read."""
    path = sparse_file(tmp_path / name, head(), GIB)
    ran = run_measured("event", str(path), cwd=tmp_path)
    assert ran.code == 2, ran.stderr[-2000:]
    assert ran.stderr.splitlines()[0] == (
        f"{path}: the file is {GIB:,} bytes; at most {limit:,} bytes of {what} are read "
        f"({FORMAT_BOUNDS[what].largest}): is this the right file? {FORMAT_BOUNDS[what].fix}"
    )
    assert "Traceback" not in ran.stderr
    assert ran.peak_mb < PEAK_UNREAD, f"{ran.peak_mb:.0f} MB"


FORMAT_BOUNDS = {fmt.bound.what: fmt.bound for fmt in readers.FORMATS.values()}


def with_bound(monkeypatch: pytest.MonkeyPatch, name: str, limit: int) -> None:
    """The format ``name`` read within ``limit`` bytes (its own reader's bound left as it is)."""
    fmt = readers.FORMATS[name]
    bound = fmt.bound._replace(limit=limit)
    monkeypatch.setitem(readers.FORMATS, name, replace(fmt, bound=bound))


def test_a_file_of_the_bound_is_read_and_one_byte_more_is_refused_unopened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "open.trf"
    path.write_bytes(PROVO.read_bytes())
    size = path.stat().st_size
    with_bound(monkeypatch, "trf", size)
    section, problems = load_section(path)
    assert section is not None and errors(problems) == []
    with_bound(monkeypatch, "trf", size - 1)
    opened: list[object] = []

    def read(*args: object) -> bytes:
        opened.append(args)
        return b""

    monkeypatch.setattr(readers, "read_bytes", read)
    section, problems = load_section(path, "trf")
    assert section is None and opened == []
    assert errors(problems)[0].startswith(
        f"{path}: the file is {size:,} bytes; at most {size - 1:,} bytes of a TRF file are read"
    )


def test_a_file_grown_since_its_size_was_taken_is_read_no_further_than_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "open.trf"
    path.write_bytes(PROVO.read_bytes())
    taken = os.stat(path)  # the size the season took, before the file grew
    with_bound(monkeypatch, "trf", taken.st_size)
    with path.open("ab") as stream:
        stream.write(b"\n" * 100_000)
    section, problems = load_section(path, "trf", taken)
    assert section is None
    assert errors(problems) == [
        f"{path}: the file is more than {taken.st_size:,} bytes; at most {taken.st_size:,} "
        "bytes of a TRF file are read (9,999 players of 199 rounds take 22 MB): is this the "
        "right file? Export the tournament from the pairing program again"
    ]


def test_a_bounded_read_ends_one_byte_past_the_bound() -> None:
    assert len(read_bytes("/dev/zero", 1000)) == 1001  # a device that never ends
    assert len(read_bytes("/dev/zero", 200_000, size=0)) == 200_001


@pytest.mark.parametrize("size", [0, 1, 64 * 1024, 300_000])
def test_a_file_read_with_its_size_is_the_file(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f"
    path.write_bytes(os.urandom(size))
    assert read_bytes(path, size, size) == read_bytes(path, None, size) == path.read_bytes()
    assert read_bytes(path, size, 10) == path.read_bytes()  # (a size taken before it grew)


def test_a_reader_given_bytes_past_its_bound_refuses_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader called with bytes (a download) holds them to the same bound."""
    monkeypatch.setattr(trf, "BOUND", trf.BOUND._replace(limit=100))
    section, problems = read_trf(tmp_path / "t.trf", PROVO.read_bytes())
    assert section is None
    assert errors(problems)[0].startswith(f"{tmp_path / 't.trf'}: the file is ")


# --------------------------------------------------------------------------------------------
# Within the size, counted before it is made: lichess's lines, chess.com's values


def test_sixteen_million_lichess_lines_are_counted_not_made(tmp_path: Path) -> None:
    """64 MB of ``1.0`` lines, within the size bound (16 million lines, made, take 1.3 GB):
    the line breaks are counted before one line is made."""
    path = tmp_path / "results.ndjson"
    path.write_bytes(lichess_of_lines((lichess.MAX_BYTES - 200) // 4))
    ran = run_measured("event", str(path), cwd=tmp_path)
    assert ran.code == 2, ran.stderr[-2000:]
    lines = lichess.BOUND.lines
    assert ran.stderr.startswith(f"{path}:{lines + 1}: the file goes on past {lines:,} lines (")
    assert ran.peak_mb < PEAK_COUNTED, f"{ran.peak_mb:.0f} MB"


def test_sixteen_million_chesscom_numbers_are_counted_not_parsed(tmp_path: Path) -> None:
    """64 MB of JSON holding 16 million numbers ``1.0`` (parsed, each a Decimal: 2.09 GB, and
    the group read as empty): its values counted before it is parsed."""
    path = tmp_path / "group.json"
    path.write_bytes(chesscom_of_numbers((chesscom.MAX_BYTES - 200) // 4))
    ran = run_measured("event", str(path), cwd=tmp_path)
    assert ran.code == 2, ran.stderr[-2000:]
    assert ran.stderr.startswith(f"{path}: the file's JSON counts 16,777,")
    assert f"at most {chesscom.MAX_TOKENS:,} of one chess.com group are read" in ran.stderr
    assert ran.peak_mb < PEAK_COUNTED, f"{ran.peak_mb:.0f} MB"


def test_the_json_count_bounds_the_values_and_keys_and_ignores_strings() -> None:
    text = CHESSCOM_GROUP.read_bytes()
    value = json.loads(text)

    def nodes(item: object) -> int:
        if isinstance(item, dict):
            return 1 + sum(1 + nodes(v) for v in item.values())
        if isinstance(item, list):
            return 1 + sum(map(nodes, item))
        return 1

    assert nodes(value) <= json_tokens(text) < 2 * nodes(value)
    assert json_tokens(b'["a,b:c[d", "e"]') == 5  # 2 strings, 1 comma, 1 bracket, and 1
    assert json_tokens(b"[1.0, 1.0, 1.0]") == 4


# --------------------------------------------------------------------------------------------
# Nesting


def test_nesting_to_the_bound_is_read_and_one_level_more_is_refused_at_its_line() -> None:
    problems: list[Problem] = []
    assert json_value(nested(MAX_DEPTH), Location("f.json"), problems) is not None
    assert problems == []
    text = '{"a":\n' + nested(MAX_DEPTH) + "}"
    assert json_value(text, Location("f.json", 7), problems) is None
    assert [str(p) for p in problems] == [
        f"f.json:8: not readable JSON: arrays or objects nested too deeply (more than "
        f"{MAX_DEPTH} levels; the site's results have 2 to 4); download the file again (it is "
        "written by the site, not by hand)"
    ]


def test_deep_nesting_is_refused_before_it_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hundred thousand levels: the parser (a level of the stack each) is never asked."""

    def parse(*args: object, **kwargs: object) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(json, "loads", parse)  # (the module json_text parses with)
    for text in (nested(100_000), '{"a":' * 100_000 + "1" + "}" * 100_000):
        problems: list[Problem] = []
        assert json_value(text, Location("f.json"), problems) is None
        assert "nested too deeply" in problems[0].message


def test_brackets_inside_strings_are_no_nesting() -> None:
    problems: list[Problem] = []
    text = '{"pgn": "' + '[Event \\"x\\"] {' * 1000 + '"}'
    assert json_value(text, Location("f.json"), problems) == {"pgn": '[Event "x"] {' * 1000}
    assert problems == []


def test_a_chesscom_group_nested_100000_deep_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "group.json"
    path.write_bytes(GROUP_HEAD + b"\n" + nested(100_000).encode() + b"]}")
    section, problems = chesscom.read_chesscom(path)
    assert section is None
    assert errors(problems)[0].startswith(f"{path}:2: not readable JSON: arrays or objects nested")


# --------------------------------------------------------------------------------------------
# A key given twice


def test_a_key_given_twice_is_located_at_its_second_naming() -> None:
    problems: list[Problem] = []
    second = ' "black": {"username": "b", "rating": 1, "rating": 2}}'
    text = '{"white": {"username": "a"},\n' + second
    assert json_value(text, Location("g.json"), problems) is None
    column = second.index('"rating": 2') + 1
    assert [str(p) for p in problems] == [
        f"g.json:2:{column}: key 'rating' is given twice in one object ('1', then '2'): which "
        "the site meant cannot be told; download the file again (it is written by the site, "
        "not by hand), or delete one of them"
    ]


def test_one_key_in_two_objects_is_no_repetition_and_an_escaped_key_is_the_same_key() -> None:
    problems: list[Problem] = []
    text = '{"white": {"username": "a"}, "black": {"username": "b"}}'
    assert json_value(text, Location("g.json"), problems) is not None and problems == []
    assert json_value('{"a": 1, "\\u0061": 2}', Location("g.json", 3), problems) is None
    assert str(problems[0]).startswith("g.json:3:10: key 'a' is given twice")


def test_lichess_points_given_twice_is_one_error_at_its_line(tmp_path: Path) -> None:
    """``"points": 2.5, "points": 0``: the json module keeps 0 without a word; refused, and
    the lines after it are read as they are (no rank is 'expected' wrongly after it)."""
    path = tmp_path / "results.ndjson"
    data = LICHESS_RESULTS.read_bytes().replace(b'"points":2.5,', b'"points":2.5,"points":0,', 1)
    _, problems = read_lichess(path, data)
    assert errors(problems) == [
        f"{path}:1:24: key 'points' is given twice in one object ('2.5', then '0'): which the "
        "site meant cannot be told; download the file again (it is written by the site, not by "
        "hand), or delete one of them"
    ]


# --------------------------------------------------------------------------------------------
# Zip members


def report_zip_of(tdexport: bytes) -> bytes:
    """The report zipped, TDEXPORT.DBF first (the member ``declared_size`` rewrites)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("TDEXPORT.DBF", tdexport)
        for name in ("THEXPORT.DBF", "TSEXPORT.DBF"):
            archive.writestr(name, (USCHESS / name).read_bytes())
    return out.getvalue()


def test_a_zip_member_holding_more_than_it_declares_is_cut_at_its_declared_size() -> None:
    """64 MB of zeros (64 KB zipped) under headers that declare 1,000 bytes: unzipped no
    further than the bound of its reading (a hundred times its zipped size), cut at the 1,000
    bytes it declares, and damage (its checksum is the 64 MB's)."""
    table = (USCHESS / "TDEXPORT.DBF").read_bytes() + bytes(64 * MB)
    data = declared_size(report_zip_of(table), 1000)
    tracemalloc.start()
    try:
        section, problems = read_uschess_dbf(Path("fall.zip"), data, "Open")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert section is None and peak < 16 * MB, f"{peak:,} bytes"
    assert errors(problems)[0].startswith("fall.zip: damaged zip archive")


def test_a_zip_member_declaring_more_than_the_bound_is_refused_unread() -> None:
    data = declared_size(report_zip_of((USCHESS / "TDEXPORT.DBF").read_bytes()), 0xFFFF_FFF0)
    section, problems = read_uschess_dbf(Path("fall.zip"), data, "Open")
    assert section is None
    (refused,) = errors(problems)
    assert refused.startswith("fall.zip: 'TDEXPORT.DBF' in the zip unzips to more than ")
    assert refused.endswith(": no US Chess report is that large; zip the report again")


# --------------------------------------------------------------------------------------------
# A TRF rating out of its columns


def test_a_five_digit_rating_from_column_48_is_refused_at_the_column() -> None:
    """C.04 Annex 2: the name in columns 15-47, column 48 blank, the rating in 49-52. A
    '99999' right-aligned to column 52 was read from 49-52 alone as 9999."""
    text = PROVO.read_text(encoding="utf-8").replace(VANCE, "Vance, Xavi" + " " * 22 + "99999 ")
    _, problems = read_trf("p.trf", text.encode())
    assert errors(problems) == [
        "p.trf:4:48: rating '99999' in columns 48-52 starts in column 48, which is blank in TRF: "
        "a rating has at most 4 digits, in columns 49-52, and '9999' would be read; write the "
        "rating in columns 49-52 (the name ends by column 47)"
    ]


def test_a_name_ending_in_a_digit_at_column_47_leaves_the_rating_as_it_is() -> None:
    name = "Vance, Xavi".ljust(32) + "2"  # columns 15-47, its last a digit
    text = PROVO.read_text(encoding="utf-8").replace(VANCE, f"{name} 2346 ")
    section, problems = read_trf("p.trf", text.encode())
    assert section is not None and errors(problems) == []
    assert [p.rating for p in section.players if p.name.startswith("Vance")] == [2346]


# --------------------------------------------------------------------------------------------
# aliases.csv of a million lines


def test_ascii_names_are_keyed_as_every_name_is() -> None:
    """The quick key of a plain ASCII name is the key the general path gives it."""
    from grandprix.players import normalise

    names = [
        "Arkadan, Adib",
        "  ARKADAN   Adib ",
        "adib.arkadan;x",
        "O'Neil , Sean",
        "van der Berg,Jan",
        "A.B.C",
        "x",
        "",
        ", ; .",
    ]
    for name in names:
        general = " ".join(sorted(_SEPARATORS.sub(" ", normalise(name + "\u0301")).split()))
        assert name_key(name) == general.replace("\u0301", ""), name


def aliases_season(folder: Path, lines: int) -> Path:
    """The utah season with an aliases.csv of ``lines`` decisions (two in three 'same')."""
    season = folder / "season"
    season.mkdir(parents=True)
    for path in EXAMPLES_UTAH.iterdir():
        (season / path.name).write_bytes(path.read_bytes())
    decisions = (
        f'"Player{i:07d}, Anna","Playr{i:07d}, Anna",{"same" if i % 3 else "different"}\n'
        for i in range(lines)
    )
    (season / "aliases.csv").write_text("name,other,decision\n" + "".join(decisions))
    return season


def test_a_million_aliases_are_checked_in_under_a_gigabyte(tmp_path: Path) -> None:
    """Measured at 25,000 and 75,000 decisions, the peak drawn out to a million lines."""
    peaks = []
    for lines in (25_000, 75_000):
        season = aliases_season(tmp_path / str(lines), lines)
        ran = run_measured("check", str(season), cwd=tmp_path)
        assert ran.code == 0, ran.stderr[-2000:]
        peaks.append(ran.peak_mb)
    per_line = (peaks[1] - peaks[0]) / 50_000
    million = peaks[0] + per_line * (1_000_000 - 25_000)
    assert million < 1000, f"{million:.0f} MB at a million lines ({peaks})"


def test_a_toml_file_a_pairing_trf_and_an_entries_file_are_bounded_before_they_are_read(
    tmp_path: Path,
) -> None:
    """season.toml (and every TOML file), the day's TRF and entries.csv: past their bound,
    refused from their size, located, without being read (sparse files of a gigabyte)."""
    from grandprix.errors import InputError
    from grandprix.events.entries import read_entries
    from grandprix.pairing.state import read_tournament
    from grandprix.rules.load import read_toml

    for name in ("season.toml", "day.trf", "entries.csv"):
        with (tmp_path / name).open("wb") as out:
            out.truncate(1024**3)
    problems: list[Problem] = []
    assert read_toml(tmp_path / "season.toml", problems) is None
    [problem] = problems
    assert "season.toml: the file is 1,073,741,824 bytes; at most 4,194,304" in str(problem)
    with pytest.raises(InputError, match=r"day\.trf: the file is 1,073,741,824 bytes"):
        read_tournament(tmp_path / "day.trf")
    with pytest.raises(InputError, match=r"entries\.csv: the file is 1,073,741,824 bytes"):
        read_entries(tmp_path / "entries.csv", 5)

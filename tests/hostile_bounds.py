"""Hostile inputs past the bounds on reading, and the builders that make them.

Each file is made when its case runs, small on disk: a workbook whose ``<dimension>`` claims a
million rows and whose one far cell is at the sheet's last row, a cell longer than any name, a
sheet of more rows than any event, zip archives that inflate a megabyte into a gigabyte, CSV
fields longer than the field bound, a FIDE list cut in the middle of a line, a file in UTF-8
but for one Latin-1 byte; results files one byte past their format's size (sparse: a real
first line, then a hole that takes no room on disk), lichess results of millions of lines and
chess.com JSON of millions of numbers within that size, JSON nested past its depth.
``CASES`` are run by ``test_hostile_bounds.py`` with ``hostile.run_case``;
``test_bounded_reading.py`` and ``test_reader_bounds.py`` run such files under a memory
limit and measure what they take.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from xml.sax.saxutils import escape

import openpyxl
from openpyxl.utils import get_column_letter

from grandprix.ratings.formats import MAX_LINES
from grandprix.readers import chesscom, lichess, standings_csv, trf, uschess_dbf, uschess_files
from grandprix.readers.chess_results_sheet import XLSX_PART_LIMIT, XLSX_ROWS
from grandprix.readers.json_text import MAX_DEPTH
from grandprix.readers.text import CSV_FILE
from grandprix.scores import FIELD_LIMIT
from hostile import (
    ROOT,
    SEASON_TOML,
    WQ,
    WQ_ROW,
    Case,
    Env,
    Loc,
    Setup,
    bad_season,
    chain,
    chess_results_csv,
    command,
    edit,
    equivalent,
    import_argv,
    transform,
    warn_season,
    write,
    zip_bytes,
)
from synthetic import fide_rating_list

MB = 1024 * 1024
SHEET = "xl/worksheets/sheet1.xml"
_SHEET_OPEN = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)

# --------------------------------------------------------------------------------------------
# Workbooks


def crosstable_rows() -> list[list[str]]:
    """The rows of the 4-player crosstable of ``hostile.chess_results_csv``."""
    return list(csv.reader(chess_results_csv().splitlines()))


def _cell_xml(ref: str, value: str) -> bytes:
    if value.isdecimal() and len(value) < 10:
        return f'<c r="{ref}"><v>{value}</v></c>'.encode()
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'.encode()


def _rows_xml(rows: Iterable[list[str]], first: int = 1) -> Iterator[bytes]:
    for number, row in enumerate(rows, start=first):
        cells = b"".join(
            _cell_xml(f"{get_column_letter(col)}{number}", value)
            for col, value in enumerate(row, start=1)
            if value != ""
        )
        yield f'<row r="{number}">'.encode() + cells + b"</row>"


def sheet_xml(
    rows: list[list[str]], dimension: str | None = None, tail: Iterable[bytes] = ()
) -> Iterator[bytes]:
    """A worksheet's XML in pieces: ``rows`` from row 1, then the raw ``tail`` rows."""
    yield _SHEET_OPEN
    ref = dimension or f"A1:{get_column_letter(max(map(len, rows)))}{len(rows)}"
    yield f'<dimension ref="{ref}"/><sheetData>'.encode()
    yield from _rows_xml(rows)
    yield from tail
    yield b"</sheetData></worksheet>"


_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_WHEN = (2024, 1, 1, 0, 0, 0)  # the time of every member: one input, one file


@functools.cache
def _book_parts() -> dict[str, bytes]:
    """The parts of a workbook of one sheet as openpyxl saves it (the sheet is replaced), the
    time it was saved taken out."""
    book = openpyxl.Workbook()
    out = io.BytesIO()
    book.save(out)
    with zipfile.ZipFile(out) as archive:
        return {
            name: _STAMP.sub(b"2024-01-01T00:00:00Z", archive.read(name))
            for name in archive.namelist()
        }


def _write(archive: zipfile.ZipFile, name: str, pieces: Iterable[bytes]) -> None:
    info = zipfile.ZipInfo(name, _WHEN)
    info.compress_type = zipfile.ZIP_DEFLATED
    with archive.open(info, "w", force_zip64=True) as member:
        for piece in pieces:
            member.write(piece)


def workbook(sheet: Iterable[bytes], extra: dict[str, Iterable[bytes]] | None = None) -> bytes:
    """A one-sheet .xlsx whose sheet is the XML ``sheet`` (written piece by piece and deflated:
    a gigabyte of one byte is a megabyte on disk); ``extra``: more parts, or other contents of
    the parts openpyxl writes."""
    parts: dict[str, bytes | Iterable[bytes]] = {**_book_parts(), SHEET: sheet, **(extra or {})}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in parts.items():
            _write(archive, name, [content] if isinstance(content, bytes) else content)
    return out.getvalue()


def crosstable_workbook() -> bytes:
    """The crosstable as a plain, valid .xlsx (the reference the bombs are made from)."""
    return workbook(sheet_xml(crosstable_rows()))


def far_cell_workbook() -> bytes:
    """The crosstable whose ``<dimension>`` claims the whole sheet (A1:XFD1048576), with one
    cell at its last row and column: a reader that trusts the dimension pads a million rows
    to 16,384 columns each."""
    far = b'<row r="1048576">' + _cell_xml("XFD1048576", "x") + b"</row>"
    return workbook(sheet_xml(crosstable_rows(), "A1:XFD1048576", [far]))


def _repeated(piece: bytes, size: int) -> Iterator[bytes]:
    block = piece * max(1, MB // len(piece))
    left = size
    while left > 0:
        yield block[:left]
        left -= len(block)


def long_cell_workbook(chars: int) -> bytes:
    """The crosstable with a player's name ``chars`` characters long (cell C3)."""
    rows = crosstable_rows()
    head = b"".join(_rows_xml(rows[:2]))
    cell = b'<row r="3"><c r="C3" t="inlineStr"><is><t>'
    rest = b"".join(_rows_xml(rows[3:], first=4))

    def sheet() -> Iterator[bytes]:
        yield _SHEET_OPEN + b'<dimension ref="A1:I6"/><sheetData>' + head + cell
        yield from _repeated(b"A", chars)
        yield b"</t></is></c></row>" + rest + b"</sheetData></worksheet>"

    return workbook(sheet())


def many_rows_workbook(rows: int) -> bytes:
    """The crosstable followed by ``rows`` more rows of one number each."""
    table = crosstable_rows()
    first = len(table) + 1

    def tail() -> Iterator[bytes]:
        for start in range(first, first + rows, 10_000):
            numbers = range(start, min(start + 10_000, first + rows))
            row = '<row r="{0}"><c r="A{0}"><v>{0}</v></c></row>'
            yield "".join(map(row.format, numbers)).encode()

    return workbook(sheet_xml(table, f"A1:I{first + rows - 1}", tail()))


# --------------------------------------------------------------------------------------------
# Rating lists


def zipped(name: str, pieces: Iterable[bytes]) -> bytes:
    """A zip of one member written piece by piece, deflated."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _write(archive, name, pieces)
    return out.getvalue()


def nul_list(size: int) -> bytes:
    """A zipped "list" of ``size`` NUL bytes."""
    return zipped("players_list_foa.txt", _repeated(b"\0", size))


def newline_list(size: int) -> bytes:
    """A zipped FIDE list: a valid header, two players, then ``size`` line breaks."""
    head = fide_rating_list(2, 1).encode()
    return zipped("players_list_foa.txt", [head, *_repeated(b"\n", size)])


def declared_size(data: bytes, size: int) -> bytes:
    """The zip ``data`` (one member, not zip64) whose headers declare ``size`` bytes
    uncompressed: the local header's and the central directory's size fields rewritten."""
    out = bytearray(data)
    local = out.find(b"PK\x03\x04")
    central = out.find(b"PK\x01\x02")
    out[local + 22 : local + 26] = size.to_bytes(4, "little")
    out[central + 24 : central + 28] = size.to_bytes(4, "little")
    return bytes(out)


def cut_fide_list(players: int = 40) -> bytes:
    """A FIDE TXT list whose download ended in the middle of a line: half its players, the
    last one cut inside its standard rating (``'24'`` of ``'2450'``), no line break after it."""
    lines = fide_rating_list(players, 3).splitlines()
    cut = lines[0].index("SRtng") + 2
    last = lines[players // 2]
    assert last[cut - 2 : cut + 2].isdecimal(), "test setup: the player has no rating"
    return ("\n".join(lines[: players // 2]) + "\n" + last[:cut]).encode()


# --------------------------------------------------------------------------------------------
# Text files


FIELD = FIELD_LIMIT


def long_field(chars: int = FIELD + 1) -> str:
    """A quoted CSV field of ``chars`` characters."""
    return '"' + "x" * chars + '"'


def spell(rel: str, *changes: tuple[str, str, str]) -> Setup:
    """The file with each ``(old, new, encoding)``: the first ``old`` (as UTF-8 bytes) replaced
    by ``new`` in ``encoding``; one file may so mix UTF-8 and Latin-1."""

    def fn(data: bytes) -> bytes:
        for old, new, encoding in changes:
            assert old.encode() in data, f"test setup: {old!r} not in {rel}"
            data = data.replace(old.encode(), new.encode(encoding), 1)
        return data

    return transform(rel, fn)


# --------------------------------------------------------------------------------------------
# Results files past their format's bounds


DATA = ROOT / "tests" / "data"
EXAMPLES_UTAH = ROOT / "examples" / "utah-2012"
LICHESS_RESULTS = DATA / "lichess" / "club-swiss-results.ndjson"
CHESSCOM_GROUP = DATA / "chesscom" / "quick-knockouts-1401-1600-round-1-group-1.json"
USCHESS = DATA / "uschess-dbf"
ARENA, GROUP, REPORT = "arena.ndjson", "group.json", "report.zip"
# What chess.com's group file opens with: enough for its format to be recognised.
GROUP_HEAD = b'{"fair_play_removals":[],"players":[],"games":[],"x":['


def sparse(rel: str, head: Callable[[], bytes], size: int) -> Setup:
    """A file of ``size`` bytes that takes no room on disk: ``head`` (a real file's start, so
    that its format is recognised), then a hole of zero bytes."""

    def run(env: Env) -> None:
        path = env.path(rel)
        path.write_bytes(head())
        with path.open("r+b") as stream:
            stream.truncate(size)

    return run


def as_results(name: str, *setup: Setup) -> Setup:
    """The files ``setup`` writes, and the Winter Quick's results in the file ``name``."""
    return chain(*setup, edit(SEASON_TOML, f'results = "{WQ}"', f'results = "{name}"'))


def lichess_head() -> bytes:
    return LICHESS_RESULTS.read_bytes()


def report_zip() -> bytes:
    """The US Chess report of ``tests/data/uschess-dbf``, its three tables zipped."""
    return zip_bytes({name: (USCHESS / name).read_bytes() for name in uschess_files.TABLES})


def lichess_of_lines(count: int) -> bytes:
    """lichess results: a player's line, then ``count`` lines of the number ``1.0``."""
    return lichess_head().splitlines(keepends=True)[0] + b"1.0\n" * count


def chesscom_of_numbers(count: int) -> bytes:
    """A chess.com group's JSON holding an array of ``count`` numbers ``1.0``."""
    return GROUP_HEAD + b"1.0," * (count - 1) + b"1.0]}"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --------------------------------------------------------------------------------------------
# The cases (kept one case to a few lines: not reformatted)
# fmt: off

XLSX = "winter_quick.xlsx"
AS_XLSX = edit(SEASON_TOML, f'results = "{WQ}"', f'results = "{XLSX}"')
PART, LINES = XLSX_PART_LIMIT, MAX_LINES
LIST_CSV = 'id,name,rating\n100,"Alpha, Ann",2000\n101,"Beta, Bob",1900\n102,"Gamma, Gus",1800\n'


def xlsx_season(cid: str, make: Callable[[], bytes], loc: Loc, phrase: str) -> Case:
    """The season whose winter_quick results are the workbook ``make`` makes: ``check`` and
    ``standings`` refuse it, in a process of their own (a runaway read would take the test's
    memory)."""
    return bad_season(cid, 3, "utah", chain(write(XLSX, make), AS_XLSX), loc, phrase,
                      proc=True, timeout=60.0, max_chars=5_000)


def lines_of(count: int, line: str) -> str:
    return line * count


CASES: list[Case] = []
add = CASES.append

# ---- 3. Workbooks past the bounds ------------------------------------------------------------
add(xlsx_season("xlsx-dimension-claims-the-whole-sheet", far_cell_workbook,
                Loc(XLSX, XLSX_ROWS + 1), r"past 100,000 rows"))
add(xlsx_season("xlsx-cell-past-the-field-bound", lambda: long_cell_workbook(FIELD + 1),
                Loc(XLSX, 3), r"cell C3 holds 131,073 characters, more than 131,072"))
add(xlsx_season("xlsx-part-unzips-past-the-bound", lambda: long_cell_workbook(PART + 1),
                Loc(XLSX), r"unzips to [\d,]+ bytes, more than 33,554,432"))
add(xlsx_season("xlsx-part-at-a-zip-bomb-ratio",
                lambda: workbook(sheet_xml(crosstable_rows(), tail=_repeated(b" ", 8 * MB))),
                Loc(XLSX), r"more than 100 times its size"))
add(xlsx_season("xlsx-rows-past-the-bound", lambda: many_rows_workbook(XLSX_ROWS),
                Loc(XLSX, XLSX_ROWS + 1), r"past 100,000 rows"))

# ---- 3. CSV fields past the bound ------------------------------------------------------------
add(command("results-csv-field-past-the-bound", 3, "utah",
            edit(WQ, WQ_ROW, f"{long_field()},1205,5"), ("standings", "{season}"), 2,
            Loc(WQ, 3), r"a field is longer than 131,072 characters", max_chars=5_000,
            note="check exits 2 too: the results-CSV reader raises the field's problem"))
add(bad_season("players-csv-field-past-the-bound", 3, "utah",
               edit("players.csv", '"Vance, Xavi"', long_field()), Loc("players.csv", 3),
               r"a field is longer than 131,072 characters", max_chars=5_000))
add(bad_season("players-csv-quote-left-open", 3, "utah",
               edit("players.csv", '"Vance, Xavi"', '"Vance, Xavi' + lines_of(200_000, "x\n")),
               Loc("players.csv", 3), r"starts on line 3 .*not closed", max_chars=5_000))
add(bad_season("aliases-csv-field-past-the-bound", 3, "utah",
               write("aliases.csv", f"name,other,decision\n{long_field()},Walsh Milo,same\n"),
               Loc("aliases.csv", 2), r"a field is longer than 131,072 characters",
               max_chars=5_000))
add(bad_season("chess-results-csv-field-past-the-bound", 3, "utah",
               write(WQ, chess_results_csv().replace('"Baird, Alma"', long_field())),
               Loc(WQ, 4), r"a field is longer than 131,072 characters", max_chars=5_000))
add(command("entries-csv-field-past-the-bound", 9, "event",
            edit("entries.csv", '"Quinn, Quentin"', long_field()), ("sections", "{event}"), 2,
            Loc("entries.csv", 3), r"a field is longer than 131,072 characters",
            max_chars=5_000))

# ---- 7. One file in two encodings ------------------------------------------------------------
U, L = "utf-8", "latin-1"
# Without her id 'Bäird, Alma' is known by her name: the 'Baird, Alma' of players.csv (accents
# aside), third in the standings; 'BÃ¤ird, Alma' (UTF-8 read as Latin-1) would be someone else.
BAIRD = ('Baird, Alma",1205', 'Bäird, Alma",', U)
NUNEZ = ("Nguyen, Nina", "Núñez, Nina")
add(equivalent("results-csv-utf8-with-one-latin1-byte", 7, "utah",
               spell(WQ, BAIRD, (*NUNEZ, L)), reference=spell(WQ, BAIRD, (*NUNEZ, U)),
               must_show="Baird, Alma",
               note="read as UTF-8 but for its one Latin-1 byte: the standings of the UTF-8 file"))
add(warn_season("results-csv-utf8-with-one-latin1-byte-warns", 7, "utah",
                spell(WQ, BAIRD, ("Nguyen", "Nguyén", L)), Loc(WQ, 2),
                r"byte 0xE9 is not UTF-8.*save the whole file as UTF-8"))
LATIN1_MOSTLY = (("Nguyen", "Nguyén", L), ("Reyes", "Réyes", L), ("Quill", "Qüill", L))
add(equivalent("results-csv-latin1-with-one-utf8-name", 7, "utah",
               spell(WQ, *LATIN1_MOSTLY, BAIRD),
               reference=spell(WQ, *((old, new, U) for old, new, _ in LATIN1_MOSTLY), BAIRD),
               must_show="Baird, Alma"))
add(warn_season("results-csv-latin1-with-one-utf8-name-warns", 7, "utah",
                spell(WQ, *LATIN1_MOSTLY, BAIRD), Loc(WQ, 3),
                r"'ä' is written in UTF-8.*the rest of the file is Latin-1"))
add(warn_season("players-csv-utf8-with-one-latin1-byte-warns", 7, "utah",
                spell("players.csv", ("Xavi", "Xaví", U), ("Vance", "Vänce", L)),
                Loc("players.csv", 3), r"byte 0xE4 is not UTF-8"))
add(warn_season("results-trf-utf8-with-one-latin1-byte-warns", 7, "utah",
                spell("provo_open.trf", ("Vance, Xavi  ", "Vänce, Xaví  ", U),
                      ("Ortiz", "Örtiz", L)),
                Loc("provo_open.trf", 5), r"byte 0xD6 is not UTF-8"))

# ---- 3. Results files past their bounds, refused before they are read -----------------------
def past_size(cid: str, name: str, head: Callable[[], bytes], limit: int, what: str) -> Case:
    """The Winter Quick's results a file one byte past its format's bound: refused from its
    size, unread (a process of its own: a read would take the test's memory)."""
    return bad_season(cid, 3, "utah", as_results(name, sparse(name, head, limit + 1)), Loc(name),
                      rf"the file is {limit + 1:,} bytes; at most {limit:,} bytes of {what} are "
                      r"read .*: is this the right file\?", proc=True, max_chars=5_000)


add(past_size("lichess-results-past-the-size-bound", ARENA, lichess_head,
              lichess.MAX_BYTES, "lichess results"))
add(past_size("chesscom-group-past-the-size-bound", GROUP, lambda: GROUP_HEAD,
              chesscom.MAX_BYTES, "chess.com results"))
add(past_size("trf-past-the-size-bound", "big.trf",
              (EXAMPLES_UTAH / "provo_open.trf").read_bytes, trf.BOUND.limit, "a TRF file"))
add(past_size("uschess-zip-past-the-size-bound", REPORT, report_zip, uschess_dbf.BOUND.limit,
              "a US Chess rating report"))
add(past_size("standings-csv-past-the-size-bound", "big.csv",
              (EXAMPLES_UTAH / WQ).read_bytes, standings_csv.BOUND.limit, "a standings CSV"))
add(bad_season("players-csv-past-the-size-bound", 3, "utah",
               sparse("players.csv", (EXAMPLES_UTAH / "players.csv").read_bytes,
                      CSV_FILE.limit + 1), Loc("players.csv"),
               rf"at most {CSV_FILE.limit:,} bytes of a players.csv or aliases.csv are read",
               proc=True, max_chars=5_000))
add(bad_season("aliases-csv-past-the-lines-bound", 3, "utah",
               write("aliases.csv", lambda: b"name,other,decision\n" + b"\n" * CSV_FILE.lines),
               Loc("aliases.csv", CSV_FILE.lines + 1),
               rf"goes on past {CSV_FILE.lines:,} lines", proc=True, max_chars=5_000))
add(bad_season("lichess-16-million-lines-past-the-lines-bound", 3, "utah",
               as_results(ARENA, write(ARENA, lambda: lichess_of_lines(16 * 1024**2 - 64))),
               Loc(ARENA, lichess.BOUND.lines + 1),
               rf"goes on past {lichess.BOUND.lines:,} lines \(16,777,\d{{3}} line breaks\)",
               proc=True, max_chars=5_000,
               note="64 MB, within the size bound: counted before a line is made"))
add(bad_season("chesscom-16-million-numbers-past-the-values-bound", 3, "utah",
               as_results(GROUP, write(GROUP, lambda: chesscom_of_numbers(16 * 1024**2 - 16))),
               Loc(GROUP), rf"counts 16,77\d,\d{{3}} values, keys and separators; at most "
               rf"{chesscom.MAX_TOKENS:,}", proc=True, max_chars=5_000,
               note="64 MB, within the size bound: counted before it is parsed"))
add(bad_season("lichess-line-nested-past-the-depth-bound", 3, "utah",
               as_results(ARENA, write(ARENA, lambda: lichess_head().splitlines()[0] + b"\n"
                                       + f'{{"rank":2,"x":{nested(MAX_DEPTH + 1)}}}\n'.encode())),
               Loc(ARENA, 2), rf"nested too deeply \(more than {MAX_DEPTH} levels"))
add(bad_season("chesscom-group-nested-100000-deep", 3, "utah",
               as_results(GROUP, write(GROUP, lambda: GROUP_HEAD + b"\n"
                                       + nested(100_000).encode() + b"]}")),
               Loc(GROUP, 2), r"nested too deeply", max_chars=5_000,
               note="refused before it is parsed: no RecursionError"))

# ---- 10. Rating lists past the bounds --------------------------------------------------------
add(command("import-zip-of-nuls", 10, "lists", write("list.zip", lambda: nul_list(256 * MB)),
            import_argv("list.zip"), 2, Loc("list.zip"), r"zip bomb", proc=True,
            max_chars=5_000))
add(command("import-zip-of-a-header-and-newlines", 10, "lists",
            write("list.zip", lambda: newline_list(256 * MB)), import_argv("list.zip"), 2,
            Loc("list.zip"), r"zip bomb", proc=True, max_chars=5_000))
add(command("import-zip-declaring-4-gb", 10, "lists",
            write("list.zip", lambda: declared_size(zip_bytes({"l.csv": LIST_CSV.encode()}),
                                                    0xFFFF_FFF0)),
            import_argv("list.zip"), 2, Loc("list.zip"), r"unzips to 4,294,967,280 bytes",
            max_chars=5_000))
add(command("import-zip-declaring-less-than-it-holds", 10, "lists",
            write("list.zip", lambda: declared_size(zip_bytes(
                {"l.txt": fide_rating_list(3, 1).encode() + b"\n" * (8 * MB)}), 1_000)),
            import_argv("list.zip"), 2, Loc("list.zip"), r"damaged", max_chars=5_000))
add(command("import-txt-cut-in-the-middle-of-a-line", 10, "lists",
            write("list.txt", cut_fide_list), import_argv("list.txt"), 2,
            Loc("list.txt", 21), r"ends in the middle of line 21.*download the list again"))
add(command("import-txt-of-too-many-lines", 10, "lists",
            write("list.txt", lambda: fide_rating_list(2, 1).encode() + b"\n" * LINES),
            import_argv("list.txt"), 2, Loc("list.txt", LINES + 1), r"more than 5,000,000 lines",
            proc=True, max_chars=5_000))
add(command("import-txt-header-of-a-million-characters", 10, "lists",
            write("list.txt", "x" * 1_000_000 + "\n"), import_argv("list.txt"), 2,
            Loc("list.txt", 1), r"not a FIDE list", max_chars=5_000))
add(command("import-csv-field-past-the-bound", 10, "lists",
            write("list.csv", LIST_CSV.replace('"Beta, Bob"', long_field())),
            import_argv("list.csv"), 2, Loc("list.csv", 3),
            r"a field is longer than 131,072 characters", max_chars=5_000))
add(command("import-txt-mixing-utf8-and-latin1", 10, "lists",
            write("list.txt", lambda: fide_rating_list(6, 1).replace("Number 2", "Númber 2")
                  .encode().replace(b"Number 4", "Nümber 4".encode("latin-1"))),
            import_argv("list.txt"), 2, Loc("list.txt", 6), r"byte 0xFC is not UTF-8",
            max_chars=5_000))
# fmt: on

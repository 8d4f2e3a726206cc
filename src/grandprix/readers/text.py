"""Turning a file's bytes into lines of text, with every undecodable byte located, and lines
of CSV into rows, with a field longer than ``FIELD_LIMIT`` located.

``FIELD_LIMIT`` is the one bound on a field of any CSV file and on a cell of a spreadsheet.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

from grandprix.errors import InputError
from grandprix.model import Location, Problem, Severity
from grandprix.readers.bounds import Bound, MiB, within
from grandprix.scores import FIELD_LIMIT

_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
EXCERPT = 40  # characters of a line shown in a message about it
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# C0 controls other than tab, and the C1 range, are never text in a results file.
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_PLAIN = bytes([9, 10, 13, *range(0x20, 0x7F)])  # ASCII text bytes: none of them is bad
# A text decoded with "surrogateescape": each byte that is not UTF-8 is one of these characters.
_ESCAPED = re.compile("[\udc80-\udcff]")
_UNESCAPE = {0xDC00 + byte: byte for byte in range(0x80, 0x100)}  # ... back to its Latin-1 letter
_WIDE = re.compile("[^\x00-\x7f\udc80-\udcff]")  # a character read from a UTF-8 sequence
MIXED_SHOWN = 5  # places of a file that mixes UTF-8 and Latin-1 named one by one


class Lines(list[str]):
    """The lines of a file, with the file's name (``path``) for a message about one of them."""

    def __init__(self, lines: Iterable[str] = (), path: str = "") -> None:
        super().__init__(lines)
        self.path = path


def decode(data: bytes, path: str) -> tuple[Lines, list[Problem]]:
    """Decode UTF-8 (with or without BOM) or Latin-1 and split into lines.

    A file with a UTF-8 BOM must be UTF-8. Otherwise UTF-8 is tried first and Latin-1 is the
    fallback, as the pairing programs of the 2000s wrote it; a file that mixes the two (a
    Latin-1 name pasted into a UTF-8 file) is read byte by byte, each in the encoding it is
    valid in, with a warning at each place of the less used one (``_mixed``). Control
    characters that no text file holds (NUL, the C1 range of a mis-decoded file) are reported
    with line and column.
    """
    if not data.translate(None, _PLAIN):  # plain ASCII text, as most files are: split at once
        text = data.decode("ascii")
        lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
        if lines and lines[-1] == "":
            lines.pop()
        return Lines(lines, path), []
    problems: list[Problem] = []
    if data.startswith(_UTF16_BOMS):  # Excel's "Unicode text" and some Windows editors
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            return Lines([], path), [
                Problem(
                    Location(path),
                    "the file starts with a UTF-16 byte-order mark but is not valid UTF-16 "
                    "(save it again as UTF-8)",
                )
            ]
    if data.startswith(_BOM):
        text, bad = _decode_utf8(data[len(_BOM) :])
        if bad is not None:
            row, column = _position(data[len(_BOM) :], bad)
            problems.append(
                Problem(
                    Location(path, row, column),
                    f"byte 0x{data[len(_BOM) + bad]:02X} is not valid UTF-8, though the file "
                    "starts with a UTF-8 byte-order mark (save the file as UTF-8 or Latin-1)",
                )
            )
            text = data[len(_BOM) :].decode("utf-8", errors="replace")
        lines = Lines(_LINE_BREAK.split(text), path)
    else:
        text, bad = _decode_utf8(data)
        if bad is None:
            lines = Lines(_LINE_BREAK.split(text), path)
        else:
            text, lines, mixed = _utf8_or_latin1(data, path)
            problems += mixed
    if lines and lines[-1] == "":
        lines.pop()
    if not _BAD_CHAR.search(text):
        return lines, problems
    for number, line in enumerate(lines, start=1):
        match = _BAD_CHAR.search(line)
        if match:
            problems.append(
                Problem(
                    Location(path, number, match.start() + 1),
                    f"undecodable byte 0x{ord(match.group()):02X}: the file is neither UTF-8 "
                    "nor Latin-1 text (re-export it from the pairing program as UTF-8)",
                )
            )
    return lines, problems


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A short, quoted excerpt of input text for a message (never a whole line of a file)."""
    text = text.strip()
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)


def _utf8_or_latin1(data: bytes, path: str) -> tuple[str, Lines, list[Problem]]:
    """The text and lines of a file that is not all UTF-8, with a warning at each place of a
    file that mixes UTF-8 and Latin-1.

    With no UTF-8 sequence of two or more bytes in it the file is Latin-1, as a whole. With
    one, each byte that is no part of a UTF-8 sequence is read as Latin-1 and the rest as
    UTF-8: 'Müller' is then one name whichever way each line wrote it (a UTF-8 sequence is
    almost never Latin-1 text: it would be a capital 'Ã' or 'Â' followed by a symbol). The
    warnings name the places of the encoding the file uses less (``_mixed``).
    """
    escaped = data.decode("utf-8", "surrogateescape")  # each byte not UTF-8: one U+DCxx
    try:  # only ASCII and bytes that are not UTF-8: no UTF-8 sequence at all
        escaped.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:
        pass
    else:
        text = data.decode("latin-1")
        return text, Lines(_LINE_BREAK.split(text), path), []
    problems = _mixed(_LINE_BREAK.split(escaped), path)
    text = escaped.translate(_UNESCAPE)
    return text, Lines(_LINE_BREAK.split(text), path), problems


def _mixed(escaped: list[str], path: str) -> list[Problem]:
    """Warnings at the places of the encoding a mixed file uses less (``escaped``: its lines
    with each byte that is not UTF-8 as U+DCxx): each such byte in a file mostly UTF-8, each
    UTF-8 character in a file mostly Latin-1; ``MIXED_SHOWN`` of them, then how many more."""
    latin = sum(len(_ESCAPED.findall(line)) for line in escaped if not line.isascii())
    wide = sum(len(_WIDE.findall(line)) for line in escaped if not line.isascii())
    odd, mostly = (_ESCAPED, "UTF-8") if latin <= wide else (_WIDE, "Latin-1")
    found: list[Problem] = []
    for number, line in enumerate(escaped, start=1):
        for match in odd.finditer(line):
            if len(found) == MIXED_SHOWN:
                more = min(latin, wide) - MIXED_SHOWN
                found.append(
                    Problem(
                        Location(path, number, match.start() + 1),
                        f"{more:,} more such place(s) from here on; save the whole file as "
                        "UTF-8 (in a spreadsheet program: 'CSV UTF-8')",
                        Severity.WARNING,
                    )
                )
                return found
            char = match.group()
            if mostly == "UTF-8":
                byte = ord(char) - 0xDC00
                what = (
                    f"byte 0x{byte:02X} is not UTF-8, though the rest of the file is: read "
                    f"as the Latin-1 letter {chr(byte)!r}"
                )
            else:
                what = (
                    f"{char!r} is written in UTF-8 ({char.encode().hex(' ').upper()}), though "
                    f"the rest of the file is Latin-1: read as {char!r}"
                )
            found.append(
                Problem(
                    Location(path, number, match.start() + 1),
                    f"{what} in {excerpt(_around(line, match.start()))}; save the whole file as "
                    "UTF-8 (in a spreadsheet program: 'CSV UTF-8') so that every name reads "
                    "the same in every file",
                    Severity.WARNING,
                )
            )
    return found


def _around(line: str, column: int) -> str:
    """The text of an escaped line around a column, each byte as its Latin-1 letter."""
    return line[max(0, column - EXCERPT // 2) : column + EXCERPT // 2].translate(_UNESCAPE)


def csv_rows(
    lines: list[str], path: str | None = None, delimiter: str | None = None
) -> list[list[str]]:
    """The rows of CSV text in the dialects spreadsheets save: ',' or ';' (the one the header
    row uses more, unless ``delimiter`` is given), quotes doubled. The byte-order mark and
    CRLF are gone after ``decode``.

    A field longer than ``FIELD_LIMIT`` characters raises ``InputError``, located in ``path``
    (by default the file ``decode`` read the lines from) at the line where its row starts.
    """
    sep = delimiter or delimiter_of(lines[0] if lines else "")
    reader = csv.reader(lines, delimiter=sep)
    try:
        return list(reader)
    except csv.Error as exc:
        where = path if path is not None else lines.path if isinstance(lines, Lines) else ""
        raise InputError([_csv_problem(where, lines, sep, reader.line_num, exc)]) from None


def _csv_problem(path: str, lines: list[str], sep: str, end: int, exc: csv.Error) -> Problem:
    """The problem of a row the csv module could not read (``end``: the line it had reached)."""
    reader = csv.reader(lines[:end], delimiter=sep)
    start = 1  # the line the row starts on: after the last row read whole
    try:
        for _ in reader:
            start = reader.line_num + 1
    except csv.Error:
        pass
    if "field limit" not in str(exc):
        return Problem(
            Location(path, end),
            f"not readable as CSV ({str(exc)[:80]}); save the file again as CSV from the "
            "spreadsheet program",
        )
    if start < end:
        return Problem(
            Location(path, start),
            f"a field is longer than {FIELD_LIMIT:,} characters: it starts on line {start} and "
            f'runs past line {end}; the quote (") that opens it is not closed: close it, and '
            'double each quote inside a field ("")',
        )
    return Problem(
        Location(path, start),
        f"a field is longer than {FIELD_LIMIT:,} characters (no name, id or result is this "
        "long); shorten it or remove the line",
    )


def delimiter_of(header: str) -> str:
    """The delimiter of a CSV file: ';' if its header row holds more of them than ',', else ','."""
    return ";" if header.count(";") > header.count(",") else ","


def _decode_utf8(data: bytes) -> tuple[str, int | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return "", exc.start


def _position(data: bytes, offset: int) -> tuple[int, int]:
    before = data[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    return line, offset - start + 1


# A season's own table (players.csv, aliases.csv), read whole by ``csv_file``.
CSV_FILE = Bound(
    64 * MiB,
    "a players.csv or aliases.csv",
    "a million players' lines are about 60 MB",
    "Keep one season's players and decisions in it",
    lines=2_000_000,
)


def csv_file(path: Path, problems: list[Problem], data: bytes | None = None) -> list[list[str]]:
    """The rows of a CSV file (the dialects of ``csv_rows``; ``data``: its bytes, when the
    caller has read them), within ``CSV_FILE`` (its size checked before it is opened, its
    lines before they are made); a file past it, one that cannot be read or decoded, or one
    with a field longer than ``FIELD_LIMIT``, is a located problem (and no rows)."""
    data = within(path, data, CSV_FILE, problems)
    if data is None:
        return []
    lines, found = decode(data, str(path))
    problems.extend(found)
    try:
        return csv_rows(lines)
    except InputError as exc:
        problems.extend(exc.problems)
        return []

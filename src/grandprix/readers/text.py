"""Turning a file's bytes into lines of text, with every undecodable byte located."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from grandprix.model import Location, Problem

_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
EXCERPT = 40  # characters of a line shown in a message about it
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# C0 controls other than tab, and the C1 range, are never text in a results file.
_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_PLAIN = bytes([9, 10, 13, *range(0x20, 0x7F)])  # ASCII text bytes: none of them is bad


def decode(data: bytes, path: str) -> tuple[list[str], list[Problem]]:
    """Decode UTF-8 (with or without BOM) or Latin-1 and split into lines.

    A file with a UTF-8 BOM must be UTF-8. Otherwise UTF-8 is tried first and Latin-1 is the
    fallback, as the pairing programs of the 2000s wrote it. Control characters that no text
    file holds (NUL, the C1 range of a mis-decoded file) are reported with line and column.
    """
    if not data.translate(None, _PLAIN):  # plain ASCII text, as most files are: split at once
        text = data.decode("ascii")
        lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
        if lines and lines[-1] == "":
            lines.pop()
        return lines, []
    problems: list[Problem] = []
    if data.startswith(_UTF16_BOMS):  # Excel's "Unicode text" and some Windows editors
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            return [], [
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
    else:
        text, bad = _decode_utf8(data)
        if bad is not None:
            text = data.decode("latin-1")
    lines = _LINE_BREAK.split(text)
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


def csv_rows(lines: list[str]) -> list[list[str]]:
    """The rows of CSV text in the dialects spreadsheets save: ',' or ';' (the one the header
    row uses more), quotes doubled. The byte-order mark and CRLF are gone after ``decode``."""
    return list(csv.reader(lines, delimiter=delimiter_of(lines[0] if lines else "")))


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


def csv_file(path: Path, problems: list[Problem]) -> list[list[str]]:
    """The rows of a CSV file (the dialects of ``csv_rows``); a file that cannot be read or
    decoded is a located problem."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(Location(str(path)), f"cannot read the file: {exc.strerror}"))
        return []
    lines, found = decode(data, str(path))
    problems.extend(found)
    return csv_rows(lines)

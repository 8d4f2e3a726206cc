"""A dBase III table (no memo) read from its bytes within bounds: the header checked whole
before any record is sliced (version ``0x03``, the field descriptors ending in ``0x0D`` inside
the declared header length, the record length equal to the fields' widths, exactly the
declared records present and only the end-of-file byte ``0x1A`` after them), at most
``MAX_FIELDS`` fields of at most ``MAX_WIDTH`` bytes and ``MAX_RECORDS`` records; every field
character data, as the US Chess rating reports (``uschess_dbf.py``) hold.

Read here rather than with ``dbfread``: that library reads only from a file name (not the
bytes already read, nor a zip's member), and reads a record cut short, a record count that
disagrees with the file and a wrong version byte without a word. Text is ASCII, or
Windows-1252 (no code page is declared in these files) with a warning at its record and field.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from grandprix.model import Location, Problem, Severity
from grandprix.readers.text import excerpt

TABLE_LIMIT = 16 * 1024**2  # bytes of one table
MAX_RECORDS = 200_000  # records of one table
MAX_FIELDS = 128  # fields of one table (TDEXPORT: 7 and one a round)
MAX_WIDTH = 255  # bytes of one field (H_OTHER_TD, the widest, has 255)
_FIELD_NAME = re.compile(rb"^[A-Z0-9_]{1,10}$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


@dataclass(frozen=True)
class Field:
    name: str
    width: int
    start: int  # offset in the record (the flag byte is 0)


@dataclass
class Table:
    """One dBase table: its fields and its live records, each with its record number."""

    name: str  # the file, as messages name it
    fields: dict[str, Field]
    records: list[tuple[int, dict[str, str]]]

    def where(self, number: int, field: str = "") -> Location:
        """Record ``number``, at the byte of ``field`` in it (1 is the flag byte)."""
        column = self.fields[field].start + 1 if field in self.fields else 0
        return Location(self.name, number, column)


def read_table(name: str, data: bytes, problems: list[Problem]) -> Table | None:
    """The dBase III table of ``data``, or None (with a located problem) when its header and
    size disagree or a record cannot be read: a damaged table is never read in part."""

    def refuse(message: str, number: int = 0) -> None:
        problems.append(Problem(Location(name, number), message))

    again = "export the report again from the pairing program"
    if len(data) > TABLE_LIMIT:
        refuse(f"{len(data):,} bytes, more than {TABLE_LIMIT:,}: no US Chess report is that large")
        return None
    if len(data) < 33:
        refuse(
            f"only {len(data)} bytes: a dBase table's header alone has more; the file is "
            f"truncated ({again})"
        )
        return None
    if data[0] != 0x03:
        refuse(
            f"version byte 0x{data[0]:02X}: not a dBase III table without memo (0x03), as "
            f"every US Chess report is ({again})"
        )
        return None
    count, header_length, record_length = struct.unpack_from("<IHH", data, 4)
    fields: dict[str, Field] = {}
    offset, start = 32, 1
    while True:
        if offset >= min(len(data), header_length):
            refuse(
                f"the field descriptors run past the header's {header_length} bytes (bytes "
                f"9-10) without the byte 0x0D that ends them: the header is damaged ({again})"
            )
            return None
        if data[offset] == 0x0D:
            break
        descriptor = data[offset : offset + 32]
        raw_name = descriptor[:11].split(b"\x00", 1)[0]
        number = len(fields) + 1
        if len(descriptor) < 32 or not _FIELD_NAME.match(raw_name):
            refuse(
                f"field descriptor {number} (byte {offset + 1}) names no field "
                f"({excerpt(raw_name.decode('latin-1'))}): the header is damaged ({again})"
            )
            return None
        field = raw_name.decode("ascii").upper()
        kind, width, high = chr(descriptor[11]), descriptor[16], descriptor[17]
        if kind not in "CDN":
            refuse(
                f"field {field} has type {excerpt(kind)}; a US Chess report has only "
                f"character (C), number (N) and date (D) fields ({again})"
            )
            return None
        if kind == "C":
            width += high << 8  # the Clipper convention for character fields past 255 bytes
        if not 0 < width <= MAX_WIDTH or len(fields) == MAX_FIELDS or field in fields:
            why = (
                f"is {width:,} bytes wide; a US Chess field has 1 to {MAX_WIDTH}"
                if not 0 < width <= MAX_WIDTH
                else f"is field {number}; a table has at most {MAX_FIELDS}"
                if len(fields) == MAX_FIELDS
                else "is declared twice"
            )
            refuse(f"field {field} {why}: the header is damaged ({again})")
            return None
        fields[field] = Field(field, width, start)
        start += width
        offset += 32
    if record_length != start:
        refuse(
            f"the record length in the header ({record_length}, bytes 11-12) differs from "
            f"the fields' widths and the flag byte ({start}): the header is damaged ({again})"
        )
        return None
    if count > MAX_RECORDS:
        refuse(
            f"the header declares {count:,} records, more than {MAX_RECORDS:,}: no US Chess "
            f"report has that many ({again})"
        )
        return None
    end = header_length + count * record_length
    if len(data) < end:
        whole = max(0, len(data) - header_length) // record_length
        refuse(
            f"truncated: the header declares {count} records of {record_length} bytes but "
            f"the file ends {end - len(data):,} bytes short, in record {whole + 1} (copy or "
            f"{again})",
            whole + 1,
        )
        return None
    if data[end:] not in (b"", b"\x1a"):
        refuse(
            f"{len(data) - end:,} bytes follow the {count} records the header declares "
            f"(expected only the end-of-file byte 0x1A): the record count is wrong or the "
            f"file is damaged ({again})",
            count + 1,
        )
        return None
    table = Table(name, fields, [])
    bad = False
    for number in range(1, count + 1):
        at = header_length + (number - 1) * record_length
        flag = data[at]
        if flag == 0x2A:  # deleted
            continue
        if flag != 0x20:
            refuse(
                f"record {number} starts with byte 0x{flag:02X}, not a space (a record) or "
                f"'*' (a deleted one): the records are misaligned ({again})",
                number,
            )
            bad = True
            continue
        values = {}
        for column in fields.values():
            raw = data[at + column.start : at + column.start + column.width]
            text = text_of(raw, table, number, column.name, problems)
            bad = bad or text is None
            values[column.name] = text or ""
        table.records.append((number, values))
    return None if bad else table


def text_of(
    raw: bytes, table: Table, number: int, field: str, problems: list[Problem]
) -> str | None:
    """A field's text, stripped of its padding: ASCII, or Windows-1252 with a warning; None
    (with a problem) for a byte that is no text."""
    raw = raw.rstrip(b" \x00")
    if raw.isascii():
        text = raw.decode("ascii")
    else:
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError as exc:
            problems.append(
                Problem(
                    table.where(number, field),
                    f"{field} holds byte 0x{raw[exc.start]:02X}, which is no letter in "
                    "Windows-1252 (nor in ASCII): correct the text in the pairing program and "
                    "export the report again",
                )
            )
            return None
        problems.append(
            Problem(
                table.where(number, field),
                f"{field} holds bytes past ASCII, read as Windows-1252 (the report declares no "
                f"code page): {excerpt(text)}; if it reads wrong, correct it in the pairing "
                "program",
                Severity.WARNING,
            )
        )
    text = text.replace("\t", " ")
    control = _CONTROL.search(text)
    if control is not None:
        problems.append(
            Problem(
                table.where(number, field),
                f"{field} holds the control character 0x{ord(control.group()):02X}, which no "
                "text holds: the record is damaged (export the report again)",
            )
        )
        return None
    return text.strip()

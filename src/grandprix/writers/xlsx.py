"""A small streaming writer of XLSX workbooks whose every cell is text (ECMA-376 SpreadsheetML).

The package holds ``[Content_Types].xml``, ``_rels/.rels``, ``xl/workbook.xml`` and its
relationships, a minimal ``xl/styles.xml`` and one ``xl/worksheets/sheetN.xml`` per sheet. Each
cell is an inline string (``t="inlineStr"``, ECMA-376 Part 1, 18.3.1.4), so no shared-strings
table has to be built first: rows go to the zip member as they are turned into XML, a thousand
at a time. An empty value is an empty cell typed as a string, as openpyxl writes it.

Text is escaped for XML (``& < >``; a carriage return as ``&#13;``, which a parser would
otherwise turn into a line feed); the characters XML 1.0 forbids (C0 controls other than tab,
line feed and carriage return; lone surrogates; U+FFFE, U+FFFF) are left out, since no reader
could load the file with them. Text that begins or ends with white space keeps it
(``xml:space="preserve"``). The bytes depend only on the rows: the zip entries carry a fixed
time (1980-01-01), and no part records when or by what the file was written.

season.xlsx of the generated 10,000-event season (4.6 million cells), written in a forked
process as the site writes it, rows included: about 5 s, where openpyxl's write-only mode took
62 s in the same run (README, "Performance").
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

from grandprix.errors import UsageError

Sheet = tuple[str, Iterable[Sequence[str]]]  # a sheet's name and its rows, header first

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
SPREADSHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can carry
CHUNK = 1000  # rows turned into XML and compressed at a time
MAX_ROWS = 1_048_576  # the most rows a sheet can have in Excel (and in its row numbers)

# XML 1.0 section 2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-]
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
SHEET_NAME_FORBIDDEN = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
# ECMA-376 Part 1, 22.9.2.19 (ST_Xstring): '_x' four hex digits '_' stands for that character.
XSTRING_ESCAPE = re.compile("_x[0-9A-Fa-f]{4}_")
XSTRING_SPLIT = re.compile("(?<=_x)(?=[0-9A-Fa-f]{4}_)")


@functools.cache
def column_name(index: int) -> str:
    """The column's letters: 0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def text(value: str) -> str:
    """``value`` as XML character data: forbidden characters dropped, ``& < >`` escaped and a
    carriage return as a character reference."""
    return _escape(FORBIDDEN.sub("", value))


def _escape(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\r", "&#13;"))  # fmt: skip


def attribute(value: str) -> str:
    """``value`` as a double-quoted XML attribute."""
    return text(value).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")


def _cell(reference: str, value: str) -> str:
    """One cell: an inline string, or an empty cell typed as a string when nothing is left.
    Text holding an escape of ECMA-376's ST_Xstring (``_x0041_``, which Excel shows as 'A')
    is split into runs between ``_x`` and the digits, so every reader shows it as written."""
    kept = FORBIDDEN.sub("", value)
    if not kept:
        return f'<c r="{reference}" t="inlineStr"/>'
    if XSTRING_ESCAPE.search(kept):
        runs = "".join(
            f'<r><t xml:space="preserve">{_escape(run)}</t></r>'
            for run in XSTRING_SPLIT.split(kept)
        )
        return f'<c r="{reference}" t="inlineStr"><is>{runs}</is></c>'
    space = ' xml:space="preserve"' if kept[0].isspace() or kept[-1].isspace() else ""
    return f'<c r="{reference}" t="inlineStr"><is><t{space}>{_escape(kept)}</t></is></c>'


def _plain(values: Iterable[str], count: int) -> bool:
    """True when none of the ``count`` values needs care of its own: none holds a character to
    escape or drop, or begins or ends with white space (an empty value is plain)."""
    joined = "<".join(values)  # '<' is the one character that must be escaped and is not counted
    return (
        joined.isprintable()  # no control character, no white space but the space
        and joined.count("<") == count - 1
        and "&" not in joined
        and ">" not in joined
        and "_x" not in joined  # perhaps an escape of ECMA-376 (_cell)
        and " <" not in joined
        and "< " not in joined
        and not joined.startswith(" ")
        and not joined.endswith(" ")
    )


@functools.cache
def _plain_row(width: int) -> str:
    """The %-format of a plain row of ``width`` cells: its number, then each cell's number and
    value."""
    cells = "".join(
        f'<c r="{column_name(i)}%s" t="inlineStr"><is><t>%s</t></is></c>' for i in range(width)
    )
    return f'<row r="%s">{cells}</row>'


def _sheet_xml(rows: Iterable[Sequence[str]]) -> Iterator[str]:
    """The worksheet part, CHUNK rows at a time, taking the rows as they come; ValueError for
    a sheet of more than MAX_ROWS rows (the caller splits such rows into several sheets)."""
    yield f'{HEAD}<worksheet xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}"><sheetData>'
    done = 0
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, CHUNK)):
        if done + len(chunk) > MAX_ROWS:
            raise ValueError(f"a sheet holds at most {MAX_ROWS:,} rows; split the rows into "
                             "several sheets")  # fmt: skip
        yield _empty_cells(_rows_xml(chunk, done))
        done += len(chunk)
    yield "</sheetData></worksheet>"


def _rows_xml(rows: list[Sequence[str]], done: int) -> str:
    """The rows numbered from ``done + 1``. Rows of one width with only plain values, the usual
    case, are made by one %-format of the row's format repeated, the values set in place by
    column: the Python work is per column, not per cell (four times faster than a format per
    row). Any other rows are made one by one."""
    numbers = [str(n) for n in range(done + 1, done + len(rows) + 1)]
    width = len(rows[0])
    if (
        all(len(row) == width for row in rows)
        and width
        and _plain(itertools.chain.from_iterable(rows), width * len(rows))
    ):
        stride = 2 * width + 1  # a row's values: its number, then each cell's number and value
        values: list[str] = numbers * stride  # any strings; every one is set below
        for i in range(width + 1):
            values[max(0, 2 * i - 1) :: stride] = numbers
        for i, column in enumerate(zip(*rows, strict=True)):
            values[2 * i + 2 :: stride] = column
        return (_plain_row(width) * len(rows)) % tuple(values)
    return "".join(_row_xml(row, at) for row, at in zip(rows, numbers, strict=True))


def _row_xml(row: Sequence[str], at: str) -> str:
    """One row, numbered ``at``."""
    if row and _plain(row, len(row)):
        values = [at, at] * len(row) + [at]
        values[2::2] = row
        return _plain_row(len(row)) % tuple(values)
    if row:
        cells = "".join(_cell(column_name(i) + at, value) for i, value in enumerate(row))
        return f'<row r="{at}">{cells}</row>'
    return f'<row r="{at}"/>'


def _empty_cells(xml: str) -> str:
    """The cells of plain rows whose value is '' as empty cells typed as strings, as openpyxl
    writes them. '<t></t>' comes only from an empty value: a plain value holds no '<'."""
    return xml.replace('"><is><t></t></is></c>', '"/>')


def _check_names(names: list[str]) -> None:
    """Sheet names as spreadsheet programs accept them: 1-31 characters, none of ``[]:*?/\\``,
    not beginning or ending with an apostrophe, each different ignoring case."""
    seen: set[str] = set()
    for name in names:
        bad = SHEET_NAME_FORBIDDEN.search(name) or FORBIDDEN.search(name)
        if bad or not 1 <= len(name) <= 31 or name.startswith("'") or name.endswith("'"):
            raise UsageError(
                f"{name!r} cannot name a sheet (expected 1-31 characters, none of []:*?/\\ "
                "or a control character, no apostrophe first or last)"
            )
        if name.casefold() in seen:
            raise UsageError(f"{name!r}: two sheets of one name (case does not count)")
        seen.add(name.casefold())


def _package(names: list[str]) -> dict[str, str]:
    """Every part but the worksheets, by name."""
    count = len(names)
    sheet_types = "".join(
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" '
        f'ContentType="{SPREADSHEETML}.worksheet+xml"/>'
        for n in range(1, count + 1)
    )
    content_types = (
        f'{HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{SPREADSHEETML}.sheet.main+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{SPREADSHEETML}.styles+xml"/>'
        f"{sheet_types}</Types>"
    )
    root = (
        f'{HEAD}<Relationships xmlns="{PACKAGE_RELATIONSHIPS}">'
        f'<Relationship Id="rId1" Type="{RELATIONSHIPS}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    )
    sheets = "".join(
        f'<sheet name="{attribute(name)}" sheetId="{n}" r:id="rId{n}"/>'
        for n, name in enumerate(names, 1)
    )
    workbook = (
        f'{HEAD}<workbook xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}">'
        f"<sheets>{sheets}</sheets></workbook>"
    )
    links = "".join(
        f'<Relationship Id="rId{n}" Type="{RELATIONSHIPS}/worksheet" '
        f'Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, count + 1)
    )
    workbook_links = (
        f'{HEAD}<Relationships xmlns="{PACKAGE_RELATIONSHIPS}">{links}'
        f'<Relationship Id="rId{count + 1}" Type="{RELATIONSHIPS}/styles" '
        'Target="styles.xml"/></Relationships>'
    )
    # The smallest style sheet Excel accepts: one font, the two fills it requires, one border,
    # one cell format (General) and the Normal style.
    styles = (
        f'{HEAD}<styleSheet xmlns="{MAIN}">'
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
        "</cellStyleXfs>"
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        "</cellXfs>"
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
        "</styleSheet>"
    )
    return {
        "[Content_Types].xml": content_types,
        "_rels/.rels": root,
        "xl/workbook.xml": workbook,
        "xl/_rels/workbook.xml.rels": workbook_links,
        "xl/styles.xml": styles,
    }


def _entry(name: str, level: int) -> zipfile.ZipInfo:
    """A zip entry of fixed time and attributes, deflated at zlib's ``level``."""
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix, whatever system writes it, so the bytes do not depend on it
    info.external_attr = 0o644 << 16
    if sys.version_info >= (3, 13):
        info.compress_level = level
    else:  # ZipFile.open takes the level from the entry; before 3.13 it had a private name
        setattr(info, "_compresslevel", level)  # noqa: B010
    return info


def write_workbook(target: Path | IO[bytes], sheets: Sequence[Sheet], level: int = 1) -> None:
    """Write the workbook of ``sheets`` (each a name and its rows, every value a str) to the
    file ``target`` (a path or a binary file object); UsageError for a sheet name spreadsheet
    programs refuse. ``level`` is zlib's compression level: with 6 the 10,000-event season
    took 8 s instead of 5 s, for a file of 21 MB instead of 28 MB."""
    names = [name for name, _ in sheets]
    _check_names(names)
    with zipfile.ZipFile(target, "w") as book:  # each entry says how it is compressed
        for name, xml in _package(names).items():
            book.writestr(_entry(name, level), xml)
        for number, (_, rows) in enumerate(sheets, 1):
            with book.open(_entry(f"xl/worksheets/sheet{number}.xml", level), "w") as member:
                for piece in _sheet_xml(rows):
                    member.write(piece.encode())

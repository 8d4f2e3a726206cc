"""A small streaming writer of XLSX workbooks of text and numbers (ECMA-376 SpreadsheetML).

The package holds ``[Content_Types].xml``, ``_rels/.rels``, ``xl/workbook.xml`` and its
relationships, a minimal ``xl/styles.xml`` and one ``xl/worksheets/sheetN.xml`` per sheet. A
text cell is an inline string (``t="inlineStr"``, ECMA-376 Part 1, 18.3.1.4), so no
shared-strings table has to be built first: rows go to the zip member as they are turned into
XML, a thousand at a time. An empty value is an empty cell typed as a string, as openpyxl writes
it.

A sheet names its columns of numbers (``Sheet.numbers``). There a value that is a plain decimal
(``is_number``: '72.00', '-1.5', '3'; not '9-10', '', 'inf' or '1e3') is a number cell whose
``<v>`` is that decimal text itself, never a float's digits, so a spreadsheet sorts and sums
it; its number format shows it with the decimals it was written with ('72.00' shows 72.00, as
the CSV has it). A decimal of more than ``DIGITS`` digits, which a spreadsheet's binary number
would not keep, stays text, as does any other value. Text is never a formula: no cell has one.

Text is escaped for XML (``& < >``; a carriage return as ``&#13;``, which a parser would
otherwise turn into a line feed); the characters XML 1.0 forbids (C0 controls other than tab,
line feed and carriage return; lone surrogates; U+FFFE, U+FFFF) are left out, since no reader
could load the file with them. Text that begins or ends with white space keeps it
(``xml:space="preserve"``). The bytes depend only on the rows: the zip entries carry a fixed
time (1980-01-01), and no part records when or by what the file was written.

season.xlsx of the generated 10,000-event season (4.6 million cells), written in a forked
process as the site writes it, rows included: about 5 s, where openpyxl's write-only mode took
62 s in the same run.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, NamedTuple

from grandprix.errors import UsageError


class Sheet(NamedTuple):
    """A sheet's name, its rows (header first) and its columns of numbers (0 is the first):
    in those a value that ``is_number`` is a number cell, any other value a text cell."""

    name: str
    rows: Iterable[Sequence[str]]
    numbers: frozenset[int] = frozenset()


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
# A plain decimal: a sign only before it, no leading zero, no exponent, no 'inf' or 'nan'.
DECIMAL = re.compile("-?(?:0|[1-9][0-9]*)(?:[.][0-9]+)?")
# The digits a spreadsheet's number keeps: a decimal of at most 15 significant digits comes back
# from an IEEE 754 binary64 number as written (C's DBL_DIG), and Excel shows no more than 15. A
# decimal of more digits (leading zeros counted) stays text.
DIGITS = 15
NUMBER_FORMAT = 164  # the first number format a file may define (ECMA-376 Part 1, 18.8.30)


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
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def attribute(value: str) -> str:
    """``value`` as a double-quoted XML attribute."""
    return text(value).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")


def is_number(value: str) -> bool:
    """True for a plain decimal of at most DIGITS digits ('72.00', '-1.5', '0', '9'), which a
    column of numbers writes as a number cell; False for any other text ('9-10', '', '1e3',
    'inf', 'NaN', '0012', '+1', '1.', ' 1')."""
    if DECIMAL.fullmatch(value) is None:
        return False
    return len(value) - value.startswith("-") - ("." in value) <= DIGITS


def _cell(reference: str, value: str, number: bool = False) -> str:
    """One cell: in a column of numbers (``number``) a number cell when the value is one, else
    text as ``_text_rest`` writes it."""
    rest = _number_rest(value) if number else _text_rest(value)
    return f'<c r="{reference}"{rest}>'


def _text_rest(value: str) -> str:
    """A text cell after its reference, to the '>' that ends it: an inline string, or an empty
    cell typed as a string when nothing is left. Text holding an escape of ECMA-376's
    ST_Xstring (``_x0041_``, which Excel shows as 'A') is split into runs between ``_x`` and
    the digits, so every reader shows it as written."""
    kept = FORBIDDEN.sub("", value)
    if not kept:
        return ' t="inlineStr"/'
    if XSTRING_ESCAPE.search(kept):
        runs = "".join(
            f'<r><t xml:space="preserve">{_escape(run)}</t></r>'
            for run in XSTRING_SPLIT.split(kept)
        )
        return f' t="inlineStr"><is>{runs}</is></c'
    space = ' xml:space="preserve"' if kept[0].isspace() or kept[-1].isspace() else ""
    return f' t="inlineStr"><is><t{space}>{_escape(kept)}</t></is></c'


@functools.lru_cache(maxsize=1 << 16)
def _number_rest(value: str) -> str:
    """A cell of a column of numbers after its reference, to the '>' that ends it: a number
    whose ``<v>`` is the decimal as written, styled to show its decimals (``_styles``: style
    k shows k decimals; a whole number is General), or text (``_text_rest``). Made once for
    each value: a column of numbers holds few different ones (points, places, scores)."""
    if not is_number(value):
        return _text_rest(value)
    decimals = len(value) - value.index(".") - 1 if "." in value else 0
    return f' s="{decimals}"><v>{value}</v></c' if decimals else f"><v>{value}</v></c"


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
def _plain_row(width: int, numbers: frozenset[int] = frozenset()) -> str:
    """The %-format of a plain row of ``width`` cells: its number, then each cell's number and
    value; a cell of a column of ``numbers`` takes what ``_number_rest`` makes of its value."""
    cells = "".join(
        f'<c r="{column_name(i)}%s"%s>'
        if i in numbers
        else f'<c r="{column_name(i)}%s" t="inlineStr"><is><t>%s</t></is></c>'
        for i in range(width)
    )
    return f'<row r="%s">{cells}</row>'


def _sheet_xml(rows: Iterable[Sequence[str]], numbers: frozenset[int]) -> Iterator[str]:
    """The worksheet part, CHUNK rows at a time, taking the rows as they come; ValueError for
    a sheet of more than MAX_ROWS rows (the caller splits such rows into several sheets)."""
    yield f'{HEAD}<worksheet xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}"><sheetData>'
    done = 0
    iterator = iter(rows)
    while chunk := list(itertools.islice(iterator, CHUNK)):
        if done + len(chunk) > MAX_ROWS:
            raise ValueError(
                f"a sheet holds at most {MAX_ROWS:,} rows; split the rows into several sheets"
            )
        yield _empty_cells(_rows_xml(chunk, done, numbers))
        done += len(chunk)
    yield "</sheetData></worksheet>"


def _rows_xml(rows: list[Sequence[str]], done: int, numbers: frozenset[int]) -> str:
    """The rows numbered from ``done + 1``, the columns of ``numbers`` as ``_number_rest``
    writes them. Rows of one width with only plain values, the usual case, are made by one
    %-format of the row's format repeated, the values set in place by column: the Python work
    is per column, not per cell (four times faster than a format per row). Any other rows are
    made one by one."""
    at = [str(n) for n in range(done + 1, done + len(rows) + 1)]
    width = len(rows[0])
    if (
        all(len(row) == width for row in rows)
        and width
        and _plain(itertools.chain.from_iterable(rows), width * len(rows))
    ):
        stride = 2 * width + 1  # a row's values: its number, then each cell's number and value
        values: list[str] = at * stride  # any strings; every one is set below
        for i in range(width + 1):
            values[max(0, 2 * i - 1) :: stride] = at
        for i, column in enumerate(zip(*rows, strict=True)):
            values[2 * i + 2 :: stride] = map(_number_rest, column) if i in numbers else column
        return (_plain_row(width, numbers) * len(rows)) % tuple(values)
    return "".join(_row_xml(row, n, numbers) for row, n in zip(rows, at, strict=True))


def _row_xml(row: Sequence[str], at: str, numbers: frozenset[int] = frozenset()) -> str:
    """One row, numbered ``at``; the cells of the columns of ``numbers`` as ``_number_rest``
    writes them."""
    if row and _plain(row, len(row)):
        values = [at, at] * len(row) + [at]
        values[2::2] = [_number_rest(v) if i in numbers else v for i, v in enumerate(row)]
        return _plain_row(len(row), numbers) % tuple(values)
    if row:
        cells = "".join(
            _cell(column_name(i) + at, value, i in numbers) for i, value in enumerate(row)
        )
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
    styles = _styles()
    return {
        "[Content_Types].xml": content_types,
        "_rels/.rels": root,
        "xl/workbook.xml": workbook,
        "xl/_rels/workbook.xml.rels": workbook_links,
        "xl/styles.xml": styles,
    }


def _styles() -> str:
    """The smallest style sheet Excel accepts (one font, the two fills it requires, one border,
    the Normal style) with a cell format for each count of decimals a number cell can show:
    style 0 is General (text and whole numbers), style k (1 to DIGITS - 1: a number has a digit
    before its point) shows k decimals, '0.00' for k = 2."""
    formats = "".join(
        f'<numFmt numFmtId="{NUMBER_FORMAT + k - 1}" formatCode="0.{"0" * k}"/>'
        for k in range(1, DIGITS)
    )
    decimals = "".join(
        f'<xf numFmtId="{NUMBER_FORMAT + k - 1}" fontId="0" fillId="0" borderId="0" xfId="0" '
        'applyNumberFormat="1"/>'
        for k in range(1, DIGITS)
    )
    return (
        f'{HEAD}<styleSheet xmlns="{MAIN}">'
        f'<numFmts count="{DIGITS - 1}">{formats}</numFmts>'
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
        "</cellStyleXfs>"
        f'<cellXfs count="{DIGITS}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" '
        f'xfId="0"/>{decimals}</cellXfs>'
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
        "</styleSheet>"
    )


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


def write_workbook(
    target: Path | IO[bytes],
    sheets: Sequence[Sheet | tuple[str, Iterable[Sequence[str]]]],
    level: int = 1,
) -> None:
    """Write the workbook of ``sheets`` (each a ``Sheet``, or a name and its rows: text only;
    every value a str) to the file ``target`` (a path or a binary file object); UsageError for
    a sheet name spreadsheet programs refuse. ``level`` is zlib's compression level: with 6 the
    10,000-event season took 8 s instead of 5 s, for a file of 21 MB instead of 28 MB."""
    made = [Sheet(*sheet) for sheet in sheets]
    names = [sheet.name for sheet in made]
    _check_names(names)
    with zipfile.ZipFile(target, "w") as book:  # each entry says how it is compressed
        for name, xml in _package(names).items():
            book.writestr(_entry(name, level), xml)
        for number, sheet in enumerate(made, 1):
            with book.open(_entry(f"xl/worksheets/sheet{number}.xml", level), "w") as member:
                for piece in _sheet_xml(sheet.rows, sheet.numbers):
                    member.write(piece.encode())

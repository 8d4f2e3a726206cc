"""A table of text for the terminal: a title, a header row, rows and a caption, in the box of
heavy head lines that rich draws (``rich.table.Table``'s default), written line by line.

rich measures and renders every cell as styled segments: 3-4 s for the 13,000 lines of a
500-event season's standings. A table that fits the console's width needs none of that: each
column is as wide as its widest cell, numbers to the right. Its text is the same as rich's, to
the character, with the same styles on a terminal (italic title, bold header, dim italic
caption); a table that does not fit (rich would wrap its cells) is not this writer's: ``lines``
says None and the caller leaves it to rich, with the table ``rich_table`` makes.

Every text of a table comes from input files (names of seasons, events, players): ``safe``
makes each one safe for a terminal (``terminal.shown``), and ``rich_table`` gives rich its
texts as ``Text``, never as markup, so '[link=...]' or ':smile:' in a name shows as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len

from grandprix.writers.terminal import shown

if TYPE_CHECKING:
    from rich.table import Table

ITALIC, BOLD, DIM_ITALIC, RESET = "\x1b[3m", "\x1b[1m", "\x1b[2;3m", "\x1b[0m"


def lines(
    title: str,
    caption: str,
    heads: Sequence[str],
    right: Sequence[bool],
    rows: Sequence[Sequence[str]],
    width: int,
    styled: bool = False,
) -> Iterator[str] | None:
    """The table's lines (without their line ends), or None when it is wider than ``width``
    (or its title or caption is), or a text spans lines or starts or ends with white space
    (rich wraps those, its own way). ``right``: which columns are numbers, set to the right;
    ``styled``: with the terminal's styles."""
    if not all(map(_plain, (title, caption, *heads))) or not all(
        _plain(cell) for row in rows for cell in row
    ):
        return None
    widths = [cell_len(head) for head in heads]
    for row in rows:
        for c, cell in enumerate(row):
            size = cell_len(cell)
            if size > widths[c]:
                widths[c] = size
    total = sum(widths) + 3 * len(widths) + 1  # a space either side of each cell, the rules
    if total > width or cell_len(title) > total or cell_len(caption) > total:
        return None
    return _lines(title, caption, heads, right, rows, widths, total, styled)


def safe(
    title: str, caption: str, rows: Sequence[Sequence[str]]
) -> tuple[str, str, list[list[str]]]:
    """The title, caption and cells of a table with every control character of its input
    strings shown as its escape (``terminal.shown``)."""
    return shown(title), shown(caption), [[shown(cell) for cell in row] for row in rows]


def rich_table(
    title: str,
    caption: str,
    heads: Sequence[str],
    right: Sequence[bool],
    rows: Sequence[Sequence[str]],
) -> Table:
    """The table for rich (one too wide for ``lines``): the same box, title and caption styles
    as rich's defaults for strings, each text taken as it is (``Text``: no markup, no emoji
    codes) after ``terminal.shown``."""
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(shown(title), style="table.title") if title else None,
        caption=Text(shown(caption), style="table.caption") if caption else None,
    )
    for head, at_right in zip(heads, right, strict=True):
        table.add_column(head, justify="right" if at_right else "left")
    for row in rows:
        table.add_row(*(Text(shown(cell)) for cell in row))
    return table


def _lines(
    title: str,
    caption: str,
    heads: Sequence[str],
    right: Sequence[bool],
    rows: Sequence[Sequence[str]],
    widths: list[int],
    total: int,
    styled: bool,
) -> Iterator[str]:
    def pad(text: str, c: int) -> str:
        space = " " * (widths[c] - cell_len(text))
        return space + text if right[c] else text + space

    if title:
        yield _styled(_centred(title, total), ITALIC, styled)
    yield "┏" + "┳".join("━" * (w + 2) for w in widths) + "┓"
    if styled:
        bold = [
            f"{BOLD} {RESET}{BOLD}{pad(h, c)}{RESET}{BOLD} {RESET}" for c, h in enumerate(heads)
        ]
        yield "┃" + "┃".join(bold) + "┃"
    else:
        yield "┃" + "┃".join(f" {pad(h, c)} " for c, h in enumerate(heads)) + "┃"
    yield "┡" + "╇".join("━" * (w + 2) for w in widths) + "┩"
    for row in rows:
        yield "│" + "│".join(f" {pad(cell, c)} " for c, cell in enumerate(row)) + "│"
    yield "└" + "┴".join("─" * (w + 2) for w in widths) + "┘"
    if caption:
        yield _styled(_centred(caption, total), DIM_ITALIC, styled)


def _plain(text: str) -> bool:
    """Text that rich shows as it is: one line, no white space at either end, no markup."""
    return text == text.strip() and "\n" not in text and "[" not in text and ":" not in text


def _centred(text: str, width: int) -> str:
    """``text`` in the middle of ``width`` cells (the odd space on the right, as rich sets it)."""
    excess = width - cell_len(text)
    return " " * (excess // 2) + text + " " * (excess - excess // 2)


def _styled(text: str, style: str, styled: bool) -> str:
    return f"{style}{text}{RESET}" if styled else text

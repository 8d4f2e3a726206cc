"""The parts a page is made of: links, tables and blocks of text, as plain data.

Views (``views.py``) and the rules in words (``words/``) build pages from these; the
templates render them. A table cell is text, a link or a name as a file writes it (``Code``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Link:
    text: str
    href: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Code:
    """A name as a file or a program writes it, in every language (a CSV column's name): shown
    as code."""

    code: str


Cell = str | Link  # a part of a sentence, or a table cell
TableCell = Cell | Code


@dataclass(frozen=True, slots=True)
class Table:
    caption: str
    head: tuple[str, ...]
    rows: tuple[tuple[TableCell, ...], ...]
    numeric: tuple[int, ...] = ()  # the columns of numbers (right-aligned)


@dataclass(frozen=True, slots=True)
class Block:
    """A part of a list page: any of a heading (with an anchor), paragraphs, a list of links,
    tables."""

    heading: str = ""
    anchor: str = ""
    paragraphs: tuple[str, ...] = ()
    entries: tuple[Link, ...] = ()
    tables: tuple[Table, ...] = ()
    level: int = 2  # its heading's level: 3 for a part of the block above it

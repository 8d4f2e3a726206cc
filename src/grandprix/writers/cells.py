"""Text from input files made safe for a spreadsheet cell (OWASP, CSV injection).

A spreadsheet opening a CSV or XLSX file runs a cell that begins with ``=``, ``+``, ``-`` or
``@`` as a formula (a tab or a carriage return first is read past), so a player named
``=HYPERLINK(...)`` in a results file could run in the coordinator's spreadsheet. Every writer of
CSV or XLSX passes each text cell taken from an input file through ``safe_text``; the numbers
we compute (points ``-1.50``, places ``9-10``) are written as they are: in the CSV as text, in
the XLSX as number cells where they are plain decimals (``writers/xlsx.is_number``; a value
that is not one is a text cell, and no cell is a formula).
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable
from typing import TextIO, cast

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    """``text`` with a single quote before it when it begins with ``= + - @``, a tab or a
    carriage return, as OWASP's CSV injection guidance recommends; any other text unchanged.

    Only for text from input files (names, ids, event, section, division and prize names, and
    reasons that quote them), never for numbers we compute."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class CsvRows:
    """A CSV writer with lines ending in ``\\n`` whose fields may hold a lone carriage return:
    Python's writer quotes a field only for the characters of its line ending, so a ``\\r``
    inside a name would split the row when read back; such a row is written fully quoted."""

    CHUNK = 1000  # rows written to a buffer at a time by ``writerows``

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.plain = csv.writer(out, lineterminator="\n")
        self.quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
        self.buffer = io.StringIO()
        self.buffered = csv.writer(self.buffer, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        cells = list(row)
        carriage = any(isinstance(c, str) and "\r" in c for c in cells)
        (self.quoted if carriage else self.plain).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        """The rows as ``writerow`` writes each, a thousand at a time: joined with commas when
        every cell is text that needs no quoting (``_plain``), else by the plain writer into a
        buffer, written out unless it holds a carriage return, and then row by row (the check
        of every field of every row cost more than the writing; Python's writer takes 1.3 s for
        the 450,000 rows of a 10,000-event season's results.csv, the join 0.15 s)."""
        it = iter(rows)
        while chunk := [list(row) for row in itertools.islice(it, self.CHUNK)]:
            text = _plain(chunk)
            if text is not None:
                self.out.write(text)
                continue
            self.buffer.seek(0)
            self.buffer.truncate()
            self.buffered.writerows(chunk)
            text = self.buffer.getvalue()
            if "\r" in text:
                for row in chunk:
                    self.writerow(row)
            else:
                self.out.write(text)


def _plain(rows: list[list[object]]) -> str | None:
    """The rows as the CSV writer writes them (``\\n`` after each) when every cell is text
    without a comma, a quote, a carriage return or a line feed, and no row is empty or a single
    empty cell: then no cell is quoted, and the rows are their cells joined by commas; None
    otherwise. The commas and line feeds of the joined text are counted: one fewer comma than
    cells in each row, and one line feed a row, exactly when no cell holds either."""
    try:
        text = "\n".join(map(",".join, cast(list[list[str]], rows))) + "\n"
    except TypeError:  # a cell that is not text: the writer's own formatting
        return None
    cells = sum(map(len, rows))
    if (
        '"' in text
        or "\r" in text
        or text.count(",") != cells - len(rows)
        or text.count("\n") != len(rows)
        or [""] in rows
    ):
        return None
    return text

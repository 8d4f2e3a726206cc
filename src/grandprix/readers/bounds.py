"""How much of a file a reader reads: each kind of file's bound on its bytes (and on its lines,
for text read as lines), checked from the file's size before it is opened (``os.stat``) and
again on what is read, which ends one byte past the bound (a file grown since, or a device
that never ends, is never read whole). A file past its bound is one located problem naming
the file, its size, the bound, what the largest real file of its kind takes, and what to do.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from grandprix.model import Location, Problem
from grandprix.runtime.files import read_bytes

MiB = 1024**2


class Bound(NamedTuple):
    """A kind of file's bound: ``limit`` bytes at most (``lines`` lines, for text read as
    lines; 0: not counted), and for its messages what the file is, what the largest real
    file of the kind takes, and how to fix a file past it."""

    limit: int
    what: str  # 'a TRF file', 'lichess results'
    largest: str  # '9,999 players of 199 rounds take 22 MB'
    fix: str  # 'Export the tournament from the pairing program again'
    lines: int = 0


def too_large(name: str, size: int | None, bound: Bound) -> Problem:
    """The problem of a file past its bound (``size``: its size, None when only what was read
    tells that it is larger)."""
    said = f"{size:,} bytes" if size is not None else f"more than {bound.limit:,} bytes"
    return Problem(
        Location(name),
        f"the file is {said}; at most {bound.limit:,} bytes of {bound.what} are read "
        f"({bound.largest}): is this the right file? {bound.fix}",
    )


def too_many_lines(name: str, data: bytes, bound: Bound) -> Problem | None:
    """The problem of text of more lines than its bound, found by counting its line breaks
    before any line is made (a file of line breaks alone would be millions of lines)."""
    if not bound.lines:
        return None
    count = max(data.count(b"\n"), data.count(b"\r"))  # LF, CRLF or CR: each line once
    if count <= bound.lines:
        return None
    return Problem(
        Location(name, bound.lines + 1),
        f"the file goes on past {bound.lines:,} lines ({count:,} line breaks); at most "
        f"{bound.lines:,} lines of {bound.what} are read ({bound.largest}): is this the right "
        f"file? {bound.fix}",
    )


def over(name: str, data: bytes, bound: Bound) -> Problem | None:
    """The problem of bytes already read (a download, or a file the caller read) past the
    bound, on their size or their lines; None within it."""
    if len(data) > bound.limit:
        return too_large(name, len(data), bound)
    return too_many_lines(name, data, bound)


def file_bytes(path: str | Path, bound: Bound, problems: list[Problem]) -> bytes | None:
    """The bytes of a file within its bound: its size checked before it is opened, and no
    more than one byte past the bound read; None (with the located problem) for a file past
    it or one that cannot be read."""
    name = str(path)
    try:
        size = os.stat(path).st_size
        data = None if size > bound.limit else read_bytes(path, bound.limit, size)
    except OSError as exc:
        problems.append(Problem(Location(name), f"cannot read the file: {exc.strerror or exc}"))
        return None
    if data is None or len(data) > bound.limit:
        problems.append(too_large(name, size if data is None else None, bound))
        return None
    found = too_many_lines(name, data, bound)
    if found is not None:
        problems.append(found)
        return None
    return data


# A results file of a format that names no bound of its own.
RESULTS = Bound(
    64 * MiB,
    "a results file",
    "one tournament's results are far smaller",
    "Name the results file of one tournament",
)


def within(
    path: str | Path, data: bytes | None, bound: Bound, problems: list[Problem]
) -> bytes | None:
    """``data`` (the bytes a caller has read: a download, a file of a season) or, when None,
    the file's own bytes read here (``file_bytes``), within the bound; None, with the located
    problem, past it."""
    if data is None:
        return file_bytes(path, bound, problems)
    found = over(str(path), data, bound)
    if found is not None:
        problems.append(found)
        return None
    return data

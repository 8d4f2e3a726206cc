"""Readers: one module per file format, each returning records plus every located problem.

``FORMATS`` is the registry of input formats: each name with its reader and the test that
recognises its files. The CLI's ``--input-format`` choices and the season file's ``format`` key
are drawn from it, and ``load_section`` reads a file with the format named or recognised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from grandprix.errors import UsageError
from grandprix.model import Location, Problem, Section
from grandprix.paths import FileCache
from grandprix.readers import chess_results, standings_csv, trf

Reader = Callable[[Path, bytes], tuple[Section | None, list[Problem]]]


@dataclass(frozen=True)
class InputFormat:
    """A results-file format: its reader, and how a file of it is recognised when not named."""

    read: Reader
    recognise: Callable[[str, bytes], bool]  # (lower-case suffix, first 4 KiB) -> is it one
    rank: int  # recognisers are tried lowest rank first: a chess-results sheet is a .csv too


# In the order the CLI lists them.
FORMATS: dict[str, InputFormat] = {
    "trf": InputFormat(trf.read_trf, trf.recognise, rank=1),
    "csv": InputFormat(standings_csv.read_standings_csv, standings_csv.recognise, rank=2),
    "chess-results": InputFormat(chess_results.read_chess_results, chess_results.recognise, rank=0),
}
UNRECOGNISED = "trf"  # read as TRF, whose reader says what is wrong with the file

if TYPE_CHECKING:
    FormatName = str
else:  # the season schema's type: its choices and messages come from the registry
    FormatName = Literal[tuple(FORMATS)]


_RANKED = sorted(FORMATS, key=lambda name: FORMATS[name].rank)


def detect_format(path: Path, data: bytes) -> str:
    """The first format, by rank, that recognises the file's name and content; else TRF."""
    suffix, head = path.suffix.lower(), data[:4096]
    return next((name for name in _RANKED if FORMATS[name].recognise(suffix, head)), UNRECOGNISED)


def load_section(path: str | Path, fmt: str | None = None) -> tuple[Section | None, list[Problem]]:
    """Read one results file in any supported format."""
    path = Path(path)
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown input format '{fmt}' (expected one of {', '.join(FORMATS)})")
    key = _SECTIONS.identity(path, fmt)
    known = _SECTIONS.get(key)
    if isinstance(known, Section):
        return known, []
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return None, [Problem(Location(str(path)), f"cannot read the file: {reason}")]
    section, problems = FORMATS[fmt or detect_format(path, data)].read(path, data)
    if section is not None and not problems:
        _SECTIONS.put(key, section)
    return section, problems


_SECTIONS = FileCache()  # results files read without problems, by file identity

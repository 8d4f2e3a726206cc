"""Readers: one module per file format, each returning records plus every located problem.

``load_section`` picks the reader from the file's name and first bytes.
"""

from __future__ import annotations

from pathlib import Path

from grandprix.model import Location, Problem, Section
from grandprix.readers.chess_results import read_chess_results
from grandprix.readers.standings_csv import read_standings_csv
from grandprix.readers.trf import read_trf

FORMATS = ("trf", "csv", "chess-results")


def detect_format(path: Path, data: bytes) -> str:
    """'trf', 'chess-results' or 'csv' (a standings list), from the name and the content."""
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        return "chess-results"
    head = data[:4096]
    if b"Chess-Results" in head or b"\nRk.," in head or head.startswith(b"Rk.,"):
        return "chess-results"
    if head.startswith((b"001 ", b"012 ")) or b"\n001 " in head or b"\n012 " in head:
        return "trf"
    if suffix == ".csv":
        return "csv"
    return "trf"


def load_section(path: str | Path, fmt: str | None = None) -> tuple[Section | None, list[Problem]]:
    """Read one results file in any supported format."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return None, [Problem(Location(str(path)), f"cannot read the file: {reason}")]
    fmt = fmt or detect_format(path, data)
    if fmt == "chess-results":
        return read_chess_results(path, data)
    if fmt == "csv":
        return read_standings_csv(path, data)
    return read_trf(path, data)


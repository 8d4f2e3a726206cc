"""Rating-list import and look-up speed.

Import of a generated 1.2-million-row FIDE TXT list into the store, side by side with a bare
sqlite3 executemany of the same rows (already parsed) into a plain table: target within 2x.
Look-up of 100,000 players on a date: target under 1 s.
Run: make bench   (or .venv/bin/python benchmarks/bench_ratings.py [--rows N])
"""

from __future__ import annotations

import argparse
import datetime
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from grandprix.ratings.formats import read_rows
from grandprix.ratings.store import RatingStore

# made-up events, shared with the tests
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from synthetic import fide_rating_list

OUT = Path(__file__).parent / "out"


def rating_list(rows: int) -> Path:
    """The generated FIDE TXT list of ``rows`` players (made once in OUT, then reused)."""
    OUT.mkdir(exist_ok=True)
    path = OUT / f"fide_list_{rows}.txt"
    if not path.exists():
        path.write_text(fide_rating_list(rows, 7), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Measured:
    rows: int
    bare: float  # seconds: executemany of the parsed rows into a plain table
    ours: float  # seconds: RatingStore.import_list of the file (read, parse, insert)
    lookup: float  # seconds: ratings_on for up to 100,000 players
    looked_up: int
    found: int


def measure(path: Path) -> Measured:
    """The import of the list at ``path`` beside a bare insert of its rows, in this process."""
    rows = list(read_rows(path, "fide-standard", path.read_bytes())[1])
    with tempfile.TemporaryDirectory() as tmp:
        bare = sqlite3.connect(Path(tmp) / "bare.sqlite", isolation_level=None)
        bare.execute(
            "CREATE TABLE t (list_id, player_id, name, federation, sex, title, born, rating)"
        )
        start = time.perf_counter()
        bare.execute("BEGIN")
        bare.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ((1, *r) for r in rows))
        bare.execute("COMMIT")
        bare_time = time.perf_counter() - start
        bare.close()
        with RatingStore(Path(tmp) / "store.sqlite") as store:
            start = time.perf_counter()
            store.import_list(path, "fide-standard", datetime.date(2025, 1, 1))
            ours = time.perf_counter() - start
            ids = [r[0] for r in rows[:: max(1, len(rows) // 100_000)]][:100_000]
            start = time.perf_counter()
            found = store.ratings_on(ids, "fide-standard", datetime.date(2025, 6, 1))
            lookup = time.perf_counter() - start
    return Measured(len(rows), bare_time, ours, lookup, len(ids), len(found))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_200_000, help="players in the list")
    args = parser.parse_args()
    path = rating_list(args.rows)
    got = measure(path)
    ratio = got.ours / got.bare
    print(f"list: {got.rows} rows, FIDE TXT, {path.stat().st_size / 1e6:.0f} MB")
    print(f"bare executemany of the parsed rows: {got.bare:5.2f} s")
    print(
        f"grandprix import (read, parse, insert): {got.ours:5.2f} s  ratio {ratio:.1f}x (target 2x)"
    )
    print(
        f"look-up of {got.looked_up} players on a date: {got.lookup:.2f} s, {got.found} rated "
        "(target under 1 s)"
    )
    ok = ratio <= 2 and got.lookup < 1
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

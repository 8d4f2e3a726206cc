"""Scaling: season standings, website and rating import at growing sizes, in one table.

Each size is measured as the benchmark of its kind measures it, with that benchmark's functions:
bench_season (``grandprix standings DIR --format csv`` beside a bare read-and-split of the same
files, both whole processes), bench_site (``grandprix site DIR -o OUT``, whole process, beside
the same bare read) and bench_ratings (the import in this process beside a bare executemany of
the parsed rows; ``grandprix ratings import`` is also run as a whole process for its peak
memory). Peak memory is the largest child process's maximum resident set (getrusage).

The default is a quick profile (1,000 and 3,000 events; lists of 100,000 and 300,000 rows);
``--big`` runs 1,000 to 100,000 events and lists up to 1.2 million rows (the 100,000-event site
alone takes many minutes). Seasons and lists are generated once into benchmarks/out.
Run: make bench   (or .venv/bin/python benchmarks/scaling.py [--big] [--sizes 1000,3000]
[--rows 100000,300000] [--only season,site,ratings]; make bench SCALING=--big)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import bench_ratings
import bench_season
import bench_site

QUICK_EVENTS = (1_000, 3_000)
BIG_EVENTS = (1_000, 3_000, 10_000, 30_000, 100_000)
QUICK_ROWS = (100_000, 300_000)
BIG_ROWS = (100_000, 300_000, 1_200_000)
KINDS = ("season", "site", "ratings")
MB = 1024**2


@dataclass(frozen=True)
class Line:
    """One row of the table: a benchmark at one size."""

    kind: str
    size: int
    unit: str  # "events" or "rows"
    baseline: float  # seconds of the bare work the ratio is taken against
    ours: float  # seconds of grandprix
    peak: int  # bytes: grandprix's peak memory
    note: str = ""


HEADER = (
    "| benchmark | size | baseline | grandprix | ratio | peak memory | growth | notes |\n"
    "|---|--:|--:|--:|--:|--:|--:|---|"
)


def show(line: Line, before: Line | None) -> str:
    """A row of the markdown table; growth is the time's growth over the size's growth since
    the row before (1.0: linear)."""
    growth = ""
    if before is not None and before.kind == line.kind and before.ours > 0:
        growth = f"{(line.ours / before.ours) / (line.size / before.size):.2f}"
    return (
        f"| {line.kind} | {line.size:,} {line.unit} | {line.baseline:.2f} s | {line.ours:.2f} s "
        f"| {line.ours / line.baseline:.1f}x | {line.peak / MB:,.0f} MB | {growth} | {line.note} |"
    )


def season(events: int) -> Line:
    folder, results = bench_season.season(events, "utah-2012")
    bare, _ = bench_season.bare(folder)
    ours, peak = bench_season.standings(folder)
    return Line("season", events, "events", bare, ours, peak, f"{results:,} results")


def site(events: int) -> Line:
    folder, _results = bench_season.season(events, "utah-2012")
    bare, _ = bench_season.bare(folder)
    ours, peak, pages, size = bench_site.measure(folder, bench_season.OUT / f"site_{events}")
    note = f"{pages:,} pages, {size / 1e6:,.0f} MB written"
    return Line("site", events, "events", bare, ours, peak, note)


def ratings(rows: int) -> Line:
    path = bench_ratings.rating_list(rows)
    got = bench_ratings.measure(path)
    exe = str(Path(sys.executable).parent / "grandprix")
    with tempfile.TemporaryDirectory() as tmp:
        command = [exe, "ratings", "import", str(path), "--kind", "fide-standard"]
        whole, peak = bench_season.run(
            [*command, "--date", "2025-01-01", "--store", str(Path(tmp) / "store.sqlite")]
        )
    note = f"whole process {whole:.2f} s; look-up of {got.looked_up:,}: {got.lookup:.2f} s"
    return Line("ratings", got.rows, "rows", got.bare, got.ours, peak, note)


def sizes(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers such as 1000,3000") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive numbers")
    return values


def kinds(text: str) -> tuple[str, ...]:
    values = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [v for v in values if v not in KINDS]
    if unknown or not values:
        raise argparse.ArgumentTypeError(f"{text!r}: expected some of {', '.join(KINDS)}")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="1,000 to 100,000 events, 1.2M rows")
    parser.add_argument("--sizes", type=sizes, help="events of the seasons, e.g. 1000,3000")
    parser.add_argument("--rows", type=sizes, help="players of the rating lists, e.g. 100000")
    parser.add_argument("--only", type=kinds, default=KINDS, help="season,site,ratings")
    args = parser.parse_args()
    events = args.sizes or (BIG_EVENTS if args.big else QUICK_EVENTS)
    rows = args.rows or (BIG_ROWS if args.big else QUICK_ROWS)
    print("Scaling (baseline: the bare read-and-split of the season's files, whole process; for")
    print("ratings the bare executemany of the parsed rows; ratio = grandprix / baseline)")
    print(HEADER, flush=True)
    plan = [(kind, n) for kind in args.only for n in (rows if kind == "ratings" else events)]
    measure = {"season": season, "site": site, "ratings": ratings}
    before: Line | None = None
    for kind, n in plan:
        line = measure[kind](n)
        print(show(line, before), flush=True)
        before = line
    return 0


if __name__ == "__main__":
    sys.exit(main())

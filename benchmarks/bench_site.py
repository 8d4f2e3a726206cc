"""Site speed: the website of a generated 10,000-event season, written by ``grandprix site``.

Target: under 30 s (whole process). Uses the season of bench_season.py.
Run: make bench   (or .venv/bin/python benchmarks/bench_site.py [--events N])
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_season import OUT, run, season

TARGET = 30.0


def measure(folder: Path, site: Path) -> tuple[float, int, int, int]:
    """Time, peak memory, pages and bytes of the site of a season written into ``site`` (the site
    is removed afterwards)."""
    exe = str(Path(sys.executable).parent / "grandprix")
    elapsed, memory = run([exe, "site", str(folder), "-o", str(site)])
    pages = sum(1 for _ in site.rglob("*.html"))
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    shutil.rmtree(site)
    return elapsed, memory, pages, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the season")
    args = parser.parse_args()
    folder, _rows = season(args.events, "utah-2012")
    elapsed, memory, pages, size = measure(folder, OUT / f"site_{args.events}")
    print(f"site of {args.events} events: {pages} pages, {size / 1e6:.0f} MB in {elapsed:.1f} s "
          f"(target under {TARGET:.0f} s), peak memory {memory / 1024**2:.0f} MB")  # fmt: skip
    ok = elapsed < TARGET
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

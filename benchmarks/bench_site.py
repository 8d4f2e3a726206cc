"""Site speed: the website of a generated 10,000-event season, written by ``grandprix site``.

Target: under 30 s (whole process). Uses the season of bench_season.py.
Run: make bench   (or .venv/bin/python benchmarks/bench_site.py [--events N])
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_season import OUT, generate

TARGET = 30.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the season")
    args = parser.parse_args()
    folder = OUT / f"season_{args.events}_utah-2012"
    if not (folder / "season.toml").exists():
        generate(folder, args.events, "utah-2012")
    site = OUT / f"site_{args.events}"
    exe = str(Path(sys.executable).parent / "grandprix")
    start = time.perf_counter()
    subprocess.run([exe, "site", str(folder), "-o", str(site)], check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    pages = sum(1 for _ in site.rglob("*.html"))
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(f"site of {args.events} events: {pages} pages, {size / 1e6:.0f} MB in {elapsed:.1f} s "
          f"(target under {TARGET:.0f} s)")  # fmt: skip
    shutil.rmtree(site)
    ok = elapsed < TARGET
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

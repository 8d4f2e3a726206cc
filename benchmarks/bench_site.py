"""Site speed: the website of a generated 10,000-event season, written by ``grandprix site``.

Target: under 30 s (whole process). Uses the season of bench_season.py.
Run: make bench   (or .venv/bin/python benchmarks/bench_site.py [--events N])

Each site is written into a folder of its own and removed only when this program ends: after
tens of thousands of files are removed, ext4 makes new files slowly for some minutes, since it
skips the inodes freed in the last 1-6 minutes (``recently_deleted``, seen with ``perf`` on this
machine: 5,000 new files took 2.2-2.6 s of kernel time right after a site was removed, 0.2 s
otherwise). Leave some minutes between two runs of the site's benchmarks to measure grandprix
rather than that.
"""

from __future__ import annotations

import argparse
import atexit
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_season import OUT, run, season

TARGET = 30.0


def measure(folder: Path, site: Path) -> tuple[float, int, int, int]:
    """Time, peak memory, pages and bytes of the site of a season written into the new folder
    ``site`` (an earlier run's is renamed aside first); the sites are removed as this program
    ends, after every measurement (see above)."""
    if site.exists():
        site.rename(_aside(site))
    exe = str(Path(sys.executable).parent / "grandprix")
    elapsed, memory = run([exe, "site", str(folder), "-o", str(site)])
    atexit.register(shutil.rmtree, site, ignore_errors=True)
    pages = sum(1 for _ in site.rglob("*.html"))
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return elapsed, memory, pages, size


def _aside(site: Path) -> Path:
    """A new name beside ``site`` for a site left by an earlier run, removed at exit."""
    aside = Path(tempfile.mkdtemp(dir=site.parent, prefix=f".{site.name}.", suffix=".old"))
    atexit.register(shutil.rmtree, aside, ignore_errors=True)
    return aside / site.name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the season")
    args = parser.parse_args()
    folder, _rows = season(args.events, "utah-2012")
    elapsed, memory, pages, size = measure(folder, OUT / f"site_{args.events}")
    print(
        f"site of {args.events} events: {pages} pages, {size / 1e6:.0f} MB in {elapsed:.1f} s "
        f"(target under {TARGET:.0f} s), peak memory {memory / 1024**2:.0f} MB"
    )
    ok = elapsed < TARGET
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

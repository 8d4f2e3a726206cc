"""Season speed and memory: a generated season of 10,000 events (about 500,000 player-results
in standings CSVs), side by side with a bare read-and-split of the same files in Python.

Both are timed as whole processes. Targets: standings within 5x of the bare read;
under 200 MB up to 10,000 events, under 2 GB up to 100,000.
The two run alternately, three pairs by default (``--pairs``), and the ratio judged is the median
of the pairs' ratios: this shared machine's speed moves within minutes.
Run: make bench   (or .venv/bin/python benchmarks/bench_season.py [--events N] [--pairs N]
[--loading]; ``--loading`` also times our reader alone and the season's loading alone)
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).parent / "out"
TARGET_RATIO = 5.0


def target_bytes(events: int) -> int:
    """The peak memory allowed a season of ``events`` events."""
    return 200 * 1024**2 if events <= 10_000 else 2 * 1024**3


DAYS = 31 * 12 * 28  # the event dates of the season (2000-2030): days 1-28 of each month
BARE = """
import sys
from pathlib import Path
rows = 0
for path in sorted(Path(sys.argv[1]).glob("e*.csv")):
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        rows += len(line.split(",")) > 0
print(rows)
"""
# ``--loading``: where the command's time starts. Our reader alone (every file parsed in one
# process, nothing kept), and the season's loading alone (``load_season``: the schema, the folder
# checks, the files read by two processes, the checks of its input), each process ending at once
# as the command does.
READER = """
import gc, os, sys
from pathlib import Path
from grandprix.readers.standings_csv import read_standings_csv
gc.disable()
rows, failed = 0, 0
for path in sorted(Path(sys.argv[1]).glob("e*.csv")):
    section, problems = read_standings_csv(path, path.read_bytes())
    rows += section.size if section is not None else 0
    failed += section is None or bool(problems)
print(rows, failed)
sys.stdout.flush()
os._exit(0 if not failed else 1)  # a file that does not read is no measurement
"""
LOADER = """
import gc, os, sys
gc.disable()
from grandprix.season.config import load_season
season, problems = load_season(sys.argv[1])
print(season is not None, len(problems))
sys.stdout.flush()
os._exit(0 if season is not None else 1)  # a season that does not load is no measurement
"""


def generate(folder: Path, events: int, preset: str, seed: int = 1, players: int = 20000) -> int:
    """Write the season (its players drawn from ``players`` in players.csv); return the number
    of player-results."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    pool = [f"{100000 + i}" for i in range(players)]
    with (folder / "players.csv").open("w", encoding="utf-8") as handle:
        handle.write("id,name,region,member\n")
        for ident in pool:
            region = "UT" if int(ident) % 10 else "NV"
            handle.write(f"{ident},Player {ident},{region},yes\n")
    lines = [
        f'name = "Benchmark season"\nstart = 2000-01-01\nend = 2030-12-31\nrules = "{preset}"\n'
    ]
    total = 0
    for k in range(events):
        size = rng.randint(30, 70)
        total += size
        field = rng.sample(pool, size)
        scores = sorted((rng.randint(0, 14) / 2 for _ in field), reverse=True)
        body = "".join(
            f"{i},Player {ident},{ident},{score}\n"
            for i, (ident, score) in enumerate(zip(field, scores, strict=True), 1)
        )
        (folder / f"e{k:05d}.csv").write_text("rank,name,id,points\n" + body, encoding="utf-8")
        # One event a day on days 1-28 of each month, 2000 to 2030; past the season's last such
        # day (event 10,416) the dates start again from 2000, so a bigger season keeps its
        # 31 years and a smaller one is the same as ever.
        slot = k % DAYS
        day = 1 + slot % 28
        month = 1 + (slot // 28) % 12
        year = 2000 + slot // (28 * 12)
        lines.append(
            f'[[events]]\nname = "Event {k}"\ndate = {year}-{month:02d}-{day:02d}\n'
            f'results = "e{k:05d}.csv"\nprize_fund = {rng.choice([1000, 2000, 3000])}\n'
        )
    (folder / "season.toml").write_text("\n".join(lines), encoding="utf-8")
    return total


def run(command: list[str]) -> tuple[float, int]:
    """Wall time and peak memory (bytes) of a command run in its own process (the peak of the
    largest of its processes, as ``getrusage`` counts it)."""
    wrapper = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *command], capture_output=True, text=True, check=True
    )
    elapsed = time.perf_counter() - start
    return elapsed, int(done.stdout.strip()) * 1024


def season(events: int, preset: str) -> tuple[Path, int]:
    """The generated season of ``events`` events (made once in OUT, then reused) and its number
    of player-results."""
    folder = OUT / f"season_{events}_{preset}"
    if not (folder / "season.toml").exists():
        return folder, generate(folder, events, preset)
    return folder, sum(len(p.read_text().splitlines()) - 1 for p in folder.glob("e*.csv"))


def bare(folder: Path) -> tuple[float, int]:
    """Time and peak memory of the bare read-and-split of a season's standings files."""
    return run([sys.executable, "-c", BARE, str(folder)])


def standings(folder: Path) -> tuple[float, int]:
    """Time and peak memory of ``grandprix standings DIR --format csv``."""
    exe = str(Path(sys.executable).parent / "grandprix")
    return run([exe, "standings", str(folder), "--format", "csv"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="events in the season")
    parser.add_argument("--preset", default="utah-2012", help="rule set of the season")
    parser.add_argument(
        "--pairs", type=int, default=3, help="bare reads and standings run alternately"
    )
    parser.add_argument(
        "--loading",
        action="store_true",
        help="also time our reader alone and the season's loading alone in each pair",
    )
    args = parser.parse_args()
    folder, rows = season(args.events, args.preset)
    print(f"season: {args.events} events, {rows} player-results, rules {args.preset}")
    ratios, memory = [], 0
    parts: dict[str, list[float]] = {"reader alone": [], "loading alone": []}
    for n in range(1, args.pairs + 1):  # alternating: the machine's speed moves within minutes
        bare_time, bare_memory = bare(folder)
        if args.loading:
            for name, script in (("reader alone", READER), ("loading alone", LOADER)):
                part_time, _ = run([sys.executable, "-c", script, str(folder)])
                parts[name].append(part_time / bare_time)
                print(f"pair {n}: {name} {part_time:6.2f} s, {parts[name][-1]:.1f}x")
        ours_time, ours_memory = standings(folder)
        ratios.append(ours_time / bare_time)
        memory = max(memory, ours_memory)
        print(
            f"pair {n}: bare read-and-split {bare_time:6.2f} s {bare_memory / 1024**2:5.0f} MB, "
            f"grandprix standings {ours_time:6.2f} s {ours_memory / 1024**2:5.0f} MB, "
            f"{ratios[-1]:.1f}x"
        )
    for name, found in parts.items():
        if found:
            print(f"{name}: {statistics.median(found):.1f}x the bare read (median)")
    ratio = statistics.median(ratios)
    limit = target_bytes(args.events)
    print(
        f"ratio: {ratio:.1f}x, the median of {len(ratios)} (target {TARGET_RATIO:.0f}x); "
        f"peak memory {memory / 1024**2:,.0f} MB (target {limit / 1024**2:,.0f} MB)"
    )
    ok = ratio <= TARGET_RATIO and memory < limit
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

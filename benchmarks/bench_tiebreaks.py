"""Tie-break speed, whole process, side by side with gacrux (the FIDE reference program).

Generates Swiss events with byes and forfeits, then times
``grandprix event FILE --tiebreaks BH,BH/C1,SB,PS,ARO --format csv`` against
``python -m gacrux.tiebreakchecker`` on the same file, checks that every value is identical,
and prints the speed-up. Target: at least 10x on 1,200 players x 10 rounds.

Run: make bench   (or .venv/bin/python benchmarks/bench_tiebreaks.py [--sizes 1200x10,5000x11])
"""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from grandprix.writers.trf import write_trf

# made-up events, shared with the tests
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from synthetic import Mix, generate

OUT = Path(__file__).parent / "out"
CODES = ["BH", "BH/C1", "SB", "PS", "ARO"]
EDITION = "2026"  # the C.07 edition both programs are asked for
TARGET = 10.0
MIX = Mix(
    half_bye=0.03,
    zero_bye=0.01,
    full_bye=0.005,
    absent=0.01,
    withdraw=0.005,
    forfeit=0.02,
    double_forfeit=0.005,
    short_game=0.005,
)


def timed(command: list[str], repeat: int) -> tuple[float, str]:
    """Best wall time of ``repeat`` runs, and the output of the last."""
    best = float("inf")
    output = ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
        output = done.stdout
    return best, output


def ours(text: str) -> dict[int, list[Fraction | None]]:
    rows = csv.DictReader(io.StringIO(text))
    return {
        int(r["start_no"]): [Fraction(r[c]) if r[c] else None for c in ["points", *CODES]]
        for r in rows
    }


def theirs(text: str) -> dict[int, list[Fraction | None]]:
    lines = text.splitlines()
    out = {}
    for line in lines[1:]:
        cells = line.split("\t")
        out[int(cells[0])] = [None if c == "-0" else Fraction(c) for c in cells[2:]]
    return out


def bench(players: int, rounds: int, repeat: int) -> tuple[float, float, bool]:
    OUT.mkdir(exist_ok=True)
    path = OUT / f"swiss_{players}x{rounds}.trf"
    if not path.exists():
        path.write_text(write_trf(generate(players, rounds, players * 100 + rounds, MIX)))
    exe = Path(sys.executable).parent / "grandprix"
    mine = [
        str(exe),
        "event",
        str(path),
        "--tiebreaks",
        ",".join(CODES),
        "--format",
        "csv",
        "--tiebreak-rules",
        f"fide-{EDITION}",
    ]
    reference = [
        sys.executable,
        "-m",
        "gacrux.tiebreakchecker",
        "-i",
        str(path),
        "-b",
        "utf-8",
        "-s",
        "-t",
        "PTS",
        *(f"{c}/V{EDITION}" for c in CODES),
        "-d",
        "T",
    ]
    our_time, our_out = timed(mine, repeat)
    their_time, their_out = timed(reference, 1)
    return our_time, their_time, ours(our_out) == theirs(their_out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="1200x10,5000x11", help="PLAYERSxROUNDS, comma separated"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of grandprix (best is kept)")
    args = parser.parse_args()
    failed = False
    print(f"{'event':>10}  {'grandprix':>10}  {'gacrux':>9}  {'speed-up':>8}  values")
    for size in args.sizes.split(","):
        players, rounds = (int(x) for x in size.split("x"))
        mine, reference, same = bench(players, rounds, args.repeat)
        speedup = reference / mine
        print(
            f"{size:>10}  {mine:>9.2f}s  {reference:>8.2f}s  {speedup:>7.1f}x  "
            f"{'identical' if same else 'DIFFERENT'}"
        )
        failed |= not same
        if size == "1200x10" and speedup < TARGET:
            print(f"  below the {TARGET:.0f}x target")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

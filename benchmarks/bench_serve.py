"""Workspace speed: the preview of one uploaded event on a 500-event season of 20,000 players:
the change made from the upload and its preview, as the server does on a form.

The season is the season benchmark's generator at 500 events. As in the server, the season is
served from its snapshot (``serve.seasons.SeasonSource``, read once before the clock starts) and
the previews keep what the folder's previews keep (``workspace.Previews``: the folder's own
standings, prizes and race taken from the snapshot; the events' awards, placed only for events
not placed before, while the rules and the season's people are the same). Timed in one process:
the first preview (which also computes the folder's prizes and race once per version) and the
next previews of the same folder version (what a director or a coordinator waits for after an
upload); the rest of a preview (reading the copy of the season, checking it, totals and ranks)
is done whole, with the cyclic garbage collector paused (``runtime.paused_collection``).
Target: a preview under 0.5 s. Run: make bench (or .venv/bin/python benchmarks/bench_serve.py).
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
import time
from pathlib import Path

from bench_season import generate
from grandprix.serve.changes import event_change
from grandprix.serve.seasons import SeasonSource
from grandprix.serve.workspace import Previews, preview

TARGET_SECONDS = 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500, help="events in the season")
    parser.add_argument("--repeat", type=int, default=5, help="warm previews timed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "season"
        results = generate(folder, args.events, "utah-2012")
        source = SeasonSource(folder)
        source.refresh()
        kept = Previews(source)
        upload = "rank,name,id,points\n" + "".join(
            f"{i},Player {100000 + i},{100000 + i},{(40 - i) / 2}\n" for i in range(1, 41)
        )
        timings = []
        for n in range(args.repeat + 1):
            start = time.perf_counter()
            change = event_change(
                folder, f"Upload {n}", datetime.date(2030, 12, 1), f"upload{n}.csv", upload.encode()
            )
            seen = preview(folder, change, kept)
            timings.append(time.perf_counter() - start)
            assert seen.ok, [str(p) for p in seen.problems]
        cold, warm = timings[0], sorted(timings[1:])[len(timings[1:]) // 2]
    print(f"workspace preview: {args.events} events, {results} player-results")
    print(f"first preview (with the folder's own standings): {cold:.2f} s")
    print(f"preview of one upload (median of {args.repeat}):      {warm:.2f} s")
    print(f"target: under {TARGET_SECONDS:.1f} s")
    ok = warm < TARGET_SECONDS
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

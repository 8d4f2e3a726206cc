"""The event day's speed: pairing a round, and a result entered until the round's standings show
it, on a Swiss of 200 players.

Made-up fields of --players players (ratings drawn, start numbers by rating) play --rounds
rounds: each round paired by ``pairing.engine.pair_next`` (FIDE's engine, gacrux, in-process,
every pairing checked against the absolute criteria), its results drawn (White wins, draws,
Black wins, now and then a forfeit), a few players asking for a half-point bye in a later
round and one withdrawing. Each pairing is timed, over --fields fields.

A result is timed as the command line and the workspace make it: the section's TRF read from
disk, the result entered, the TRF written whole, read again, and the standings after the round
placed with tie-breaks (BH/C1, BH, SB, the C.07 2026 rules), for every board of the last round
of the first field.

Targets: pairing a round of 200 players, median under 0.5 s and the worst under 5 s; a result
in the round's standings under 0.2 s (the worst board). The command line adds the start of a
Python process (about 0.5 s) to each command.

Run: make bench   (or .venv/bin/python benchmarks/bench_pairing.py [--players 200] [--rounds 9]
[--fields 3])
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from grandprix.model import Player, ResultKind, Section
from grandprix.pairing.engine import engine_version, pair_next
from grandprix.pairing.state import (
    Tournament,
    announce_bye,
    closed,
    enter_result,
    read_tournament,
    tournament_text,
    withdraw,
)
from grandprix.placings import place
from grandprix.runtime.files import write_whole
from grandprix.tiebreaks import Rules, parse
from grandprix.writers.trf import write_trf

PAIRING_MEDIAN = 0.5
PAIRING_WORST = 5.0
RESULT_WORST = 0.2
TIEBREAKS = ["BH/C1", "BH", "SB"]


def start(players: int, rounds: int, seed: int) -> Tournament:
    """A field of ``players`` before round 1: start numbers by rating, ``rounds`` planned."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2600) for _ in range(players)), reverse=True)
    field = tuple(
        Player(
            start_no=n,
            name=f"Player {n:03d}, A",
            rating=r,
            fide_id=str(100000 + n),
            declared_points=Fraction(0),
        )
        for n, r in enumerate(ratings, start=1)
    )
    section = Section(name=f"Bench {seed}", players=field, rounds=rounds)
    text = write_trf(section).replace("\n001", f"\nXXR {rounds}\n152 W\n001", 1)
    return read_tournament(f"bench-{seed}.trf", text.encode("utf-8"))


def outcome(rng: random.Random) -> str:
    """A drawn result: the stronger side a little more often, now and then a forfeit."""
    roll = rng.random()
    if roll < 0.02:
        return rng.choice(["+-", "-+"])
    return "1-0" if roll < 0.45 else "1/2-1/2" if roll < 0.75 else "0-1"


def play(tournament: Tournament, rng: random.Random) -> Tournament:
    """Every board of the current round given a drawn result."""
    assert tournament.current is not None
    for board in tournament.current.boards:
        tournament = enter_result(tournament, board.number, outcome(rng))
    return tournament


def run_field(players: int, rounds: int, seed: int) -> tuple[list[float], Tournament]:
    """Each round's pairing time, and the tournament with its last round paired, unplayed."""
    rng = random.Random(seed)
    t = start(players, rounds, seed)
    for n in rng.sample(range(1, players + 1), 3):  # half-point byes asked for
        t = announce_bye(t, n, rng.randint(2, rounds), ResultKind.HALF_BYE)
    times = []
    for number in range(1, rounds + 1):
        if number == rounds // 2:
            t = withdraw(closed(t), rng.randint(1, players))
        began = time.perf_counter()
        t, _ = pair_next(closed(t), lambda: "w")
        times.append(time.perf_counter() - began)
        if number < rounds:
            t = play(t, rng)
    return times, t


def result_times(tournament: Tournament, folder: Path) -> list[float]:
    """For each board of the current round: read the TRF, enter the result, write the TRF
    whole, read it again and place the section after the round with tie-breaks."""
    rng = random.Random(1)
    path = folder / "day.trf"
    write_whole(path, tournament_text(tournament).encode("utf-8"))
    rules = Rules("fide-2026")
    specs = parse(",".join(TIEBREAKS), rules)
    assert tournament.current is not None
    number = tournament.current.number
    times = []
    for board in tournament.current.boards:
        began = time.perf_counter()
        t = read_tournament(path)
        t = enter_result(t, board.number, outcome(rng))
        write_whole(path, tournament_text(t).encode("utf-8"))
        placings = place(read_tournament(path).after(number), specs, rules)
        times.append(time.perf_counter() - began)
        assert len(placings.rows) == len(tournament.section.players)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--fields", type=int, default=3)
    args = parser.parse_args()
    print(f"pairing engine: {engine_version()}")
    pairings: list[float] = []
    last: Tournament | None = None
    for seed in range(1, args.fields + 1):
        times, t = run_field(args.players, args.rounds, seed)
        pairings += times
        last = last or t
        print(
            f"field {seed}: {args.players} players x {args.rounds} rounds, pairing per round "
            + " ".join(f"{x:.2f}" for x in times)
            + " s"
        )
    assert last is not None
    median, worst = statistics.median(pairings), max(pairings)
    with tempfile.TemporaryDirectory() as folder:
        results = result_times(replace(last), Path(folder))
    print(
        f"pairing a round of {args.players}: median {median:.3f} s (target < {PAIRING_MEDIAN}), "
        f"worst {worst:.3f} s (target < {PAIRING_WORST}), {len(pairings)} rounds"
    )
    print(
        f"a result in the round's standings ({len(results)} boards, {'/'.join(TIEBREAKS)}): "
        f"median {statistics.median(results) * 1000:.0f} ms, worst {max(results) * 1000:.0f} ms "
        f"(target < {RESULT_WORST * 1000:.0f} ms)"
    )
    met = median < PAIRING_MEDIAN and worst < PAIRING_WORST and max(results) < RESULT_WORST
    print("targets met" if met else "TARGET MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

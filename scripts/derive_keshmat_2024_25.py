"""Find the Keshmat Circuit 2024-25 leaderboard rows hurt by its reader's empty-``Rk.`` skip.

The circuit's script (github keshmat/circuit, ``scripts/lib/chess-db.js``) drops every crosstable
row whose ``Rk.`` cell is empty; chess-results leaves that cell empty when a player shares the
place of the row above. This script scores the eight exports twice, the circuit's way (skipping
those rows) and correctly (keeping them), checks that the skipping version reproduces the
published leaderboard exactly, and writes the players whose row differs to ``affected.csv``.

Scoring, as in the circuit's ``circuit_leaderboard`` view: a player is an exact (trimmed) name
plus federation; n is the most events anyone played; the total is the sum of ``Pts.`` over the
player's best n - 1 events (all events when n is 1).

Usage: ``python scripts/derive_keshmat_2024_25.py CROSSTABLES LEADERBOARD [--out FILE]``
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import openpyxl

MONTHS = ("july", "august", "december", "january", "february", "march", "april", "may")
Player = tuple[str, str]  # (name, federation)
Result = tuple[str, str, Fraction, bool]  # (event, place, points, Rk. cell empty)


def read_results(crosstables: Path) -> dict[Player, list[Result]]:
    """Every player row of the eight exports, with the place it shares when Rk. is empty."""
    results: dict[Player, list[Result]] = defaultdict(list)
    for month in MONTHS:
        sheet = openpyxl.load_workbook(crosstables / f"{month}.xlsx", read_only=True).active
        assert sheet is not None
        data = [list(row) for row in sheet.iter_rows(values_only=True)]
        start = next(i for i, row in enumerate(data) if row and row[0] == "Rk.")
        head = [str(cell or "").strip() for cell in data[start]]
        name, fed = head.index("Name"), head.index("FED")
        pts = next(i for i, h in enumerate(head) if "Pts" in h)
        place = ""
        for row in data[start + 1 :]:
            if row[name] is None or not isinstance(row[pts], (int, float)):
                continue
            empty = row[0] in (None, "")
            if not empty:
                place = str(row[0])
            player = (str(row[name]).strip(), str(row[fed] or ""))
            results[player].append((month, place, Fraction(str(row[pts])), empty))
    return results


def leaderboard(
    results: dict[Player, list[Result]], skip_empty: bool
) -> dict[Player, tuple[int, int, Fraction]]:
    """(events played, events counted, total) per player."""
    kept = {p: [r for r in rs if not (skip_empty and r[3])] for p, rs in results.items()}
    kept = {p: rs for p, rs in kept.items() if rs}
    n = max(len(rs) for rs in kept.values())
    best = n - 1 if n > 1 else n
    board = {}
    for player, rs in kept.items():
        counted = sorted((r[2] for r in rs), reverse=True)[:best]
        board[player] = (len(rs), len(counted), sum(counted, Fraction(0)))
    return board


def _number(value: Fraction) -> str:
    return f"{float(value):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("crosstables", type=Path, help="folder with <month>.xlsx")
    parser.add_argument("leaderboard", type=Path, help="the published keshmat_leaderboard.csv")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent
        / "tests"
        / "data"
        / "keshmat-circuit-2024-25"
        / "affected.csv",
    )
    args = parser.parse_args()
    results = read_results(args.crosstables)
    theirs = leaderboard(results, skip_empty=True)
    correct = leaderboard(results, skip_empty=False)
    with args.leaderboard.open(encoding="utf-8") as handle:
        published = {
            (row["Name"], row["Federation"]): (
                int(row["Tournaments Played"]),
                int(row["Tournaments Counted"]),
                Fraction(row["Total Points"]),
            )
            for row in csv.DictReader(handle)
        }
    if published != theirs:
        raise SystemExit("the skipping reader does not reproduce the published leaderboard")
    rows = []
    for player, (played, counted, total) in correct.items():
        was = theirs.get(player)
        if was == (played, counted, total):
            continue
        if was is None:
            reason = "missing"
        elif was[2] < total:
            reason = "total too low"
        else:
            reason = "events short"
        for event, place, points, empty in results[player]:
            if empty:
                rows.append(
                    (
                        player[0],
                        player[1],
                        event,
                        place,
                        _number(points),
                        reason,
                        was[0] if was else 0,
                        was[1] if was else 0,
                        _number(was[2]) if was else "",
                        played,
                        counted,
                        _number(total),
                    )
                )
    rows.sort(key=lambda r: (MONTHS.index(str(r[2])), int(str(r[3])), str(r[0])))
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(
            (
                "player",
                "federation",
                "event",
                "shared_place",
                "event_points",
                "reason",
                "published_played",
                "published_counted",
                "published_total",
                "correct_played",
                "correct_counted",
                "correct_total",
            )
        )
        writer.writerows(rows)
    print(f"{len(rows)} rows written to {args.out}")


if __name__ == "__main__":
    main()

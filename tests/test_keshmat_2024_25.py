"""Golden test: the keshmat-2024-25 preset against the circuit's published leaderboard.

The eight monthly chess-results exports are in ../shared/data/keshmat-circuit-2024-25 (MIT); the
leaderboard the circuit published from them, and the rows its script got wrong, are in
tests/data/keshmat-circuit-2024-25 (SOURCE.txt says where each comes from).

The circuit's script skipped every row whose `Rk.` cell is empty (a place shared with the row
above), losing 12 results: 3 totals too low, 4 event counts short, 5 players missing (affected.csv,
D-KC-2). grandprix keeps those results. Every other row must be reproduced: events played, events
counted, total, and rank, the rank moved by the affected players who now sort above it.
"""

from __future__ import annotations

import csv
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import shared
from grandprix.players import name_key
from grandprix.season.model import Line
from grandprix.season.standings import standings
from seasons import load, write_season

DATA = Path(__file__).parent / "data" / "keshmat-circuit-2024-25"
MONTHS = {
    "july": "2024-07-31",
    "august": "2024-08-28",
    "december": "2024-12-28",
    "january": "2025-01-25",
    "february": "2025-02-22",
    "march": "2025-03-23",
    "april": "2025-04-30",
    "may": "2025-05-31",
}


def rows(name: str) -> list[dict[str, str]]:
    return list(csv.DictReader((DATA / name).open(encoding="utf-8")))


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Line]:
    folder = tmp_path_factory.mktemp("k25")
    toml = ['name = "Keshmat Chess Circuit 2024-25"', 'rules = "keshmat-2024-25"', ""]
    for month, date in MONTHS.items():
        shutil.copy(shared("keshmat-circuit-2024-25", "crosstables", f"{month}.xlsx"), folder)
        toml += ["[[events]]", f'name = "{month}"', f"date = {date}", f'results = "{month}.xlsx"']
    season = load(write_season(folder, "\n".join(toml), {}))
    found = {name_key(line.name): line for line in standings(season)}
    assert len(found) == len(rows("leaderboard.csv")) + 5  # the 5 players the script lost
    return found


def order_key(total: Fraction, counted: int) -> tuple[Fraction, Fraction]:
    """KC-3: total, then total per counted event, both higher first."""
    return (-total, -total / counted if counted else Fraction(0))


def test_kc_every_unaffected_row_is_reproduced(lines: dict[str, Line]) -> None:
    published = rows("leaderboard.csv")
    affected = {name_key(r["player"]): r for r in rows("affected.csv")}
    # The published order's keys, and the keys once the lost results are kept.
    before = {
        name_key(r["Name"]): order_key(Fraction(r["Total Points"]), int(r["Tournaments Counted"]))
        for r in published
    }
    position = {name_key(r["Name"]): int(r["Rank"]) for r in published}
    after = dict(before)
    for key, r in affected.items():
        after[key] = order_key(Fraction(r["correct_total"]), int(r["correct_counted"]))
    reproduced = 0
    for row in published:
        key = name_key(row["Name"])
        line = lines[key]
        if key in affected:
            fix = affected[key]
            expected = (fix["correct_played"], fix["correct_counted"], fix["correct_total"])
            assert (line.events, len(line.counted), line.total) == (
                int(expected[0]),
                int(expected[1]),
                Fraction(expected[2]),
            ), row["Name"]
            continue
        # Affected players above this row now, less those listed above it in the publication.
        moved = sum(after[k] < before[key] for k in affected) - sum(
            k in position and position[k] < position[key] for k in affected
        )
        rank = int(row["Rank"]) + moved
        assert line.events == int(row["Tournaments Played"]), row["Name"]
        assert len(line.counted) == int(row["Tournaments Counted"]), row["Name"]
        assert line.total == Fraction(row["Total Points"]), row["Name"]
        assert line.rank_first <= rank <= line.rank_last, (row["Name"], line.rank, rank)
        reproduced += 1
    assert (reproduced, len(published)) == (255 - 7, 255)


def test_kc5_missing_players_are_kept_with_their_shared_place(lines: dict[str, Line]) -> None:
    for fix in rows("affected.csv"):
        line = lines[name_key(fix["player"])]
        assert line.total == Fraction(fix["correct_total"]), fix["player"]
        assert line.events == int(fix["correct_played"]), fix["player"]


def test_kc2_best_n_minus_1_and_kc3_points_per_counted_event(lines: dict[str, Line]) -> None:
    """Assaad Joe played all 8 (n = 8): 46 - his worst 5 = 41 over 7. Fawaz Mohamad 22.5 over 5
    ranks above Zeitjian Sarkis 22.5 over 7 (KC-3)."""
    joe = lines[name_key("Assaad Joe")]
    assert (joe.events, len(joe.counted), joe.total) == (8, 7, Fraction(41))
    assert [a.score for a in joe.dropped] == [5]
    fawaz, sarkis = lines[name_key("Fawaz Mohamad")], lines[name_key("Zeitjian Sarkis")]
    assert fawaz.total == sarkis.total == Fraction(45, 2)
    assert fawaz.rank_last < sarkis.rank_first

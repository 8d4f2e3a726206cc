"""The presets of the FIDE Circuit 2023 and 2024 and of the CAWA Grand Prix (2022 rules),
hand-worked from their rule texts (``rules/rule-books.md``: FC23, FC24, CAWA), and the FIDE
Circuit 2024's published points of the Tata Steel Masters 2024 (FIDE news, 5 May 2024: Wei Yi
20.54, Gukesh, Giri and Abdusattorov 14.22 each; TAR 2752.75 from the circuit's table of events)
reproduced from a field of the same shape: a 14-player round robin, four players tied on score
for 1st, a play-off deciding 1st only."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from grandprix.scores import show
from seasons import event, lines, season_toml, write_season

F = Fraction


def standings(rows: list[tuple[str, str, str, int]]) -> str:
    """A standings CSV: (rank, name, points, rating) rows."""
    body = "".join(f"{rank},{name},{points},{rating}\n" for rank, name, points, rating in rows)
    return "rank,name,points,rating\n" + body


def earned(folder: Path) -> dict[str, Fraction]:
    return {a.name: a.points for line in lines(folder) for a in line.awards}


def one_event(tmp_path: Path, preset: str, category: str, rows: str) -> Path:
    toml = season_toml(f'rules = "{preset}"', event("E", "e.csv", extra=f'category = "{category}"'))
    return write_season(tmp_path, toml, {"e.csv": rows})


# FC24, worked example 1: a 10-player round robin, the 8 highest ratings 2750 (k = 2.5).
# A 6.5 alone: 11 outright x 2.5 = 27.5 (FC24-2); B 6 alone: 8 x 2.5 = 20; C and D tie for
# 3rd-4th on 5.5, C 3rd on tie-break: only places 1-3 are paid in a 2024 round robin (FC24-3),
# so the tie's places are worth 7 and 0: C 7/2 + (7 + 0)/2/2 = 5.25 -> 13.125, D 0 + 1.75 ->
# 4.375 (D-FC24-1); 5th and below 0.
ROUND_ROBIN_10 = standings(
    [
        ("1", "A", "6.5", 2750),
        ("2", "B", "6", 2750),
        ("3", "C", "5.5", 2750),
        ("4", "D", "5.5", 2750),
        ("5", "E", "5", 2750),
        ("6", "F", "4", 2750),
        ("7", "G", "3", 2750),
        ("8", "H", "2", 2750),
        ("9", "I", "1.5", 2600),
        ("10", "J", "1", 2500),
    ]
)


def test_fc24_a_round_robin_pays_its_top_three(tmp_path: Path) -> None:
    got = earned(
        one_event(tmp_path, "fide-circuit-2024", "standard/small/round-robin", ROUND_ROBIN_10)
    )
    assert {k: v for k, v in got.items() if v} == {
        "A": F(55, 2),
        "B": 20,
        "C": F(105, 8),
        "D": F(35, 8),
    }


def test_fc23_the_same_event_pays_no_outright_bonus_and_the_top_half(tmp_path: Path) -> None:
    """2023 (FC23-2, FC23-3): 10 for 1st (no 11), the top half of 10 players paid (places 1-5):
    A 25, B 20, the 3rd-4th tie (7 + 6) -> C 7/2 + 13/4 = 6.75 x 2.5 = 16.875, D 6/2 + 13/4 =
    6.25 -> 15.625, E 5 x 2.5 = 12.5."""
    got = earned(one_event(tmp_path, "fide-circuit-2023", "standard", ROUND_ROBIN_10))
    assert {k: v for k, v in got.items() if v} == {
        "A": 25,
        "B": 20,
        "C": F(135, 8),
        "D": F(125, 8),
        "E": F(25, 2),
    }


def test_fc23_worked_example_a_tie_across_the_last_paid_place(tmp_path: Path) -> None:
    """12 players, k = 2 (the top 8 rated 2700), 6 places paid (FC23-3): A 8 alone, 20;
    B and C tie for 2nd-3rd on 7: B 8/2 + 7.5/2 = 7.75 -> 15.5, C 7/2 + 3.75 -> 14.5; D 6.5
    alone, 12; E, F, G tie for 5th-7th on 6, the 7th unpaid (D-FC23-4): the pool (5 + 4 + 0)/3 =
    3, E 5/2 + 1.5 -> 8, F 4/2 + 1.5 -> 7, G 0 + 1.5 -> 3."""
    top = [
        ("1", "A", "8"),
        ("2", "B", "7"),
        ("3", "C", "7"),
        ("4", "D", "6.5"),
        ("5", "E", "6"),
        ("6", "F", "6"),
        ("7", "G", "6"),
        ("8", "H", "5"),
    ]
    rest = [("9", "I", "4"), ("10", "J", "3"), ("11", "K", "2"), ("12", "L", "1")]
    rows = standings([(*row, 2700) for row in top] + [(*row, 2400) for row in rest])
    got = earned(one_event(tmp_path, "fide-circuit-2023", "standard", rows))
    assert {k: v for k, v in got.items() if v} == {
        "A": 20,
        "B": F(31, 2),
        "C": F(29, 2),
        "D": 12,
        "E": 8,
        "F": 7,
        "G": 3,
    }


def test_fc24_the_published_points_of_the_tata_steel_masters_2024(tmp_path: Path) -> None:
    """TAR 2752.75 (8 ratings adding up to 22,022), k = 2.5275. Four players tie on 8.5; a
    play-off decides 1st only, the file giving the other three one place (2). Not outright, so
    1st is 10: the winner 10/2 + (10 + 8 + 7 + 0)/4/2 = 8.125 -> 20.5359 (20.54); the three
    others (8 + 7 + 0)/3/2 + 3.125 = 5.625 -> 14.2172 (14.22)."""
    ratings = [2760, 2760, 2755, 2755, 2750, 2750, 2746, 2746, 2700, 2700, 2690, 2680, 2670, 2650]
    scores = ["8.5", "8.5", "8.5", "8.5", "7", "7", "6.5", "6", "6", "5.5", "5", "4.5", "4", "4"]
    ranks = ["1", "2", "2", "2", "5", "5", "7", "8", "8", "10", "11", "12", "13", "13"]
    names = ["Winner", "Second A", "Second B", "Second C", *(f"P{i}" for i in range(5, 15))]
    rows = standings(list(zip(ranks, names, scores, ratings, strict=True)))
    got = earned(one_event(tmp_path, "fide-circuit-2024", "standard/small/round-robin", rows))
    assert show(got["Winner"], 2) == "20.54"
    assert {show(got[n], 2) for n in names[1:4]} == {"14.22"}
    assert got["Winner"] == F(65, 8) * F(10110, 4000)
    assert all(got[n] == 0 for n in names[4:])


# CAWA, worked examples 1 and 2.


def test_cawa_classical_places_and_participation(tmp_path: Path) -> None:
    """12 players, no ties: 24, 20, 16, 14, 12, 10, 8, 6 (CAWA-2), 2 for each of the others
    (CAWA-2, CAWA-4): 118 in all."""
    rows = standings([(str(i), f"P{i}", str(12 - i), 1500) for i in range(1, 13)])
    got = earned(one_event(tmp_path, "cawa-gp", "classical", rows))
    assert [got[f"P{i}"] for i in range(1, 13)] == [24, 20, 16, 14, 12, 10, 8, 6, 2, 2, 2, 2]
    assert sum(got.values()) == 118


def test_cawa_ties_and_the_faster_events(tmp_path: Path) -> None:
    """Rapid at 3/4 (CAWA-3): the winner 18; a tie for 2nd-3rd (15 + 12)/2 = 13.5 each; 9th 0
    (no participation points outside classical, CAWA-4). Blitz at 1/4: three tied for 7th-9th
    (2 + 1.5 + 0)/3 = 7/6 each (D-CAWA-1)."""
    below = ["3.5", "3", "2.5", "2", "1.5", "0.5"]
    rapid = standings(
        [
            ("1", "A", "5", 1500),
            ("2", "B", "4", 1500),
            ("2", "C", "4", 1500),
            *((str(i), f"R{i}", s, 1500) for i, s in enumerate(below, 4)),
        ]
    )
    got = earned(one_event(tmp_path / "r", "cawa-gp", "rapid", rapid))
    assert (got["A"], got["B"], got["C"], got["R9"]) == (F(18), F(27, 2), F(27, 2), F(0))
    tied = [("7", name, "3", 1500) for name in "XYZ"]
    blitz = standings([*((str(i), f"B{i}", str(20 - i), 1500) for i in range(1, 7)), *tied])
    got = earned(one_event(tmp_path / "b", "cawa-gp", "blitz", blitz))
    assert got["B1"] == 6 and got["X"] == got["Y"] == got["Z"] == F(7, 6)

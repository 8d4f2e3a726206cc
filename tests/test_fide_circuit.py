"""The fide-circuit-2025 preset on hand-worked events (FC-1 to FC-5).

No per-event circuit points were found published in a form a test can reproduce
(docs/research/real-series.md), so each value here is worked by hand from the rules: points
= B x k, k = (TAR - 2500) / 100, TAR the mean of the 8 highest ratings (D-FC-1: exact).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from grandprix.season.model import Line
from grandprix.season.standings import standings
from seasons import load, write_season

# TAR 2650: (2700 + 2680 + 2660 + 2650 + 2640 + 2630 + 2620 + 2620) / 8 = 21200 / 8, so k = 1.5.
TOP8 = [2700, 2680, 2660, 2650, 2640, 2630, 2620, 2620]


def field(scores: list[str], ratings: list[int]) -> str:
    """A standings list in official order (rank = row), the ratings given in that order."""
    rows = [
        f"{i},P{i},{rating},{score}"
        for i, (score, rating) in enumerate(zip(scores, ratings, strict=True), start=1)
    ]
    return "rank,name,rating,points\n" + "\n".join(rows) + "\n"


def season(tmp_path: Path, events: list[tuple[str, str, str]]) -> dict[str, Line]:
    """Events as (category, file name, standings text); one a month from January 2025."""
    toml = ['name = "Circuit"', 'rules = "fide-circuit-2025"', ""]
    files = {}
    for month, (category, name, text) in enumerate(events, start=1):
        toml += [
            "[[events]]",
            f'name = "{name}"',
            f"date = 2025-{month:02}-28",
            f'category = "{category}"',
            f'results = "{name}.csv"',
            "",
        ]
        files[f"{name}.csv"] = text
    lines = standings(load(write_season(tmp_path / "s", "\n".join(toml), files)))
    return {line.name: line for line in lines}


def points(lines: dict[str, Line], player: str, event: str) -> Fraction:
    return next(a.points for a in lines[player].awards if a.event_name == event)


def test_fc2_outright_winner_11_and_fc4_tie_split_in_a_swiss_of_20(tmp_path: Path) -> None:
    """P1 alone on 8: 11 x 1.5 = 16.5. P2 and P3 on 7 share 2nd-3rd, P2 2nd on tie-break:
    (8 / 2 + (8 + 7) / 2 / 2) x 1.5 = 11.625; P3: (7 / 2 + 7.5 / 2) x 1.5 = 10.875."""
    scores = ["8", "7", "7", "6.5", "6", "5.5", "5", "4.5", "4", "3.5"] + ["3"] * 10
    lines = season(tmp_path, [("standard/small", "Open", field(scores, [*TOP8, *[2400] * 12]))])
    assert points(lines, "P1", "Open") == Fraction(33, 2)
    assert points(lines, "P2", "Open") == Fraction(93, 8)
    assert points(lines, "P3", "Open") == Fraction(87, 8)
    assert points(lines, "P8", "Open") == 3  # B = 2 for 8th
    assert points(lines, "P9", "Open") == 0  # 9th and 10th are in the top half, past the table


def test_fc3_only_the_top_half_of_a_swiss_earns(tmp_path: Path) -> None:
    """10 players: the top half is places 1-5; 6th would be worth 4 x 1.5 = 6 but earns 0."""
    scores = ["7", "6", "5.5", "5", "4.5", "4", "3", "2", "1", "0"]
    lines = season(tmp_path, [("standard/small", "Ten", field(scores, [*TOP8, 2400, 2400]))])
    assert points(lines, "P5", "Ten") == Fraction(15, 2)  # 5 x 1.5
    assert points(lines, "P6", "Ten") == 0


def test_fc2_a_shared_first_place_is_worth_10_not_11(tmp_path: Path) -> None:
    """P1 and P2 on 6.5: P1 first on tie-break, (10 / 2 + (10 + 8) / 2 / 2) x 1.5 = 14.25."""
    scores = ["6.5", "6.5", "5", "4", "3", "2", "1", "0"]
    lines = season(tmp_path, [("standard/small", "Eight", field(scores, TOP8))])
    assert points(lines, "P1", "Eight") == Fraction(57, 4)
    assert points(lines, "P2", "Eight") == Fraction(51, 4)  # (8 / 2 + 9 / 2) x 1.5


def test_fc3_a_round_robin_of_10_pays_its_top_4(tmp_path: Path) -> None:
    """2025: round robins of 10-12 players pay the top 4 (no top-half rule): 4th earns
    6 x 1.5 = 9, 5th nothing."""
    scores = ["7", "6", "5.5", "5", "4.5", "4", "3.5", "3", "2.5", "0.5"]
    lines = season(tmp_path, [("standard/round-robin", "RR", field(scores, [*TOP8, 2600, 2600]))])
    assert points(lines, "P4", "RR") == 9
    assert points(lines, "P5", "RR") == 0


def test_fc1_k_is_zero_below_2500(tmp_path: Path) -> None:
    """D-FC-1: TAR 2450 gives k = 0: nobody earns."""
    scores = ["7", "6", "5", "4", "3", "2", "1", "0"]
    lines = season(tmp_path, [("standard/small", "Weak", field(scores, [2450] * 8))])
    assert all(line.total == 0 for line in lines.values())


def test_fc5_best_7_with_at_most_2_rapid_or_blitz(tmp_path: Path) -> None:
    """P1 wins 3 rapid events (16.5 each, k = 1.5) and 5 small standard events of 8 players
    with TAR 2550 (k = 0.5: 11 x 0.5 = 5.5 each): the best 7 within the limits are 2 rapid and
    the 5 standard: 33 + 27.5 = 60.5, one rapid win dropped."""
    strong = field(["7", "6", "5", "4", "3", "2", "1", "0"], TOP8)
    weak = field(["7", "6", "5", "4", "3", "2", "1", "0"], [2550] * 8)
    events = [("fast/rapid", f"Rapid {i}", strong) for i in range(3)]
    events += [("standard/small", f"Classic {i}", weak) for i in range(5)]
    line = season(tmp_path, events)["P1"]
    assert line.total == Fraction(121, 2)
    assert [a.event_name for a in line.dropped] == ["Rapid 2"]
    assert len(line.counted) == 7

"""Standings CSV: events known only by their final scores."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import EXAMPLES
from grandprix.placings import place
from grandprix.readers import load_section
from grandprix.readers.standings_csv import read_standings_csv


def read(text: str) -> tuple[object, list[str]]:
    section, problems = read_standings_csv("s.csv", text.encode())
    return section, [str(p) for p in problems]


def test_example_standings_keep_the_official_order_and_shared_places() -> None:
    section, problems = load_section(EXAMPLES / "club_rapid_standings.csv")
    assert problems == [] and section is not None and not section.has_crosstable
    rows = place(section).rows
    assert [r.place for r in rows] == ["1", "2-3", "2-3", "4", "5", "6-7", "6-7", "8", "9", "10"]
    assert rows[1].points == Fraction("5.5")
    assert dict(rows[0].player.extra) == {"club": "Riverside"}


def test_without_rank_equal_points_share_a_span() -> None:
    section, problems = read("name,points\nA,3\nB,2.5\nC,2.5\nD,2.5\nE,1\n")
    assert problems == []
    assert [r.place for r in place(section).rows] == ["1", "2-4", "2-4", "2-4", "5"]  # type: ignore[arg-type]


def test_semicolons_and_decimal_commas() -> None:
    section, problems = read("Name;Points;Rank\nA;3,5;1\nB;2;2\n")
    assert problems == []
    assert [p.points for p in section.players] == [Fraction("3.5"), 2]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name\nA\n", "s.csv:1:1: missing column(s) points"),
        ("name,points\nA,x\n", "s.csv:2:2: field 'points' = 'x' is not a score from 0 to 1000"),
        ("name,points,rank\nA,1,first\n", "s.csv:2:3: field 'rank' = 'first' is not a place"),
        ("name,points,rating\nA,1,12a\n", "s.csv:2:3: field 'rating' = '12a' is not a rating"),
        ("name,points\n,1\n", "s.csv:2:1: field 'name' is empty"),
        ("name,points,id\nA,1,7\nB,1,7\n", "s.csv:3:3: id '7' is listed twice"),
        ("name,points\nA,1,extra\n", "s.csv:2:1: row has 3 fields but the header has 2"),
    ],
)
def test_bad_rows_are_located(text: str, message: str) -> None:
    _, problems = read(text)
    assert any(p.startswith(message) for p in problems), problems


def test_tiebreaks_are_refused_for_a_standings_list() -> None:
    from grandprix.errors import UsageError
    from grandprix.tiebreaks import Rules, parse

    section, _ = load_section(EXAMPLES / "club_rapid_standings.csv")
    assert section is not None
    with pytest.raises(UsageError, match="tie-breaks need every round"):
        place(section, parse("BH", Rules.FIDE_2024))

"""Exact numbers in and out, and the FIDE rating tables behind TPR and PTP."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grandprix.scores import parse_score, show, show_points
from grandprix.tiebreaks.rating import dp, expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3.5", Fraction(7, 2)),
        ("3,5", Fraction(7, 2)),
        ("½", Fraction(1, 2)),
        ("6½", Fraction(13, 2)),
        ("10", Fraction(10)),
        ("", None),
        ("x", None),
        ("nan", None),
    ],
)
def test_parse_score(text: str, value: Fraction | None) -> None:
    assert parse_score(text) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7, 2), "3.5"),
        (Fraction(43, 4), "10.75"),
        (Fraction(3), "3"),
        (Fraction(-1, 2), "-0.5"),
        (Fraction(63, 5), "12.6"),
        (Fraction(14, 3), "4.6667"),
        (None, ""),
    ],
)
def test_show_plain_decimals(value: Fraction | None, text: str) -> None:
    assert show(value) == text


def test_show_with_places_rounds_half_up() -> None:
    assert show(Fraction(14, 3), 2) == "4.67" and show(Fraction(1, 8), 2) == "0.13"
    assert show_points(Fraction(4)) == "4.0" and show_points(Fraction(9, 2)) == "4.5"


def test_dp_and_expected_score_tables_match_the_fide_reference() -> None:
    tables = pytest.importorskip("gacrux.fidetables", reason="gacrux (test dependency) missing")
    assert [dp(p) for p in range(101)] == list(tables.ScoreToDp)
    for diff in range(0, 801):
        assert expected(diff) == tables.DiffToPd[diff], diff
        assert expected(-diff) == 100 - tables.DiffToPd[diff], diff


def test_worked_rating_examples_of_the_notes() -> None:
    from builders import build
    from grandprix.placings import place
    from grandprix.tiebreaks import Rules, parse

    section = build(
        3,
        {
            "P": ["A w 1", "B b 0", "C w 1"],
            "Q": ["D w 0", "E b 0", "F w 0"],
            "R": ["G w 1", "H b 1", "I w 1"],
        },
        ratings=dict(
            P=1500,
            Q=1500,
            R=1500,
            A=2000,
            B=2200,
            C=1800,
            D=2000,
            E=2200,
            F=1800,
            G=2000,
            H=2200,
            I=1800,
        ),
    )
    rows = {
        r.player.name: r.values for r in place(section, parse("ARO,TPR,PTP", Rules.FIDE_2024)).rows
    }
    assert rows["P"] == (Fraction(2000), Fraction(2125), Fraction(2145))
    assert rows["Q"][2] == 1000 and rows["R"][2] == 2936

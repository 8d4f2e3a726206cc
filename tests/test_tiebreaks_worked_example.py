"""The worked examples of shared/specs/tiebreaks.md §4 (C.07 2024/2026), §5 (2009), §7.3 (US)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from builders import worked_example
from grandprix.placings import place
from grandprix.tiebreaks import Rules, parse


def values(rules: Rules, codes: str) -> dict[str, Fraction | None]:
    standings = place(worked_example(), parse(codes, rules), rules)
    row = next(r for r in standings.rows if r.player.name == "P")
    return {spec.code: value for spec, value in zip(standings.specs, row.values, strict=True)}


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (
            Rules.FIDE_2024,
            {"BH": "16.5", "BH/C1": "13", "BH/M1": "9", "SB": "10.75", "SB/C1": "8.75"},
        ),
        (
            Rules.FIDE_2026,
            {"BH": "13.5", "BH/C1": "11", "BH/M1": "7", "SB": "8.25", "SB/C1": "6.75"},
        ),
    ],
)
def test_c07_art16_dummy_opponent_and_cut1_exception(
    rules: Rules, expected: dict[str, str]
) -> None:
    got = values(rules, ",".join(expected))
    assert got == {code: Fraction(v) for code, v in expected.items()}


def test_c07_own_result_tiebreaks_of_the_worked_example() -> None:
    got = values(Rules.FIDE_2024, "WIN,WON,BPG,BWG,REP,GE,PS,PS/C1")
    expected = {"WIN": 3, "WON": 2, "BPG": 2, "BWG": 1, "REP": 4, "GE": 4, "PS": 10, "PS/C1": 9}
    assert got == {k: Fraction(v) for k, v in expected.items()}


def test_fide_2009_virtual_opponent() -> None:
    got = values(Rules.FIDE_2009, "BH,BH/C1")
    assert got == {"BH": Fraction("14.5"), "BH/C1": Fraction("12.5")}


def test_us_chess_34e_example_of_section_7_3() -> None:
    # §7.3 works Cumulative by the rule book (only the forfeit win subtracted): that is CUM/R.
    # SwissSys, the default CUM, also subtracts the half-point bye of round 2: 10 - 1 - 1/2.
    got = values(Rules.US_CHESS, "SOLK,MM,CUM/R,CUM,KASH,SB")
    expected = {"SOLK": "9.5", "MM": "9.5", "CUM/R": "9", "CUM": "8.5", "KASH": "9", "SB": "5.5"}
    assert got == {k: Fraction(v) for k, v in expected.items()}


def test_us_chess_median_and_opposition_cumulative() -> None:
    got = values(Rules.US_CHESS, "MED,OCUM")
    # Opponents' adjusted scores 3.5, 0, 4, 0, 2: median drops a 0 and the 4.
    assert got["MED"] == Fraction("5.5")
    # Opponents' cumulative: A (0,1,2,3,3 = 9), B (1,2,3,4,4 = 14), D (1,2,2,2,2 = 9).
    assert got["OCUM"] == Fraction(32)


def test_us_chess_modified_median_for_a_minus_score_drops_the_highest() -> None:
    standings = place(worked_example(), parse("MM,SOLK", Rules.US_CHESS), Rules.US_CHESS)
    row = next(r for r in standings.rows if r.player.name == "C")  # 1.5 of 5: minus score
    mm, solkoff = row.values
    assert solkoff is not None and mm is not None
    # C met G1..G4 once each; they withdrew, so each counts its one result plus 4 x 1/2:
    # G1 2, G2 3, G3 2.5, G4 3; the forfeit against P counts 0. Solkoff 10.5; the highest
    # (3) is dropped for a minus score.
    assert (solkoff, mm) == (Fraction("10.5"), Fraction("7.5"))

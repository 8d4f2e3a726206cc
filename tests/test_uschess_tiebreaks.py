"""US Chess Cumulative (34E3) and Cumulative of opposition: SwissSys's reading and the rule book's.

SwissSys (the default) subtracts the points of every unplayed round once: 1 per forfeit win or
full-point bye, 1/2 per half-point bye. ``/R`` (the rule book as quoted) subtracts unplayed wins
only. Every value below is worked by hand in the comment above it.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from click.testing import CliRunner

from builders import build
from conftest import EXAMPLES
from grandprix.cli import main
from grandprix.errors import UsageError
from grandprix.model import Section
from grandprix.tiebreaks import Context, Rules, parse, rules_table

US = Rules.US_CHESS


def values(section: Section, codes: str) -> dict[str, dict[str, Fraction | None]]:
    """Each player's value of each code, by name."""
    ctx = Context(section, US)
    table = rules_table(US)
    names = [p.name for p in section.players]
    out: dict[str, dict[str, Fraction | None]] = {name: {} for name in names}
    for spec in parse(codes, US):
        for name, value in zip(names, table[spec.name](ctx, spec), strict=True):
            out[name][spec.code] = value
    return out


def test_34e3_a_half_point_bye_costs_one_half_in_swisssys_and_nothing_by_the_rule_book() -> None:
    section = build(
        4,
        {
            "P": ["H", "A w 1", "B b 0", "C w 1"],
            "Q": ["A b 1", "B w 0", "C b 1", "H"],
        },
    )
    got = values(section, "CUM,CUM/R")
    # P: running 1/2, 3/2, 3/2, 5/2 = 6; less the round-1 bye's 1/2 = 11/2.
    assert got["P"] == {"CUM": Fraction(11, 2), "CUM/R": Fraction(6)}
    # Q: running 1, 1, 2, 5/2 = 13/2; less the round-4 bye's 1/2 = 6.
    assert got["Q"] == {"CUM": Fraction(6), "CUM/R": Fraction(13, 2)}


def test_34e3_the_deduction_is_made_once_whatever_the_round_of_the_bye() -> None:
    # Same results, the half-point bye in round 1 or in round 4: the running scores keep the
    # bye's 1/2 from its round on (4 times or once), the deduction is 1/2 both times. Taking it
    # out of every later running score instead would cost the round-1 bye 2 and the round-4 one
    # 1/2, which SwissSys does not do (its values differ from /R by 1/2 per bye, nothing more).
    early = build(4, {"P": ["H", "A w 1", "B b 1", "C w 1"]})
    late = build(4, {"P": ["A w 1", "B b 1", "C w 1", "H"]})
    # Early: running 1/2, 3/2, 5/2, 7/2 = 8; late: 1, 2, 3, 7/2 = 19/2.
    assert values(early, "CUM,CUM/R")["P"] == {"CUM": Fraction(15, 2), "CUM/R": Fraction(8)}
    assert values(late, "CUM,CUM/R")["P"] == {"CUM": Fraction(9), "CUM/R": Fraction(19, 2)}


def test_34e3_unplayed_wins_cost_one_in_both_readings_zero_point_rounds_nothing() -> None:
    section = build(
        5,
        {
            "R": ["U", "D1 w 1", "D2 b +", "H", "F"],
            "S": ["Z", "E1 b 1", "E2 w -", "E3 b =", "-"],
        },
    )
    got = values(section, "CUM,CUM/R")
    # R: pairing bye 1, win 1, forfeit win 1, half-point bye 1/2, full-point bye 1:
    # running 1, 2, 3, 7/2, 9/2 = 14. Rule book: less 1 + 1 + 1 = 11. SwissSys: also less the
    # half-point bye's 1/2 = 21/2.
    assert got["R"] == {"CUM": Fraction(21, 2), "CUM/R": Fraction(11)}
    # S: zero-point bye, win, forfeit loss, draw, absent: running 0, 1, 1, 3/2, 3/2 = 5;
    # the unplayed rounds scored nothing, so nothing is subtracted in either reading.
    assert got["S"] == {"CUM": Fraction(5), "CUM/R": Fraction(5)}


def test_34e3_opposition_cumulative_sums_the_opponents_cumulative_of_the_same_reading() -> None:
    section = build(
        3,
        {
            "T": ["V w 1", "W b =", "H"],
            "V": ["T b 0", "H", "Y1 w 1"],
            "W": ["H", "T w =", "Y2 b 0"],
        },
    )
    got = values(section, "CUM,CUM/R,OCUM,OCUM/R")
    # V: 0, 1/2, 1 -> running 0, 1/2, 3/2 = 2; less its bye's 1/2 = 3/2.
    assert (got["V"]["CUM"], got["V"]["CUM/R"]) == (Fraction(3, 2), Fraction(2))
    # W: 1/2, 1/2, 0 -> running 1/2, 1, 1 = 5/2; less its bye's 1/2 = 2.
    assert (got["W"]["CUM"], got["W"]["CUM/R"]) == (Fraction(2), Fraction(5, 2))
    # T met V and W over the board; T's own half-point bye does not enter OCUM.
    # SwissSys: 3/2 + 2 = 7/2; rule book: 2 + 5/2 = 9/2 (1/2 per opponent's bye apart).
    assert (got["T"]["OCUM"], got["T"]["OCUM/R"]) == (Fraction(7, 2), Fraction(9, 2))
    # T itself: 1, 1/2, 1/2 -> running 1, 3/2, 2 = 9/2; less its bye's 1/2 = 4.
    assert (got["T"]["CUM"], got["T"]["CUM/R"]) == (Fraction(4), Fraction(9, 2))


def test_the_r_modifier_is_parsed_for_cum_and_ocum_only() -> None:
    cum, ocum, plain = parse("CUM/R,ocum/r,CUM", US)
    assert (cum.name, cum.rule_book, ocum.name, ocum.rule_book) == ("CUM", True, "OCUM", True)
    assert not plain.rule_book
    with pytest.raises(UsageError, match="SOLK takes no /R modifier"):
        parse("SOLK/R", US)
    with pytest.raises(UsageError, match="BH takes no /R modifier"):
        parse("BH/R", Rules.FIDE_2026)
    with pytest.raises(UsageError, match="/R for us-chess CUM and OCUM"):
        parse("CUM/Q", US)


def test_the_cli_prints_both_readings_side_by_side() -> None:
    result = CliRunner().invoke(
        main,
        [
            "event",
            str(EXAMPLES / "spring_open_2026.trf"),
            "--tiebreak-rules",
            "us-chess",
            "--tiebreaks",
            "CUM,CUM/R,OCUM,OCUM/R",
            "--format",
            "csv",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows and all(
        Fraction(row["CUM"]) <= Fraction(row["CUM/R"])
        and Fraction(row["OCUM"]) <= Fraction(row["OCUM/R"])
        for row in rows
    )
    assert any(row["CUM"] != row["CUM/R"] for row in rows), "the example has half-point byes"

"""chess-results.com crosstable exports (xlsx and csv), checked against a real season."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from conftest import SHARED_DATA, TEST_DATA, shared
from grandprix.model import ResultKind, Severity
from grandprix.placings import place
from grandprix.readers import load_section
from grandprix.readers.chess_results import read_chess_results
from grandprix.scores import parse_score
from grandprix.tiebreaks import Rules, parse

FOLDER = "keshmat-circuit-2024-25"
MONTHS = ["july", "august", "december", "january", "february", "march", "april", "may"]


@pytest.mark.parametrize("month", MONTHS)
def test_xlsx_and_csv_exports_give_the_same_section(month: str) -> None:
    xlsx, p1 = load_section(shared(FOLDER, "crosstables", f"{month}.xlsx"))
    sheet, p2 = load_section(shared(FOLDER, "crosstables", f"{month}.csv"))
    # Only the warnings for the empty rank cells of shared places, the same in both exports.
    assert {p.severity for p in p1 + p2} <= {Severity.WARNING}
    assert all("`Rk.` is empty" in p.message for p in p1 + p2)
    assert len(p1) == len(p2)
    assert xlsx is not None and xlsx == sheet
    assert xlsx.rounds == 7 and not xlsx.round_robin


@pytest.mark.parametrize("month", MONTHS)
def test_printed_buchholz_columns_are_the_2009_rules(month: str) -> None:
    """TB2 and TB3 of the exports are BH/C1 and BH with the 2009 virtual opponent."""
    path = shared(FOLDER, "crosstables", f"{month}.csv")
    section, _ = load_section(path)
    assert section is not None
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Rk.") + 1
    printed = {
        i: (parse_score(r[-2]), parse_score(r[-1]))
        for i, r in enumerate(rows[start : start + len(section.players)], start=1)
    }
    standings = place(section, parse("BH/C1,BH", Rules.FIDE_2009), Rules.FIDE_2009)
    ours = {r.player.start_no: tuple(r.values) for r in standings.rows}
    assert ours == printed


def test_opponents_are_row_positions_and_empty_ranks_share_the_place_above() -> None:
    path = shared(FOLDER, "crosstables", "july.csv")
    section, _ = load_section(path)
    assert section is not None
    first = section.player(1)
    assert first.name == "Arkadan Adib" and first.rating == 2209
    assert first.rounds[0].opponent == 56 and first.rounds[6].kind is ResultKind.DRAW
    assert section.player(56).rounds[0].opponent == 1
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Rk.") + 1
    blank = [i for i, r in enumerate(rows[start : start + len(section.players)], 1) if not r[0]]
    assert blank, "july has rows without a rank"
    for position in blank:
        above = section.player(position - 1).declared_rank
        assert above and section.player(position).declared_rank == above


def test_byes_forfeits_and_unpaired_rounds() -> None:
    section, _ = load_section(shared(FOLDER, "crosstables", "august.csv"))
    assert section is not None
    kinds = {r.kind for p in section.players for r in p.rounds}
    assert {
        ResultKind.PAIRING_BYE,
        ResultKind.FORFEIT_WIN,
        ResultKind.FORFEIT_LOSS,
        ResultKind.ABSENT,
    } <= kinds


def test_a_bad_cell_is_located(tmp_path: Path) -> None:
    text = (
        "Rk.,,Name,Rtg,FED,1.Rd,2.Rd,Pts. \n"
        "1,,Alpha ,2000,LBN, 2w1, 2b?,1\n"
        "2,,Beta ,1900,LBN, 1b0, 1w0,0\n"
    )
    _section, problems = read_chess_results("x.csv", text.encode())
    assert any(str(p).startswith("x.csv:2:7: round 2 cell '2b?' is not a result") for p in problems)


def test_a_file_without_the_header_row_is_refused() -> None:
    _, problems = read_chess_results("x.csv", b"hello,world\n")
    assert "no header row starting with 'Rk.'" in str(problems[0])


def test_real_data_is_where_the_tests_expect_it() -> None:
    copy = TEST_DATA / FOLDER
    assert (copy / "SOURCE.txt").exists() and (copy / "LICENSE").exists()
    if SHARED_DATA.exists():
        assert (SHARED_DATA / FOLDER / "SOURCE.txt").exists()

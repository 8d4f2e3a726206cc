"""chess-results.com "Starting rank crosstable" exports: a Swiss list and round-robin matrices.

The exports are built here in the shape of the real ones (header block, ``No.`` header row,
title column without a heading, the caption above the Swiss table and below a round robin's),
written as .xlsx (numbers as numbers, as chess-results writes them) and as .csv of the same sheet.
The empty-``Rk.`` warning of the Final Ranking export is checked on the Keshmat 2024-25 season.
"""

from __future__ import annotations

import csv
import os
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from conftest import shared
from grandprix.model import Location, ResultKind, Section, Severity
from grandprix.placings import place
from grandprix.readers import detect_format, load_section
from grandprix.readers.chess_results import read_chess_results
from grandprix.readers.chess_results_start import berger_round
from grandprix.tiebreaks import Rules, parse

K = ResultKind
BANNER = "From the Tournament-Database of Chess-Results https://chess-results.com"
FOOTER = ["", "Chess-Tournament-Results-Server: Chess-Results"]

# A Swiss of 6 in 4 rounds: No. 3 wins round 1 by forfeit against No. 6, who then withdraws
# (not paired in rounds 2-4); No. 5 has the pairing-allocated bye in round 2 and No. 4 in
# round 4; No. 4 is not paired in round 3; Nos. 2 and 3 both forfeit round 4.
SWISS_HEAD = [
    "No.",
    "",
    "Name",
    "FideID",
    "Rtg",
    "FED",
    "1.Rd",
    "2.Rd",
    "3.Rd",
    "4.Rd",
    "Pts. ",
    "Rk.",
    "TB1",
    "TB2",
    "TB3",
]
SWISS_ROWS = [
    ["1", "FM", "Amber, Al ", "4100001", "2100", "LBN", " 4w1", " 3b1", " 2w½", " 5b0", "2.5", "1"],
    ["2", "", "Birch, Ben ", "4100002", "1950", "LBN", " 5b½", " 4w1", " 1b½", " 3w-", "2", "3"],
    ["3", "", "Cedar, Cleo ", "", "1900", "FRA", " 6w+", " 1w0", " 5b1", " 2b-", "2", "4"],
    ["4", "", "Dune, Dara ", "", "1800", "LBN", " 1b0", " 2b0", "0", "-1", "1", "5"],
    ["5", "", "Elm, Eli ", "", "0", "LBN", " 2w½", "-1", " 3w0", " 1w1", "2.5", "2"],
    ["6", "", "Fir, Fay ", "", "0", "LBN", " 3b-", "0", "0", "0", "0", "6"],
]

# A round robin of 6: No. 1 wins against No. 5 by forfeit.
RR6 = [
    ["*", "1", "½", "0", "+", "1"],
    ["0", "*", "1", "½", "1", "0"],
    ["½", "0", "*", "1", "½", "1"],
    ["1", "½", "0", "*", "0", "1"],
    ["-", "0", "½", "1", "*", "½"],
    ["0", "1", "0", "0", "½", "*"],
]
RR6_POINTS, RR6_RANKS = ["3.5", "2.5", "3", "2.5", "2", "1.5"], ["1", "3", "2", "4", "5", "6"]
# A round robin of 5 (one player sits out each round); Nos. 4 and 5 did not play each other.
RR5 = [
    ["*", "1", "0", "½", "1"],
    ["0", "*", "1", "1", "½"],
    ["1", "0", "*", "0", "1"],
    ["½", "0", "1", "*", ""],
    ["0", "½", "0", "", "*"],
]
RR5_POINTS, RR5_RANKS = ["2.5", "2.5", "2", "1.5", "0.5"], ["1", "2", "3", "4", "5"]
NAMES = [
    "Abboud, Ali",
    "Boulos, Basma",
    "Chidiac, Carl",
    "Daher, Dina",
    "Eid, Elie",
    "Fakhry, Fadi",
]
# FIDE Handbook C.05 Annex 1, the Berger table for 5 or 6 players (6 is the bye for 5).
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def swiss_sheet() -> list[list[str]]:
    return [
        [BANNER],
        ["Winter Rapid 2026 "],
        ["Tournament type : Swiss-System"],
        ["Date : 2026/02/05"],
        [""],
        ["Last update 01.03.2026 20:00:00"],
        ["Starting rank crosstable"],
        SWISS_HEAD,
        *[[*row, "0", "7", "6.5"] for row in SWISS_ROWS],
        *([cell] for cell in FOOTER),
    ]


def matrix_sheet(matrix: list[list[str]], points: list[str], ranks: list[str]) -> list[list[str]]:
    size = len(matrix)
    head = ["No.", "", "Name", "Rtg", "FED", *map(str, range(1, size + 1)), "Pts. ", "Rk.", "TB1"]
    rows = [
        [
            str(no),
            "CM" if no == 1 else "",
            NAMES[no - 1],
            str(2100 - 50 * no),
            "LBN",
            *cells,
            points[no - 1],
            ranks[no - 1],
            "0",
        ]
        for no, cells in enumerate(matrix, start=1)
    ]
    return [
        [BANNER],
        [f"Winter Classic - Group of {size}  "],
        ["Last update 02.03.2026 18:30:00"],
        head,
        *rows,
        ["Starting rank crosstable"],  # below the players in a round robin
        *([cell] for cell in FOOTER),
    ]


def typed(text: str) -> object:
    """A cell as chess-results writes it into an xlsx: whole numbers and points as numbers."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text or None


def write_both(folder: Path, stem: str, sheet: list[list[str]]) -> tuple[Path, Path]:
    xlsx, sheet_csv = folder / f"{stem}.xlsx", folder / f"{stem}.csv"
    book = openpyxl.Workbook()
    page = book.worksheets[0]
    for row in sheet:
        page.append([typed(cell) for cell in row])
    book.save(xlsx)
    with sheet_csv.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(sheet)
    return xlsx, sheet_csv


def read_both(folder: Path, stem: str, sheet: list[list[str]]) -> Section:
    """The section of the sheet, read from .xlsx and from .csv (recognised, no problems)."""
    sections = []
    for path in write_both(folder, stem, sheet):
        assert detect_format(path, path.read_bytes()) == "chess-results"
        section, problems = load_section(path)
        assert problems == [], "\n".join(map(str, problems))
        assert section is not None
        sections.append(section)
    assert sections[0] == sections[1]
    return sections[0]


def opponents(section: Section, no: int) -> list[int | None]:
    return [r.opponent for r in section.player(no).rounds]


def kinds(section: Section, no: int) -> list[ResultKind]:
    return [r.kind for r in section.player(no).rounds]


# ---- Swiss ---------------------------------------------------------------------------------


def test_swiss_start_numbers_are_the_no_column_and_opponents_are_start_numbers(
    tmp_path: Path,
) -> None:
    section = read_both(tmp_path, "swiss", swiss_sheet())
    assert [p.start_no for p in section.players] == [1, 2, 3, 4, 5, 6]
    assert section.name == "Winter Rapid 2026" and section.date == "2026-02-05"
    assert section.rounds == 4 and section.round_robin is False
    first = section.player(1)
    assert (first.name, first.title, first.fide_id, first.rating) == (
        "Amber, Al",
        "FM",
        "4100001",
        2100,
    )
    assert section.player(3).federation == "FRA" and section.player(5).rating is None
    assert opponents(section, 1) == [4, 3, 2, 5]
    assert [r.colour for r in first.rounds] == ["w", "b", "w", "b"]
    assert opponents(section, 4)[:2] == [1, 2] and section.player(4).rounds[0].colour == "b"


def test_swiss_bye_forfeits_both_ways_not_paired_and_withdrawal(tmp_path: Path) -> None:
    section = read_both(tmp_path, "swiss", swiss_sheet())
    assert kinds(section, 5)[1] is K.PAIRING_BYE and kinds(section, 4)[3] is K.PAIRING_BYE
    assert kinds(section, 3)[0] is K.FORFEIT_WIN and kinds(section, 6)[0] is K.FORFEIT_LOSS
    assert opponents(section, 6)[0] == 3
    assert kinds(section, 2)[3] is kinds(section, 3)[3] is K.DOUBLE_FORFEIT
    assert kinds(section, 4)[2] is K.ABSENT  # not paired in round 3
    # withdrawn after round 1: chess-results writes '0' (not paired) for the rounds after
    assert kinds(section, 6)[1:] == [K.ABSENT] * 3 and opponents(section, 6)[1:] == [None] * 3


def test_swiss_points_and_final_ranks(tmp_path: Path) -> None:
    section = read_both(tmp_path, "swiss", swiss_sheet())
    points = {p.start_no: p.points for p in section.players}
    assert points == {1: Fraction(5, 2), 2: 2, 3: 2, 4: 1, 5: Fraction(5, 2), 6: 0}
    assert all(p.declared_points == p.points for p in section.players)
    ranks = [section.player(no).declared_rank for no in range(1, 7)]
    assert ranks == ["1", "3", "4", "5", "2", "6"]


# ---- Round robin ---------------------------------------------------------------------------


def test_berger_round_is_the_fide_table_for_six() -> None:
    for number, pairs in enumerate(BERGER_6, start=1):
        assert [berger_round(a, b, 6) for a, b in pairs] == [number] * 3


def test_round_robin_of_six_is_placed_in_rounds_by_the_berger_tables(tmp_path: Path) -> None:
    section = read_both(tmp_path, "rr6", matrix_sheet(RR6, RR6_POINTS, RR6_RANKS))
    assert section.round_robin is True and section.rounds == 5
    assert [p.start_no for p in section.players] == [1, 2, 3, 4, 5, 6]
    for number, pairs in enumerate(BERGER_6, start=1):
        for a, b in pairs:
            assert section.player(a).rounds[number - 1].opponent == b
            assert section.player(b).rounds[number - 1].opponent == a
    assert opponents(section, 1) == [6, 2, 3, 4, 5]
    assert kinds(section, 1) == [K.WIN, K.WIN, K.DRAW, K.LOSS, K.FORFEIT_WIN]
    assert kinds(section, 5)[4] is K.FORFEIT_LOSS
    assert all(r.colour is None for p in section.players for r in p.rounds)  # not in a matrix
    assert [str(p.points) for p in section.players] == ["7/2", "5/2", "3", "5/2", "2", "3/2"]
    assert [p.declared_rank for p in section.players] == RR6_RANKS
    first = section.player(1)
    assert (first.name, first.title, first.rating) == ("Abboud, Ali", "CM", 2050)


def test_round_robin_of_five_sits_one_player_out_each_round(tmp_path: Path) -> None:
    section = read_both(tmp_path, "rr5", matrix_sheet(RR5, RR5_POINTS, RR5_RANKS))
    assert section.round_robin is True and section.rounds == 5
    sitting_out = []
    for number in range(1, 6):
        out = [
            p.start_no
            for p in section.players
            if p.rounds[number - 1].opponent is None and p.rounds[number - 1].kind is K.ABSENT
        ]
        sitting_out.append(out)
    # the Berger table of 6 with No. 6 missing; Nos. 4 and 5 (round 3) did not play their game
    assert sitting_out == [[1], [4], [2, 4, 5], [5], [3]]
    assert all(r.points == 0 for p in section.players for r in p.rounds if r.kind is K.ABSENT)
    assert [str(p.points) for p in section.players] == ["5/2", "5/2", "2", "3/2", "1/2"]
    assert [p.declared_rank for p in section.players] == RR5_RANKS


# ---- Bad input: located problems, never a crash ------------------------------------------------


def read_csv_sheet(sheet: list[list[str]]) -> tuple[Section | None, list[str]]:
    lines = [",".join(f'"{c}"' if "," in c else c for c in row) for row in sheet]
    section, problems = read_chess_results("x.csv", "\n".join(lines).encode())
    return section, [str(p) for p in problems]


def test_a_start_number_that_is_not_a_number_is_located() -> None:
    sheet = swiss_sheet()
    sheet[8 + 2][0] = "3a"  # the third player row, column No.
    _, problems = read_csv_sheet(sheet)
    assert any(p.startswith("x.csv:11:1: start number '3a' of Cedar, Cleo") for p in problems)


def test_a_swiss_opponent_beyond_the_start_numbers_is_located() -> None:
    sheet = swiss_sheet()
    sheet[8][6] = "17w1"
    _, problems = read_csv_sheet(sheet)
    assert any(p.startswith("x.csv:9:7: opponent 17 in round 1 is out of range") for p in problems)


def test_a_matrix_cell_that_is_not_a_result_is_located() -> None:
    sheet = matrix_sheet(RR6, RR6_POINTS, RR6_RANKS)
    sheet[4 + 1][5 + 2] = "2"  # No. 2 against No. 3
    _, problems = read_csv_sheet(sheet)
    assert any(
        p.startswith("x.csv:6:8: the result against No. 3 '2' is not a result") for p in problems
    )


def test_a_matrix_whose_columns_do_not_match_its_rows_is_refused() -> None:
    sheet = matrix_sheet(RR6, RR6_POINTS, RR6_RANKS)
    del sheet[9]  # No. 6's row: six columns, five rows
    section, problems = read_csv_sheet(sheet)
    assert section is None
    assert problems[0].startswith(
        "x.csv:4:6: the round-robin matrix is headed '1 2 3 4 5 6' but has 5 player rows"
    )


def test_an_unmirrored_matrix_is_located_at_the_cell() -> None:
    sheet = matrix_sheet(RR6, RR6_POINTS, RR6_RANKS)
    sheet[4][5 + 1] = "½"  # No. 1 against No. 2 now a draw, No. 2 still lost
    _, problems = read_csv_sheet(sheet)
    assert any(p.startswith("x.csv:5:7: results do not match in round 2") for p in problems)


def test_an_empty_rank_in_a_starting_rank_list_is_a_warning_naming_the_player() -> None:
    sheet = swiss_sheet()
    sheet[8 + 1][11] = ""
    section, problems = read_csv_sheet(sheet)
    assert section is not None and section.player(2).declared_rank == ""
    assert problems == [
        "x.csv:10:12: warning: `Rk.` is empty for Birch, Ben (No. 2): in a starting rank "
        "crosstable the row above is not the place above, so the rank column is not used for "
        "the placings; write the player's final rank"
    ]


@pytest.mark.parametrize("stem", ["swiss", "rr5"])
def test_any_cell_replaced_by_junk_gives_problems_not_a_crash(stem: str) -> None:
    base = swiss_sheet() if stem == "swiss" else matrix_sheet(RR5, RR5_POINTS, RR5_RANKS)
    for row in range(len(base)):
        for col in range(len(base[row])):
            for junk in ("", "x", "-", "99", "²", "*", "0", "No."):
                sheet = [list(r) for r in base]
                sheet[row][col] = junk
                read_csv_sheet(sheet)  # returns; any exception fails the test


# ---- The real files --------------------------------------------------------------------------


def test_the_keshmat_2026_exports_read_without_problems() -> None:
    """GRANDPRIX_KESHMAT_2026 names a checkout of github.com/keshmat/circuit2026 (no licence:
    its files are read where they are, never copied here)."""
    root = os.environ.get("GRANDPRIX_KESHMAT_2026")
    if not root:
        pytest.skip("GRANDPRIX_KESHMAT_2026 (a checkout of keshmat/circuit2026) is not set")
    files = sorted(Path(root).glob("crosstables/*.xlsx"))
    if not files:
        pytest.skip(f"no crosstables/*.xlsx under GRANDPRIX_KESHMAT_2026={root}")
    for path in files:
        section, problems = load_section(path)
        assert problems == [], f"{path}: " + "\n".join(map(str, problems))
        assert section is not None and section.players
        assert all(p.declared_points == p.points and p.declared_rank for p in section.players)
        assert section.round_robin == (len(section.players) == 6), path.name


# ---- The empty Rk. cells of the Final Ranking export ----------------------------------------

FOLDER = "keshmat-circuit-2024-25"
EMPTY_RANKS = {
    "july": 2,
    "august": 5,
    "december": 5,
    "january": 0,
    "february": 0,
    "march": 0,
    "april": 0,
    "may": 0,
}


def sheet_rows(path: Path) -> list[list[str]]:
    """The rows of a .csv, or of an .xlsx's sheet (whose row numbers may differ from the csv's)."""
    if path.suffix == ".csv":
        return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = [["" if v is None else str(v) for v in row] for row in book.worksheets[0].values]
    book.close()
    return rows


def empty_rank_rows(path: Path) -> list[tuple[int, str, str]]:
    """(line, name, rank of the row above) of each player row whose Rk. cell is empty."""
    rows = sheet_rows(path)
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Rk.") + 1
    found, rank = [], ""
    for line, row in enumerate(rows[start:], start=start + 1):
        if len(row) < 3 or not row[2].strip():
            break
        if row[0]:
            rank = row[0]
        else:
            found.append((line, row[2].strip(), rank))
    return found


@pytest.mark.parametrize("month", list(EMPTY_RANKS))
def test_each_empty_rank_cell_is_a_warning_at_its_row_naming_the_player(month: str) -> None:
    sheet = shared(FOLDER, "crosstables", f"{month}.csv")
    for path in (sheet, sheet.with_suffix(".xlsx")):
        expected_rows = empty_rank_rows(path)
        assert len(expected_rows) == EMPTY_RANKS[month]
        section, problems = load_section(path)
        assert section is not None
        assert all(p.severity is Severity.WARNING for p in problems)
        assert [(p.location, p.message) for p in problems] == [
            (
                Location(str(path), line, 1),
                f"`Rk.` is empty for {name}: read as sharing the place of the row above (rank "
                f"{rank}; chess-results leaves it empty for a shared place); scripts that skip "
                "such rows lose this player's result; write the rank if the place is not shared",
            )
            for line, name, rank in expected_rows
        ]
        shared_place = {p.name: p.declared_rank for p in section.players}
        assert all(shared_place[name] == rank for _, name, rank in expected_rows)


def test_twelve_results_of_the_season_sit_in_rows_without_a_rank() -> None:
    for suffix in ("csv", "xlsx"):
        months = [shared(FOLDER, "crosstables", f"{month}.{suffix}") for month in EMPTY_RANKS]
        assert sum(len(empty_rank_rows(path)) for path in months) == 12


def test_a_csv_opening_with_the_starting_rank_header_is_recognised_without_the_banner() -> None:
    sheet = matrix_sheet(RR5, RR5_POINTS, RR5_RANKS)[3:]  # the header row first
    data = "\n".join(",".join(f'"{c}"' if "," in c else c for c in row) for row in sheet).encode()
    assert detect_format(Path("group.csv"), data) == "chess-results"
    standings = b"No.,Name,Points\n1,Abboud Ali,3\n"  # a standings list, not an export
    assert detect_format(Path("standings.csv"), standings) == "csv"


# The results of the Keshmat Winter Classic 2026 group B (a 6-player round robin; facts from
# keshmat/circuit2026 crosstables/winterClassicalB.xlsx, kept only as this matrix): No. 1 lost
# his games against 4 and 5 by forfeit.
GROUP_B = [
    ["*", "0", "0", "-", "-", "½"],
    ["1", "*", "1", "½", "1", "1"],
    ["1", "0", "*", "½", "1", "1"],
    ["+", "½", "½", "*", "1", "½"],
    ["+", "0", "0", "0", "*", "1"],
    ["½", "0", "0", "½", "0", "*"],
]


def test_art15_forfeit_wins_in_a_round_robin_count_their_scheduled_opponent(
    tmp_path: Path,
) -> None:
    """C.07 (2024) art. 15: with pre-determined pairings a forfeit counts as a game against the
    scheduled opponent, so No. 4's SB gets No. 1's 0.5 for the forfeit win: 0.5 + 4.5/2 + 3.5/2
    + 2 + 1/2 = 7; No. 5's: 0.5 + 1 = 1.5. chess-results printed 10 and 3 (TB3 of the export):
    those are art. 16's dummy opponent worth the player's own score (3.5 for No. 4, 2 for No. 5),
    the Swiss treatment, which gives the same 10 and 3 here when the event is placed as a Swiss.
    The text of art. 15 decides: the round robin's values are 7 and 1.5."""
    sheet = matrix_sheet(
        GROUP_B, ["0.5", "4.5", "3.5", "3.5", "2", "1"], ["6", "1", "2", "3", "4", "5"]
    )
    section = read_both(tmp_path, "group-b", sheet)
    assert section.round_robin
    sb = {}
    for as_round_robin in (True, False):
        placed = place(
            replace(section, round_robin=as_round_robin),
            parse("SB", Rules.FIDE_2024),
            Rules.FIDE_2024,
        )
        sb[as_round_robin] = {row.player.start_no: row.values[0] for row in placed.rows}
    assert (sb[True][4], sb[True][5]) == (Fraction(7), Fraction(3, 2))
    assert (sb[False][4], sb[False][5]) == (Fraction(10), Fraction(3))

"""US Chess rating reports (THEXPORT/TSEXPORT/TDEXPORT.DBF, format 2C): the dBase container
read within bounds, the round cells mapped to result kinds, the zip and three-file forms, the
choice of a section, and every damaged table refused with a located problem.

The tables are written here byte for byte as the research notes describe SwissSys 11's output
(every field C, H_OTHER_TD 254 bytes, compact cells left-justified); the fictional event of
``tests/data/uschess-dbf`` is what ``report()`` writes, and its TRF is the same event.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from grandprix.model import Problem, ResultKind, Section, Severity
from grandprix.readers import dbase
from grandprix.readers.dbase import read_table
from grandprix.readers.trf import read_trf
from grandprix.readers.uschess_dbf import (
    read_uschess_dbf,
    recognise,
)
from grandprix.scores import FIELD_LIMIT
from grandprix.tiebreaks import Context, Rules, parse, rules_table

K = ResultKind
DATA = Path(__file__).resolve().parent / "data" / "uschess-dbf"

H = [
    ("H_FORMAT", 5),
    ("H_PROGRAM", 10),
    ("H_EVENT_ID", 12),
    ("H_NAME", 35),
    ("H_TOT_SECT", 2),
    ("H_BEG_DATE", 8),
    ("H_END_DATE", 8),
    ("H_AFF_ID", 8),
    ("H_CITY", 21),
    ("H_STATE", 2),
    ("H_ZIPCODE", 10),
    ("H_COUNTRY", 21),
    ("H_SENDCROS", 1),
    ("H_CTD_ID", 8),
    ("H_ATD_ID", 8),
    ("H_OTHER_TD", 254),
]
S = [
    ("S_EVENT_ID", 12),
    ("S_SEC_NUM", 2),
    ("S_SEC_NAME", 30),
    ("S_R_SYSTEM", 1),
    ("S_TIMECTL", 40),
    ("S_CTD_ID", 8),
    ("S_ATD_ID", 8),
    ("S_TRN_TYPE", 1),
    ("S_TOT_RNDS", 2),
    ("S_LST_PAIR", 4),
    ("S_BEG_DATE", 8),
    ("S_END_DATE", 8),
    ("S_SCH_LVL", 1),
    ("S_GR_PRIX", 1),
    ("S_GP_PTS", 3),
    ("S_FIDE", 1),
]
D = [
    ("D_EVENT_ID", 12),
    ("D_SEC_NUM", 2),
    ("D_PAIR_NUM", 4),
    ("D_MEM_ID", 8),
    ("D_NAME", 30),
    ("D_STATE", 2),
    ("D_RATING", 4),
    ("D_RND01", 7),
    ("D_RND02", 7),
    ("D_RND03", 7),
    ("D_RND04", 7),
]

EVENT_ROW = dict(
    H_FORMAT="2C",
    H_PROGRAM="SWISSSYS11",
    H_NAME="Prairie Fall Swiss",
    H_TOT_SECT="2",
    H_BEG_DATE="20261003",
    H_END_DATE="20261004",
    H_AFF_ID="A9999999",
    H_CITY="Springfield",
    H_STATE="IL",
    H_ZIPCODE="62701",
    H_COUNTRY="USA",
    H_SENDCROS="N",
    H_CTD_ID="90000001",
)
SECTION_ROWS = [
    dict(
        S_SEC_NUM="1",
        S_SEC_NAME="Open",
        S_R_SYSTEM="R",
        S_TIMECTL="G/60;d5",
        S_CTD_ID="90000001",
        S_TRN_TYPE="S",
        S_TOT_RNDS="4",
        S_LST_PAIR="6",
        S_GR_PRIX="N",
        S_FIDE="N",
    ),
    dict(
        S_SEC_NUM="2",
        S_SEC_NAME="Side game",
        S_R_SYSTEM="Q",
        S_TIMECTL="G/25;+5",
        S_CTD_ID="90000001",
        S_TRN_TYPE="S",
        S_TOT_RNDS="1",
        S_LST_PAIR="2",
        S_GR_PRIX="N",
        S_FIDE="N",
    ),
]
# The Open: 6 players, 4 rounds; every code but Z's twin U0 in a played round. Round 3's
# forfeit names the opponent (as the spec allows), so the TRF can say the same.
Entrant = tuple[str, str, str, str, str, tuple[str, ...]]  # pair, id, name, state, rating, cells
OPEN: list[Entrant] = [
    ("1", "90000011", "ALPHA, ANN", "", "2010", ("W4W", "D3B", "L2W", "W5W")),
    ("2", "90000012", "BRAVO, BEN", "", "1950", ("D5W", "W6W", "W1B", "D3B")),
    ("3", "90000013", "CHARLIE, CY", "", "1900", ("W6B", "D1W", "X5", "D2W")),
    ("4", "90000014", "DELTA, DEE", "IL", "1820", ("L1B", "H0", "W6W", "Z0")),
    ("5", "", "ECHO, ED", "", "1500", ("D2B", "B0", "F3", "L1B")),
    ("6", "00000000", "FOXTROT, FAY", "", "0", ("L3W", "L2B", "L4B", "U0")),
]
SIDE: list[Entrant] = [
    ("1", "90000011", "ALPHA, ANN", "", "2010", ("W2B", "U0", "U0", "U0")),
    ("2", "", "ECHO, ED", "", "1500", ("L1W", "U0", "U0", "U0")),
]


def table(fields: list[tuple[str, int]], rows: list[dict[str, str]]) -> bytes:
    """A dBase III table as SwissSys 11 writes it: version 3, date 2026-10-04 (year - 1900),
    every field C, records flagged with a space, values left-justified and space-padded, 0x1A
    at the end."""
    header_length = 32 + 32 * len(fields) + 1
    record_length = 1 + sum(width for _, width in fields)
    out = bytearray(
        struct.pack("<BBBBIHH20x", 3, 126, 10, 4, len(rows), header_length, record_length)
    )
    for name, width in fields:
        out += name.encode().ljust(11, b"\0") + b"C" + bytes(4) + bytes([width, 0]) + bytes(14)
    out += b"\r"
    for row in rows:
        out += b" " + b"".join(row.get(n, "").encode("cp1252").ljust(w) for n, w in fields)
    return bytes(out + b"\x1a")


def player_rows(section: str, players: Sequence[Entrant]) -> list[dict[str, str]]:
    rows = []
    for pair, member, name, state, rating, cells in players:
        row = dict(
            D_SEC_NUM=section,
            D_PAIR_NUM=pair,
            D_MEM_ID=member,
            D_NAME=name,
            D_STATE=state,
            D_RATING=rating,
        )
        row.update({f"D_RND{n:02d}": cell for n, cell in enumerate(cells, start=1)})
        rows.append(row)
    return rows


def report(
    event: dict[str, str] | None = None,
    sections: list[dict[str, str]] | None = None,
    players: list[dict[str, str]] | None = None,
    details: list[tuple[str, int]] | None = None,
) -> dict[str, bytes]:
    """The three tables of the fictional event, with any of them replaced."""
    return {
        "THEXPORT.DBF": table(H, [event or EVENT_ROW]),
        "TSEXPORT.DBF": table(S, sections or SECTION_ROWS),
        "TDEXPORT.DBF": table(
            details or D, players or player_rows("1", OPEN) + player_rows("2", SIDE)
        ),
    }


def write(folder: Path, tables: dict[str, bytes], names: dict[str, str] | None = None) -> Path:
    """The tables in ``folder`` (renamed by ``names``); the path of TDEXPORT.DBF."""
    for name, data in tables.items():
        (folder / (names or {}).get(name, name)).write_bytes(data)
    return folder / (names or {}).get("TDEXPORT.DBF", "TDEXPORT.DBF")


def zipped(tables: dict[str, bytes], folder: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in tables.items():
            archive.writestr(folder + name, data)
    return out.getvalue()


def read_zip(
    tables: dict[str, bytes], section: str | None = "Open"
) -> tuple[Section | None, list[str]]:
    section_read, problems = read_uschess_dbf(Path("fall.zip"), zipped(tables), section)
    return section_read, [str(p) for p in problems]


def errors(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems if p.severity is Severity.ERROR]


# --- the fixture and the mapping ---------------------------------------------------------


def test_the_fixture_files_are_the_tables_the_notes_describe() -> None:
    for name, data in report().items():
        assert (DATA / name).read_bytes() == data, f"{name}: rewrite it with report()"
    assert len(report()["TDEXPORT.DBF"]) == 32 + 32 * 11 + 1 + 8 * (1 + 62 + 4 * 7) + 1
    assert struct.unpack_from("<H", report()["THEXPORT.DBF"], 10) == (414,)  # SwissSys 11
    assert struct.unpack_from("<H", report()["TSEXPORT.DBF"], 10) == (131,)


def sections_of(path: Path, *names: str) -> tuple[list[Section], list[Problem]]:
    """The report's sections of these names, each read as a season reads it, and every problem."""
    sections, problems = [], []
    for name in names:
        section, found = read_uschess_dbf(path, path.read_bytes(), name)
        assert section is not None, [str(p) for p in found]
        sections.append(section)
        problems += found
    return sections, problems


def test_three_files_in_a_folder_read_as_every_section() -> None:
    path = DATA / "TDEXPORT.DBF"
    sections, problems = sections_of(path, "Open", "Side game")
    assert problems == []
    assert [s.name for s in sections] == [
        "Prairie Fall Swiss: Open",
        "Prairie Fall Swiss: Side game",
    ]
    open_, side = sections
    assert (open_.rounds, side.rounds, open_.round_robin, open_.date) == (4, 1, False, "2026-10-03")
    assert ("122", "G/60;d5") in open_.headers and ("052", "2026/10/04") in open_.headers
    ann = open_.player(1)
    assert (ann.name, ann.id, ann.rating, ann.start_no) == ("ALPHA, ANN", "90000011", 2010, 1)
    assert [(r.kind, r.opponent, r.colour) for r in ann.rounds] == [
        (K.WIN, 4, "w"),
        (K.DRAW, 3, "b"),
        (K.LOSS, 2, "w"),
        (K.WIN, 5, "w"),
    ]
    assert side.player(1).id == "90000011" and side.player(1).points == 1
    assert [r.number for r in side.player(2).rounds] == [1]  # padding past S_TOT_RNDS left out


@pytest.mark.parametrize(
    ("start_no", "round_no", "kind", "points"),
    [
        (3, 3, K.FORFEIT_WIN, Fraction(1)),
        (5, 3, K.FORFEIT_LOSS, Fraction(0)),
        (5, 2, K.PAIRING_BYE, Fraction(1)),
        (4, 2, K.HALF_BYE, Fraction(1, 2)),
        (4, 4, K.HALF_BYE, Fraction(1, 2)),  # Z: rated by US Chess as a half-point bye
        (6, 4, K.ABSENT, Fraction(0)),  # U: no pairing
        (2, 4, K.DRAW, Fraction(1, 2)),
    ],
)
def test_every_code_has_its_kind(start_no: int, round_no: int, kind: K, points: Fraction) -> None:
    section, problems = read_uschess_dbf(
        DATA / "TDEXPORT.DBF", (DATA / "TDEXPORT.DBF").read_bytes(), "open"
    )
    assert problems == [] and section is not None
    found = section.player(start_no).rounds[round_no - 1]
    assert (found.kind, found.points) == (kind, points)
    assert found.location is not None and found.location.line == start_no


def test_scores_ids_and_ratings_come_from_the_records() -> None:
    section, _ = read_uschess_dbf(DATA / "TDEXPORT.DBF", (DATA / "TDEXPORT.DBF").read_bytes(), "1")
    assert section is not None
    assert [p.points for p in section.players] == [Fraction(5, 2), 3, 3, 2, Fraction(3, 2), 0]
    assert [p.id for p in section.players] == [
        "90000011",
        "90000012",
        "90000013",
        "90000014",
        "",
        "",
    ]
    assert [p.rating for p in section.players][-2:] == [1500, None]  # 0: unrated


def test_a_forfeit_without_opponent_is_a_forfeit_not_a_missing_pairing() -> None:
    rows = player_rows(
        "1", [("1", "", "A, A", "", "", ("X0",)), ("2", "", "B, B", "", "", ("F0",))]
    )
    one = [SECTION_ROWS[0] | {"S_TOT_RNDS": "1"}]
    section, problems = read_zip(report(EVENT_ROW | {"H_TOT_SECT": "1"}, one, rows))
    assert problems == [] and section is not None
    assert [(p.rounds[0].kind, p.rounds[0].opponent) for p in section.players] == [
        (K.FORFEIT_WIN, None),
        (K.FORFEIT_LOSS, None),
    ]


def test_the_same_event_as_trf_gives_the_same_tiebreaks() -> None:
    dbf, problems = read_uschess_dbf(
        DATA / "TDEXPORT.DBF", (DATA / "TDEXPORT.DBF").read_bytes(), "Open"
    )
    trf, trf_problems = read_trf(
        DATA / "prairie-fall-open.trf", (DATA / "prairie-fall-open.trf").read_bytes()
    )
    assert problems == [] and trf_problems == [] and dbf is not None and trf is not None
    assert [(p.start_no, p.points, [r.kind for r in p.rounds]) for p in dbf.players] == [
        (p.start_no, p.points, [r.kind for r in p.rounds]) for p in trf.players
    ]
    for rules, codes in (
        (Rules.FIDE_2024, ("BH", "SB", "ARO")),
        (Rules.US_CHESS, ("MM", "SOLK", "CUM")),
    ):
        table_of = rules_table(rules)
        for code in codes:
            spec = parse(code, rules)[0]
            assert table_of[code](Context(dbf, rules), spec) == table_of[code](
                Context(trf, rules), spec
            ), code


# --- the forms of a report and the choice of a section -------------------------------------


@pytest.mark.parametrize("folder", ["", "Fall Swiss/"])
def test_a_zip_of_the_three_tables_reads_as_the_folder_does(folder: str) -> None:
    lower = {name.lower(): data for name, data in report().items()}
    section, problems = read_uschess_dbf(Path("fall.zip"), zipped(lower, folder), "Side game")
    assert problems == [] and section is not None
    assert section.name == "Prairie Fall Swiss: Side game"
    assert [p.points for p in section.players] == [1, 0]


def test_the_three_files_are_found_in_any_case(tmp_path: Path) -> None:
    names = {"THEXPORT.DBF": "thexport.dbf", "TSEXPORT.DBF": "Tsexport.Dbf"}
    path = write(tmp_path, report(), names)
    sections, problems = sections_of(path, "Open", "Side game")
    assert problems == [] and len(sections) == 2


def test_a_missing_sibling_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, report())
    (tmp_path / "TSEXPORT.DBF").unlink()
    section, problems = read_uschess_dbf(path, path.read_bytes(), "Open")
    assert section is None
    assert errors(problems) == [
        f"{path}: no TSEXPORT.DBF beside TDEXPORT.DBF in {tmp_path}: a US Chess report is the "
        "three files THEXPORT.DBF, TSEXPORT.DBF, TDEXPORT.DBF in one folder (or a zip of them)"
    ]


def test_a_sibling_linking_out_of_the_folder_is_not_read(tmp_path: Path) -> None:
    outside, inside = tmp_path / "outside", tmp_path / "report"
    outside.mkdir()
    inside.mkdir()
    tables = report()
    path = write(
        inside, {"TDEXPORT.DBF": tables["TDEXPORT.DBF"], "TSEXPORT.DBF": tables["TSEXPORT.DBF"]}
    )
    (outside / "THEXPORT.DBF").write_bytes(tables["THEXPORT.DBF"])
    os.symlink(outside / "THEXPORT.DBF", inside / "THEXPORT.DBF")
    section, problems = read_uschess_dbf(path, path.read_bytes(), "Open")
    assert section is None and "not a plain file of its folder" in errors(problems)[0]


def test_a_zip_without_one_table_says_which() -> None:
    tables = report()
    del tables["THEXPORT.DBF"]
    section, problems = read_zip(tables)
    assert section is None and problems == [
        "fall.zip: the zip has no THEXPORT.DBF: a US Chess report is the three files "
        "THEXPORT.DBF, TSEXPORT.DBF, TDEXPORT.DBF; zip all three"
    ]


def test_a_zip_bomb_is_refused_from_its_headers() -> None:
    tables = report()
    tables["TDEXPORT.DBF"] = tables["TDEXPORT.DBF"] + bytes(dbase.TABLE_LIMIT)
    section, problems = read_zip(tables)
    assert section is None and "unzips to more than" in problems[0]


def test_a_report_of_several_sections_needs_a_name() -> None:
    section, problems = read_zip(report(), None)
    assert section is None
    assert "the report holds 2 sections (1 'Open', 2 'Side game')" in problems[0]
    section, problems = read_zip(report(), "Reserve")
    assert section is None
    assert problems == [
        "fall.zip!TSEXPORT.DBF: the report has no section 'Reserve'; its "
        "sections are 1 'Open', 2 'Side game'"
    ]


def test_a_report_of_one_section_needs_no_name() -> None:
    one = report(EVENT_ROW | {"H_TOT_SECT": "1"}, SECTION_ROWS[:1], player_rows("1", OPEN))
    section, problems = read_zip(one, None)
    assert problems == [] and section is not None and section.size == 6


@pytest.mark.parametrize(
    ("suffix", "head", "expected"),
    [
        (".dbf", report()["TDEXPORT.DBF"][:4096], True),
        (".dbf", report()["THEXPORT.DBF"][:4096], True),
        (".zip", zipped(report())[:4096], True),
        (".zip", zipped({"list.txt": b"x"})[:4096], False),
        (".dbf", b"\x03" + bytes(40), False),
        (".trf", report()["TDEXPORT.DBF"][:4096], False),
    ],
)
def test_recognise(suffix: str, head: bytes, expected: bool) -> None:
    assert recognise(suffix, head) is expected


# --- hostile tables: each refused with a located problem -----------------------------------


def damaged(change: Callable[[bytearray], bytes | bytearray]) -> list[str]:
    """The problems of TDEXPORT.DBF changed by ``change``."""
    tables = report()
    tables["TDEXPORT.DBF"] = bytes(change(bytearray(tables["TDEXPORT.DBF"])))
    section, problems = read_zip(tables)
    assert section is None
    return problems


HEADER_LENGTH = 32 + 32 * 11 + 1
RECORD_LENGTH = 1 + 62 + 4 * 7


def test_a_truncated_record_is_an_error() -> None:
    problems = damaged(lambda data: data[: HEADER_LENGTH + 7 * RECORD_LENGTH + 20])
    assert problems == [
        "fall.zip!TDEXPORT.DBF:8: truncated: the header declares 8 records of 91 bytes but the "
        "file ends 71 bytes short, in record 8 (copy or export the report again from the "
        "pairing program)"
    ]


def test_a_record_count_past_the_data_is_an_error() -> None:
    problems = damaged(lambda data: data[:4] + struct.pack("<I", 9) + data[8:])
    assert problems[0].startswith("fall.zip!TDEXPORT.DBF:9: truncated: the header declares 9")


def test_records_past_the_declared_count_are_an_error() -> None:
    problems = damaged(lambda data: data[:4] + struct.pack("<I", 7) + data[8:])
    assert problems[0].startswith("fall.zip!TDEXPORT.DBF:8: 92 bytes follow the 7 records")


def test_a_huge_record_count_is_refused_before_any_work() -> None:
    problems = damaged(lambda data: data[:4] + struct.pack("<I", 2**32 - 1) + data[8:])
    assert "more than 200,000" in problems[0]


@pytest.mark.parametrize("version", [0x00, 0x30, 0x83, 0x8B, ord("P")])
def test_a_wrong_version_byte_is_an_error(version: int) -> None:
    problems = damaged(lambda data: bytes([version]) + data[1:])
    assert problems == [
        f"fall.zip!TDEXPORT.DBF: version byte 0x{version:02X}: not a dBase III table without "
        "memo (0x03), as every US Chess report is (export the report again from the pairing "
        "program)"
    ]


def test_a_field_wider_than_any_report_field_is_an_error() -> None:
    def widen(data: bytearray) -> bytearray:
        data[32 + 4 * 32 + 17] = 2  # D_NAME: 30 + 2 * 256 bytes by the Clipper convention
        return data

    problems = damaged(widen)
    assert problems[0] == (
        "fall.zip!TDEXPORT.DBF: field D_NAME is 542 bytes wide; a US Chess field has 1 to 255: "
        "the header is damaged (export the report again from the pairing program)"
    )
    # A dBase field is at most 65,535 bytes (the header's record length is 16 bits), far
    # below FIELD_LIMIT: the bound that matters is the report's own widest field.
    assert dbase.MAX_WIDTH < 65_536 < FIELD_LIMIT


def test_a_record_length_that_disagrees_with_the_fields_is_an_error() -> None:
    problems = damaged(lambda data: data[:10] + struct.pack("<H", 90) + data[12:])
    assert "record length in the header (90, bytes 11-12) differs" in problems[0]


def test_a_header_without_its_terminator_is_an_error() -> None:
    problems = damaged(lambda data: data[: HEADER_LENGTH - 1] + b" " + data[HEADER_LENGTH:])
    assert "field descriptor 12" in problems[0] or "without the byte 0x0D" in problems[0]


def test_a_misaligned_record_is_an_error_at_its_number() -> None:
    def shift(data: bytearray) -> bytearray:
        data[HEADER_LENGTH + 2 * RECORD_LENGTH] = ord("X")
        return data

    assert damaged(shift)[0].startswith("fall.zip!TDEXPORT.DBF:3: record 3 starts with byte 0x58")


def test_a_file_too_short_for_a_header() -> None:
    assert "only 10 bytes" in damaged(lambda data: data[:10])[0]


def test_a_name_past_ascii_is_read_as_windows_1252_with_a_warning() -> None:
    pair, member, _, state, rating, cells = OPEN[0]
    rows = player_rows("1", [(pair, member, "MÜLLER, ANN", state, rating, cells), *OPEN[1:]])
    one = report(EVENT_ROW | {"H_TOT_SECT": "1"}, SECTION_ROWS[:1], rows)
    section, problems = read_zip(one)
    assert section is not None and section.player(1).name == "MÜLLER, ANN"
    assert problems == [
        "fall.zip!TDEXPORT.DBF:1:28: warning: D_NAME holds bytes past ASCII, read as "
        "Windows-1252 (the report declares no code page): 'MÜLLER, ANN'; if it reads wrong, "
        "correct it in the pairing program"
    ]


def test_a_byte_that_is_no_letter_in_windows_1252_is_an_error() -> None:
    def garble(data: bytearray) -> bytearray:
        data[HEADER_LENGTH + 27] = 0x81
        return data

    assert damaged(garble) == [
        "fall.zip!TDEXPORT.DBF:1:28: D_NAME holds byte 0x81, which is no letter in Windows-1252 "
        "(nor in ASCII): correct the text in the pairing program and export the report again"
    ]


def test_a_control_character_is_an_error() -> None:
    def garble(data: bytearray) -> bytearray:
        data[HEADER_LENGTH + 28] = 0x07
        return data

    assert "control character 0x07" in damaged(garble)[0]


# --- round cells ----------------------------------------------------------------------------


def with_cell(start_no: int, round_no: int, cell: str) -> tuple[Section | None, list[str]]:
    players = list(OPEN)
    pair, member, name, state, rating, cells = players[start_no - 1]
    changed = list(cells)
    changed[round_no - 1] = cell
    players[start_no - 1] = (pair, member, name, state, rating, tuple(changed))
    rows = player_rows("1", players)
    return read_zip(report(EVENT_ROW | {"H_TOT_SECT": "1"}, SECTION_ROWS[:1], rows))


def test_an_unknown_code_is_located_at_its_cell() -> None:
    _section, problems = with_cell(2, 3, "Q1B")
    assert errors_of(problems) == [
        "fall.zip!TDEXPORT.DBF:2:78: round 3 reads 'Q1B': expected a result code (W L D X F B H "
        "Z U), the opponent's pairing number and a colour W or B for a game, e.g. W14B, D7W, H0"
    ]


def errors_of(problems: list[str]) -> list[str]:
    return [p for p in problems if ": warning: " not in p]


def test_spaces_inside_a_cell_are_left_out() -> None:
    section, problems = with_cell(1, 1, "W   4W")
    assert problems == [] and section is not None
    assert section.player(1).rounds[0].opponent == 4


def test_a_game_without_an_opponent_is_an_error() -> None:
    _, problems = with_cell(1, 1, "W0W")
    assert "a game needs the opponent's pairing number" in errors_of(problems)[0]


def test_a_pairing_that_is_not_mirrored_is_an_error() -> None:
    _, problems = with_cell(1, 1, "W5W")
    assert any("pairing not mirrored" in p for p in errors_of(problems))


def test_results_that_do_not_match_are_an_error() -> None:
    _, problems = with_cell(4, 1, "W1B")
    assert any("results do not match in round 1" in p for p in errors_of(problems))


def test_a_result_past_the_section_rounds_is_an_error() -> None:
    rows = player_rows(
        "2", [("1", "", "A, A", "", "", ("W2B", "W2B")), ("2", "", "B, B", "", "", ("L1W",))]
    )
    _section, problems = read_zip(
        report(EVENT_ROW | {"H_TOT_SECT": "1"}, SECTION_ROWS[1:], rows), None
    )
    assert errors_of(problems) == [
        "fall.zip!TDEXPORT.DBF:1:71: D_RND02 holds 'W2B' but section 2 'Side game' has 1 "
        "rounds (S_TOT_RNDS): correct S_TOT_RNDS, or the cell to U0"
    ]


def test_a_double_game_section_is_refused() -> None:
    section, problems = with_cell(1, 1, "$4W")
    assert section is None
    assert errors_of(problems) == [
        "fall.zip!TDEXPORT.DBF:1:64: section 1 'Open' is a double-game section (S_TRN_TYPE '2', "
        "or cells $ # %: two games a round), which grandprix does not read; report each game "
        "as its own round"
    ]


def test_a_legacy_report_is_refused_with_its_reason() -> None:
    legacy = [
        ("D_EVENT_ID", 9),
        ("D_SEC_NUM", 2),
        ("D_PAIR_NUM", 4),
        ("D_REC_SEQ", 1),
        ("D_MEM_ID", 8),
        *((f"D_RND{n:02d}", 5) for n in range(1, 11)),
    ]
    rows = [dict(D_SEC_NUM=" 1", D_PAIR_NUM="1", D_REC_SEQ="1", D_MEM_ID="90000011")]
    section, problems = read_zip(report(players=rows, details=legacy))
    assert section is None and "legacy layout" in problems[0]


def test_a_player_of_an_unknown_section_is_an_error() -> None:
    rows = player_rows("1", OPEN) + player_rows("3", SIDE)
    section, problems = read_zip(report(players=rows))
    assert section is None and problems[0].startswith(
        "fall.zip!TDEXPORT.DBF:7:14: section number '3' is none of TSEXPORT's sections (1, 2)"
    )


def test_a_bad_id_and_rating_are_located() -> None:
    players = [("1", "9000A011", "ALPHA, ANN", "", "20x0", OPEN[0][5]), *OPEN[1:]]
    rows = player_rows("1", players)
    _section, problems = read_zip(report(EVENT_ROW | {"H_TOT_SECT": "1"}, SECTION_ROWS[:1], rows))
    assert [p.split(": ")[0] for p in problems] == [
        "fall.zip!TDEXPORT.DBF:1:20",
        "fall.zip!TDEXPORT.DBF:1:60",
    ]


def test_read_table_reads_deleted_records_as_absent() -> None:
    data = bytearray(table(S, SECTION_ROWS))
    data[32 + 32 * 16 + 1] = ord("*")
    problems: list[Problem] = []
    read = read_table("TSEXPORT.DBF", bytes(data), problems)
    assert problems == [] and read is not None
    assert [number for number, _ in read.records] == [2]


# --- in a season ------------------------------------------------------------------------


def test_a_season_reads_each_section_of_a_report_by_its_name(tmp_path: Path) -> None:
    """The report's two sections as two events of a season (a player of both, ALPHA, ANN,
    plays the side game too), each [[events.sections]] entry naming the section it reads:
    both are read; listing one of them again is the results listed twice."""
    from grandprix.season.config import load_season
    from seasons import season_toml, write_season

    def event(name: str, date: str, section: str) -> str:
        return (
            f'[[events]]\nname = "{name}"\ndate = {date}\n[[events.sections]]\n'
            f'name = "{section}"\nresults = "fall.zip"\n'
        )

    main, side = (
        event("Prairie Fall", "2012-10-01", "Open"),
        event("Side", "2012-10-02", "Side game"),
    )
    rules = '[rules]\npreset = "utah-2012"\neligibility = { require = {} }'
    for folder in (tmp_path / "ok", tmp_path / "twice"):
        folder.mkdir()
        (folder / "fall.zip").write_bytes(zipped(report()))
    season, problems = load_season(
        write_season(tmp_path / "ok", season_toml(rules, main, side), {})
    )
    assert season is not None, [str(p) for p in problems]
    read = [(s.name, s.section.size) for e in season.events for s in e.sections]
    assert read == [("Open", 6), ("Side game", 2)]
    again = event("Again", "2012-11-01", "Open")
    toml = season_toml(rules, main, side, again)
    season, problems = load_season(write_season(tmp_path / "twice", toml, {}))
    assert season is None
    assert any("is listed twice" in str(p) for p in problems), [str(p) for p in problems]


def test_a_change_to_a_sibling_table_alone_is_read(tmp_path: Path) -> None:
    """TDEXPORT.DBF read with its two siblings is never kept by its bytes alone: a section
    renamed in TSEXPORT.DBF is read as renamed."""
    from grandprix.readers import load_section

    path = write(tmp_path, report())
    first, _ = load_section(path, "uschess-dbf", part="Open")
    renamed = [
        row | {"S_SEC_NAME": "Championship"} if row["S_SEC_NUM"] == "1" else row
        for row in SECTION_ROWS
    ]
    write(tmp_path, report(sections=renamed))
    second, problems = load_section(path, "uschess-dbf", part="Championship")
    assert first is not None and second is not None, problems
    assert "Championship" in second.name and "Championship" not in first.name

"""Standings CSV: events known only by their final scores."""

from __future__ import annotations

import shutil
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES
from grandprix.model import (
    ListedSection,
    Location,
    Player,
    Problem,
    Section,
    Severity,
    columns_of,
)
from grandprix.placings import place
from grandprix.readers import load_section
from grandprix.readers.standings_csv import _Header, _read_columns, _read_rows, read_standings_csv
from grandprix.readers.text import decode
from grandprix.season.config import load_season
from grandprix.season.standings import standings


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


LIST = (
    "rank,name,id,points,rating,title,federation,birth_date,sex,start_rank,played,club\n"
    "1,Ann Able,111,4.5,2100,FM,USA,1990-01-02,F,2,5,North\n"
    "2-3,Bob Baker,,3½,0,,CAN,,m,1,4,\n"
    "2-3,Cy Cole,333,3.5,,,,,,3,5,South\n"
)


def records_made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a standings list makes its ``Player`` records."""
    from grandprix import model

    made: list[int] = []
    make = model._listed_players

    def counted(*args: Any) -> tuple[Player, ...]:
        made.append(1)
        return make(*args)

    monkeypatch.setattr(model, "_listed_players", counted)
    return made


def test_a_list_is_read_as_columns_and_its_records_made_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = records_made(monkeypatch)
    section, problems = read_standings_csv("list.csv", LIST.encode())
    assert problems == [] and isinstance(section, ListedSection)
    assert section.size == 3 and section.rounds == 5
    assert section.columns.name == ("Ann Able", "Bob Baker", "Cy Cole")
    assert section.columns.points == (Fraction(9, 2), Fraction(7, 2), Fraction(7, 2))
    assert section.columns.played == (5, 4, 5) and section.columns.line == (2, 3, 4)
    expected = (
        Player(
            2,
            "Ann Able",
            rating=2100,
            title="FM",
            sex="f",
            federation="USA",
            fide_id="111",
            birth_date="1990-01-02",
            declared_points=Fraction(9, 2),
            declared_rank="1",
            declared_played=5,
            extra=(("club", "North"),),
        ),
        Player(
            1,
            "Bob Baker",
            rating=None,
            sex="m",
            federation="CAN",
            declared_points=Fraction(7, 2),
            declared_rank="2-3",
            declared_played=4,
            extra=(("club", ""),),
        ),
        Player(
            3,
            "Cy Cole",
            fide_id="333",
            declared_points=Fraction(7, 2),
            declared_rank="2-3",
            declared_played=5,
            extra=(("club", "South"),),
        ),
    )
    assert made == []
    players = section.players
    assert made == [1] and players == expected and section.players is players
    assert [p.location for p in players] == [Location("list.csv", n) for n in (2, 3, 4)]
    assert columns_of(players) == section.columns
    assert [section.columns.record(i) for i in range(3)] == [
        replace(p, declared_played=None) for p in expected
    ]
    # Equal to (and hashed as) the Section of the same records, whichever side asks.
    plain = Section(name="list", players=players, rounds=5, has_crosstable=False)
    assert section == plain and plain == section and hash(section) == hash(plain)
    assert replace(section, name="other").players == players


def test_without_a_played_column_the_records_say_none() -> None:
    section, _ = read_standings_csv("s.csv", b"name,points\nA,1\n")
    assert section is not None and section.rounds == 0
    assert section.players[0].declared_played is None and section.columns.played == (0,)


def test_a_season_of_lists_is_computed_without_player_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandprix import readers
    from grandprix.runtime.files import FileCache

    monkeypatch.setattr(readers, "_SECTIONS", FileCache())  # none read by another test
    made = records_made(monkeypatch)
    folder = shutil.copytree(EXAMPLES.parent / "utah-2012", tmp_path / "season")
    season, problems = load_season(folder)
    assert season is not None and not [p for p in problems if p.severity is Severity.ERROR]
    lists = [s.section for e in season.events for s in e.sections]
    lists = [s for s in lists if isinstance(s, ListedSection)]
    assert len(lists) >= 4
    assert standings(season)
    assert made == []


_CELLS = {
    "rank": ["1", "2-3", "003", "0", "x", "", " 4 ", "2 - 3"],
    "name": ["Ann", " Bob ", "", "Cy Cole", "Ann"],
    "id": ["", "111", "222", " 111", "0"],
    "points": ["4.5", "3½", "3,5", "-1", "1001", "", "x", "0"],
    "rating": ["", "2100", "0", "12345", "abc"],
    "sex": ["", "F", "m "],
    "start_rank": ["1", "2", "0", "", "001", "x"],
    "played": ["0", "5", "", "1001", "07"],
    "club": ["", "North", " South "],
}


@settings(max_examples=300, deadline=None)
@given(
    header=st.lists(st.sampled_from(sorted(_CELLS)), unique=True, min_size=2, max_size=9),
    picks=st.lists(st.lists(st.integers(0, 7), min_size=9, max_size=9), max_size=6),
)
def test_the_column_reader_agrees_with_the_row_reader(
    header: list[str], picks: list[list[int]]
) -> None:
    """Whenever the fast reader reads a list, the row-by-row reader reads the same columns
    without a problem; and a list the row reader reads cleanly is never left to it."""
    if "name" not in header or "points" not in header:
        return
    columns = _Header(header)
    body = [
        [
            _CELLS[key][k % len(_CELLS[key])]
            for key, k in zip(header, row[: len(header)], strict=True)
        ]
        for row in picks
    ]
    fast = _read_columns("s.csv", columns, list(zip(*body, strict=True))) if body else None
    problems: list[Problem] = []
    slow = _read_rows("s.csv", columns, body, problems)
    if fast is not None:
        assert problems == [] and fast.columns == slow.columns and fast == slow
        assert fast.players == slow.players and fast.rounds == slow.rounds
    elif body:
        assert problems


@settings(max_examples=200, deadline=None)
@given(
    header=st.lists(st.sampled_from(sorted(_CELLS)), unique=True, min_size=2, max_size=9),
    picks=st.lists(  # clean cells (the first two of each column) two times in three
        st.lists(st.one_of(st.just(0), st.just(1), st.integers(0, 7)), min_size=9, max_size=9),
        max_size=6,
    ),
    blank=st.integers(0, 7),
)
def test_a_list_split_at_its_commas_reads_as_the_csv_module_reads_it(
    header: list[str], picks: list[list[int]], blank: int
) -> None:
    """A file without quotes is split at its commas; the same file with a quoted cell goes
    through the csv module: the same section and the same problems, blank lines and all."""
    lines = [",".join(header)]
    for row in picks:
        cells = [
            _CELLS[key][k % len(_CELLS[key])].replace(",", ".")
            for key, k in zip(header, row[: len(header)], strict=True)
        ]
        lines.append(",".join(cells))
    if blank < len(lines) - 1:
        lines.insert(blank + 1, "")
    plain = "\n".join(lines) + "\n"
    quoted = plain.replace(header[0], f'"{header[0]}"', 1)
    split, split_problems = read_standings_csv("s.csv", plain.encode())
    parsed, parsed_problems = read_standings_csv("s.csv", quoted.encode())
    assert split_problems == parsed_problems
    assert split == parsed
    if split is not None and parsed is not None:
        assert split.columns == parsed.columns and split.players == parsed.players


def test_a_row_with_a_cell_too_many_beside_one_short_is_still_reported() -> None:
    """Split at every comma, these two rows would make two whole rows of three cells: each
    line is counted, so each is reported."""
    section, problems = read("name,points,club\nAnn,4.5,North,Bob\n3,South\n")
    assert isinstance(section, Section) and section.size == 0
    assert problems == [
        "s.csv:2:1: row has 4 fields but the header has 3 (check for a missing or extra separator)",
        "s.csv:3:1: row has 2 fields but the header has 3 (check for a missing or extra separator)",
    ]


def test_a_clean_list_is_read_by_columns_as_the_rows_would_be() -> None:
    rows = [line.split(",") for line in LIST.splitlines()]
    columns = _Header(rows[0])
    fast = _read_columns("list.csv", columns, list(zip(*rows[1:], strict=True)))
    problems: list[Problem] = []
    assert fast is not None and fast == _read_rows("list.csv", columns, rows[1:], problems)
    assert problems == [] and fast.columns == _read_rows("list.csv", columns, rows[1:], []).columns


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60).map(lambda b: bytes(c & 0x7F for c in b)))
def test_plain_ascii_is_split_as_the_general_decoder_splits_it(data: bytes) -> None:
    """ASCII text without control characters is split at once; the general decoder (taken
    here through a UTF-8 byte-order mark) gives the same lines and the same problems."""
    assert decode(data, "f.csv") == decode(b"\xef\xbb\xbf" + data, "f.csv")


def test_lists_of_one_size_share_the_columns_they_do_not_have() -> None:
    """A column a file lacks (title, rating, seeds, ...) is one tuple for every list of that
    size: a season of 10,000 lists does not hold 70,000 copies of blanks."""
    one, _ = read("rank,name,points\n1,Ann,2\n2,Bob,1\n")
    two, _ = read("name,points,id\nCy,2,7\nDee,1,8\n")
    assert isinstance(one, ListedSection) and isinstance(two, ListedSection)
    for field in ("title", "sex", "federation", "birth_date", "extra", "rating", "played"):
        assert getattr(one.columns, field) is getattr(two.columns, field), field
    assert one.columns.start_no is two.columns.start_no == (1, 2)
    assert one.columns.line is two.columns.line == (2, 3)
    assert one.columns.title == ("", "") and one.columns.rating == (None, None)

"""A season's awards kept as columns (``AwardRows``): the standings make no record per award, and
the records made when a page asks are the rows' own, one object per row."""

from __future__ import annotations

import dataclasses
import operator
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT
from grandprix.players import PlayerKey
from grandprix.readers import load_section
from grandprix.season.config import load_season
from grandprix.season.model import Award, AwardRows, Held, Line, Tables, section_awards
from grandprix.season.standings import division_standings, rerank, standings
from seasons import event, load, season_toml, write_season


def tables(name: str, tmp_path: Path) -> Tables:
    folder = shutil.copytree(ROOT / "examples" / name, tmp_path / name)  # not cached
    season, problems = load_season(folder)
    assert season is not None, problems
    return division_standings(season)


def rows_of(table: AwardRows, row: int) -> tuple[object, ...]:
    return tuple(getattr(table, column)[row] for column in Award._fields)


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004", "lupiae-2012-13", "circuit-2026"])
def test_the_standings_make_no_award_record_until_one_is_asked(name: str, tmp_path: Path) -> None:
    found = tables(name, tmp_path)
    lines = [line for _, table in found for line in table]
    assert lines
    held = {id(line.held.table): line.held.table for line in lines}.values()
    assert not any(table._made for table in held)  # ranked from the columns alone
    for line in lines:
        table = line.held.table
        awards = line.awards
        assert awards is line.awards  # made once for the line
        assert [tuple(a) for a in awards] == [rows_of(table, r) for r in line.held.rows]
        assert all(table.award(r) is a for r, a in zip(line.held.rows, awards, strict=True))
        counted = {id(a) for a in line.counted}
        assert counted <= {id(a) for a in awards}  # the counted are the line's own records
        assert sorted(map(id, (*line.counted, *line.dropped))) == sorted(map(id, awards))
        results = line.results()
        assert [a for a, _ in results] == list(awards)
        assert [a for a, yes in results if yes] == [a for a in awards if id(a) in counted]
        assert line.held.counted_number == len(line.counted)


def test_some_line_drops_a_result_where_the_best_count(tmp_path: Path) -> None:
    lines = [line for _, table in tables("acf-2004", tmp_path) for line in table]
    dropping = [line for line in lines if line.dropped]
    assert dropping  # ACF-14: the best results count, so the test above saw rows dropped
    line = dropping[0]
    assert line.held.counted_rows is not None
    assert not set(line.held.counted_rows) & set(line.held.dropped_rows)


def test_rows_added_from_records_and_joined_keep_every_field(tmp_path: Path) -> None:
    lines = [line for _, table in tables("utah-2012", tmp_path) for line in table]
    awards = [a for line in lines for a in line.awards]
    assert any(a.overall for a in awards)  # D-UT-1 moved someone up: the field is kept too
    first, second = AwardRows(), AwardRows()
    half = len(awards) // 2
    for award in awards[:half]:
        first.add(award)
    for award in awards[half:]:
        second.add(award)
    first.extend(second)
    assert len(first) == len(awards)
    assert [first.award(r) for r in range(len(first))] == awards


def test_lines_are_equal_when_their_awards_are(tmp_path: Path) -> None:
    lines = [line for _, table in tables("utah-2012", tmp_path) for line in table]
    line = max(lines, key=lambda ln: len(ln.awards))
    copy = AwardRows()
    for award in reversed(line.awards):  # other rows, other table
        copy.add(award)
    rows = tuple(reversed(range(len(copy))))
    assert Held(copy, rows) == line.held and hash(Held(copy, rows)) == hash(line.held)
    assert Held(copy, rows[1:]) != line.held


def test_two_rows_of_one_person_in_an_event_are_one_event(tmp_path: Path) -> None:
    """A row without an id takes the id its name has elsewhere (``Directory``): the person then
    has two rows in event A. The season refuses such a file (one person cannot take two places
    in an event); the award table still counts A once among the person's events, for a
    section whose rows it is given."""
    first = "rank,name,id,points\n1,Ann Lee,111,3\n2,Bob Roe,222,2\n3,Ann Lee,,1\n"
    second = "rank,name,id,points\n1,Ann Lee,111,3\n2,Bob Roe,222,2\n"
    files = {"a.csv": first.replace("Ann Lee,,1", "Cy Doe,,1"), "b.csv": second}
    folder = write_season(
        tmp_path,
        season_toml(
            'rules = "acf-2004"',
            event("A", "a.csv", extra="prize_fund = 1"),
            event("B", "b.csv", date="2012-07-01", extra="prize_fund = 1"),
        ),
        files,
    )
    season = load(folder)
    (folder / "doubled.csv").write_text(first)
    assert load_season(folder)[0] is not None
    (folder / "a.csv").write_text(first)
    assert load_season(folder)[0] is None  # refused: Ann Lee twice in A
    doubled, problems = load_section(folder / "doubled.csv")
    assert doubled is not None and not problems
    a, *rest = season.events
    a = dataclasses.replace(a, sections=(dataclasses.replace(a.sections[0], section=doubled),))
    found = {line.name: line for line in standings(dataclasses.replace(season, events=(a, *rest)))}
    ann = found["Ann Lee"]
    assert len(ann.awards) == 3
    assert ann.events == 2 and found["Bob Roe"].events == 2
    assert ann.held.table.repeats


@pytest.mark.parametrize("name", ["utah-2012", "lupiae-2012-13", "acf-2004"])
def test_a_tables_awards_by_section_are_those_of_its_lines(name: str, tmp_path: Path) -> None:
    """``section_awards`` reads runs of rows; the same as each line's awards looked up one by
    one, for a table of every row and for a division that filters the overall lines."""
    found = tables(name, tmp_path)
    partial = [
        sum(len(ln.held.rows) for ln in lines) < len(lines[0].held.table)
        for _, lines in found
        if lines
    ]
    assert any(partial) == (name == "lupiae-2012-13")  # only there a division holds part of a table
    for _, lines in found:
        expected: dict[tuple[int, str], dict[PlayerKey, Award]] = {}
        for line in lines:
            for a in line.awards:
                expected.setdefault((a.event, a.section), {})[a.player] = a
        got: dict[tuple[int, str], dict[PlayerKey, Award]] = {}
        for origin, awards in section_awards(lines):
            assert (origin.event, origin.section) not in got  # one run a section
            got[origin.event, origin.section] = awards
        assert got == expected
        assert all(a is line_award for a, line_award in _pairs(got, lines))


def _pairs(
    got: dict[tuple[int, str], dict[PlayerKey, Award]], lines: list[Line]
) -> list[tuple[Award, Award]]:
    return [(got[a.event, a.section][a.player], a) for line in lines for a in line.awards]


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004"])
def test_the_table_on_a_date_is_the_same_from_rows_in_any_order(name: str, tmp_path: Path) -> None:
    """``rerank`` takes each line's first rows when the table is in the calendar's order and
    reads every row's date otherwise: both give the table as it stood on the date."""
    season = load(shutil.copytree(ROOT / "examples" / name, tmp_path / name))
    lines = division_standings(season)[0][1]
    table = lines[0].held.table
    assert all(map(operator.le, (o.date for o in table.origin), (o.date for o in table.origin[1:])))
    reversed_rows = AwardRows()  # the same awards, the last event's first
    for row in reversed(range(len(table))):
        reversed_rows.add(table.award(row))
    last_row = len(table) - 1
    moved = [
        dataclasses.replace(
            line, held=Held(reversed_rows, sorted(last_row - r for r in line.held.rows))
        )
        for line in lines
    ]
    played = sorted({o.date for o in table.origin})
    for as_of in (played[0], played[len(played) // 2], played[-1]):
        last = max(o.event for o in table.origin if o.date <= as_of)
        counting = season.rules.counting
        calendar = len(season.events)
        direct = rerank(lines, season.rules, calendar, counting, as_of, last)
        other = rerank(moved, season.rules, calendar, counting, as_of, last)
        assert direct
        assert [(ln.player, ln.rank, ln.total, ln.events) for ln in direct] == [
            (ln.player, ln.rank, ln.total, ln.events) for ln in other
        ]
        assert sorted(map(tuple, (sorted(ln.awards) for ln in direct))) == sorted(
            map(tuple, (sorted(ln.awards) for ln in other))
        )


def test_threads_asking_for_the_same_rows_get_equal_records(tmp_path: Path) -> None:
    """The server renders pages in several threads: a row's record is the same whichever thread
    made it, and which results count does not depend on which record a page holds."""
    lines = [line for _, table in tables("acf-2004", tmp_path) for line in table]
    source = lines[0].held.table
    rows = [source.award(r) for r in range(len(source))] * 40
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        for _ in range(5):
            made = _asked_by_threads(rows)
            assert all(seen == made[0] == rows for seen in made)
    finally:
        sys.setswitchinterval(before)
    dropping = next(line for line in lines if line.dropped)
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: dropping.results(), range(8)))
    assert all(found == seen[0] for found in seen)
    assert [a for a, yes in seen[0] if not yes] == list(dropping.dropped)


def _asked_by_threads(awards: list[Award]) -> list[list[Award]]:
    """A new table of ``awards``, every row's record asked by eight threads at once."""
    table = AwardRows()
    for award in awards:
        table.add(award)
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda _: [table.award(r) for r in range(len(table))], range(8)))

"""Standings lists compared as a season read again compares them: by their columns, without
making a record per player, and equal to the section of the same players all the same."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from grandprix.model import ListedSection, Section
from grandprix.readers import load_section

TEXT = "rank,name,id,points\n1,Ann Lee,1,3\n2,Bo Chan,2,2\n3,Cy Dorr,3,1\n"


def read(folder: Path, name: str, text: str = TEXT) -> ListedSection:
    """The list ``name`` written in ``folder`` and read (a file read once while unchanged)."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    section, problems = load_section(path)
    assert isinstance(section, ListedSection) and not problems
    return section


def test_the_same_list_read_twice_is_equal_without_its_records_made(tmp_path: Path) -> None:
    one, two = read(tmp_path / "x", "a.csv"), read(tmp_path / "y", "a.csv")
    assert one is not two and one == two
    assert one.__dict__["_players"] is None and two.__dict__["_players"] is None


def test_lists_that_differ_are_not_equal_and_a_section_of_the_same_players_is(
    tmp_path: Path,
) -> None:
    one = read(tmp_path / "x", "a.csv")
    other = read(tmp_path / "y", "a.csv", TEXT.replace("Bo Chan", "Bo Chen"))
    assert one != other
    fewer = read(tmp_path / "z", "a.csv", TEXT.replace("3,Cy Dorr,3,1\n", ""))
    assert one != fewer
    same = Section(one.name, one.players, rounds=one.rounds, has_crosstable=False)
    assert one == replace(same, source="elsewhere.csv") and one == same

"""Inputs that once changed the standings without a word now give a located error or warning:
a results file listed twice under another name, an id that players.csv names otherwise, ids
spelt differently, aliases.csv decisions that contradict through a chain, letters of another
script that look Latin, one person twice in one event, and characters that hide in a name.

A test of a season copies the utah-2012 example, makes one mistake in it and runs the command
line: ``check`` exits 1 on an error and 0 on a warning, ``standings`` exits 2 on an error and
computes through a warning (the example's own standings where the mistake changes nothing)."""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from grandprix.cli import main
from grandprix.model import Location
from grandprix.players import (
    PlayerKey,
    hidden_characters,
    look_alike_key,
    look_alikes,
    name_key,
    normal_id,
    shown,
)
from grandprix.season.checks import alias_contradictions
from grandprix.season.identity import Alias, same_names
from seasons import edit

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "utah-2012"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def cli(*args: str) -> Result:
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        gc.enable()  # main() pauses the cyclic collector for its one-shot process


def season(tmp_path: Path) -> Path:
    folder = tmp_path / "season"
    shutil.copytree(EXAMPLE, folder)
    return folder


def line_of(path: Path, text: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``path`` holding ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [i for i, line in enumerate(lines, start=1) if text in line][nth - 1]


def example_standings() -> str:
    result = cli("standings", str(EXAMPLE), "--format", "csv")
    assert result.exit_code == 0
    return result.stdout


def assert_refused(folder: Path, located: str, *phrases: str) -> None:
    """``check`` exits 1 and ``standings`` 2, both with the located message saying each phrase."""
    check = cli("check", str(folder))
    assert check.exit_code == 1, check.stdout
    standings = cli("standings", str(folder))
    assert standings.exit_code == 2 and standings.stdout == "", standings.stdout
    for output in (check.stdout, standings.stderr):
        lines = [line for line in output.splitlines() if f"{located}:" in line]
        assert lines, output
        for phrase in phrases:
            assert any(phrase in line for line in lines), (phrase, lines)


def assert_warned(folder: Path, located: str, *phrases: str) -> str:
    """``check`` exits 0 with a located warning saying each phrase, and ``standings`` computes
    with the same warning on stderr; its CSV is returned."""
    check = cli("check", str(folder))
    assert check.exit_code == 0, check.stdout
    standings = cli("standings", str(folder), "--format", "csv")
    assert standings.exit_code == 0, standings.stderr
    for output in (check.stdout, standings.stderr):
        lines = [ln for ln in output.splitlines() if f"{located}: warning:" in ln]
        assert lines, output
        for phrase in phrases:
            assert any(phrase in line for line in lines), (phrase, lines)
    return standings.stdout


# ---- A results file listed twice under another name ------------------------------------------


@pytest.mark.parametrize("other", ["blitz.csv", "DECEMBER_QUICK.CSV"], ids=["link", "case"])
def test_a_results_file_listed_again_under_another_name_is_an_error(
    tmp_path: Path, other: str
) -> None:
    """A hard link, or a spelling of the name that a case-insensitive file system takes for
    the same file (made here by a hard link: one file under both spellings)."""
    folder = season(tmp_path)
    os.link(folder / "december_quick.csv", folder / other)
    toml = folder / "season.toml"
    edit(toml, 'results = "new_year_blitz.csv"', f'results = "{other}"')
    first = line_of(toml, 'results = "december_quick.csv"')
    assert_refused(
        folder,
        f"season.toml:{line_of(toml, other)}",
        f"results file '{other}' of event 'New Year's Eve Blitz' is the same file as "
        f"'december_quick.csv' of event 'December Quick' (line {first}), under another name",
        "count twice",
        "remove one",
    )


def test_a_copy_of_a_results_file_for_another_event_is_a_warning(tmp_path: Path) -> None:
    """Two events may truly end alike (a small round robin of the same players): a warning
    naming both, and the standings count both."""
    folder = season(tmp_path)
    shutil.copy(folder / "december_quick.csv", folder / "blitz.csv")
    toml = folder / "season.toml"
    edit(toml, 'results = "new_year_blitz.csv"', 'results = "blitz.csv"')
    first = line_of(toml, 'results = "december_quick.csv"')
    out = assert_warned(
        folder,
        f"season.toml:{line_of(toml, 'blitz.csv')}",
        "results file 'blitz.csv' of event 'New Year's Eve Blitz' has the same contents as "
        f"'december_quick.csv' of event 'December Quick' (line {first}), byte for byte",
        "if it is a copy listed by mistake, its points count twice",
    )
    assert out != example_standings()


def test_a_copy_of_a_section_file_in_its_own_event_is_an_error(tmp_path: Path) -> None:
    folder = season(tmp_path)
    shutil.copy(folder / "class_a.csv", folder / "class_b_copy.csv")
    toml = folder / "season.toml"
    edit(toml, 'results = "class_b.csv"', 'results = "class_b_copy.csv"')
    assert_refused(
        folder,
        f"season.toml:{line_of(toml, 'class_b_copy.csv')}",
        "has the same contents as 'class_a.csv' of event 'Utah Class Championships'",
        "every player would be in the event twice",
    )


def test_a_results_file_of_the_same_players_and_size_but_other_points_is_no_copy(
    tmp_path: Path,
) -> None:
    folder = season(tmp_path)
    text = (folder / "december_quick.csv").read_text(encoding="utf-8")
    other = text.replace('"Cole, Jade",1216,1', '"Cole, Jade",1216,0')
    assert len(other) == len(text) and other != text
    (folder / "blitz.csv").write_text(other, encoding="utf-8")
    edit(folder / "season.toml", 'results = "new_year_blitz.csv"', 'results = "blitz.csv"')
    check = cli("check", str(folder))
    assert check.exit_code == 0 and "0 warning(s)" in check.stdout, check.stdout


def test_two_results_files_without_players_are_no_copies(tmp_path: Path) -> None:
    folder = season(tmp_path)
    for name in ("december_quick.csv", "new_year_blitz.csv"):
        (folder / name).write_text("rank,name,id,points\n", encoding="utf-8")
    check = cli("check", str(folder))
    assert check.exit_code == 0, check.stdout
    assert "same contents" not in check.stdout and "has no players" in check.stdout


# ---- An id that players.csv names otherwise --------------------------------------------------


def test_an_id_under_another_name_in_players_csv_is_a_warning_and_shows_players_csv_name(
    tmp_path: Path,
) -> None:
    folder = season(tmp_path)
    edit(folder / "players.csv", '1214,"Walsh, Milo"', '1214,"Zed, Zoe"')
    listed = line_of(folder / "players.csv", "Zed, Zoe")
    first = line_of(folder / "winter_quick.csv", "Walsh, Milo")
    out = assert_warned(
        folder,
        f"winter_quick.csv:{first}",
        "id '1214' is 'Walsh, Milo' here but 'Zed, Zoe' in ",
        f"players.csv:{listed} (field 'name')",
        "the standings show 'Zed, Zoe', players.csv's name",
        "correct the id",
    )
    assert '1,1214,"Zed, Zoe",76.83,8\n' in out
    assert out == example_standings().replace("Walsh, Milo", "Zed, Zoe")


@pytest.mark.parametrize(
    ("listed", "aliases"),
    [
        ("MILO walsh", ""),
        ("Walsh, Miles", 'name,other,decision\n"Walsh, Miles","Walsh, Milo",same\n'),
    ],
    ids=["name-key", "aliases"],
)
def test_an_id_under_a_matching_name_in_players_csv_is_no_warning(
    tmp_path: Path, listed: str, aliases: str
) -> None:
    folder = season(tmp_path)
    edit(folder / "players.csv", '1214,"Walsh, Milo"', f'1214,"{listed}"')
    if aliases:
        (folder / "aliases.csv").write_text(aliases, encoding="utf-8")
    check = cli("check", str(folder))
    assert check.exit_code == 0 and "0 warning(s)" in check.stdout, check.stdout


# ---- Ids spelt differently -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "spelt"),
    [
        ('"Walsh, Milo",1214', '"Walsh, Milo",1214.0'),
        ('"Walsh, Milo",1214', '"Walsh, Milo",01214'),
        ('"Walsh, Milo",1214', '"Walsh, Milo",１２１４'),
        ('"Walsh, Milo",1214', '"Walsh, Milo", 1214 '),
    ],
    ids=["excel-1.0", "leading-zero", "fullwidth", "spaces"],
)
def test_an_id_spelt_otherwise_in_one_results_file_is_the_same_person(
    tmp_path: Path, old: str, spelt: str
) -> None:
    folder = season(tmp_path)
    edit(folder / "december_quick.csv", old, spelt)
    check = cli("check", str(folder))
    assert check.exit_code == 0 and "0 warning(s)" in check.stdout, check.stdout
    assert cli("standings", str(folder), "--format", "csv").stdout == example_standings()


def test_an_id_spelt_otherwise_in_players_csv_is_the_same_person(tmp_path: Path) -> None:
    folder = season(tmp_path)
    edit(folder / "players.csv", '1214,"Walsh, Milo"', '001214.0,"Walsh, Milo"')
    check = cli("check", str(folder))
    assert check.exit_code == 0 and "0 warning(s)" in check.stdout, check.stdout
    assert cli("standings", str(folder), "--format", "csv").stdout == example_standings()


def test_one_id_spelt_two_ways_in_one_event_is_one_person_twice(tmp_path: Path) -> None:
    folder = season(tmp_path)
    edit(folder / "december_quick.csv", '"Cole, Jade",1216', '"Cole, Jade",1214.0')
    assert_refused(
        folder, f"december_quick.csv:{line_of(folder / 'december_quick.csv', 'Cole')}", "twice"
    )


@pytest.mark.parametrize(
    ("spelt", "normal"),
    [
        ("1214", "1214"),
        ("1214.0", "1214"),
        ("001214", "1214"),
        ("１２１４", "1214"),
        (" 1214 ", "1214"),
        ("0012.0", "12"),
        ("٣٤", "34"),
        ("0", ""),
        ("0000", ""),
        ("", ""),
        ("GER-0012", "GER-0012"),
        ("A0012", "A0012"),
        ("12.5", "12.5"),
        ("1214.0.0", "1214.0.0"),
        ("ＡＢ１２", "AB12"),
    ],
)
def test_normal_id_drops_only_what_does_not_change_a_number(spelt: str, normal: str) -> None:
    assert normal_id(spelt) == normal
    assert PlayerKey.of(spelt, "someone") == (f"id:{normal}" if normal else "name:someone")


# ---- aliases.csv decisions contradicting through a chain ------------------------------------

CHAIN = 'name,other,decision\n"Bard, Alma","Baird, A.",same\n"Baird, A.","Baird, Alma",same\n'


def test_same_decisions_chain_through_other_names(tmp_path: Path) -> None:
    folder = season(tmp_path)
    edit(folder / "winter_quick.csv", '"Baird, Alma",1205', '"Bard, Alma",')
    (folder / "aliases.csv").write_text(CHAIN, encoding="utf-8")
    check = cli("check", str(folder))
    assert check.exit_code == 0 and "0 warning(s)" in check.stdout, check.stdout
    assert cli("standings", str(folder), "--format", "csv").stdout == example_standings()


def test_different_against_a_chain_of_same_is_an_error_on_its_line(tmp_path: Path) -> None:
    folder = season(tmp_path)
    edit(folder / "winter_quick.csv", '"Baird, Alma",1205', '"Bard, Alma",')
    contradiction = '"Bard, Alma","Baird, Alma",different\n'
    (folder / "aliases.csv").write_text(CHAIN + contradiction, encoding="utf-8")
    assert_refused(
        folder,
        "aliases.csv:4",
        "'Bard, Alma' and 'Baird, Alma' are decided 'different' here",
        "line 2 'Bard, Alma' same 'Baird, A.'; line 3 'Baird, A.' same 'Baird, Alma'",
        "remove the 'same' line that is wrong, or this line",
    )


def test_a_pair_decided_both_ways_is_one_error_whatever_else_joins_it() -> None:
    def alias(name: str, other: str, same: bool, line: int) -> Alias:
        return Alias(name, other, same, Location("aliases.csv", line))

    decided = [
        alias("Bard, Alma", "Baird, Alma", False, 2),
        alias("Bard, Alma", "Baird, Alma", True, 3),
        alias("Baird, Alma", "Baird, A.", True, 4),
    ]
    problems = alias_contradictions(decided)
    assert [(p.location.line, "both 'same'" in p.message) for p in problems] == [(3, True)]
    assert same_names(decided) == {"alma bard": "a baird", "alma baird": "a baird"}


# ---- Letters of another script that look Latin -----------------------------------------------


def test_a_cyrillic_letter_in_a_latin_name_is_a_warning_naming_the_latin_name(
    tmp_path: Path,
) -> None:
    folder = season(tmp_path)
    edit(folder / "december_quick.csv", '"Walsh, Milo",1214', '"W\u0430lsh, Milo",1214')
    first = line_of(folder / "winter_quick.csv", "Walsh, Milo")
    out = assert_warned(
        folder,
        f"december_quick.csv:{line_of(folder / 'december_quick.csv', 'Milo')}",
        "U+0430 (CYRILLIC SMALL LETTER A) among Latin letters",
        f"reads as 'Walsh, Milo' (as at {folder / 'winter_quick.csv'}:{first})",
        "retype the letter",
    )
    assert out == example_standings()  # the id decides who it is


def test_a_name_of_another_script_is_no_look_alike() -> None:
    assert look_alikes("\u0410dams, Alice") == "\u0410"
    assert look_alikes("Adams, Alice") == look_alikes("Dvořák, Marek") == ""
    assert look_alikes("Иванов, Иван") == look_alikes("Παπαδόπουλος, Νίκος") == ""
    assert look_alike_key("\u0410dams, Alice") == name_key("Adams, Alice")
    assert look_alike_key("Ｗalsh, Milo") == name_key("Walsh, Milo")
    assert name_key("\u0410dams, Alice") != name_key("Adams, Alice")  # reviewed, not merged


# ---- One person twice in one event -----------------------------------------------------------


def test_a_name_without_id_beside_the_same_name_with_id_is_an_error(tmp_path: Path) -> None:
    folder = season(tmp_path)
    results = folder / "winter_quick.csv"
    with results.open("a", encoding="utf-8") as handle:
        handle.write('12,"Walsh, Milo",,0.5\n')
    assert_refused(
        folder,
        f"winter_quick.csv:{line_of(results, 'Walsh, Milo', nth=2)}",
        f"'Walsh, Milo' (no id) here and 'Walsh, Milo' (id 1214) on line "
        f"{line_of(results, 'Walsh, Milo')} are one person",
        "takes id 1214",
        "one person cannot take two places in one event",
    )


# ---- Characters that hide in a name ----------------------------------------------------------


def test_a_right_to_left_override_in_a_name_is_a_warning_without_the_raw_character(
    tmp_path: Path,
) -> None:
    folder = season(tmp_path)
    edit(folder / "december_quick.csv", '"Walsh, Milo",1214', f'"Walsh, {RLO}Milo",1214')
    out = assert_warned(
        folder,
        f"december_quick.csv:{line_of(folder / 'december_quick.csv', 'Milo')}",
        "name 'Walsh, \\u202eMilo' holds U+202E (RIGHT-TO-LEFT OVERRIDE)",
        "retype the name",
    )
    check = cli("check", str(folder))
    assert RLO not in check.stdout and "1 warning(s)" in check.stdout
    assert out == example_standings()


def test_a_zero_width_space_in_players_csv_is_a_warning_there(tmp_path: Path) -> None:
    folder = season(tmp_path)
    edit(folder / "players.csv", '1214,"Walsh, Milo"', '1214,"Walsh,\u200b Milo"')
    assert_warned(
        folder,
        f"players.csv:{line_of(folder / 'players.csv', '1214')}",
        "U+200B (ZERO WIDTH SPACE)",
    )


def test_hidden_characters_are_found_and_shown_as_code_points() -> None:
    assert hidden_characters("Walsh, Milo") == hidden_characters("Dvořák\u00a0Marek") == ""
    assert hidden_characters("Walsh\u200cMilo") == "\u200c"  # no Latin spelling needs it
    assert hidden_characters("\u0645\u06cc\u200c\u0631\u0636\u0627") == ""  # Persian does
    assert shown("a\U000e0001b") == "a\\U000e0001b"
    assert hidden_characters(f"A{RLO}b\u2066c\u200bd\u00ad") == f"{RLO}\u2066\u200b\u00ad"
    assert shown(f"Walsh, {RLO}Milo") == "Walsh, \\u202eMilo"
    assert name_key(f"Walsh, {RLO}Mi\u200blo") == name_key("Walsh, Milo")

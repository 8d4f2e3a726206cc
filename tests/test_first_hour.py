"""The organiser's first hour: messages that lead. An impossible date in season.toml is "no
such date" whether written as a TOML date or as text, and a table of a list is named as people
count it (the 3rd [[events]] is events[3])."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from grandprix.season.config import load_season
from test_rule_language import results, run, season

UTAH = ROOT / "examples" / "utah-2012"


@pytest.mark.parametrize("written", ["2012-02-30", '"2012-02-30"'])
def test_an_impossible_date_is_no_such_date(tmp_path: Path, written: str) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    third = re.findall(r"date = (\d{4}-\d\d-\d\d)", text)[2]
    toml.write_text(text.replace(f"date = {third}", f"date = {written}", 1), encoding="utf-8")
    found, problems = load_season(folder)
    assert found is None
    said = [str(p) for p in problems]
    assert any("no such date '2012-02-30': February 2012 has 29 days" in p for p in said), said
    if written.startswith('"'):
        assert any("'events[3].date'" in p for p in said), said


def test_aliases_csv_of_the_lines_review_prints_is_read(tmp_path: Path) -> None:
    """`players --review` prints 'name,other,decision' rows to add: a file of one such line,
    without the header, is read."""
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    (folder / "aliases.csv").write_text('"Kerr, Esme",Esme Kerr,different\n', encoding="utf-8")
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    assert not [p for p in problems if "aliases.csv" in str(p)]
    assert [(a.name, a.other, a.same) for a in found.aliases] == [
        ("Kerr, Esme", "Esme Kerr", False)
    ]


def test_prizes_of_rules_without_prizes_say_how_to_give_some(tmp_path: Path) -> None:
    folder = season(
        tmp_path, "[points]\ntable = [10, 5]\n", ("E", "", results("name,points", "A,1"))
    )
    code, out, err = run("prizes", str(folder))
    assert code == 0, err
    assert "the rules give no season prizes: add them to season.toml" in out
    assert "paid in all" not in out


def test_serve_on_a_busy_port_says_so_before_serving(tmp_path: Path) -> None:
    import socket

    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        code, out, err = run("serve", str(folder), "--port", str(port))
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in err and "choose another port" in err
    assert "serving" not in out


def test_a_results_file_named_in_another_case_gets_did_you_mean(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    written = re.findall(r'results = "([^"]+)"', text)[0]
    toml.write_text(text.replace(f'"{written}"', f'"{written.upper()}"', 1), encoding="utf-8")
    found, problems = load_season(folder)
    assert found is None
    said = [str(p) for p in problems]
    assert any(f"did you mean '{written}'?" in p for p in said), said


def test_rules_no_player_can_meet_are_an_error_in_check(tmp_path: Path) -> None:
    """utah-2012 requires region and member (UT-1): without players.csv nobody can earn a
    point, and check says so as an error naming the columns, instead of empty standings."""
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    (folder / "players.csv").unlink()
    code, out, err = run("check", str(folder))
    assert code == 1
    said = out + err
    assert "no player can earn points: the rules require region, member" in said
    assert "players.csv with the columns id, name, region, member" in said

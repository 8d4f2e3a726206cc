"""Trust: the error boundary, pure reading, rule IDs only from the rule set's own
book, and the review's alias lines read back. The hostile-input suite is tests/test_hostile.py."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main
from grandprix.cli import season as season_cli
from grandprix.reports.people import alias_line
from grandprix.season.config import load_season

EXAMPLES = ROOT / "examples"
RULE_ID = re.compile(r"\b(D-)?(UT|UCC|ACF|LUP)(-E)?-\d+")


def tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_an_internal_error_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(season_cli, "_division_tables", broken)
    folder = str(EXAMPLES / "utah-2012")
    result = CliRunner().invoke(main, ["standings", folder])
    assert result.exit_code == 70
    assert "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and "internal error: ZeroDivisionError" in result.stderr
    debug = CliRunner().invoke(main, ["--debug", "standings", folder])
    assert debug.exit_code == 70 and "Traceback" in debug.stderr


def test_reading_a_season_with_rating_lists_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "acf"
    shutil.copytree(EXAMPLES / "acf-2004", folder)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    before = tree(folder)
    for args in (["check"], ["standings"], ["prizes"], ["players"], ["explain"]):
        extra = ["Hayes"] if args == ["explain"] else []
        result = CliRunner().invoke(main, [*args, str(folder), *extra])
        assert result.exit_code == 0, result.output
    assert tree(folder) == before and not any(cwd.iterdir())
    season, _ = load_season(folder)
    assert season is not None and season.ratings is not None  # read into memory
    assert season.ratings.lists()


def test_ratings_lists_without_a_store_creates_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["ratings", "lists"])
    assert result.exit_code == 2 and "no rating store" in result.stderr
    assert not any(tmp_path.iterdir())


def test_explain_under_rules_of_its_own_cites_no_federations_ids(tmp_path: Path) -> None:
    folder = tmp_path / "own"
    shutil.copytree(EXAMPLES / "lupiae-2012-13", folder)
    preset = ROOT / "src" / "grandprix" / "rules" / "presets" / "lupiae-2012-13.toml"
    text = preset.read_text(encoding="utf-8")
    own = re.sub(r"(?m)^(cites|choices) = \[.*?\]\n", "", text, flags=re.S)
    (folder / "own-rules.toml").write_text(own, encoding="utf-8")
    toml = (folder / "season.toml").read_text(encoding="utf-8")
    (folder / "season.toml").write_text(
        toml.replace('rules = "lupiae-2012-13"', 'rules = "own-rules.toml"'), encoding="utf-8"
    )
    with_preset = CliRunner().invoke(main, ["explain", str(EXAMPLES / "lupiae-2012-13"), "5001"])
    assert with_preset.exit_code == 0 and RULE_ID.search(with_preset.stdout)
    result = CliRunner().invoke(main, ["explain", str(folder), "5001"])
    assert result.exit_code == 0, result.output
    assert not RULE_ID.search(result.stdout), result.stdout


def test_the_reviews_alias_lines_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "season"
    shutil.copytree(EXAMPLES / "utah-2012", folder)
    line = alias_line("Walsh, Milo", "Walsh, Mila", "different")
    (folder / "aliases.csv").write_text(f"name,other,decision\n{line}\n", encoding="utf-8")
    season, problems = load_season(folder)
    assert season is not None, problems
    assert [(a.name, a.other, a.same) for a in season.aliases] == [
        ("Walsh, Milo", "Walsh, Mila", False)
    ]


def test_an_events_players_csv_is_read_with_located_problems(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    shutil.copytree(EXAMPLES / "events" / "class_championships_2026", folder)
    players = folder / "players.csv"
    lines = players.read_text(encoding="utf-8").splitlines()
    lines[0] += ",birth_date"
    lines[1:] = [f"{line},{'1990-13-45' if i == 2 else ''}" for i, line in enumerate(lines[1:])]
    players.write_bytes("\n".join(lines).encode("latin-1", errors="replace") + b"\n")
    result = CliRunner().invoke(main, ["prizes", "--event", str(folder / "event.toml")])
    assert result.exit_code == 2, result.output
    assert "players.csv:4:5: field 'birth_date': no such date '1990-13-45'" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["9" * 300 + ".trf", "a/" * 2100 + "x.trf"])
def test_a_file_name_too_long_for_the_file_system_is_a_located_error(
    tmp_path: Path, name: str
) -> None:
    folder = shutil.copytree(ROOT / "examples" / "acf-2004", tmp_path / "season")
    toml = folder / "season.toml"
    toml.write_text(toml.read_text().replace("adelaide_major.trf", name, 1))
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if "too long" in line)
    assert line.startswith(f"{toml}:") and "give the file a shorter name" in line

"""The command line: formats, options, help texts."""

from __future__ import annotations

import csv
import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import click
import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, FIXTURES
from grandprix.cli import main
from grandprix.season.model import Line

SWISS = str(EXAMPLES / "spring_open_2026.trf")


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def test_every_command_and_option_has_help_text() -> None:
    assert main.help
    for name, command in main.commands.items():
        assert command.help, f"command {name} has no help text"
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"option {param.name} of {name} has no help text"


def test_csv_columns_and_plain_decimals() -> None:
    result = invoke("event", SWISS, "--tiebreaks", "BH/C1,SB,DE", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["place", "start_no", "name", "id", "points", "BH/C1", "SB", "DE"]
    assert len(rows) == 31
    for row in rows[1:]:
        assert all("/" not in cell for cell in (row[4], row[5], row[6]))
        float(row[4]), float(row[5]), float(row[6])  # plain decimals
    places = [row[0] for row in rows[1:]]
    assert places[0] == "1"


def test_json_output_is_exact_and_complete() -> None:
    result = invoke(
        "event", SWISS, "--tiebreaks", "BH,SB", "--format", "json", "--tiebreak-rules", "fide-2024"
    )
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["tiebreak_rules"] == "fide-2024"
    assert document["tiebreaks"] == ["BH", "SB"]
    assert len(document["placings"]) == 30
    first = document["placings"][0]
    assert set(first) == {"place", "start_no", "name", "id", "rating", "points", "tiebreaks"}
    assert isinstance(first["points"], str) and set(first["tiebreaks"]) == {"BH", "SB"}


def test_table_output_shows_the_event_and_tiebreaks() -> None:
    result = invoke("event", SWISS, "--tiebreaks", "BH")
    assert result.exit_code == 0
    assert "Spring Open 2026" in result.stdout and "BH" in result.stdout


def test_editions_give_different_buchholz_where_article_16_4_differs() -> None:
    old = invoke(
        "event", SWISS, "--tiebreaks", "BH", "--format", "csv", "--tiebreak-rules", "fide-2024"
    )
    new = invoke("event", SWISS, "--tiebreaks", "BH", "--format", "csv")
    assert old.exit_code == new.exit_code == 0
    assert old.stdout != new.stdout


def test_us_chess_rules_take_their_own_codes() -> None:
    result = invoke(
        "event",
        SWISS,
        "--tiebreak-rules",
        "us-chess",
        "--tiebreaks",
        "MM,SOLK,CUM",
        "--format",
        "csv",
    )
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].endswith("MM,SOLK,CUM")
    wrong = invoke("event", SWISS, "--tiebreak-rules", "us-chess", "--tiebreaks", "BH")
    assert wrong.exit_code == 2 and "unknown tie-break 'BH'" in wrong.stderr


def test_pairing_option_overrides_detection() -> None:
    path = str(EXAMPLES / "club_championship_2026.trf")
    auto = invoke("event", path, "--tiebreaks", "SB", "--format", "json")
    swiss = invoke("event", path, "--tiebreaks", "SB", "--format", "json", "--pairing", "swiss")
    assert json.loads(auto.stdout)["round_robin"] is True
    assert json.loads(swiss.stdout)["round_robin"] is False


def test_warnings_go_to_stderr_and_do_not_stop_the_work(tmp_path: Path) -> None:
    text = (FIXTURES / "small_swiss.trf").read_text().replace("XXR 4", "XXR 6")
    path = tmp_path / "more_rounds.trf"
    path.write_text(text)
    result = invoke("event", str(path), "--format", "csv")
    assert result.exit_code == 0
    assert "warning: the file declares 6 rounds but has results for 4" in result.stderr


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
def test_standings_csv_in_every_format(fmt: str) -> None:
    result = invoke("event", str(EXAMPLES / "club_rapid_standings.csv"), "--format", fmt)
    assert result.exit_code == 0
    assert "Moreau, Ines" in result.stdout


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0 and "grandprix" in result.stdout


def _program(
    *args: str, stdout: int | io.TextIOWrapper | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed ``grandprix`` program run as a process (``run``, its entry point)."""
    exe = str(Path(sys.executable).parent / "grandprix")
    out = subprocess.PIPE if stdout is None else stdout
    return subprocess.run([exe, *args], stdout=out, stderr=subprocess.PIPE, text=True, check=False)


def test_the_program_ends_a_batch_command_with_all_its_output_and_its_exit_code(
    tmp_path: Path,
) -> None:
    """``run`` ends the process without tearing it down after a batch command: what the command
    printed is all there, to a pipe or to a file (block-buffered), with main's exit code."""
    args = ("standings", str(EXAMPLES.parent / "acf-2004"), "--format", "json")
    expected = invoke(*args)
    assert expected.exit_code == 0 and len(expected.stdout) > 64 * 1024  # more than a pipe holds
    piped = _program(*args)
    assert piped.returncode == 0 and piped.stdout == expected.stdout
    target = tmp_path / "out.txt"
    with target.open("w", encoding="utf-8") as handle:
        assert _program(*args, stdout=handle).returncode == 0
    assert target.read_text(encoding="utf-8") == expected.stdout
    season = tmp_path / "season"
    season.mkdir()
    (season / "season.toml").write_text('name = "x"\nrules = "utah-2012"\nevents = 3\n')
    for command in (("check", str(season)), ("standings", str(season)), ("nonsense",)):
        inside = invoke(*command)
        outside = _program(*command)
        assert inside.exit_code in (1, 2) and outside.returncode == inside.exit_code, command
        assert outside.stdout == inside.stdout, command
        assert outside.stderr.replace("grandprix", "main") == inside.stderr, command


def test_run_ends_at_once_only_after_a_batch_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a batch command the process ends with ``os._exit`` and main's code; without one
    (here the group's own ``--version``) Python ends it as usual."""
    from grandprix.cli import run

    ended: list[int] = []

    def fake_exit(code: int) -> NoReturn:
        ended.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", fake_exit)
    monkeypatch.setattr(
        sys, "argv", ["grandprix", "event", str(EXAMPLES / "club_rapid_standings.csv")]
    )
    try:
        with pytest.raises(SystemExit):
            run()
        assert ended == [0]
        monkeypatch.setattr(sys, "argv", ["grandprix", "event", "missing.trf"])
        with pytest.raises(SystemExit):
            run()
        assert ended == [0, 2]
    finally:
        gc.enable()  # left paused for the process's end, which fake_exit does not bring
    monkeypatch.setattr(sys, "argv", ["grandprix", "--version"])
    with pytest.raises(SystemExit) as done:
        run()
    assert done.value.code == 0 and ended == [0, 2]


def test_a_batch_command_s_standings_are_kept_until_the_process_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under ``run`` the standings a command computed are kept (``keep``), not freed record by
    record as it returns, and the cyclic collector stays paused (its first pass would scan
    them), since the process ends at once after it; called otherwise (here by the tests'
    runner) nothing is kept and the collector is back."""
    from grandprix.cli import base, run

    kept: list[object] = []
    monkeypatch.setattr(base, "_KEPT", kept)
    monkeypatch.setattr(os, "_exit", lambda code: sys.exit(code))
    season = EXAMPLES.parent / "acf-2004"
    assert invoke("standings", str(season), "--format", "csv").exit_code == 0
    assert kept == [] and gc.isenabled()
    monkeypatch.setattr(sys, "argv", ["grandprix", "standings", str(season), "--format", "csv"])
    try:
        with pytest.raises(SystemExit) as done:
            run()
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert done.value.code == 0
    [tables] = kept
    assert isinstance(tables, list) and [name for name, _ in tables][:2] == ["Open", "Under 2000"]
    assert all(isinstance(line, Line) for _, lines in tables for line in lines)
    assert base.keep("x") == "x" and kept == [tables]  # no command runs: nothing more kept

"""A season's results files read ahead by a forked process (``readers.read_ahead``): the same
season and the same problems as read by one process, the second half of the files read by the
child (and checked there for ranks that contradict the points), a file with a problem read
again by this process for its messages, a child that dies costing nothing but time."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

import pytest

import grandprix.readers as readers
import grandprix.season.config as config
from grandprix.model import Problem, Section
from grandprix.paths import FileCache
from grandprix.season.checks import rank_contradictions
from grandprix.season.config import load_season
from grandprix.season.standings import standings
from seasons import event, season_toml, standings_csv, write_season

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork"
)

EVENTS = 8


def season_folder(tmp_path: Path, bad: int | None = None, unranked: int | None = None) -> Path:
    """A season of EVENTS events, one a month; event ``bad`` has a score that is not one, event
    ``unranked`` ranks a player above one with more points (a warning)."""
    files = {
        f"e{k}.csv": standings_csv([(f"P{(k + i) % 11}", str(9 - i)) for i in range(6)])
        for k in range(EVENTS)
    }
    if bad is not None:
        files[f"e{bad}.csv"] = "name,id,points\nP1,P1,x\n"
    if unranked is not None:
        files[f"e{unranked}.csv"] = "rank,name,id,points\n1,P1,P1,2\n2,P2,P2,3\n"
    events = [event(f"E{k}", f"e{k}.csv", date=f"2012-{k + 1:02d}-01") for k in range(EVENTS)]
    return write_season(tmp_path, season_toml('rules = "utah-2012"', *events), files)


@pytest.fixture
def readers_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every results file read, as 'pid name' lines (the child's reads are seen too); reading
    ahead for any number of files."""
    log = tmp_path / "reads.log"
    fmt = readers.FORMATS["csv"]

    def read(path: Path, data: bytes) -> tuple[Section | None, list[Problem]]:
        with log.open("a") as out:
            out.write(f"{os.getpid()} {path.name}\n")
        return fmt.read(path, data)

    monkeypatch.setitem(readers.FORMATS, "csv", readers.InputFormat(read, fmt.recognise, 2))
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 1)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())  # nothing read before
    return log


def reads(log: Path) -> list[tuple[int, str]]:
    return [
        (int(pid), name) for pid, name in (line.split() for line in log.read_text().splitlines())
    ]


def test_the_second_half_is_read_by_a_child_and_the_season_is_the_same(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = season_folder(tmp_path / "season")
    ahead, problems = load_season(folder)
    assert ahead is not None
    seen = reads(readers_log)
    here = {name for pid, name in seen if pid == os.getpid()}
    there = {name for pid, name in seen if pid != os.getpid()}
    assert here == {f"e{k}.csv" for k in range(EVENTS // 2)}
    assert there == {f"e{k}.csv" for k in range(EVENTS // 2, EVENTS)}
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    alone, alone_problems = load_season(folder)
    assert alone is not None
    assert ahead.events == alone.events
    assert problems == alone_problems
    assert [(ln.name, ln.total) for ln in standings(ahead)] == [
        (ln.name, ln.total) for ln in standings(alone)
    ]


def test_a_file_with_a_problem_is_read_again_here_for_its_messages(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = season_folder(tmp_path / "season", bad=EVENTS - 1)
    season, problems = load_season(folder)
    assert season is None
    bad = [pid for pid, name in reads(readers_log) if name == f"e{EVENTS - 1}.csv"]
    assert len(bad) == 2 and os.getpid() in bad  # by the child, then by this process
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    assert load_season(folder)[1] == problems
    assert any("field 'points' = 'x' is not a score" in p.message for p in problems)


def test_a_child_that_dies_leaves_the_reading_to_this_process(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()

    def killed(*job: object) -> object:
        assert os.getpid() != parent
        os.kill(os.getpid(), signal.SIGKILL)
        return []

    monkeypatch.setattr(readers, "_read_all", killed)
    season, _ = load_season(season_folder(tmp_path / "season"))
    assert season is not None
    assert {pid for pid, _ in reads(readers_log)} == {parent}
    assert len(reads(readers_log)) == EVENTS


def test_the_child_checks_the_ranks_of_its_files_and_a_warning_is_this_processs(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = tmp_path / "checked.log"
    check = rank_contradictions

    def logged(section: Section) -> list[Problem]:
        with checked.open("a") as out:
            out.write(f"{os.getpid()} {Path(section.source).name}\n")
        return check(section)

    monkeypatch.setattr(config, "rank_contradictions", logged)
    folder = season_folder(tmp_path / "season", unranked=EVENTS - 1)
    season, problems = load_season(folder)
    assert season is not None
    seen = reads(checked)
    assert sorted(name for pid, name in seen if pid != os.getpid()) == [
        f"e{k}.csv" for k in range(EVENTS // 2, EVENTS)
    ]
    # The parent checks its own half and the file whose check found something, read again.
    assert sorted(name for pid, name in seen if pid == os.getpid()) == [
        *(f"e{k}.csv" for k in range(EVENTS // 2)),
        f"e{EVENTS - 1}.csv",
    ]
    warned = [p for p in problems if "the ranks contradict the points" in p.message]
    assert len(warned) == 1 and warned[0].location.path.endswith(f"e{EVENTS - 1}.csv")
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    assert load_season(folder)[1] == problems

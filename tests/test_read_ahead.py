"""A season's results files read ahead by a forked process (``readers.read_ahead``): the same
season and the same problems as read by one process, the files shared between this process
(from the first) and the child (from the last, each checked there for ranks that contradict the
points), the second half for the child without shared memory, a file with a problem read again
by this process for its messages, a child that dies costing nothing but time."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

import pytest

import grandprix.readers as readers
import grandprix.season.config as config
from grandprix.model import Problem, Section
from grandprix.runtime.files import FileCache
from grandprix.season.checks import rank_contradictions
from grandprix.season.config import load_season
from grandprix.season.standings import standings
from seasons import event, season_toml, standings_csv, write_season

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork"
)

EVENTS = 8


# UT-1: who can earn points (region and member), for every player of the events.
PLAYERS = "id,name,region,member\n" + "".join(f"P{i},P{i},UT,yes\n" for i in range(11))


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
    files["players.csv"] = PLAYERS
    events = [event(f"E{k}", f"e{k}.csv", date=f"2012-{k + 1:02d}-01") for k in range(EVENTS)]
    return write_season(tmp_path, season_toml('rules = "utah-2012"', *events), files)


@pytest.fixture
def readers_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every results file read, as 'pid name' lines (the child's reads are seen too); reading
    ahead for any number of files. A read by this process takes 100 ms, one by the child 50 ms
    (see ``read``)."""
    log = tmp_path / "reads.log"
    fmt = readers.FORMATS["csv"]
    parent = os.getpid()

    def read(path: Path, data: bytes) -> tuple[Section | None, list[Problem]]:
        with log.open("a") as out:
            out.write(f"{os.getpid()} {path.name}\n")
        # This process's reads are the slower, so that the child has claimed the last files
        # before it comes to them; the child's are slow enough that, however busy the machine,
        # this process has claimed the first before the child could read them all.
        time.sleep(0.1 if os.getpid() == parent else 0.05)
        return fmt.read(path, data)

    monkeypatch.setitem(readers.FORMATS, "csv", readers.InputFormat(read, fmt.recognise, 2))
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 1)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())  # nothing read before
    alone()
    return log


def alone() -> None:
    """Wait for the threads an earlier test of this process left running (a server's look at
    a season folder) to end: a process forks only while no other thread runs (``can_fork``)."""
    deadline = time.monotonic() + 20
    while threading.active_count() > 1:
        others = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
        assert time.monotonic() < deadline, f"threads still running: {others}"
        time.sleep(0.05)


def reads(log: Path) -> list[tuple[int, str]]:
    return [
        (int(pid), name) for pid, name in (line.split() for line in log.read_text().splitlines())
    ]


def split(log: Path) -> tuple[list[str], list[str]]:
    """The files this process read and those the child read, each in the order read."""
    seen = reads(log)
    return [n for pid, n in seen if pid == os.getpid()], [
        n for pid, n in seen if pid != os.getpid()
    ]


def test_the_files_are_shared_with_a_child_and_the_season_is_the_same(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = season_folder(tmp_path / "season")
    ahead, problems = load_season(folder)
    assert ahead is not None
    here, there = split(readers_log)
    # This process from the first file, the child from the last, each file read once.
    assert here and there
    assert here == [f"e{k}.csv" for k in range(len(here))]
    assert there == [f"e{k}.csv" for k in range(EVENTS - 1, len(here) - 1, -1)]
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    alone, alone_problems = load_season(folder)
    assert alone is not None
    assert ahead.events == alone.events
    assert problems == alone_problems
    assert [(ln.name, ln.total) for ln in standings(ahead)] == [
        (ln.name, ln.total) for ln in standings(alone)
    ]


def test_without_shared_memory_the_child_reads_the_second_half(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = multiprocessing.get_context("fork")

    def no_shm(*args: object, **kwargs: object) -> object:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(type(context), "Array", no_shm)
    season, _ = load_season(season_folder(tmp_path / "season"))
    assert season is not None
    here, there = split(readers_log)
    assert here == [f"e{k}.csv" for k in range(EVENTS // 2)]
    assert there == [f"e{k}.csv" for k in range(EVENTS - 1, EVENTS // 2 - 1, -1)]


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
    here, there = split(readers_log)
    assert there and there[0] == f"e{EVENTS - 1}.csv"  # the child reads from the last file
    checked_here, checked_there = split(checked)
    assert checked_there == there  # the child checks each file it reads
    # This process checks what it reads: its own files, and the one whose check found
    # something, read again here.
    assert f"e{EVENTS - 1}.csv" in here
    assert checked_here == here
    warned = [p for p in problems if "the ranks contradict the points" in p.message]
    assert len(warned) == 1 and warned[0].location.path.endswith(f"e{EVENTS - 1}.csv")
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    assert load_season(folder)[1] == problems


def test_claims_meet_where_the_two_processes_do() -> None:
    claims = readers._Claims(6)
    theirs = claims.theirs()
    assert claims.mine(0)
    assert next(theirs) == 5 and next(theirs) == 4
    assert claims.mine(1)
    assert list(theirs) == [3, 2]  # up to this process's files
    assert not claims.mine(2) and not claims.mine(5)  # the child's


def test_a_lock_held_by_a_dead_child_leaves_every_file_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(readers, "LOCK_WAIT", 0.05)
    claims = readers._Claims(6)
    shared = claims.shared
    assert shared is not None
    theirs = claims.theirs()
    assert next(theirs) == 5
    # Held by another thread, as a child killed while it held the lock leaves it held.
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with shared.get_lock():
            holding.set()
            done.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.perf_counter()
        assert claims.mine(0) and claims.mine(5)  # the child's claim no longer counts
        assert list(theirs) == []
        assert claims.mine(3)  # without waiting again
        assert time.perf_counter() - started < 1
    finally:
        done.set()
        holder.join()
    assert claims.alone


def test_files_missing_listed_twice_or_wrong_give_the_problems_of_one_process(
    tmp_path: Path, readers_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files this process skips (missing, listed twice) or reads again (a problem, a warning)
    anywhere in the calendar: the same problems, in the same order, as read alone."""
    files = {
        f"e{k}.csv": standings_csv([(f"P{(k + i) % 11}", str(9 - i)) for i in range(6)])
        for k in range(EVENTS)
    }
    files["e1.csv"] = "name,id,points\nP1,P1,x\n"  # not a score: an error
    files["e6.csv"] = "rank,name,id,points\n1,P1,P1,2\n2,P2,P2,3\n"  # ranks against points
    del files["e5.csv"]  # missing
    events = [event(f"E{k}", f"e{k}.csv", date=f"2012-{k + 1:02d}-01") for k in range(EVENTS)]
    events.insert(4, event("Again", "e2.csv", date="2012-12-01"))  # one file listed twice
    files["players.csv"] = PLAYERS
    folder = write_season(tmp_path / "season", season_toml('rules = "utah-2012"', *events), files)
    season, problems = load_season(folder)
    assert season is None  # the score that is not one
    assert {name for pid, name in reads(readers_log) if pid != os.getpid()}  # read ahead
    monkeypatch.setattr(readers, "READ_AHEAD_LEAST", 10**9)
    monkeypatch.setattr(readers, "_SECTIONS", FileCache())
    assert load_season(folder)[1] == problems
    said = " | ".join(p.message for p in problems)
    assert "is not a score" in said and "not found" in said and "listed twice" in said
    assert "the ranks contradict the points" in said

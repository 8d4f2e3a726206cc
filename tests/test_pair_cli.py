"""The pairing at the command line: ``grandprix pair FILE.trf`` in each output format, its
``-o`` file and the refusals of hostile inputs (exit 2, a located message, nothing written), and
``grandprix round EVENT.toml ...``: an event's day on a copy of the Utah Class Championships,
from the first pairing to a results file the season reads."""

from __future__ import annotations

import csv
import io
import json
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from conftest import EXAMPLES
from grandprix.cli import main
from grandprix.model import Player, Section
from grandprix.pairing.criteria import violations
from grandprix.pairing.state import enter_result, read_tournament, tournament_text
from grandprix.readers import load_section
from grandprix.writers.trf import write_trf

EXIT_INPUT = 2


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# Tiny tournaments as TRF files.


def trf_text(players: int = 5, rounds: int = 3, records: tuple[str, ...] = ()) -> str:
    """A TRF of ``players`` players (rated 2490 down), no round played, ``rounds`` to play,
    White for the first player in round 1, and ``records`` after the number of rounds."""
    section = Section(
        name="Club Swiss",
        players=tuple(
            Player(n, f"Player {n:02d}", rating=2500 - 10 * n, declared_points=Fraction(0))
            for n in range(1, players + 1)
        ),
        rounds=rounds,
        headers=(("012", "Club Swiss"), ("092", "Swiss System"), ("152", "W")),
    )
    lines = write_trf(section).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("XXR")) + 1
    return "\n".join([*lines[:at], *records, *lines[at:]]) + "\n"


def line_of(path: Path, start: str) -> int:
    """The number of the file's first line that begins with ``start``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(start))


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "club.trf"
    path.write_text(trf_text(), encoding="utf-8")
    return path


# grandprix pair FILE.trf


def test_pair_csv_has_a_row_a_board_and_the_pairing_allocated_bye_with_an_empty_black(
    club: Path,
) -> None:
    got = invoke("pair", club, "--format", "csv")
    assert got.exit_code == 0, got.output
    assert got.stdout.startswith("board,white,black,")
    table = rows(got.stdout)
    assert "kind" in table[0]
    games = [r for r in table if r["kind"] == "game"]
    assert [r["board"] for r in games] == ["1", "2"]
    assert all(r["black"] and r["result"] == "" for r in games)
    [bye] = [r for r in table if r["kind"] != "game"]
    assert (bye["board"], bye["white"], bye["black"], bye["kind"]) == ("", "5", "", "pairing-bye")
    placed = [int(r[c]) for r in games for c in ("white", "black")]
    assert sorted([*placed, int(bye["white"])]) == [1, 2, 3, 4, 5]


def test_pair_lists_the_byes_asked_for_with_their_kind(tmp_path: Path) -> None:
    path = tmp_path / "byes.trf"
    path.write_text(trf_text(7, 3, ("240 F   1    6",)), encoding="utf-8")
    got = invoke("pair", path, "--format", "csv", "--bye", "2:half", "--bye", "4:zero")
    assert got.exit_code == 0, got.output
    kinds = {int(r["white"]): r["kind"] for r in rows(got.stdout) if r["kind"] != "game"}
    assert kinds == {2: "half-point-bye", 4: "zero-point-bye", 6: "full-point-bye"}
    assert all(r["black"] == "" for r in rows(got.stdout) if r["kind"] != "game")


def test_pair_json_names_the_engine_and_gives_each_player_without_a_board_a_kind(
    club: Path,
) -> None:
    got = invoke("pair", club, "--format", "json", "--bye", "1:half")
    assert got.exit_code == 0, got.output
    document = json.loads(got.stdout)
    assert document["round"] == 1 and document["system"] == "fide-dutch-2026"
    assert document["engine"].startswith("gacrux ")
    assert len(document["boards"]) == 2
    assert all(b["result"] is None for b in document["boards"])
    without = [(p["start_no"], p["kind"]) for p in document["without_board"]]
    assert without == [(1, "half-point-bye")]


def test_pair_table_shows_the_round_the_players_and_the_bye(club: Path) -> None:
    got = invoke("pair", club)
    assert got.exit_code == 0, got.output
    assert "Club Swiss: round 1" in got.stdout
    assert "1. Player 01 (2490)" in got.stdout and "pairing-bye" in got.stdout


def test_pair_trf_prints_the_file_with_the_new_round_as_o_writes_it(
    club: Path, tmp_path: Path
) -> None:
    out = tmp_path / "round1.trf"
    printed = invoke("pair", club, "--format", "trf")
    written = invoke("pair", club, "--format", "csv", "-o", out)
    assert printed.exit_code == written.exit_code == 0, printed.output + written.output
    assert printed.stdout == out.read_text(encoding="utf-8")
    assert f"wrote {out}" in written.stderr
    t = read_tournament(out)
    assert t.current is not None and t.current.number == 1
    boards = [(b.white, b.black) for b in t.current.boards]
    assert boards == [(int(r["white"]), int(r["black"])) for r in rows(written.stdout)[:2]]
    assert t.current.bye == 5 and t.plan.initial_colour == "w"


def test_pairing_again_is_refused_while_the_round_is_unfinished(club: Path) -> None:
    assert invoke("pair", club, "-o", club).exit_code == 0
    paired = club.read_bytes()
    again = invoke("pair", club, "-o", club)
    assert again.exit_code == EXIT_INPUT
    assert f"{club}: round 1 is paired and its results are not all in" in again.stderr
    assert club.read_bytes() == paired
    t = read_tournament(club)
    assert t.current is not None
    for board in t.current.boards:
        t = enter_result(t, board.number, "1/2-1/2")
    club.write_text(tournament_text(t), encoding="utf-8")
    next_round = invoke("pair", club, "-o", club)
    assert next_round.exit_code == 0, next_round.output
    t = read_tournament(club)
    assert t.finished_rounds == 1 and t.current is not None and t.current.number == 2
    assert t.current.bye != 5  # C.04.1 art. 4: one pairing-allocated bye a player


# Hostile inputs: exit 2, the file and line named, nothing written.


@dataclass(frozen=True)
class Hostile:
    """A file (its text, or bytes) and options that ``pair`` refuses, and what its message
    must name: ``where`` formatted with the file's path and the line that ``line`` starts."""

    content: str | bytes
    options: tuple[str, ...] = ()
    where: str = "{path}:{line}:"
    line: str = ""


def bad_record(record: str, column: int | None = None) -> Hostile:
    where = "{path}:{line}:" + (f"{column}:" if column else "")
    return Hostile(trf_text(records=(record,)), where=where, line=record[:3])


HOSTILE = [
    pytest.param(bad_record("240 Q   1    2", 5), id="240-kind"),
    pytest.param(bad_record("240 H  xx    2", 7), id="240-round"),
    pytest.param(bad_record("240 H   1   ab", 11), id="240-player"),
    pytest.param(bad_record("250 one point"), id="250"),
    pytest.param(bad_record("260   x   3    1    2"), id="260"),
    pytest.param(
        Hostile(trf_text().replace("XXR 3", "XXR three"), where="{path}:{line}:5:", line="XXR"),
        id="XXR",
    ),
    pytest.param(
        Hostile(trf_text().replace("XXR 3", "XXR 0"), where="{path}:{line}:5:", line="XXR"),
        id="XXR-zero",
    ),
    pytest.param(
        Hostile(trf_text().replace("152 W", "XXC whte1"), line="XXC"),
        id="XXC",
    ),
    pytest.param(
        bad_record("240 H   1    9"),
        id="240-unknown-player",
    ),
    pytest.param(
        bad_record("260   1   3    1    9"),
        id="260-unknown-player",
    ),
    pytest.param(
        Hostile(trf_text(), options=("--bye", "9:half"), where="no player 9"),
        id="bye-unknown-player",
    ),
    pytest.param(
        Hostile(trf_text(), options=("--forbid", "1,9"), where="9"),
        id="forbid-unknown-player",
    ),
    pytest.param(
        Hostile(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", where="{path}:1:1:"),
        id="binary",
    ),
    pytest.param(
        Hostile("Round 1 pairings\nBoard 1: Smith - Jones\n", where="{path}"),
        id="not-a-trf",
    ),
]


def write_case(case: Hostile, path: Path) -> None:
    if isinstance(case.content, bytes):
        path.write_bytes(case.content)
    else:
        path.write_text(case.content, encoding="utf-8")


@pytest.mark.parametrize("case", HOSTILE)
def test_pair_refuses_a_hostile_input_with_exit_2_a_located_message_and_writes_nothing(
    case: Hostile, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.trf"
    write_case(case, path)
    line = line_of(path, case.line) if case.line else 0
    fresh, kept = tmp_path / "fresh.trf", tmp_path / "kept.trf"
    kept.write_text("the file of before\n", encoding="utf-8")
    for out in (fresh, kept):
        got = invoke("pair", path, *case.options, "-o", out)
        assert got.exit_code == EXIT_INPUT, got.output
        assert "Traceback" not in got.output and "internal error" not in got.output
        assert case.where.format(path=path, line=line) in got.stderr, got.stderr
    assert not fresh.exists()
    assert kept.read_text(encoding="utf-8") == "the file of before\n"


def test_pair_of_a_missing_file_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.trf"
    got = invoke("pair", missing, "-o", tmp_path / "out.trf")
    assert got.exit_code == EXIT_INPUT
    assert f"{missing}: no such file" in got.stderr
    assert not (tmp_path / "out.trf").exists()


def test_pair_of_a_tournament_with_every_round_played_names_the_file(tmp_path: Path) -> None:
    played = tmp_path / "a.trf"
    shutil.copy(EXAMPLES / "class_championships_2026" / "results" / "a.trf", played)
    got = invoke("pair", played, "-o", tmp_path / "out.trf")
    assert got.exit_code == EXIT_INPUT
    assert "all 4 rounds are paired" in got.stderr
    assert str(played) in got.stderr
    assert not (tmp_path / "out.trf").exists()


def test_pair_says_each_problem_of_a_binary_file_once(tmp_path: Path) -> None:
    path = tmp_path / "image.trf"
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    got = invoke("pair", path)
    assert got.exit_code == EXIT_INPUT
    said = [line for line in got.stderr.splitlines() if line.startswith(str(path))]
    assert len(said) == len(set(said))


# grandprix round EVENT.toml ... on a copy of the Utah Class Championships, section A.


@dataclass(frozen=True)
class Event:
    toml: Path
    trf: Path

    def run(self, *args: str) -> Result:
        return invoke("round", self.toml, *args[:1], "--section", "A", *args[1:])


@pytest.fixture
def event(tmp_path: Path) -> Event:
    """The event copied, section A not started: its results file is made at the first pair."""
    folder = tmp_path / "class_championships_2026"
    shutil.copytree(EXAMPLES / "class_championships_2026", folder)
    (folder / "results" / "a.trf").unlink()
    return Event(folder / "event.toml", folder / "results" / "a.trf")


def paired(event: Event) -> list[dict[str, str]]:
    got = event.run("pair", "--initial-colour", "white", "--format", "csv")
    assert got.exit_code == 0, got.output
    return rows(got.stdout)


def result(event: Event, board: int | str, value: str) -> Result:
    return event.run("result", str(board), "--", value)


def standings(event: Event, *args: str) -> dict[int, dict[str, str]]:
    got = event.run("standings", "--format", "csv", *args)
    assert got.exit_code == 0, got.output
    return {int(r["start_no"]): r for r in rows(got.stdout)}


def test_round_pair_starts_the_section_from_its_entries_and_keeps_round_one_in_its_trf(
    event: Event,
) -> None:
    assert not event.trf.exists()
    got = event.run("pair", "--initial-colour", "white", "--format", "csv")
    assert got.exit_code == 0, got.output
    assert f"{event.trf}: started from the entries" in got.stderr
    boards = [(int(r["white"]), int(r["black"])) for r in rows(got.stdout)]
    assert boards[0] == (1, 7)  # round 1: the top half against the bottom half
    t = read_tournament(event.trf)
    assert t.current is not None and [(b.white, b.black) for b in t.current.boards] == boards
    assert violations(t, t.current) == []
    shown = event.run("pairings", "--format", "csv")
    assert shown.exit_code == 0 and rows(shown.stdout) == rows(got.stdout)


def test_round_results_in_every_spelling_reach_the_trf_and_the_standings(event: Event) -> None:
    boards = paired(event)
    typed = ["1-0", "0-1", "½-½", "1/2-1/2", "+-", "-+"]
    for board, value in zip(boards, typed, strict=True):
        got = result(event, board["board"], value)
        assert got.exit_code == 0, got.output
    t = read_tournament(event.trf)
    assert t.finished_rounds == 1 and t.current is None
    kinds = {(p.start_no, p.rounds[0].kind.value) for p in t.section.players}
    expected = {"1-0": "10", "0-1": "01", "½-½": "==", "1/2-1/2": "==", "+-": "+-", "-+": "-+"}
    for board, value in zip(boards, typed, strict=True):
        white, black = int(board["white"]), int(board["black"])
        assert {(white, expected[value][0]), (black, expected[value][1])} <= kinds
    got = event.run("standings", "--format", "csv")
    assert got.stdout.startswith("place,start_no,name,id,points,MM,SOLK,CUM\n")  # event.toml's
    table = {int(r["start_no"]): r for r in rows(got.stdout)}
    assert {n: Fraction(r["points"]) for n, r in table.items()} == {
        p.start_no: p.points for p in t.section.players
    }


def test_round_forfeits_are_typed_as_they_are_written(event: Event) -> None:
    """A result starting with '-' is a result, not an option: '-+' and '0f-0f' are typed as
    they are, with --section after them."""
    boards = paired(event)
    for board, value in zip(boards, ["-+", "0f-0f"], strict=False):
        got = invoke("round", event.toml, "result", board["board"], value, "--section", "A")
        assert got.exit_code == 0, got.output
    t = read_tournament(event.trf)
    assert t.current is not None
    assert [b.result for b in t.current.boards[:2]] == ["-+", "--"]


def test_round_standings_while_results_are_missing_are_provisional(event: Event) -> None:
    boards = paired(event)
    assert result(event, boards[0]["board"], "1-0").exit_code == 0
    got = event.run("standings", "--format", "csv")
    assert got.exit_code == 0
    assert "provisional: round 1's board(s) 2, 3, 4, 5, 6 have no result yet" in got.stderr
    points = {int(r["start_no"]): r["points"] for r in rows(got.stdout)}
    assert points[int(boards[0]["white"])] == "1"
    assert sum(Fraction(p) for p in points.values()) == 1


def test_round_undo_takes_back_a_pairing_without_results_and_refuses_once_one_is_in(
    event: Event,
) -> None:
    paired(event)
    undone = event.run("undo")
    assert undone.exit_code == 0 and "the pairing of round 1 is undone" in undone.stdout
    assert read_tournament(event.trf).current is None
    boards = paired(event)
    assert result(event, boards[2]["board"], "½-½").exit_code == 0
    before = event.trf.read_bytes()
    refused = event.run("undo")
    assert refused.exit_code == EXIT_INPUT
    assert "a pairing is undone only while no result is in" in refused.stderr
    assert event.trf.read_bytes() == before


def test_round_bye_and_withdrawal_keep_the_players_out_of_the_next_pairing(event: Event) -> None:
    for board in paired(event):
        assert result(event, board["board"], "1-0").exit_code == 0
    assert event.run("bye", "3", "2").exit_code == 0
    withdrawn = event.run("withdraw", "Costa, Kaito")
    assert withdrawn.exit_code == 0 and "player 12 withdrawn from round 2" in withdrawn.stdout
    second = paired(event)
    kinds = {int(r["white"]): r["kind"] for r in second if r["kind"] != "game"}
    assert kinds == {3: "half-point-bye", 12: "zero-point-bye"}  # 10 to pair: no PAB
    t = read_tournament(event.trf)
    assert t.current is not None and t.plan.withdrawn_from(12) == 2
    for board in second:
        if board["kind"] == "game":
            assert result(event, board["board"], "0-1").exit_code == 0
    third = paired(event)
    without = {int(r["white"]): r["kind"] for r in third if r["kind"] != "game"}
    assert without.pop(12) == "zero-point-bye"  # withdrawn: never paired again
    assert list(without.values()) == ["pairing-bye"]  # 11 to pair
    assert standings(event)[3]["points"] == "1.5"  # a win in round 1, and the half-point bye


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("result", "9", "1-0"), id="no-board-9"),
        pytest.param(("result", "1", "2-0"), id="result-2-0"),
        pytest.param(("result", "1", "0-1"), id="result-changed-without-round"),
        pytest.param(("result", "0", "1-0"), id="board-0"),
        pytest.param(("bye", "Nobody", "2"), id="bye-unknown-player"),
        pytest.param(("bye", "5", "1"), id="bye-in-the-round-paired"),
        pytest.param(("withdraw", "99"), id="withdraw-unknown-player"),
        pytest.param(("pair",), id="pair-while-unfinished"),
        pytest.param(("standings", "--round", "2"), id="standings-of-a-round-not-played"),
    ],
)
def test_round_refuses_a_wrong_change_with_exit_2_and_the_trf_unchanged(
    event: Event, args: tuple[str, ...]
) -> None:
    boards = paired(event)
    assert result(event, boards[0]["board"], "1-0").exit_code == 0
    before = event.trf.read_bytes()
    got = event.run(*args)
    assert got.exit_code == EXIT_INPUT, got.output
    assert "Traceback" not in got.output and got.output.strip()
    assert event.trf.read_bytes() == before


def test_four_rounds_of_a_section_make_a_results_file_the_season_reads_with_the_same_scores(
    event: Event,
) -> None:
    typed = ["1-0", "0-1", "½-½", "1/2-1/2", "1-0", "+-", "-+", "--", "0-1", "="]
    entered = 0
    for number in range(1, 5):
        if number == 2:
            assert event.run("bye", "4", "2", "--kind", "zero").exit_code == 0
            assert event.run("bye", "6", "3", "--kind", "half").exit_code == 0
        if number == 3:
            assert event.run("withdraw", "9").exit_code == 0
        boards = [r for r in paired(event) if r["kind"] == "game"]
        t = read_tournament(event.trf)
        assert t.current is not None and t.current.number == number
        assert violations(t, t.current) == []
        for board in boards:
            got = result(event, board["board"], typed[entered % len(typed)])
            assert got.exit_code == 0, got.output
            entered += 1
    done = invoke("round", event.toml, "pair", "--section", "A")
    assert done.exit_code == EXIT_INPUT and "all 4 rounds are paired" in done.stderr
    table = standings(event)
    season, problems = load_section(event.trf)
    assert season is not None and problems == []
    assert season.rounds == 4 and len(season.players) == 12
    assert {p.start_no: p.points for p in season.players} == {
        n: Fraction(r["points"]) for n, r in table.items()
    }
    assert {p.start_no: p.points for p in season.players} == {
        n: Fraction(r["points"]) for n, r in standings(event, "--round", "4").items()
    }
    kinds = {r.kind.value for p in season.players for r in p.rounds}
    assert {"1", "0", "=", "+", "-", "H", "Z"} <= kinds

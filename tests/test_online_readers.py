"""The lichess and chess.com readers: a Swiss's and an Arena's results (NDJSON), lichess's TRF
read by the TRF reader, a chess.com group (PubAPI JSON); each hostile file a located problem.

The chess.com group is a real response (tests/data/chesscom, MIT); the lichess files are
written from the published description of the formats (tests/data/lichess/SOURCE.txt).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import TEST_DATA
from grandprix.model import Problem, ResultKind, Section, Severity
from grandprix.readers import chess_results, chesscom, lichess, standings_csv, trf
from grandprix.readers.chesscom import RESULT_CODES, read_chesscom
from grandprix.readers.lichess import read_lichess
from grandprix.readers.trf import read_trf
from grandprix.tiebreaks import Context, Rules, parse, rules_table

K = ResultKind
LICHESS = TEST_DATA / "lichess"
CHESSCOM = TEST_DATA / "chesscom"
GROUP = CHESSCOM / "quick-knockouts-1401-1600-round-1-group-1.json"


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity is Severity.ERROR]


def read_file(path: Path) -> tuple[Section | None, list[Problem]]:
    reader = read_chesscom if path.suffix == ".json" else read_lichess
    return reader(path, path.read_bytes())


def lichess_lines(tmp_path: Path, *lines: str | bytes, end: bytes = b"\n") -> Path:
    path = tmp_path / "results.ndjson"
    path.write_bytes(b"\n".join(x.encode() if isinstance(x, str) else x for x in lines) + end)
    return path


def one_error(section: Section | None, problems: list[Problem]) -> Problem:
    found = errors(problems)
    assert found, problems
    return found[0]


SWISS_1 = '{"rank":1,"points":6,"tieBreak":20.5,"rating":2150,"username":"Kit_Fox"}'
SWISS_2 = '{"rank":2,"points":5.5,"tieBreak":19.75,"rating":2286,"username":"owl-99"}'


# lichess: a Swiss's results


def test_lichess_swiss_players_are_known_by_their_lower_case_user_id() -> None:
    section, problems = read_file(LICHESS / "club-swiss-results.ndjson")
    assert problems == [] and section is not None
    columns = section.columns
    assert columns.name[:2] == ("Ada_K", "Dmitri77")
    assert columns.fide_id[:2] == ("lichess:ada_k", "lichess:dmitri77")
    assert section.players[0].id == "lichess:ada_k"
    assert not section.has_crosstable and section.rounds == 0


def test_lichess_swiss_points_and_ranks_are_as_declared_and_exact() -> None:
    section, _ = read_file(LICHESS / "club-swiss-results.ndjson")
    assert section is not None
    columns = section.columns
    assert columns.points == tuple(Fraction(n, 2) for n in (5, 5, 5, 3, 1, 0))
    assert all(type(p) is Fraction for p in columns.points)
    assert columns.rank == ("1", "2", "3", "4", "5", "6")
    assert columns.rating[:3] == (2105, 1890, 1820) and columns.title[0] == "FM"
    assert dict(columns.extra[0])["tie_break"] == "2.75"
    assert dict(columns.extra[4]) == {"performance": "1390", "tie_break": "0", "absent": "yes"}


def test_lichess_results_are_recognised_and_claimed_by_no_other_reader() -> None:
    for name in ("club-swiss-results.ndjson", "spring-arena-results.ndjson"):
        head = (LICHESS / name).read_bytes()[:4096]
        assert lichess.recognise(".ndjson", head)
        assert not chesscom.recognise(".json", head)
        assert not trf.recognise(".ndjson", head) and not chess_results.recognise(".ndjson", head)
        assert not standings_csv.recognise(".ndjson", head)
    assert not lichess.recognise(".json", GROUP.read_bytes()[:4096])
    assert not lichess.recognise(".trf", (LICHESS / "club-swiss-finished.trf").read_bytes())


# lichess: an Arena's results


def test_lichess_arena_score_is_the_points_and_the_sheet_the_games_played() -> None:
    section, problems = read_file(LICHESS / "spring-arena-results.ndjson")
    assert problems == [] and section is not None
    columns = section.columns
    assert columns.points == tuple(map(Fraction, (31, 24, 12, 0)))
    assert columns.played == (10, 13, 8, 2)
    assert section.rounds == 0  # an Arena has no rounds: each plays as many games as they can
    assert columns.fide_id[2] == "lichess:tidal-bishop" and columns.title[0] == "CM"
    assert section.players[1].declared_played == 13


def test_lichess_arena_without_sheet_has_no_games_played(tmp_path: Path) -> None:
    path = lichess_lines(tmp_path, '{"rank":1,"score":149,"rating":2394,"username":"Gg_B"}')
    section, problems = read_file(path)
    assert problems == [] and section is not None
    assert section.columns.points == (Fraction(149),) and section.columns.played == (0,)


def test_lichess_arena_sheet_that_does_not_add_up_is_a_located_warning(tmp_path: Path) -> None:
    line = '{"rank":1,"score":9,"rating":2394,"username":"Gg_B","sheet":{"scores":"2220"}}'
    section, problems = read_file(lichess_lines(tmp_path, line))
    assert section is not None and section.columns.points == (Fraction(9),)
    [warning] = problems
    assert warning.severity is Severity.WARNING and "add up to 6" in warning.message
    assert (warning.location.line, warning.location.column) == (1, line.index('"sheet"') + 1)


# lichess: hostile results files


@pytest.mark.parametrize(
    ("lines", "line", "column", "words"),
    [
        ((SWISS_1, '{"rank":2,"points":"5.5","username":"owl"}'), 2, 11, "not a number"),
        ((SWISS_1, '{"rank":2,"points":NaN,"username":"owl"}'), 2, 0, "not readable JSON"),
        ((SWISS_1, '{"rank":2,"points":1e999999999,"username":"o"}'), 2, 11, "not a number"),
        (
            (SWISS_1, '{"rank":2,"points":1.5,"username":"owl"}'.replace("1.5", "9" * 5000)),
            2,
            0,
            "not readable JSON",
        ),
        ((SWISS_1, '{"rank":2,"points":-1,"username":"owl"}'), 2, 11, "from 0 to"),
        ((SWISS_1, '{"rank":2,"points":true,"username":"owl"}'), 2, 11, "not a number"),
        ((SWISS_1, '{"rank":2,"points":5,"username":"ow l"}'), 2, 22, "lichess username"),
        ((SWISS_1, '{"rank":2,"points":5}'), 2, 1, "'username' is missing"),
        ((SWISS_1, '{"rank":2,"points":5,"username":"kit_fox"}'), 2, 22, "listed twice"),
        ((SWISS_1, '{"rank":3,"points":5,"username":"owl"}'), 2, 2, "line is missing"),
        ((SWISS_1, '{"rank":2.0,"points":5,"username":"owl"}'), 2, 2, "whole number"),
        ((SWISS_1, '{"rank":2,"score":5,"username":"owl"}'), 2, 1, "'points' is missing"),
        ((SWISS_1, '{"rank":2,"points":5,"username":"owl","rating":"1500"}'), 2, 39, "rating"),
        ((SWISS_1, '{"rank":2,"points":5,"username":"owl","title":"<b>"}'), 2, 39, "title"),
        ((SWISS_1, '{"rank":2,"points":5,"username":"owl","absent":"no"}'), 2, 39, "true or false"),
        ((SWISS_1, '["rank", 2]'), 2, 1, "not an object"),
        (('{"rank":1,"username":"owl"}',), 1, 1, "neither 'points'"),
        (("<!DOCTYPE html>",), 1, 1, "not JSON"),
        (('{"rank":1,"score":3,"username":"o","sheet":{"scores":"2x"}}',), 1, 36, "one digit"),
        ((SWISS_1, "[" * 30_000 + "]" * 30_000), 2, 0, "nested too deeply"),
    ],
)
def test_lichess_hostile_line_is_a_located_error(
    tmp_path: Path, lines: tuple[str, ...], line: int, column: int, words: str
) -> None:
    section, problems = read_file(lichess_lines(tmp_path, *lines))
    found = one_error(section, problems)
    assert words in found.message
    assert (found.location.line, found.location.column) == (line, column), found


def test_lichess_file_cut_short_is_an_error_at_its_last_line(tmp_path: Path) -> None:
    cut = SWISS_2[:30]
    section, problems = read_file(lichess_lines(tmp_path, SWISS_1, cut, end=b""))
    found = one_error(section, problems)
    assert "cut short" in found.message and found.location.line == 2


def test_lichess_results_with_a_latin1_byte_are_refused_at_the_byte(tmp_path: Path) -> None:
    path = lichess_lines(tmp_path, SWISS_1, SWISS_2.replace("owl-99", "ow\xe9").encode("latin-1"))
    section, problems = read_file(path)
    found = one_error(section, problems)
    assert section is None and "not UTF-8" in found.message
    assert (found.location.line, found.location.column) == (2, SWISS_2.index("owl") + 3)


def test_lichess_results_in_utf16_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.ndjson"
    path.write_bytes("\n".join((SWISS_1, SWISS_2)).encode("utf-16"))
    section, problems = read_file(path)
    assert section is None and "UTF-16" in one_error(section, problems).message


def test_lichess_results_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    path = lichess_lines(tmp_path, b"\xef\xbb\xbf" + SWISS_1.encode(), SWISS_2)
    section, problems = read_file(path)
    assert problems == [] and section is not None and section.size == 2


def test_lichess_results_over_the_bounds_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = lichess_lines(tmp_path, SWISS_1, SWISS_2, SWISS_2.replace('"rank":2', '"rank":3'))
    monkeypatch.setattr(lichess, "MAX_PLAYERS", 2)
    found = one_error(*read_file(path))
    assert "more than 2 players" in found.message and found.location.line == 3
    monkeypatch.setattr(lichess, "MAX_BYTES", 100)
    section, problems = read_file(path)
    assert section is None and "at most 100 bytes" in one_error(section, problems).message
    long = lichess_lines(tmp_path, SWISS_1, "x" * (lichess.MAX_LINE + 1))
    monkeypatch.setattr(lichess, "MAX_BYTES", 10**6)
    found = one_error(*read_file(long))
    assert "characters long" in found.message and found.location.line == 2


def test_lichess_file_of_garbage_stops_after_a_bounded_number_of_problems(tmp_path: Path) -> None:
    section, problems = read_file(lichess_lines(tmp_path, *["{]"] * 1000))
    assert section is None and len(problems) == lichess.MAX_PROBLEMS + 1
    assert "reading stopped" in problems[-1].message


def test_an_empty_lichess_file_says_it_has_no_results(tmp_path: Path) -> None:
    section, problems = read_file(lichess_lines(tmp_path, "", end=b"\n\n"))
    assert section is None and "no results" in one_error(section, problems).message


# lichess: the Swiss's TRF export, read by the TRF reader


def test_lichess_trf_of_a_finished_swiss_reads_as_a_crosstable() -> None:
    path = LICHESS / "club-swiss-finished.trf"
    section, problems = read_trf(path, path.read_bytes())
    assert problems == [] and section is not None
    assert [p.name for p in section.players][:2] == ["ada_k", "bruno-b"]
    assert [p.points for p in section.players] == [Fraction(n, 2) for n in (5, 3, 0, 5, 5, 1)]
    finn = section.player(6)
    assert [r.kind for r in finn.rounds] == [K.HALF_BYE, K.FORFEIT_LOSS, K.ABSENT]
    assert section.player(5).rounds[0].kind is K.PAIRING_BYE
    # lichess's date ("Oct 3, 2026") is read; it writes no rank; the user id in the name field
    # is the player's id, the same as the results reader gives the same player.
    assert section.date == "2026-10-03" and section.player(1).declared_rank == ""
    results = LICHESS / "club-swiss-results.ndjson"
    listed, _ = read_lichess(results, results.read_bytes())
    assert listed is not None
    assert {p.fide_id for p in section.players} == {p.fide_id for p in listed.players}
    assert section.player(1).fide_id == "lichess:ada_k"


def test_lichess_tie_break_of_the_results_is_the_lichess_sonneborn_berger_of_the_trf() -> None:
    # The same Swiss, exported twice: lichess's results give its tie-break as a number, the TRF
    # gives the games it comes from. Ada_K and Dmitri77 show the rule's two unplayed rounds:
    # Dmitri77's forfeit win counts the opponent's half point, his last-round bye a virtual
    # opponent with his 1.5 points; Eva_Chess's first-round bye a virtual opponent with 0 + 1.
    path = LICHESS / "club-swiss-finished.trf"
    section, _ = read_trf(path, path.read_bytes())
    results = LICHESS / "club-swiss-results.ndjson"
    listed, _ = read_lichess(results, results.read_bytes())
    assert section is not None and listed is not None
    published = {p.fide_id: Fraction(dict(p.extra)["tie_break"]) for p in listed.players}
    values = rules_table(Rules.LICHESS)["SB"](
        Context(section, Rules.LICHESS), parse("SB", Rules.LICHESS)[0]
    )
    computed = {p.fide_id: value for p, value in zip(section.players, values, strict=True)}
    assert computed == published
    assert computed["lichess:dmitri77"] == Fraction(11, 4)
    # No FIDE or US Chess reading of SB gives lichess's numbers.
    for rules in (Rules.FIDE_2024, Rules.FIDE_2026, Rules.FIDE_2009, Rules.US_CHESS):
        other = rules_table(rules)["SB"](Context(section, rules), parse("SB", rules)[0])
        assert dict(zip(computed, other, strict=True)) != published


def test_lichess_trf_of_a_swiss_being_played_reads_its_games_as_zero_point_byes() -> None:
    path = LICHESS / "club-swiss-round-2-ongoing.trf"
    section, problems = read_trf(path, path.read_bytes())
    assert errors(problems) == [] and section is not None
    assert sum("bye 'Z'" in p.message for p in problems) == 4
    ada = section.player(1)
    assert ada.rounds[1].kind is K.ZERO_BYE and ada.rounds[1].opponent is None
    # The block lichess adds for the player who left makes a third round that everyone else
    # is read as having withdrawn from.
    assert section.rounds == 3 and ada.rounds[2].kind is K.WITHDRAWN


# chess.com: a group of a round


def test_chesscom_group_reads_every_game_as_a_round_of_both_players() -> None:
    section, problems = read_file(GROUP)
    assert problems == [] and section is not None
    assert [p.name for p in section.players] == [
        "telo21",
        "mrtn",
        "pedege",
        "Rockaround",
        "KingKongsBro",
    ]
    assert [p.points for p in section.players] == [Fraction(n, 2) for n in (11, 9, 9, 7, 4)]
    assert [p.declared_rank for p in section.players] == ["1", "2", "3", "4", "5"]
    assert section.players[3].id == "chesscom:rockaround" and section.players[3].rating == 1445
    assert all(sum(r.kind.played for r in p.rounds) == 8 for p in section.players)
    assert section.round_robin and section.date == "2016-07-02"
    assert dict(section.players[0].extra) == {"tie_break": "20", "advancing": "yes"}


def test_chesscom_group_rounds_mirror_each_other() -> None:
    section, _ = read_file(GROUP)
    assert section is not None
    for player in section.players:
        for r in player.rounds:
            if r.opponent is None:
                assert r.kind is K.ABSENT and r.points == 0
                continue
            other = section.player(r.opponent).rounds[r.number - 1]
            assert other.opponent == player.start_no and {r.colour, other.colour} == {"w", "b"}
            assert r.points + other.points == 1


def test_chesscom_games_of_a_player_are_numbered_in_the_order_they_started_and_ended() -> None:
    data = json.loads(GROUP.read_bytes())
    section, _ = read_file(GROUP)
    assert section is not None
    mrtn = section.player(2)
    started = sorted(
        (g["start_time"], g["end_time"], g["white"]["username"], g["black"]["username"])
        for g in data["games"]
        if "mrtn" in (g["white"]["username"], g["black"]["username"])
    )
    names = {p.start_no: p.name for p in section.players}
    opponents = [names[r.opponent] for r in mrtn.rounds if r.opponent is not None]
    assert opponents == [w if b == "mrtn" else b for _, _, w, b in started]


def group(*games: dict[str, Any], players: dict[str, float] | None = None) -> bytes:
    """A group's JSON of ``games`` (each ``game(...)``) and its players' points (from the
    games unless given)."""
    points: dict[str, float] = {}
    for g in games:
        for side in ("white", "black"):
            if isinstance(g[side], dict):
                outcome = RESULT_CODES.get(g[side]["result"], "loss")
                points[g[side]["username"]] = points.get(g[side]["username"], 0) + {
                    "win": 1,
                    "draw": 0.5,
                }.get(outcome, 0)
    listed = [
        {"username": u.lower(), "points": p, "tie_break": 0} for u, p in (players or points).items()
    ]
    return json.dumps({"fair_play_removals": [], "players": listed, "games": list(games)}).encode()


def game(
    white: str, white_result: str, black: str, black_result: str, **more: Any
) -> dict[str, Any]:
    return {
        "white": {"username": white, "rating": 1500, "result": white_result},
        "black": {"username": black, "rating": 1500, "result": black_result},
        "start_time": 1_700_000_000,
        **more,
    }


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "group.json"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("win", 1),
        ("agreed", 0.5),
        ("repetition", 0.5),
        ("stalemate", 0.5),
        ("insufficient", 0.5),
        ("50move", 0.5),
        ("timevsinsufficient", 0.5),
        ("checkmated", 0),
        ("resigned", 0),
        ("timeout", 0),
        ("abandoned", 0),
        ("lose", 0),
        ("kingofthehill", 0),
        ("threecheck", 0),
        ("bughousepartnerlose", 0),
    ],
)
def test_chesscom_result_codes_score_one_half_or_nothing(
    tmp_path: Path, code: str, points: float
) -> None:
    other = {1: "checkmated", 0.5: code, 0: "win"}[points]
    section, problems = read_file(write(tmp_path, group(game("Ann", code, "Bo", other))))
    assert problems == [] and section is not None
    ann = next(p for p in section.players if p.name == "Ann")
    assert (
        ann.points == Fraction(points)
        and ann.rounds[0].kind.outcome == ({1: "win", 0.5: "draw", 0: "loss"}[points])
    )
    assert len(RESULT_CODES) == 15


def test_chesscom_round_tags_give_the_rounds_when_every_game_has_one(tmp_path: Path) -> None:
    games = [
        game("A", "win", "B", "resigned", pgn='[Event "x"]\n[Round "2"]\n'),
        game("C", "win", "A", "timeout", pgn='[Round "1"]\n'),
    ]
    section, problems = read_file(write(tmp_path, group(*games)))
    assert problems == [] and section is not None and section.rounds == 2
    a = next(p for p in section.players if p.name == "A")
    assert [r.kind for r in a.rounds] == [K.LOSS, K.WIN]


def test_chesscom_game_being_played_is_left_out_with_a_warning(tmp_path: Path) -> None:
    url = "https://api.chess.com/pub/player/"
    playing = {"white": url + "ann", "black": url + "bo", "start_time": 1_700_000_500}
    data = group(game("Ann", "win", "Bo", "resigned"), playing, players={"Ann": 1, "Bo": 0})
    section, problems = read_file(write(tmp_path, data))
    [warning] = problems
    assert warning.severity is Severity.WARNING and "games[1]: " in warning.message
    assert section is not None and section.rounds == 1


def test_chesscom_game_against_a_fair_play_removal_is_left_out(tmp_path: Path) -> None:
    data = json.loads(
        group(game("Ann", "win", "Bo", "resigned"), game("Ann", "win", "Cy", "resigned"))
    )
    data["fair_play_removals"] = ["cy"]
    data["players"] = [p for p in data["players"] if p["username"] != "cy"]
    data["players"][0]["points"] = 1
    section, problems = read_file(write(tmp_path, json.dumps(data).encode()))
    assert [p.severity for p in problems] == [Severity.WARNING] and "fair play" in problems[
        0
    ].message
    assert section is not None and [p.name for p in section.players] == ["Ann", "Bo"]


@pytest.mark.parametrize(
    "name", ["quick-knockouts-1401-1600.json", "quick-knockouts-1401-1600-round-1.json"]
)
def test_chesscom_tournament_or_round_is_refused_with_the_address_to_save(name: str) -> None:
    section, problems = read_file(CHESSCOM / name)
    assert section is None
    found = one_error(section, problems)
    assert "{round}/{group}" in found.message
    assert "https://api.chess.com/pub/tournament/-33rd-chesscom-quick-knockouts-1401-1600/1" in (
        found.message
    )
    assert chesscom.recognise(".json", (CHESSCOM / name).read_bytes()[:4096])


def test_chesscom_group_is_recognised_and_claimed_by_no_other_reader() -> None:
    head = GROUP.read_bytes()[:4096]
    assert chesscom.recognise(".json", head) and not chesscom.recognise(".csv", head)
    assert not trf.recognise(".json", head) and not chess_results.recognise(".json", head)


# chess.com: hostile groups


def edited(change: Any) -> bytes:
    data = json.loads(GROUP.read_bytes())
    change(data)
    return json.dumps(data).encode()


def _set(path: str, value: Any) -> Any:
    def change(data: Any) -> None:
        *parents, last = path.split(".")
        node = data
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value

    return change


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (edited(_set("players.1.points", "4.5")), "players[1].points: the text '4.5' is not"),
        (edited(_set("players.0.points", 5.5)), "players[0].points: mrtn has 5.5 points"),
        (edited(_set("players.1.username", None)), "players[1].username: missing"),
        (edited(_set("players.1.tie_break", [1])), "players[1].tie_break: a JSON array"),
        (edited(_set("players.1.is_advancing", "no")), "players[1].is_advancing"),
        (edited(_set("players.4", "rockaround")), "players[4]: the text 'rockaround' is not"),
        (edited(_set("players.4.username", "MRTN")), "listed twice (first at players[0])"),
        (edited(_set("games.3.white.result", "won")), "games[3].white.result: the text 'won'"),
        (edited(_set("games.3.white.result", "win")), "games[3]: the results do not match"),
        (edited(_set("games.3.white.rating", 1e9)), "games[3].white.rating"),
        (edited(_set("games.3.white.username", "nobody")), "'nobody' is not one of"),
        (edited(_set("games.3.black.username", "Rockaround")), "plays both white and black"),
        (edited(_set("games.3.white", "https://evil.example/x")), "games[3].white: "),
        (edited(_set("games.3.start_time", -5)), "games[3].start_time"),
        (edited(_set("games", {})), "expected an object with 'players' and 'games'"),
        (b"[1, 2]", "a JSON array"),
        (GROUP.read_bytes()[:5000], "cut short"),
        (
            GROUP.read_bytes().replace(b'"points":4.5', b'"points":4.5e999999999', 1),
            "players[0].points",
        ),
        (GROUP.read_bytes().replace(b'"points":4.5', b'"points":NaN', 1), "not readable JSON"),
        (b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
        ('{"fair_play_removals":["é"]}'.encode("latin-1"), "not UTF-8"),
    ],
)
def test_chesscom_hostile_group_is_a_located_error(tmp_path: Path, data: bytes, words: str) -> None:
    section, problems = read_file(write(tmp_path, data))
    assert section is None
    found = one_error(section, problems)
    assert words in found.message, found
    assert found.location.path.endswith("group.json")


def test_chesscom_group_over_the_bounds_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, GROUP.read_bytes())
    monkeypatch.setattr(chesscom, "MAX_GAMES", 10)
    assert "and 10 games" in one_error(*read_file(path)).message
    monkeypatch.setattr(chesscom, "MAX_GAMES", 1000)
    monkeypatch.setattr(chesscom, "MAX_ROUNDS", 5)
    assert "at most 5 rounds" in one_error(*read_file(path)).message
    monkeypatch.setattr(chesscom, "MAX_BYTES", 1000)
    assert "at most 1,000 bytes" in one_error(*read_file(path)).message


def test_chesscom_many_games_of_one_pair_stay_bounded(tmp_path: Path) -> None:
    games = [game("A", "agreed", "B", "agreed") for _ in range(chesscom.MAX_ROUNDS + 1)]
    section, problems = read_file(write(tmp_path, group(*games)))
    assert section is None and "rounds" in one_error(section, problems).message


def test_a_season_of_online_events_knows_a_player_by_their_username(tmp_path: Path) -> None:
    """Two lichess events of a season (the second spelling the username in another case) and
    a chess.com group: the username is an id of its own kind, so the two lichess results are
    one person's, whom players.csv names; the chess.com player is another person."""
    from grandprix.season.standings import standings
    from seasons import event, load, season_toml, write_season

    swiss = (LICHESS / "club-swiss-results.ndjson").read_text(encoding="utf-8")
    again = swiss.replace('"Ada_K"', '"ada_k"')
    group = (CHESSCOM / "quick-knockouts-1401-1600-round-1-group-1.json").read_bytes()
    (tmp_path / "group.json").write_bytes(group)
    toml = season_toml(
        '[rules]\npreset = "utah-2012"\neligibility = { require = {} }',
        event("Club Swiss 1", "swiss-1.ndjson", "2012-03-01"),
        event("Club Swiss 2", "swiss-2.ndjson", "2012-04-01"),
        event("Online group", "group.json", "2012-05-01"),
    )
    players = 'id,name\nlichess:ada_k,"Kowalska, Ada"\n'
    folder = write_season(
        tmp_path, toml, {"swiss-1.ndjson": swiss, "swiss-2.ndjson": again, "players.csv": players}
    )
    lines = {line.name: line for line in standings(load(folder))}
    ada = lines["Kowalska, Ada"]
    assert ada.player.label == "lichess:ada_k" and ada.events == 2
    assert "telo21" in lines and lines["telo21"].player.label == "chesscom:telo21"

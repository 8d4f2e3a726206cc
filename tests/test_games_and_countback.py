"""An evening as its list of games (the ``games`` format), points by the kind of each game (a
``games`` term, DWO-1), a best N that changes from a date (DWO-2), and the season tie-break by
countback (DWO-3): hand-worked cases on a made-up evening, and the located errors."""

from __future__ import annotations

import datetime
from fractions import Fraction
from pathlib import Path

from conftest import TEST_DATA
from grandprix.readers import detect_format
from grandprix.readers.games_csv import read_games_csv
from grandprix.season.config import load_season
from grandprix.season.standings import standings
from test_rule_language import earned, results, run, season

EVENING = TEST_DATA / "games" / "evening.csv"
F = Fraction


def scores(text: str, tmp_path: Path) -> tuple[dict[str, Fraction], list[str]]:
    path = tmp_path / "games.csv"
    path.write_text(text, encoding="utf-8")
    section, problems = read_games_csv(path)
    got = {p.name: p.points for p in section.players} if section is not None else {}
    return got, [str(p) for p in problems]


def test_the_evening_is_a_crosstable_of_its_games() -> None:
    """Ann 1, bye, ½; Bob 0, 0, 1; Cid ½, 1, ½; Dee ½, forfeit win, absent; Eve bye, forfeit
    loss, 0: the byes are the pairing's (a point), Dee was not paired in round 3."""
    data = EVENING.read_bytes()
    assert detect_format(EVENING, data) == "games"
    section, problems = read_games_csv(EVENING, data)
    assert section is not None and not problems
    assert section.rounds == 3
    got = {p.name: p.points for p in section.players}
    assert got == {"Ann": F(5, 2), "Bob": 1, "Cid": 2, "Dee": F(3, 2), "Eve": 1}
    dee = next(p for p in section.players if p.name == "Dee")
    assert [r.kind.name for r in dee.rounds] == ["DRAW", "FORFEIT_WIN", "ABSENT"]


def test_one_result_cell_and_a_round_column(tmp_path: Path) -> None:
    text = "round,white,black,result\n1,A,B,1-0\n1,C,D,1/2-1/2\n2,B,C,-+\n2,D,A,--\n"
    got, problems = scores(text, tmp_path)
    assert not problems
    assert got == {"A": 1, "B": 0, "C": F(3, 2), "D": F(1, 2)}


def test_a_result_that_is_no_games_is_located(tmp_path: Path) -> None:
    _, problems = scores("wit,zwart,wr,zr\npartij 1,,,\nA,B,1,1\n", tmp_path)
    assert any(":3:" in p and "'white_result, black_result' = '1, 1'" in p for p in problems)


def test_a_player_twice_in_a_round_is_located_with_both_lines(tmp_path: Path) -> None:
    text = "white,black,result\nround 1,,\nA,B,1-0\nC,A,0-1\n"
    _, problems = scores(text, tmp_path)
    assert any(":4:" in p and "plays twice in round 1 (also on line 3)" in p for p in problems)


def test_a_game_before_any_round_is_located(tmp_path: Path) -> None:
    _, problems = scores("white,black,result\nA,B,1-0\n", tmp_path)
    assert any(":2:" in p and "a game before any round" in p for p in problems)


PER_GAME = (
    '[points]\nterms = [{ kind = "games", per_game = { win = 3, draw = 2, loss = 1, bye = 2 } }]\n'
)


def test_dwo1_each_game_by_its_kind(tmp_path: Path) -> None:
    """3 a win, 2 a draw, 1 a loss, 2 a bye, a forfeit win as a win, a forfeit loss and a
    round absent nothing: Ann 3 + 2 + 2, Bob 1 + 1 + 3, Cid 2 + 3 + 2, Dee 2 + 3 + 0,
    Eve 2 + 0 + 1."""
    folder = season(tmp_path, PER_GAME, ("Oct", "", EVENING.read_text(encoding="utf-8")))
    (folder / "e1.trf").unlink(missing_ok=True)
    got = earned(folder)
    assert {name: got[("Oct", name)] for name in ("Ann", "Bob", "Cid", "Dee", "Eve")} == {
        "Ann": 7,
        "Bob": 5,
        "Cid": 7,
        "Dee": 5,
        "Eve": 3,
    }


def test_a_games_term_on_a_standings_list_is_an_error(tmp_path: Path) -> None:
    folder = season(tmp_path, PER_GAME, ("Oct", "", results("name,points", "A,2", "B,1")))
    found, problems = load_season(folder)
    assert found is None
    assert any("e1.csv" in str(p) and "lists final scores only" in str(p) for p in problems)


SCORE = '[points]\nfrom_score = true\n[standings]\ntiebreaks = ["events", "countback"]\n'


def test_dwo3_events_played_then_the_best_result_then_the_next(tmp_path: Path) -> None:
    """All on 10: D in one event comes last (fewer events); then C's best 7, A's 6, B's 5."""
    folder = season(
        tmp_path,
        SCORE,
        ("E1", "", results("name,points", "A,6", "B,5", "C,7", "D,10")),
        ("E2", "", results("name,points", "A,4", "B,5", "C,3")),
    )
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    assert [(line.name, line.rank_first) for line in standings(found)] == [
        ("C", 1),
        ("A", 2),
        ("B", 3),
        ("D", 4),
    ]


def test_dwo3_equal_on_every_result_share_the_rank(tmp_path: Path) -> None:
    folder = season(
        tmp_path,
        SCORE,
        ("E1", "", results("name,points", "A,6", "B,4")),
        ("E2", "", results("name,points", "A,4", "B,6")),
    )
    found, _ = load_season(folder)
    assert found is not None
    assert [(line.rank_first, line.rank_last) for line in standings(found)] == [(1, 2), (1, 2)]


def test_dwo2_the_best_n_changes_from_its_date(tmp_path: Path) -> None:
    """Best 2 until 15 February, the best 1 from then. On 1 February A has 3 + 2 = 5; the
    season's table stands on its last event's day, 1 March: A's best 3 alone. A change whose
    day has not come counts in no standings yet."""
    rules = (
        '[points]\nfrom_score = true\n[counting]\nmode = "best"\nbest = 2\n'
        "changes = [{ date = 2012-02-15, best = 1 }, { date = 2012-12-01, best = 3 }]\n"
    )
    folder = season(
        tmp_path,
        rules,
        ("E1", "", results("name,points", "A,3")),
        ("E2", "", results("name,points", "A,2")),
        ("E3", "", results("name,points", "A,1")),
    )
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    assert standings(found, datetime.date(2012, 2, 1))[0].total == 5
    assert standings(found)[0].total == 3
    code, _, err = run("site", str(folder), "-o", str(tmp_path / "site"))
    assert code == 0, err
    after_e2 = (tmp_path / "site" / "events" / "after-002.html").read_text(encoding="utf-8")
    assert ">5.00<" in after_e2 and ">3.00<" not in after_e2  # that day's rule: the best 2

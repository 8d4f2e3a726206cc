"""The event day in the workspace (``serve/rounds.py``): a director pairs the rounds of an event
in progress, enters results board by board (two directors at once lose none, a conflicting
entry is refused with both results shown), gives byes and withdraws players; every change is
written into the section's TRF as the workspace writes every change (journaled), and a server
killed at any step of it is whole or absent after a restart."""

from __future__ import annotations

import functools
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.cli import main
from grandprix.pairing.criteria import violations
from grandprix.pairing.state import read_tournament
from grandprix.serve import journal
from grandprix.serve.accounts import hash_password
from grandprix.serve.app import create_app
from grandprix.serve.security import CSRF_FIELD
from grandprix.serve.store import Store
from test_serve_workspace import field

KEY = "utah-2026"
DAY = f"/s/{KEY}/workspace/rounds/0/1"  # the Utah Class Championships, section A
PASSWORDS = {"cora": "coordinator-pw", "dan": "director-pw1", "eve": "director-pw2"}
EVENT = "Utah Class Championships"


class Killed(Exception):
    """The process dies here."""


@functools.cache
def hashed(name: str) -> str:
    return hash_password(PASSWORDS[name])


def event_in_progress(folder: Path) -> None:
    """examples/utah-2026 with its Class Championships in progress: each section's TRF made
    from the event's entries by ``grandprix export``, inside the season folder."""
    shutil.copytree(ROOT / "examples" / "utah-2026", folder)
    event = ROOT / "examples" / "events" / "class_championships_2026" / "event.toml"
    made = CliRunner().invoke(main, ["export", str(event), "-o", str(folder / "class")])
    assert made.exit_code == 0, made.output
    (folder / "class" / "h-j_i.trf").rename(folder / "class" / "h_ji.trf")
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    text = text.replace('shared_folders = ["../events/class_championships_2026/results"]\n', "")
    text = text.replace("../events/class_championships_2026/results/", "class/")
    text = text.replace(f'name = "{EVENT}"\n', f'name = "{EVENT}"\nin_progress = true\n')
    toml.write_text(text, encoding="utf-8")


@dataclass
class Server:
    root: Path
    database: str

    @property
    def season(self) -> Path:
        return self.root / KEY

    @property
    def trf(self) -> Path:
        return self.season / "class" / "a.trf"

    @contextmanager
    def running(self) -> Iterator[tuple[TestClient, Store]]:
        store = Store(self.database)
        app = create_app({KEY: self.season}, store=store, secret=b"s" * 32)
        try:
            with TestClient(app, base_url="http://127.0.0.1:8000") as web:
                yield web, store
        finally:
            store.close()


@pytest.fixture
def server(tmp_path: Path) -> Server:
    made = Server(tmp_path / "root", f"sqlite:///{tmp_path / 'server.sqlite3'}")
    event_in_progress(made.season)
    store = Store(made.database)
    store.add_user("cora", "coordinator", hashed("cora"))
    store.add_user("dan", "director", hashed("dan"))
    store.add_user("eve", "director", hashed("eve"))
    store.assign("dan", KEY, EVENT)
    store.assign("eve", KEY, EVENT)
    store.close()
    return made


def log_in(web: TestClient, name: str) -> None:
    page = web.get("/login").text
    got = web.post(
        "/login",
        data={
            CSRF_FIELD: field(page, CSRF_FIELD),
            "name": name,
            "password": PASSWORDS[name],
            "next": "/",
        },
        follow_redirects=False,
    )
    assert got.status_code == 303


def post(web: TestClient, action: str, **values: str) -> httpx.Response:
    page = web.get(DAY).text
    return web.post(
        f"{DAY}/{action}",
        data={CSRF_FIELD: field(page, CSRF_FIELD), **values},
        follow_redirects=False,
    )


def pair(web: TestClient, number: int) -> httpx.Response:
    return post(web, "pair", round=str(number), colour="w")


def result(web: TestClient, number: int, board: int, value: str, was: str = "") -> httpx.Response:
    return post(web, "result", round=str(number), board=str(board), result=value, was=was)


def alert(page: str) -> str:
    found = re.search(r'role="alert">([^<]*)<', page)
    assert found, page
    return found.group(1).replace("&#39;", "'")


def test_a_director_pairs_round_one_and_the_trf_holds_it(server: Server) -> None:
    with server.running() as (web, store):
        log_in(web, "dan")
        listed = web.get(f"/s/{KEY}/workspace/rounds").text
        assert "Utah Class Championships · A" in listed
        got = pair(web, 1)
        assert got.status_code == 303 and got.headers["location"].endswith("?done=paired")
        page = web.get(got.headers["location"]).text
        assert "The round is paired" in page and "Round 1 (being played)" in page
        [entry] = [e for e in store.audit(KEY) if e.action == "round"]
        assert entry.user_name == "dan" and "A: round 1 paired" in entry.what
    t = read_tournament(server.trf)
    assert t.current is not None and t.current.number == 1
    assert len(t.current.boards) == 6 and t.plan.initial_colour == "w"
    # round 1 of the Dutch system: the top half against the bottom half, 1 against 7
    assert (t.current.boards[0].white, t.current.boards[0].black) == (1, 7)


def test_results_entered_board_by_board_reach_the_standings_on_the_page(server: Server) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        pair(web, 1)
        assert result(web, 1, 1, "1-0").status_code == 303
        assert result(web, 1, 2, "1/2-1/2").status_code == 303
        page = web.get(DAY).text
        assert "Standings (provisional: results missing)" in page
        standings = page[page.index("<h2>Standings") :]
        assert re.search(r"1\. <bdi>Zanetti, Jonas</bdi>.*?<td class=\"num\">1</td>", standings)
    t = read_tournament(server.trf)
    assert t.current is not None
    assert [b.result for b in t.current.boards[:3]] == ["1-0", "½-½", ""]


def test_two_directors_at_once_lose_no_result_and_a_conflict_shows_both(server: Server) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        pair(web, 1)
        assert result(web, 1, 1, "1-0").status_code == 303  # Dan, on the page without results
        assert result(web, 1, 2, "0-1").status_code == 303  # another board: both kept
        web.cookies.clear()
        log_in(web, "eve")
        same = result(web, 1, 1, "1-0", was="")  # Eve saw no result and sends the same one
        assert same.status_code == 303
        other = result(web, 1, 1, "0-1", was="")  # Eve saw no result and sends another
        assert other.status_code == 409
        said = alert(other.text)
        assert "1-0" in said and "0-1" in said and "nothing was changed" in said
        corrected = result(web, 1, 1, "0-1", was="1-0")  # seen, then corrected on purpose
        assert corrected.status_code == 303
    t = read_tournament(server.trf)
    assert t.current is not None
    assert [b.result for b in t.current.boards[:2]] == ["0-1", "0-1"]


def test_a_round_is_paired_once_and_undone_only_while_no_result_is_in(server: Server) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        pair(web, 1)
        again = pair(web, 1)  # a second director, or the same button twice
        assert again.status_code == 409 and "cannot be paired now" in alert(again.text)
        assert post(web, "undo", round="1").status_code == 303
        assert read_tournament(server.trf).current is None
        pair(web, 1)
        result(web, 1, 3, "1-0")
        refused = post(web, "undo", round="1")
        assert refused.status_code == 400
        assert "a pairing is undone only while no result is in" in alert(refused.text)
    assert read_tournament(server.trf).current is not None


def test_byes_and_a_withdrawal_are_honoured_by_the_next_pairing(server: Server) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        assert post(web, "bye", player="3", round="1", kind="half").status_code == 303
        assert post(web, "withdraw", player="12").status_code == 303
        pair(web, 1)
    t = read_tournament(server.trf)
    assert t.current is not None
    paired = {n for b in t.current.boards for n in (b.white, b.black)}
    assert 3 not in paired and 12 not in paired
    unpaired = dict(t.current.unpaired)
    assert unpaired[3].name == "HALF_BYE" and unpaired[12].name == "ZERO_BYE"
    assert t.current.bye is None  # 10 players to pair: no pairing-allocated bye
    assert t.plan.withdrawn_from(12) == 1


def test_four_rounds_run_in_the_workspace_make_a_results_file_the_season_reads(
    server: Server,
) -> None:
    outcomes = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-"]
    with server.running() as (web, _):
        log_in(web, "dan")
        for number in range(1, 5):
            assert pair(web, number).status_code == 303
            t = read_tournament(server.trf)
            assert t.current is not None
            assert violations(t, t.current) == []
            for board in t.current.boards:
                value = outcomes[(board.number + number) % len(outcomes)]
                assert result(web, number, board.number, value).status_code == 303
        page = web.get(DAY).text
        assert "Every round is played" in page
    made = CliRunner().invoke(main, ["event", str(server.trf), "--format", "csv"])
    assert made.exit_code == 0, made.output
    t = read_tournament(server.trf)
    assert t.finished_rounds == 4 and t.current is None
    scores = {p.name: p.points for p in t.section.players}
    for row in made.output.splitlines()[1:]:
        cells = row.split(",")
        name = ",".join(cells[2:4]).strip('"')
        assert float(cells[-1]) == float(scores[name])


def test_the_print_pages_list_each_board_with_names_ratings_and_scores(server: Server) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        pair(web, 1)
        listed = web.get(f"{DAY}/print").text
        cards = web.get(f"{DAY}/cards").text
    assert "<bdi>Zanetti, Jonas</bdi>" in listed and "1993" in listed
    assert listed.count('<tr><td class="num">') == 6
    assert cards.count('<section class="card"') == 6 and "Signature" in cards


def test_a_director_not_given_the_event_cannot_run_it(server: Server) -> None:
    store = Store(server.database)
    store.add_user("finn", "director", hash_password("director-pw3"))
    store.close()
    PASSWORDS["finn"] = "director-pw3"
    try:
        with server.running() as (web, _):
            log_in(web, "finn")
            assert "No event of yours is being played" in web.get(f"/s/{KEY}/workspace/rounds").text
            assert web.get(DAY).status_code == 404
    finally:
        del PASSWORDS["finn"]
    assert read_tournament(server.trf).current is None


STEPS = ("intent", "intent written", "wrote a file", "settled")


@pytest.mark.parametrize("at", STEPS)
def test_a_result_killed_at_any_step_is_whole_or_absent_after_a_restart(
    server: Server, at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server.running() as (web, _):
        log_in(web, "dan")
        pair(web, 1)

    def die(name: str) -> None:
        if name == at:
            raise Killed(name)

    with server.running() as (web, _):
        log_in(web, "dan")
        monkeypatch.setattr(journal, "fault", die)
        with pytest.raises(Killed):
            result(web, 1, 1, "1-0")
        monkeypatch.setattr(journal, "fault", None)
    with server.running() as (web, store):
        log_in(web, "dan")
        assert web.get(DAY).status_code == 200  # the restart finished or dropped the change
        entries = [e for e in store.audit(KEY) if "board 1: 1-0" in e.what]
    assert not (server.season / journal.JOURNAL).exists()
    assert not [p for p in (server.season / "class").iterdir() if ".tmp-" in p.name]
    t = read_tournament(server.trf)
    assert t.current is not None
    done = t.current.boards[0].result == "1-0"
    assert done == (at != "intent") and len(entries) == (1 if done else 0)

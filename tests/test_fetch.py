"""``grandprix fetch``: each site's address leads to its results, downloaded from a local HTTP
server that stands for the sites (no test touches the network), read before they are kept and
written whole inside the season folder, never over a file; every failure (timeout, oversized,
HTTP error, refused connection, no DNS, unknown site, a download that does not read) writes
nothing."""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from grandprix import fetch as fetching
from grandprix.cli import main
from grandprix.fetch import FetchError, Unreadable, fetch, source_of, transport
from grandprix.fetch.transport import Channel, Deadline

DATA = Path(__file__).resolve().parent / "data"
RECORDED = DATA / "fetch"
CROSSTABLE = DATA / "keshmat-circuit-2024-25" / "crosstables" / "august.xlsx"
CHESSCOM = DATA / "chesscom"
TOURNAMENT = "-33rd-chesscom-quick-knockouts-1401-1600"
SWISS_RESULTS = "/api/swiss/Qk7rT2vL/results?nb=6"
ARENA_RESULTS = "/api/tournament/spr26blz/results?nb=4&sheet=true"
CHESS_RESULTS_EXPORT = (
    "/tnr1017236.aspx?lan=1&art=4&zeilen=99999&turdet=YES&flag=30&prt=4&excel=2010"
)


@dataclass
class Answer:
    """What the server answers at one address."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    length: bool = True  # send Content-Length (without it, the body ends with the connection)


@dataclass
class Sites:
    """The local server standing for the sites: its answers by path and query, the requests
    it saw (the Host asked for, path and query, User-Agent)."""

    port: int
    answers: dict[str, Answer] = field(default_factory=dict)
    seen: list[tuple[str, str, str]] = field(default_factory=list)

    def channel(self) -> Channel:
        """``transport.channel``, connecting to this server (plain HTTP) instead of the site."""
        real = transport.channel

        def to_local(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
            return real("http", "127.0.0.1", self.port, deadline)

        return to_local


@pytest.fixture
def sites(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sites]:
    served = Sites(0)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            agent = self.headers.get("User-Agent", "")
            served.seen.append((self.headers.get("Host", ""), self.path, agent))
            answer = served.answers.get(self.path, Answer(b"no such page", 404))
            time.sleep(answer.delay)
            self.send_response(answer.status)
            for key, value in answer.headers.items():
                self.send_header(key, value)
            if answer.length:
                self.send_header("Content-Length", str(len(answer.body)))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            # The client may stop reading (a body over the limit).
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(answer.body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    served.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    monkeypatch.setattr(transport, "channel", served.channel())
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests go straight to the local server (or to nowhere), never through a proxy."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def recorded(path: Path) -> Answer:
    return Answer(path.read_bytes())


def serve_swiss(sites: Sites, info: bytes | None = None) -> None:
    sites.answers["/api/swiss/Qk7rT2vL"] = Answer(
        info or (RECORDED / "lichess-swiss-info.json").read_bytes()
    )
    sites.answers[SWISS_RESULTS] = recorded(DATA / "lichess" / "club-swiss-results.ndjson")


def serve_chesscom(sites: Sites) -> None:
    base = f"/pub/tournament/{TOURNAMENT}"
    sites.answers[base] = recorded(CHESSCOM / "quick-knockouts-1401-1600.json")
    sites.answers[f"{base}/1"] = recorded(CHESSCOM / "quick-knockouts-1401-1600-round-1.json")
    sites.answers[f"{base}/1/1"] = recorded(
        CHESSCOM / "quick-knockouts-1401-1600-round-1-group-1.json"
    )


def files(folder: Path) -> list[str]:
    """Everything in a folder, hidden files included (a temporary file left behind)."""
    return sorted(p.name for p in folder.iterdir())


# --- each site's addresses ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "site", "kind", "ident"),
    [
        (
            "https://chess-results.com/tnr1017236.aspx?lan=1",
            "chess-results",
            "crosstable",
            "1017236",
        ),
        (
            "https://s2.chess-results.com/TNR1017236.aspx?lan=1&SNode=S0",
            "chess-results",
            "crosstable",
            "1017236",
        ),
        ("chess-results.com/tnr01017236.aspx", "chess-results", "crosstable", "1017236"),
        ("https://lichess.org/swiss/Qk7rT2vL", "lichess", "swiss", "Qk7rT2vL"),
        ("https://lichess.org/api/swiss/Qk7rT2vL/results", "lichess", "swiss", "Qk7rT2vL"),
        ("https://lichess.org/tournament/spr26blz", "lichess", "arena", "spr26blz"),
        (
            f"https://api.chess.com/pub/tournament/{TOURNAMENT}/1/1",
            "chess.com",
            "group",
            TOURNAMENT,
        ),
        (f"https://api.chess.com/pub/tournament/{TOURNAMENT}/1", "chess.com", "round", TOURNAMENT),
        (
            f"https://www.chess.com/tournament/live/{TOURNAMENT}",
            "chess.com",
            "tournament",
            TOURNAMENT,
        ),
    ],
)
def test_an_address_names_its_site_and_tournament(
    url: str, site: str, kind: str, ident: str
) -> None:
    source = source_of(url)
    assert (source.site, source.kind, source.ident) == (site, kind, ident)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/tournament/123",
        "https://chess-results.com.evil.example/tnr1.aspx",
        "ftp://chess-results.com/tnr1.aspx",
        "file:///etc/passwd",
    ],
)
def test_an_unknown_site_is_an_error_naming_the_known_ones(url: str, tmp_path: Path) -> None:
    with pytest.raises(FetchError) as error:
        fetch(url, tmp_path)
    assert "chess-results.com" in str(error.value) and "lichess" in str(error.value)
    assert "chess.com" in str(error.value)
    assert files(tmp_path) == []


def test_a_known_site_with_an_unknown_page_says_which_address_to_give(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match=r"tnrNNNNNN\.aspx"):
        fetch("https://chess-results.com/partieSuche.aspx?lan=1&art=3&tnr=1", tmp_path)
    with pytest.raises(FetchError, match=r"/pub/tournament/ID/ROUND/GROUP"):
        fetch("https://www.chess.com/play/arena/12345", tmp_path)


# --- the happy paths ---------------------------------------------------------------------


def test_chess_results_downloads_the_final_ranking_crosstable_as_xlsx(
    sites: Sites, tmp_path: Path
) -> None:
    sites.answers[CHESS_RESULTS_EXPORT + "&SNode=S0"] = recorded(CROSSTABLE)
    got = fetch("https://s1.chess-results.com/tnr1017236.aspx?lan=1&SNode=S0", tmp_path)
    host, asked, agent = sites.seen[0]
    assert (host, asked) == ("s1.chess-results.com", CHESS_RESULTS_EXPORT + "&SNode=S0")
    assert agent.startswith("grandprix/")
    assert got.path == tmp_path / "keshmat-circuit-rapid-august-2024-1017236.xlsx"
    assert got.path.read_bytes() == CROSSTABLE.read_bytes()
    assert (got.format, got.event, str(got.date)) == (
        "chess-results",
        "Keshmat Circuit - Rapid - August 2024",
        "2024-08-28",
    )
    assert (got.section.size, got.rounds) == (107, 7)
    assert any("`Rk.` is empty" in p.message for p in got.problems)  # its warnings, kept
    assert files(tmp_path) == [got.path.name]


def test_a_lichess_swiss_asks_for_every_player_and_takes_its_name_and_date(
    sites: Sites, tmp_path: Path
) -> None:
    serve_swiss(sites)
    got = fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert [asked for _, asked, _ in sites.seen] == ["/api/swiss/Qk7rT2vL", SWISS_RESULTS]
    assert {host for host, _, _ in sites.seen} == {"lichess.org"}
    assert got.path.name == "club-swiss-october-qk7rt2vl.ndjson"
    assert got.path.read_bytes() == (DATA / "lichess" / "club-swiss-results.ndjson").read_bytes()
    assert (got.event, str(got.date), got.section.size, got.rounds) == (
        "Club Swiss October",
        "2026-10-03",
        6,
        3,
    )
    assert got.notes == []
    entry = tomllib.loads(got.season_entry())["events"]
    assert entry == [
        {
            "name": "Club Swiss October",
            "date": got.date,
            "results": got.path.name,
            "format": "lichess",
        }
    ]


def test_a_lichess_arena_asks_for_the_sheets_and_ends_when_its_minutes_do(
    sites: Sites, tmp_path: Path
) -> None:
    sites.answers["/api/tournament/spr26blz"] = recorded(RECORDED / "lichess-arena-info.json")
    sites.answers[ARENA_RESULTS] = recorded(DATA / "lichess" / "spring-arena-results.ndjson")
    got = fetch("https://lichess.org/tournament/spr26blz", tmp_path)
    assert sites.seen[-1][1] == ARENA_RESULTS
    assert got.path.name == "spring-blitz-arena-spr26blz.ndjson"
    assert str(got.date) == "2026-04-13"  # started 23:30, 60 minutes
    assert got.section.size == 4


def test_a_lichess_list_shorter_than_its_players_is_noted(sites: Sites, tmp_path: Path) -> None:
    info = (
        (RECORDED / "lichess-swiss-info.json")
        .read_bytes()
        .replace(b'"nbPlayers":6', b'"nbPlayers":7')
    )
    serve_swiss(sites, info)
    sites.answers["/api/swiss/Qk7rT2vL/results?nb=7"] = sites.answers.pop(SWISS_RESULTS)
    got = fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert got.notes and "6 players of the 7" in got.notes[0]


def test_an_unfinished_lichess_tournament_is_not_fetched(sites: Sites, tmp_path: Path) -> None:
    info = (
        (RECORDED / "lichess-swiss-info.json")
        .read_bytes()
        .replace(b'"status":"finished"', b'"status":"started"')
    )
    serve_swiss(sites, info)
    with pytest.raises(FetchError, match="has not finished"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert len(sites.seen) == 1 and files(tmp_path) == []


def test_a_chesscom_group_is_downloaded_with_its_tournaments_name(
    sites: Sites, tmp_path: Path
) -> None:
    serve_chesscom(sites)
    got = fetch(f"https://api.chess.com/pub/tournament/{TOURNAMENT}/1/1", tmp_path)
    assert got.path.name == "33rd-chesscom-quick-knockouts-1401-1600-round-1-group-1.json"
    assert got.event == "33rd Chess.com Quick Knockouts (1401-1600), round 1, group 1"
    assert (got.format, got.section.size) == ("chesscom", 5)
    assert got.date is not None and got.date.year == 2016  # the group's last game
    assert (
        got.path.read_bytes()
        == (CHESSCOM / "quick-knockouts-1401-1600-round-1-group-1.json").read_bytes()
    )


def test_a_chesscom_tournament_of_many_groups_lists_them_and_writes_nothing(
    sites: Sites, tmp_path: Path
) -> None:
    serve_chesscom(sites)
    with pytest.raises(FetchError) as error:
        fetch(f"https://www.chess.com/tournament/{TOURNAMENT}", tmp_path)
    message = str(error.value)
    assert "the tournament has 4 rounds: give one group's address" in message
    assert f"https://api.chess.com/pub/tournament/{TOURNAMENT}/4" in message
    with pytest.raises(FetchError) as error:
        fetch(f"https://api.chess.com/pub/tournament/{TOURNAMENT}/1", tmp_path)
    assert "groups" in str(error.value)
    assert f"https://api.chess.com/pub/tournament/{TOURNAMENT}/1/1," in str(error.value)
    assert files(tmp_path) == []


def test_a_chesscom_tournament_of_one_group_leads_to_it(sites: Sites, tmp_path: Path) -> None:
    serve_chesscom(sites)
    base = f"/pub/tournament/{TOURNAMENT}"
    one_round = f'"rounds":["https://api.chess.com{base}/1"]'.encode()
    tournament = sites.answers[base].body
    start = tournament.index(b'"rounds":[')
    end = tournament.index(b"]", start) + 1
    sites.answers[base] = Answer(tournament[:start] + one_round + tournament[end:])
    sites.answers[f"{base}/1"] = Answer(
        f'{{"groups":["https://api.chess.com{base}/1/1"],"players":[]}}'.encode()
    )
    got = fetch(f"https://www.chess.com/tournament/live/{TOURNAMENT}", tmp_path)
    assert [asked for _, asked, _ in sites.seen] == [base, f"{base}/1", f"{base}/1/1"]
    assert got.event == "33rd Chess.com Quick Knockouts (1401-1600)"
    assert got.path.name == "33rd-chesscom-quick-knockouts-1401-1600.json"


# --- failures: nothing written -----------------------------------------------------------


def test_a_timeout_is_a_clear_error(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport, "TIMEOUT", 0.2)
    sites.answers["/api/swiss/Qk7rT2vL"] = Answer(b"{}", delay=1.0)
    with pytest.raises(FetchError, match=r"did not answer within"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert files(tmp_path) == []


@pytest.mark.parametrize("length", [True, False], ids=["content-length", "until-closed"])
def test_an_oversized_answer_is_refused(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, length: bool
) -> None:
    monkeypatch.setitem(fetching.LIMITS, "chess-results", 10_000)
    sites.answers[CHESS_RESULTS_EXPORT] = Answer(CROSSTABLE.read_bytes(), length=length)
    with pytest.raises(FetchError, match=r"at most 10,000 bytes are taken"):
        fetch("https://chess-results.com/tnr1017236.aspx", tmp_path)
    assert files(tmp_path) == []


def test_http_404_says_not_found(sites: Sites, tmp_path: Path) -> None:
    with pytest.raises(FetchError, match=r"HTTP 404, not found: check the tournament"):
        fetch("https://lichess.org/swiss/Zz9zZz9z", tmp_path)
    assert files(tmp_path) == []


def test_a_refused_connection_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    real = transport.channel

    def closed(scheme: str, host: str, _: int, deadline: Deadline) -> socket.socket:
        return real("http", "127.0.0.1", port, deadline)

    monkeypatch.setattr(transport, "channel", closed)
    with pytest.raises(FetchError, match=r"connection was refused"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert files(tmp_path) == []


def test_no_dns_says_the_name_could_not_be_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def offline(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", offline)
    with pytest.raises(FetchError, match=r"could not be looked up"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert files(tmp_path) == []


def test_a_redirect_to_another_site_is_not_followed(sites: Sites, tmp_path: Path) -> None:
    sites.answers["/api/swiss/Qk7rT2vL"] = Answer(
        status=302, headers={"Location": "https://elsewhere.example/x.json"}
    )
    with pytest.raises(FetchError, match=r"another site"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert len(sites.seen) == 1 and files(tmp_path) == []


def test_a_web_page_in_place_of_the_workbook_is_an_error(sites: Sites, tmp_path: Path) -> None:
    sites.answers[CHESS_RESULTS_EXPORT] = recorded(RECORDED / "chess-results-not-found.html")
    with pytest.raises(FetchError, match=r"chess-results sent a web page"):
        fetch("https://chess-results.com/tnr1017236.aspx", tmp_path)
    assert files(tmp_path) == []


@pytest.mark.parametrize(
    "body",
    [
        b'{"rank":1,"points":"many","rating":1500,"username":"Ada_K"}\n',  # wrong type
        (DATA / "lichess" / "club-swiss-results.ndjson").read_bytes()[:150],  # cut short
        b"\xff\xfe{\x00",  # UTF-16
    ],
    ids=["wrong-type", "truncated", "utf-16"],
)
def test_a_download_that_does_not_read_is_not_kept(
    sites: Sites, tmp_path: Path, body: bytes
) -> None:
    serve_swiss(sites)
    sites.answers[SWISS_RESULTS] = Answer(body)
    with pytest.raises(Unreadable) as error:
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert "nothing was written" in str(error.value)
    assert error.value.problems and all(
        p.location.path == "lichess-Qk7rT2vL.ndjson" for p in error.value.problems
    )
    assert files(tmp_path) == []


def test_a_chesscom_group_cut_short_is_not_kept(sites: Sites, tmp_path: Path) -> None:
    serve_chesscom(sites)
    group = f"/pub/tournament/{TOURNAMENT}/1/1"
    sites.answers[group] = Answer(sites.answers[group].body[:5000])
    with pytest.raises(Unreadable):
        fetch(f"https://api.chess.com{group}", tmp_path)
    assert files(tmp_path) == []


# --- writing: inside the folder, whole, never over a file ---------------------------------


def test_an_existing_file_is_never_overwritten(sites: Sites, tmp_path: Path) -> None:
    serve_swiss(sites)
    old = tmp_path / "club-swiss-october-qk7rt2vl.ndjson"
    old.write_bytes(b"kept as it was")
    with pytest.raises(FetchError, match=r"exists: nothing was written.*--name"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert old.read_bytes() == b"kept as it was"
    assert files(tmp_path) == [old.name]  # no temporary file left
    got = fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path, name="october.ndjson")
    assert got.path == tmp_path / "october.ndjson" and old.read_bytes() == b"kept as it was"


def test_a_symbolic_link_in_the_way_is_not_followed(sites: Sites, tmp_path: Path) -> None:
    serve_swiss(sites)
    folder, outside = tmp_path / "season", tmp_path / "outside.ndjson"
    folder.mkdir()
    (folder / "club-swiss-october-qk7rt2vl.ndjson").symlink_to(outside)
    with pytest.raises(FetchError, match="exists"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", folder)
    assert not outside.exists()


def test_an_event_named_like_a_path_is_written_inside_the_folder(
    sites: Sites, tmp_path: Path
) -> None:
    folder = tmp_path / "season"
    folder.mkdir()
    info = (
        (RECORDED / "lichess-swiss-info.json")
        .read_bytes()
        .replace(b'"name":"Club Swiss October"', b'"name":"../x"')
    )
    serve_swiss(sites, info)
    got = fetch("https://lichess.org/swiss/Qk7rT2vL", folder)
    assert got.path == folder / "x-qk7rt2vl.ndjson"
    assert files(tmp_path) == ["season"] and files(folder) == [got.path.name]
    assert tomllib.loads(got.season_entry())["events"][0]["name"] == "../x"  # only a name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../x.ndjson", "plain file name"),
        ("/tmp/x.ndjson", "plain file name"),
        (".hidden.ndjson", "plain file name"),
        ("x.csv", "must end in .ndjson"),
        ("x\x1b.ndjson", "control characters"),
    ],
)
def test_a_name_given_must_be_a_plain_name_of_the_format(
    tmp_path: Path, name: str, why: str
) -> None:
    with pytest.raises(FetchError, match=why):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path, name=name)
    assert files(tmp_path) == []


def test_the_season_folder_must_exist(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="no such folder"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path / "missing")
    assert files(tmp_path) == []


def test_an_event_name_of_no_ascii_letter_takes_the_sites_name_and_id(
    sites: Sites, tmp_path: Path
) -> None:
    info = (
        (RECORDED / "lichess-swiss-info.json")
        .read_bytes()
        .replace(b'"name":"Club Swiss October"', '"name":"象棋"'.encode())
    )
    serve_swiss(sites, info)
    got = fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert got.path.name == "lichess-Qk7rT2vL.ndjson"


# --- the command -------------------------------------------------------------------------


def test_the_command_prints_the_season_entry_on_stdout(sites: Sites, tmp_path: Path) -> None:
    serve_swiss(sites)
    result = CliRunner().invoke(
        main, ["fetch", "https://lichess.org/swiss/Qk7rT2vL", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    entry = tomllib.loads(result.stdout)["events"][0]
    assert entry["results"] == "club-swiss-october-qk7rt2vl.ndjson"
    assert entry["format"] == "lichess" and str(entry["date"]) == "2026-10-03"
    assert "'Club Swiss October', 2026-10-03: 6 players, 3 round(s)" in result.stderr
    assert "wrote " in result.stderr


def test_the_command_exits_2_with_the_problems_of_an_unreadable_download(
    sites: Sites, tmp_path: Path
) -> None:
    serve_swiss(sites)
    sites.answers[SWISS_RESULTS] = Answer(b'{"rank":1,"points":"many"}\n')
    result = CliRunner().invoke(
        main, ["fetch", "https://lichess.org/swiss/Qk7rT2vL", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "lichess-Qk7rT2vL.ndjson:1" in result.stderr  # the located problem
    assert "nothing was written" in result.stderr and result.stdout == ""
    assert files(tmp_path) == []


def test_the_command_exits_2_for_an_unknown_site(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["fetch", "https://example.org/t/1", str(tmp_path)])
    assert result.exit_code == 2 and "grandprix fetch knows" in result.stderr


def test_an_answer_that_is_not_a_tournaments_description_is_an_error(
    sites: Sites, tmp_path: Path
) -> None:
    serve_swiss(sites, b'{"error":"Not found"}')
    with pytest.raises(FetchError, match=r"not lichess's description of a tournament"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    serve_swiss(sites, b"<!DOCTYPE html><html></html>")
    with pytest.raises(FetchError, match=r"not the JSON object .* starts '<!DOCTYPE"):
        fetch("https://lichess.org/swiss/Qk7rT2vL", tmp_path)
    assert files(tmp_path) == []

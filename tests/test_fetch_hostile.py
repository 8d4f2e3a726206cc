"""``grandprix fetch`` against hostile servers on 127.0.0.1: a download has one deadline for the
whole exchange (connecting, headers, body), kept however the site trickles its answer; redirects
stay on the site's own host and port over the same scheme; a description that is not what the
site's API describes (nested too deeply, absurd dates, wrong shapes) is a located error. Each
case exits 2, says why, and leaves the season folder as it was."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from click.testing import CliRunner, Result

from grandprix.cli import main
from grandprix.fetch import transport
from grandprix.fetch.transport import Deadline

DATA = Path(__file__).resolve().parent / "data"
SWISS = "https://lichess.org/swiss/Qk7rT2vL"
SWISS_INFO = "https://lichess.org/api/swiss/Qk7rT2vL"
ARENA = "https://lichess.org/tournament/spr26blz"
CROSSTABLE = "https://chess-results.com/tnr1017236.aspx"
EXPORT = (
    "https://chess-results.com/tnr1017236.aspx?lan=1&art=4&zeilen=99999&turdet=YES&flag=30"
    "&prt=4&excel=2010"
)
GROUP = "/pub/tournament/-33rd-chesscom-quick-knockouts-1401-1600/1/1"
DEADLINE = 1.5  # seconds: each download's deadline in these tests
SLACK = 2.5  # seconds past the deadline a cut download may take on a busy machine

Respond = Callable[[socket.socket, str, threading.Event], None]
CHANNEL = transport.channel  # the real one, whatever a test puts in its place


@dataclass
class Server:
    """A server on 127.0.0.1 that reads each request's head and answers with ``respond`` (the
    connection, the path asked for, the event set when the test ends); the connections the
    client asked ``transport.channel`` for."""

    respond: Respond | None
    backlog: int = 16
    tls: ssl.SSLContext | None = None  # answers over TLS with this context
    asked: list[tuple[str, str, int]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(self.backlog)
        self.port: int = self.sock.getsockname()[1]
        self.threads: list[threading.Thread] = []
        if self.respond is not None:  # otherwise connections wait in the queue, never taken
            self.sock.settimeout(0.05)  # (a closed socket does not end an accept waiting on it)
            self._start(self._accept)

    def _start(self, target: Callable[..., None], *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self.threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self.ended.is_set():
            try:
                connection, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connection.settimeout(None)
            self._start(self._one, connection)

    def _one(self, connection: socket.socket) -> None:
        with connection, contextlib.suppress(OSError):
            if self.tls is not None:
                connection = self.tls.wrap_socket(connection, server_side=True)
            head = b""
            while b"\r\n\r\n" not in head:
                part = connection.recv(4096)
                if not part:
                    return
                head += part
            path = head.split(b" ", 2)[1].decode("latin-1")
            self.paths.append(path)
            assert self.respond is not None
            self.respond(connection, path, self.ended)

    def channel(self) -> Callable[[str, str, int, Deadline], socket.socket]:
        """The real channel, led here whatever the scheme, host and port (plain HTTP)."""

        def to_local(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
            self.asked.append((scheme, host, port))
            return CHANNEL("http", "127.0.0.1", self.port, deadline)

        return to_local

    def close(self) -> None:
        """The server ended, and its threads with it: a test that forks (the read-ahead's)
        needs this process to run no other thread."""
        self.ended.set()
        self.sock.close()
        for thread in self.threads:
            thread.join(timeout=5)


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections go straight to the local servers, through no proxy but a test's own."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Server]]:
    """Starts a server that stands for every site (``transport.channel`` leads there)."""
    started: list[Server] = []

    def start(respond: Respond | None, backlog: int = 16) -> Server:
        server = Server(respond, backlog)
        started.append(server)
        monkeypatch.setattr(transport, "channel", server.channel())
        return server

    yield start
    for server in started:
        server.close()


def whole(body: bytes, status: str = "200 OK", headers: str = "") -> Respond:
    """An answer sent at once."""

    def respond(connection: socket.socket, path: str, ended: threading.Event) -> None:
        head = f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
        connection.sendall(f"{head}{headers}\r\n".encode() + body)

    return respond


def by_path(answers: dict[str, Respond]) -> Respond:
    """Each path's answer (404 for the others)."""

    def respond(connection: socket.socket, path: str, ended: threading.Event) -> None:
        answers.get(path, whole(b"no such page", "404 Not Found"))(connection, path, ended)

    return respond


def trickled(head: bytes, piece: bytes, every: float) -> Respond:
    """``head`` at once, then ``piece`` every ``every`` seconds, for as long as the client
    listens."""

    def respond(connection: socket.socket, path: str, ended: threading.Event) -> None:
        connection.sendall(head)
        while not ended.wait(every):
            connection.sendall(piece)

    return respond


def season(tmp_path: Path) -> Path:
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / "season.toml").write_text('name = "Club season"\n', encoding="utf-8")
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    """Every file of the folder, hidden ones included (a temporary file left behind)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def run_fetch(url: str, folder: Path) -> tuple[Result, float]:
    """``grandprix fetch URL FOLDER --deadline DEADLINE``: its result and how long it took."""
    start = time.monotonic()
    result = CliRunner().invoke(main, ["fetch", url, str(folder), "--deadline", str(DEADLINE)])
    return result, time.monotonic() - start


def refused(result: Result, *words: str) -> str:
    """The one message of a fetch that exited 2, with each of ``words`` in it."""
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.stderr and "Traceback" not in result.output
    assert result.stdout == ""
    message = result.stderr
    for word in words:
        assert word in message, message
    return message


# --- one deadline for the whole exchange ---------------------------------------------------


def cut_at_the_deadline(result: Result, took: float, address: str) -> None:
    refused(result, f"error: {address}: ", f"its deadline of {DEADLINE:g} seconds", "stopped")
    assert DEADLINE - 0.05 <= took < DEADLINE + SLACK, took


def test_a_body_trickled_a_byte_at_a_time_is_cut_at_the_deadline(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    server = serve(trickled(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nPK", b"x", 0.1))
    folder = season(tmp_path)
    before = contents(folder)
    result, took = run_fetch(CROSSTABLE, folder)
    cut_at_the_deadline(result, took, EXPORT)
    assert contents(folder) == before
    assert server.asked == [("https", "chess-results.com", 443)]


def test_headers_sent_a_line_at_a_time_are_cut_at_the_deadline(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    serve(trickled(b"HTTP/1.1 200 OK\r\n", b"X-Slow: 1\r\n", 0.1))
    folder = season(tmp_path)
    before = contents(folder)
    result, took = run_fetch(CROSSTABLE, folder)
    cut_at_the_deadline(result, took, EXPORT)
    assert contents(folder) == before


def test_a_status_line_sent_a_byte_at_a_time_is_cut_at_the_deadline(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    serve(trickled(b"H", b"T", 0.05))  # 'HTTPTTTT...': a status line that never ends
    folder = season(tmp_path)
    result, took = run_fetch(SWISS, folder)
    cut_at_the_deadline(result, took, SWISS_INFO)
    assert contents(folder) == {"season.toml": b'name = "Club season"\n'}


def test_a_server_that_never_takes_the_connection_is_cut_at_the_deadline(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    server = serve(None)  # listening, never accepting: the request waits in its queue
    folder = season(tmp_path)
    before = contents(folder)
    result, took = run_fetch(CROSSTABLE, folder)
    cut_at_the_deadline(result, took, EXPORT)
    assert contents(folder) == before and server.paths == []


def test_a_connection_that_is_never_made_is_cut_at_the_deadline(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    server = serve(None, backlog=0)
    fillers = []
    for _ in range(4):  # the queue is full: the system drops the next connection's SYN
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            filler.connect(("127.0.0.1", server.port))
        fillers.append(filler)
    try:
        folder = season(tmp_path)
        before = contents(folder)
        result, took = run_fetch(CROSSTABLE, folder)
        cut_at_the_deadline(result, took, EXPORT)
        assert contents(folder) == before
    finally:
        for filler in fillers:
            filler.close()


def test_a_tls_handshake_never_answered_is_cut_at_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    first: list[bytes] = []
    ended = threading.Event()

    def take() -> None:  # takes the connection, reads the greeting, never answers it
        connection, _ = listener.accept()
        with connection:
            first.append(connection.recv(1))
            ended.wait(10)

    threading.Thread(target=take, daemon=True).start()

    def over_tls(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
        return CHANNEL("https", "localhost", listener.getsockname()[1], deadline)

    monkeypatch.setattr(transport, "channel", over_tls)
    try:
        result, took = run_fetch(CROSSTABLE, season(tmp_path))
    finally:
        ended.set()
        listener.close()
    cut_at_the_deadline(result, took, EXPORT)
    assert first == [b"\x16"]  # a TLS handshake record: the client's hello


def test_the_deadline_is_the_whole_downloads_across_its_redirects(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    hop = "/api/swiss/Qk7rT2vL"

    def slow_redirect(connection: socket.socket, path: str, ended: threading.Event) -> None:
        ended.wait(0.4)  # each hop is quick enough alone; three of them are not
        whole(b"", "302 Found", f"Location: {hop}?again\r\n")(connection, path, ended)

    serve(slow_redirect)
    result, took = run_fetch(SWISS, season(tmp_path))
    cut_at_the_deadline(result, took, SWISS_INFO)


def test_a_trickled_body_is_cut_in_the_library_too(
    serve: Callable[..., Server], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandprix import fetch as fetching
    from grandprix.fetch import FetchError, fetch

    serve(trickled(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", b"{", 0.1))
    monkeypatch.setattr(fetching, "DEADLINE", 0.5)  # the default every download takes
    start = time.monotonic()
    with pytest.raises(FetchError, match=r"deadline of 0\.5 seconds"):
        fetch(SWISS, tmp_path)
    assert time.monotonic() - start < 0.5 + SLACK
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A server context whose certificate, for 'localhost', the client trusts (made by the
    openssl command)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command makes the test's certificate; it is not installed")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=DNS:localhost"),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@pytest.mark.parametrize("trickle", [False, True], ids=["whole", "trickled"])
def test_a_download_over_tls_is_read_whole_or_cut_at_the_deadline(
    serve: Callable[..., Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    certificate: ssl.SSLContext,
    trickle: bool,
) -> None:
    info = (DATA / "fetch" / "lichess-swiss-info.json").read_bytes()
    results = (DATA / "lichess" / "club-swiss-results.ndjson").read_bytes()
    slow = trickled(
        f"HTTP/1.1 200 OK\r\nContent-Length: {len(results)}\r\n\r\n".encode(), b"{", 0.1
    )
    server = serve(
        by_path(
            {
                "/api/swiss/Qk7rT2vL": whole(info),
                "/api/swiss/Qk7rT2vL/results?nb=6": slow if trickle else whole(results),
            }
        )
    )
    server.tls = certificate

    def over_tls(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
        return CHANNEL("https", "localhost", server.port, deadline)

    monkeypatch.setattr(transport, "channel", over_tls)
    folder = season(tmp_path)
    result, took = run_fetch(SWISS, folder)
    if not trickle:
        assert result.exit_code == 0, result.output
        assert (folder / "club-swiss-october-qk7rt2vl.ndjson").read_bytes() == results
        return
    cut_at_the_deadline(result, took, "https://lichess.org/api/swiss/Qk7rT2vL/results?nb=6")
    assert contents(folder) == {"season.toml": b'name = "Club season"\n'}


# --- redirects: the site's own host and port, the same scheme --------------------------------


@pytest.mark.parametrize(
    ("location", "why"),
    [
        ("https://lichess.org:8443/api/swiss/Qk7rT2vL", "port 8443 in place of 443"),
        ("http://lichess.org/api/swiss/Qk7rT2vL", "http:// in place of https://"),
        ("https://elsewhere.example/api/swiss/Qk7rT2vL", "another site"),
        ("https://lichess.org.elsewhere.example/x", "another site"),
        ("//127.0.0.1:22/", "another site"),
        ("https://[::1/", "not a web address"),
    ],
    ids=["another-port", "another-scheme", "another-host", "lookalike-host", "local", "broken"],
)
def test_a_redirect_off_the_sites_host_and_port_is_refused(
    serve: Callable[..., Server], tmp_path: Path, location: str, why: str
) -> None:
    server = serve(whole(b"", "302 Found", f"Location: {location}\r\n"))
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(SWISS, folder)
    refused(result, f"error: {SWISS_INFO}: the site sends the download to ", why)
    assert server.asked == [("https", "lichess.org", 443)]  # nothing else was connected to
    assert contents(folder) == before


def test_a_redirect_on_the_sites_own_hosts_is_followed(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    info = (DATA / "fetch" / "lichess-swiss-info.json").read_bytes()
    results = (DATA / "lichess" / "club-swiss-results.ndjson").read_bytes()
    server = serve(
        by_path(
            {
                "/api/swiss/Qk7rT2vL": whole(
                    b"", "301 Moved", "Location: https://www.lichess.org/api/swiss/Qk7rT2vL/\r\n"
                ),
                "/api/swiss/Qk7rT2vL/": whole(info),
                "/api/swiss/Qk7rT2vL/results?nb=6": whole(
                    b"", "307 Again", "Location: ?nb=6&a\r\n"
                ),
                "/api/swiss/Qk7rT2vL/results?nb=6&a": whole(results),
            }
        )
    )
    folder = season(tmp_path)
    result, _ = run_fetch(SWISS, folder)
    assert result.exit_code == 0, result.output
    assert server.asked == [
        ("https", "lichess.org", 443),
        ("https", "www.lichess.org", 443),
        ("https", "lichess.org", 443),
        ("https", "lichess.org", 443),
    ]
    assert (folder / "club-swiss-october-qk7rt2vl.ndjson").read_bytes() == results


def test_endless_redirects_are_an_error(serve: Callable[..., Server], tmp_path: Path) -> None:
    server = serve(whole(b"", "302 Found", "Location: /api/swiss/Qk7rT2vL\r\n"))
    result, _ = run_fetch(SWISS, season(tmp_path))
    refused(result, "redirects the download more than 5 times")
    assert len(server.paths) == 6


# --- what a download holds: located errors, never a crash ----------------------------------


def description(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


ARENA_INFO = {"fullName": "Spring Blitz Arena", "isFinished": True, "nbPlayers": 4}


@pytest.mark.parametrize(
    ("url", "body", "words"),
    [
        (SWISS, b'{"a":' * 100_000 + b"1" + b"}" * 100_000, ["nested too deeply"]),
        (SWISS, b"[" * 100_000 + b"]" * 100_000, ["nested too deeply"]),
        (
            f"https://api.chess.com{GROUP.rsplit('/', 2)[0]}",
            b'{"name":"x","rounds":' + b"[" * 50_000 + b"]" * 50_000 + b"}",
            ["api.chess.com", "nested too deeply"],
        ),
    ],
    ids=["objects", "arrays", "chesscom"],
)
def test_a_description_nested_too_deeply_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path, url: str, body: bytes, words: list[str]
) -> None:
    serve(whole(body))
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(url, folder)
    refused(result, "the answer is not the JSON object the site's API describes", *words)
    assert contents(folder) == before


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (
            {"startsAt": "9999-12-31T23:59:00Z", "minutes": 999_999},
            ["'startsAt' is 9999-12-31, not a day from 1900 to 2100"],
        ),
        ({"startsAt": "2026-04-12T23:30:00Z", "minutes": 999_999}, ["'minutes' is 999,999"]),
        ({"startsAt": "2026-04-12T23:30:00Z", "minutes": -60}, ["'minutes' is -60"]),
        ({"startsAt": "2026-04-12T23:30:00Z", "minutes": 10**30}, ["'minutes' is 1,000,000"]),
        ({"startsAt": "0001-01-01T00:00:00+14:00", "minutes": 60}, ["'startsAt' is 0001-01-01"]),
        ({"startsAt": "9999-12-31"}, ["'startsAt' is 9999-12-31"]),
    ],
    ids=["year-9999", "minutes", "negative", "huge", "year-1", "day-only"],
)
def test_an_arena_of_absurd_dates_or_length_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path, fields: dict[str, Any], words: list[str]
) -> None:
    results = (DATA / "lichess" / "spring-arena-results.ndjson").read_bytes()
    server = serve(
        by_path(
            {
                "/api/tournament/spr26blz": whole(description(**ARENA_INFO, **fields)),
                "/api/tournament/spr26blz/results?nb=4&sheet=true": whole(results),
            }
        )
    )
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(ARENA, folder)
    refused(result, "error: https://lichess.org/api/tournament/spr26blz: ", *words)
    assert contents(folder) == before
    assert server.paths == ["/api/tournament/spr26blz"]  # the results were not asked for


def test_a_chesscom_group_whose_last_game_ends_in_the_year_9999_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path
) -> None:
    group = json.loads(
        (DATA / "chesscom" / "quick-knockouts-1401-1600-round-1-group-1.json").read_bytes()
    )
    group["games"][0]["end_time"] = 253_402_300_000  # in the year 9999
    tournament = (DATA / "chesscom" / "quick-knockouts-1401-1600.json").read_bytes()
    serve(
        by_path(
            {
                GROUP.rsplit("/", 2)[0]: whole(tournament),
                GROUP: whole(json.dumps(group).encode()),
            }
        )
    )
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(f"https://api.chess.com{GROUP}", folder)
    refused(result, f"error: https://api.chess.com{GROUP}: the last game's 'end_time' is 9999-")
    assert contents(folder) == before


SWISS_FIELDS = {"name": "Club Swiss", "status": "finished", "nbPlayers": 6}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[]", ["not the JSON object"]),
        (b'"finished"', ["not the JSON object"]),
        (b"\xff\xfe{\x00}\x00", ["not the JSON object", "UTF-16"]),
        (b'{"status": "finished", "nbPlayers": 1' + b"0" * 5000 + b"}", ["not the JSON"]),
        (b'{"status": "finished", "nbPlayers": 1e999999999}', ["has no players"]),
        (b"{" + b'"a":1,' * 10 + b"\xc3\x28}", [":1:", "not UTF-8"]),
        (description(status=["finished"], nbPlayers=6), ["it has no 'status'"]),
        (description(**{**SWISS_FIELDS, "startsAt": "2207-01-01T00:00:00Z"}), ["2207-01-01"]),
        (description(**{**SWISS_FIELDS, "nbPlayers": True}), ["has no players"]),
    ],
    ids=[
        "array",
        "text",
        "utf-16",
        "long-number",
        "huge-exponent",
        "bad-utf-8",
        "wrong-type",
        "year-2207",
        "boolean-players",
    ],
)
def test_a_swiss_description_of_the_wrong_shape_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path, body: bytes, words: list[str]
) -> None:
    serve(by_path({"/api/swiss/Qk7rT2vL": whole(body)}))
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(SWISS, folder)
    refused(result, f"error: {SWISS_INFO}", *words)
    assert contents(folder) == before


@pytest.mark.parametrize(
    "info",
    [
        {"name": "x", "rounds": ["https://[bad", 7, None]},
        {"name": ["x"], "status": [[["deep"]]], "rounds": {"1": 2}},
    ],
    ids=["broken-addresses", "wrong-types"],
)
def test_a_chesscom_description_of_the_wrong_shape_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path, info: dict[str, Any]
) -> None:
    tournament = GROUP.rsplit("/", 2)[0]
    serve(by_path({tournament: whole(json.dumps(info).encode())}))
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(f"https://api.chess.com{tournament}", folder)
    refused(result, f"error: https://api.chess.com{tournament}: chess.com lists no rounds")
    assert contents(folder) == before


def test_whatever_a_reader_raises_on_a_download_is_a_located_error(
    serve: Callable[..., Server], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandprix.readers import FORMATS

    class Raising:
        def read(self, path: Path, data: bytes) -> Any:
            raise KeyError("players")

    info = (DATA / "fetch" / "lichess-swiss-info.json").read_bytes()
    serve(
        by_path(
            {
                "/api/swiss/Qk7rT2vL": whole(info),
                "/api/swiss/Qk7rT2vL/results?nb=6": whole(b"{}\n"),
            }
        )
    )
    monkeypatch.setitem(FORMATS, "lichess", cast(Any, Raising()))
    folder = season(tmp_path)
    before = contents(folder)
    result, _ = run_fetch(SWISS, folder)
    refused(
        result,
        "error: https://lichess.org/api/swiss/Qk7rT2vL/results?nb=6: the download does not "
        "read as what the site's API describes (KeyError: 'players')",
    )
    assert contents(folder) == before


# --- a proxy: the same deadline, the same site -------------------------------------------


def proxy(answer: bytes | None, site: int | None) -> Respond:
    """A proxy that answers CONNECT with ``answer`` (None: says nothing) and then joins the
    client to the local site on port ``site``."""

    def respond(connection: socket.socket, path: str, ended: threading.Event) -> None:
        if answer is None:
            ended.wait(10)
            return
        connection.sendall(answer)
        if site is None:
            return
        with socket.create_connection(("127.0.0.1", site)) as upstream:
            pipes = [
                threading.Thread(target=_pipe, args=(connection, upstream), daemon=True),
                threading.Thread(target=_pipe, args=(upstream, connection), daemon=True),
            ]
            for pipe in pipes:
                pipe.start()
            for pipe in pipes:
                pipe.join(5)

    return respond


def _pipe(source: socket.socket, target: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            target.sendall(data)
        target.shutdown(socket.SHUT_WR)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (b"HTTP/1.1 200 Connection established\r\n\r\n", []),
        (b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n", ["would not connect", "407"]),
        (None, [f"its deadline of {DEADLINE:g} seconds"]),
    ],
    ids=["through", "refused", "silent"],
)
def test_a_proxy_the_environment_names_is_asked_to_connect_within_the_deadline(
    serve: Callable[..., Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    answer: bytes | None,
    words: list[str],
) -> None:
    info = (DATA / "fetch" / "lichess-swiss-info.json").read_bytes()
    results = (DATA / "lichess" / "club-swiss-results.ndjson").read_bytes()
    site = serve(
        by_path(
            {
                "/api/swiss/Qk7rT2vL": whole(info),
                "/api/swiss/Qk7rT2vL/results?nb=6": whole(results),
            }
        )
    )
    relay = Server(proxy(answer, site.port))
    try:
        monkeypatch.setenv("http_proxy", f"http://user:secret@127.0.0.1:{relay.port}")

        def via_proxy(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
            return CHANNEL("http", "127.0.0.1", site.port, deadline)

        monkeypatch.setattr(transport, "channel", via_proxy)
        folder = season(tmp_path)
        result, took = run_fetch(SWISS, folder)
    finally:
        relay.close()
    assert relay.paths[0] == f"127.0.0.1:{site.port}"  # CONNECT's target
    if not words:
        assert result.exit_code == 0, result.output
        assert (folder / "club-swiss-october-qk7rt2vl.ndjson").read_bytes() == results
        return
    refused(result, f"error: {SWISS_INFO}: ", *words)
    assert took < DEADLINE + SLACK

"""Server load with accounts: many readers of a season's pages while two directors upload
events to it, over a real socket, with nothing lost.

A temporary copy of examples/utah-2012 (or, with --events N, the season benchmark's generator
at N events, its players drawn from --players) is served by ``grandprix serve``'s application
under uvicorn in a separate process on 127.0.0.1, with a store of accounts (SQLite beside the
season, or --database URL): a coordinator and two directors, each given events not yet in the
season. For --seconds, --readers concurrent readers (asyncio, an httpx client each; a plain
keep-alive connection each with --plain-readers) fetch the season's public pages in a loop: the
standings, the rules, player pages and event pages.
Meanwhile both directors log in and upload their events one after another (the event form, its
preview, accept), --uploads each or one every --every seconds, started together so that their
uploads collide: an accept refused because the other's upload landed since the preview (409),
or a preview of an upload made as the other's landed (422), is made and accepted again. With
--approval the season says ``approval = true``: the directors' uploads wait, and a coordinator
opens each waiting upload (its preview) and approves it, then reads the standings page until it
counts the event. The uploads are dated on the day of the season's last event, so they are
listed after it: an event dated earlier renumbers the later events' pages
(events/NNN-name.html), and a reader fetching an address it found before would get a 404.
With --events, a coordinator also corrects the first event's results file by hand halfway
between two uploads (its winner's name, the file saved whole as an editor saves it) and reads
that event's page until it shows the correction: what the server sees by the file system's
change notices alone.

Reported: the readers' requests, errors (any status but 200, any exception or timeout),
throughput and p50 / p95 / max latency, overall and of the requests made while an upload was
being approved; the uploads accepted (or sent), the retries after a 409, the upload's p50
(form, preview, accept); with --approval, each approval's time and the time from its accept sent
to the standings page counting the event; each hand edit's time from saved to shown. Then, the
server stopped, nothing lost: every accepted upload's file is in the season folder with the
bytes sent, season.toml lists every event (the earlier ones and each accepted one) exactly
once, the season reads without errors, and the store's audit trail has one entry per accepted
upload, naming its director and its file.
Targets: 0 reader errors, every upload accepted and nothing lost; with --approval also a reader
p95 under 100 ms, no reader request over 1 s while an upload is approved, and every approved
upload and every hand edit on the page within 1 s.
Run: make bench (or .venv/bin/python benchmarks/bench_load.py [--seconds 30] [--readers 50];
the federation's profile: --events 500 --players 20000 --seconds 60 --every 10 --approval).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import hashlib
import html
import multiprocessing
import os
import random
import re
import secrets
import shutil
import socket
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import uvicorn

from bench_season import generate
from grandprix.errors import UsageError
from grandprix.model import Severity
from grandprix.season.config import load_season
from grandprix.serve.accounts import hash_password
from grandprix.serve.app import create_app
from grandprix.serve.database import database_url
from grandprix.serve.store import Store

EXAMPLE = Path(__file__).parent.parent / "examples" / "utah-2012"
KEY = "utah-2012"
DIRECTORS = ("dir1", "dir2")
PASSWORD = "load-test-password"
START_TIMEOUT = 60.0  # seconds for the server to answer
GRACE = 120.0  # seconds the uploads may go on after the readers stop
MAX_TRIES = 10  # previews and accepts of one upload, 409s included
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
TOKEN = re.compile(r'name="token" value="([^"]*)"')
VERSION = re.compile(r'name="version" value="([^"]*)"')
LINKS = re.compile(r'href="((?:players|events)/[^"#?]+\.html)"')
PLAYED = re.compile(r"Standings after (\d+) of")
WAITING = re.compile(
    r'<td>([^<]*?)(?: \(correction\))?</td><td>[^<]*</td><td><a href="/s/[^/]+/'
    r'workspace/approvals/(\d+)"'
)
P95_TARGET = 100  # ms: the readers' 95th percentile (--approval)
ACCEPT_MAX_TARGET = 1000  # ms: the slowest reader request while an upload is approved
VISIBLE_TARGET = 1000  # ms: from an approval sent (or a hand edit written) to the page showing it
VISIBLE_WAIT = 30.0  # seconds an approved upload may take to show on the standings page


@dataclass
class Readings:
    """Every reader request's start (time.monotonic()) and latency (seconds), and the errors,
    in words."""

    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ended: float = 0.0  # time.monotonic() when the last reader stopped


@dataclass(frozen=True)
class Sent:
    """An upload of a director: accepted, or its accept left without an answer."""

    director: str
    event: str
    filename: str
    data: bytes
    seconds: float  # from the first form to the answer, 409 retries included


@dataclass
class Uploads:
    accepted: list[Sent] = field(default_factory=list)  # written (or, --approval, sent)
    unsure: list[Sent] = field(default_factory=list)  # accepts whose answer never came
    retries: int = 0  # previews made again after a 409
    failures: list[str] = field(default_factory=list)
    approved: list[str] = field(default_factory=list)  # --approval: events the coordinator wrote
    accepting: list[tuple[float, float]] = field(default_factory=list)  # (start, end) of each
    approve_seconds: list[float] = field(default_factory=list)  # approval page and accept
    visible_seconds: list[float] = field(default_factory=list)  # accept sent -> on the page
    edit_seconds: list[float] = field(default_factory=list)  # hand edit written -> on the page


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(folder: str, url: str, secret: bytes, port: int) -> None:
    """The server process: the season under ``KEY``, the store at ``url``, until terminated."""
    app = create_app({KEY: Path(folder)}, store=Store(url), secret=secret)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", access_log=False)


def make_store(url: str, events: dict[str, list[str]]) -> set[int]:
    """The accounts (made, or their passwords set when the database has them already) and the
    directors' events; the ids of the season's audit entries made before this run."""
    store = Store(url)
    try:
        for name, role in [("coordinator", "coordinator")] + [(d, "director") for d in events]:
            hashed = hash_password(PASSWORD)
            try:
                store.add_user(name, role, hashed)
            except UsageError:  # a database given with --database, used before
                store.set_password(name, hashed)
        for name, names in events.items():
            for event in names:
                store.assign(name, KEY, event)
        return {entry.id for entry in store.audit(KEY)}
    finally:
        store.close()


def season_events(folder: Path) -> list[dict[str, object]]:
    with (folder / "season.toml").open("rb") as file:
        listed = tomllib.load(file).get("events", [])
    assert isinstance(listed, list)
    return listed


def players(folder: Path) -> list[tuple[str, str]]:
    """(id, name) of the season's players, from its players.csv."""
    with (folder / "players.csv").open(encoding="utf-8", newline="") as file:
        return [(row["id"], row["name"]) for row in csv.DictReader(file)]


def results(people: list[tuple[str, str]], n: int) -> bytes:
    """A small event's results: two players of the season, different for each upload."""
    rows = [people[(2 * n + i) % len(people)] for i in range(2)]
    lines = [f'{rank},"{name}",{ident},{6 - rank}' for rank, (ident, name) in enumerate(rows, 1)]
    return ("rank,name,id,points\n" + "\n".join(lines) + "\n").encode()


def field_of(pattern: re.Pattern[str], page: str, what: str) -> str:
    found = pattern.search(page)
    if found is None:
        raise ValueError(f"no {what} on the page")
    return found.group(1)


async def wait_for_server(base: str, process: multiprocessing.process.BaseProcess) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        while time.monotonic() < deadline:
            if not process.is_alive():
                raise RuntimeError(f"the server process ended (exit code {process.exitcode})")
            try:
                if (await client.get("/login")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT:.0f} s")


async def discover(base: str, timeout: float) -> list[str]:
    """The pages the readers fetch: the standings, the rules, every player and event page
    linked from the standings and the list of events."""
    base_path = f"/s/{KEY}/"
    found: dict[str, None] = {}
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        for page in ("", "events.html"):
            answer = await client.get(base_path + page)
            answer.raise_for_status()
            found.update(dict.fromkeys(LINKS.findall(answer.text)))
    links = [base_path + link for link in found]
    if not any("/players/" in link for link in links) or not any(
        "/events/" in link for link in links
    ):
        raise RuntimeError(f"no player or event pages found on {base_path}")
    return [base_path, base_path + "rules.html", *links]


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, as light as a client can be (a request
    written, the head read to its blank line, the body by its Content-Length), for
    ``--plain-readers``: on a 2-core machine that runs both, httpx's own work per request (about
    as much as the server's) is counted in every latency, and holds the load the readers make
    to a quarter of what the server can answer."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str) -> int:
        """The status of a GET of ``path`` (its body read whole)."""
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reading, writing = self.streams
        writing.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode())
        try:
            head = await reading.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if length is None:
                raise ValueError(f"no Content-Length for {path}")
            await reading.readexactly(int(length.group(1)))
        except BaseException:
            self.close()  # a broken exchange: the next request opens a new connection
            raise
        return status

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def reader(
    base: str,
    pages: list[str],
    seed: int,
    deadline: float,
    timeout: float,
    out: Readings,
    plain: bool = False,
) -> None:
    """Fetch the season's pages until ``deadline``: the standings and the rules as often as
    every player and event page together (``plain``: by a ``Connection``, else by httpx)."""
    rng = random.Random(seed)
    standings, rules, others = pages[0], pages[1], pages[2:]
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = Connection(host, int(port))
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        while time.monotonic() < deadline:
            pick = rng.random()
            path = standings if pick < 0.3 else rules if pick < 0.45 else rng.choice(others)
            start = time.perf_counter()
            out.starts.append(time.monotonic())
            try:
                if plain:
                    status = await asyncio.wait_for(connection.get(path), timeout)
                else:
                    status = (await client.get(path)).status_code
                if status != 200:
                    out.errors.append(f"{status} on {path}")
            except (httpx.HTTPError, OSError, ValueError, TimeoutError) as exc:
                out.errors.append(f"{_error(exc)} on {path}")
            except asyncio.IncompleteReadError as exc:
                out.errors.append(f"{_error(exc)} on {path}")
            out.latencies.append(time.perf_counter() - start)
    connection.close()
    out.ended = max(out.ended, time.monotonic())


async def director(
    base: str,
    name: str,
    events: list[str],
    date: str,
    people: list[tuple[str, str]],
    start: float,
    interval: float,
    timeout: float,
    out: Uploads,
) -> None:
    """Log in, then upload each event (the k-th no earlier than ``start + k * interval``):
    the form, its preview, accept; a 409 is previewed and accepted again."""
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        if not await log_in(client, name, out):
            return
        for k, event in enumerate(events):
            await asyncio.sleep(max(0.0, start + k * interval - time.monotonic()))
            filename = f"up-{name}-{k + 1}.csv"
            data = results(people, DIRECTORS.index(name) * len(events) + k)
            try:
                await upload(client, name, event, date, filename, data, out)
            except (httpx.HTTPError, ValueError) as exc:
                out.failures.append(f"{name}: {event!r}: {_error(exc)}")


async def log_in(client: httpx.AsyncClient, name: str, out: Uploads) -> bool:
    """Log ``name`` in on ``client``; False (a failure said in ``out``) when that fails."""
    try:
        form = await client.get("/login")
        answer = await client.post(
            "/login",
            data={
                "name": name,
                "password": PASSWORD,
                "next": f"/s/{KEY}/workspace",
                "csrf_token": field_of(CSRF, form.text, "CSRF token"),
            },
        )
    except (httpx.HTTPError, ValueError) as exc:
        out.failures.append(f"{name}: login: {_error(exc)}")
        return False
    if answer.status_code != 303 or "grandprix_session" not in client.cookies:
        out.failures.append(f"{name}: login answered {answer.status_code}")
        return False
    return True


async def played(client: httpx.AsyncClient) -> int:
    """How many events the standings page says are played."""
    page = await client.get(f"/s/{KEY}/")
    page.raise_for_status()
    return int(field_of(PLAYED, page.text, "number of events played"))


async def coordinator(base: str, planned: int, until: float, timeout: float, out: Uploads) -> None:
    """Log in, then until ``planned`` uploads are approved (or ``until``): open each upload
    waiting for approval (its preview) and accept it; then read the standings page until it
    counts the event, timing the approval and the time from the accept sent to the page."""
    workspace = f"/s/{KEY}/workspace"
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        if not await log_in(client, "coordinator", out):
            return
        try:
            shown = await played(client)
        except (httpx.HTTPError, ValueError) as exc:
            out.failures.append(f"coordinator: the standings page: {_error(exc)}")
            return
        while len(out.approved) < planned and time.monotonic() < until:
            try:
                listing = await client.get(f"{workspace}/approvals")
                waiting = WAITING.findall(listing.text)
                if not waiting:
                    await asyncio.sleep(0.25)
                    continue
                for event, ident in waiting:
                    began = time.monotonic()
                    page = await client.get(f"{workspace}/approvals/{ident}")
                    if page.status_code != 200:
                        out.failures.append(
                            f"coordinator: approval of {event!r} answered "
                            f"{page.status_code}: {_said(page.text)}"
                        )
                        continue
                    sent = time.monotonic()
                    done = await client.post(
                        f"{workspace}/accept",
                        data={
                            "csrf_token": field_of(CSRF, page.text, "CSRF token"),
                            "token": field_of(TOKEN, page.text, "change token"),
                            "version": field_of(VERSION, page.text, "version"),
                        },
                    )
                    out.accepting.append((began, time.monotonic()))
                    if done.status_code == 409:
                        continue  # the season changed since the preview: opened again
                    if done.status_code != 200:
                        out.failures.append(
                            f"coordinator: accepting {event!r} answered "
                            f"{done.status_code}: {_said(done.text)}"
                        )
                        continue
                    out.approve_seconds.append(time.monotonic() - began)
                    out.approved.append(html.unescape(event))
                    shown += 1
                    while await played(client) < shown:
                        if time.monotonic() - sent > VISIBLE_WAIT:
                            late = f"{VISIBLE_WAIT:.0f} s after its accept"
                            out.failures.append(f"{event!r} not on the standings page {late}")
                            break
                        await asyncio.sleep(0.02)
                    else:
                        out.visible_seconds.append(time.monotonic() - sent)
            except (httpx.HTTPError, ValueError) as exc:
                out.failures.append(f"coordinator: {_error(exc)}")
                await asyncio.sleep(0.25)


async def upload(
    client: httpx.AsyncClient,
    name: str,
    event: str,
    date: str,
    filename: str,
    data: bytes,
    out: Uploads,
) -> None:
    """One event uploaded: the form, its preview, accept; after a 409, all again."""
    workspace = f"/s/{KEY}/workspace"
    began = time.perf_counter()
    for attempt in range(MAX_TRIES):
        if attempt:
            out.retries += 1
        form = await client.get(f"{workspace}/event")
        shown = await client.post(
            f"{workspace}/event",
            data={
                "name": event,
                "date": date,
                "csrf_token": field_of(CSRF, form.text, "CSRF token"),
            },
            files={"results": (filename, data, "text/csv")},
        )
        if shown.status_code == 422 and "changed while this change was being made" in shown.text:
            continue  # the other director's upload landed as this one was made: again
        if shown.status_code != 200:
            out.failures.append(
                f"{name}: preview of {event!r} answered {shown.status_code}: {_said(shown.text)}"
            )
            return
        try:
            done = await client.post(
                f"{workspace}/accept",
                data={
                    "csrf_token": field_of(CSRF, shown.text, "CSRF token"),
                    "token": field_of(TOKEN, shown.text, "change token"),
                    "version": field_of(VERSION, shown.text, "version"),
                },
            )
        except httpx.TransportError as exc:  # it may have been written all the same
            out.unsure.append(Sent(name, event, filename, data, time.perf_counter() - began))
            out.failures.append(f"{name}: accepting {event!r}: no answer ({_error(exc)})")
            return
        if done.status_code == 200:
            out.accepted.append(Sent(name, event, filename, data, time.perf_counter() - began))
            return
        if done.status_code != 409:
            out.failures.append(
                f"{name}: accepting {event!r} answered {done.status_code}: {_said(done.text)}"
            )
            return
    out.failures.append(f"{name}: {event!r} refused {MAX_TRIES} times (409)")


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _said(page: str) -> str:
    """A refusal page's message, shortly."""
    found = re.search(r'<p[^>]*class="problem"[^>]*>(.*?)</p>|<main>.*?<p>(.*?)</p>', page, re.S)
    text = next((g for g in found.groups() if g), "") if found else page[:200]
    return re.sub(r"\s+", " ", text).strip()[:300]


async def load(
    base: str,
    args: argparse.Namespace,
    events: dict[str, list[str]],
    date: str,
    people: list[tuple[str, str]],
    readings: Readings,
    uploads: Uploads,
    folder: Path,
) -> float:
    """The readers, both directors and the hand edits at once; the seconds the readers read. A
    run that does not end within ``GRACE`` after the readers' time is cut short (a failure)."""
    seconds: float = args.seconds
    timeout: float = args.timeout
    pages = await discover(base, timeout)
    start = time.monotonic()
    deadline = start + seconds
    interval = seconds / max(1, args.uploads)
    readers = [
        reader(base, pages, seed, deadline, timeout, readings, args.plain_readers)
        for seed in range(args.readers)
    ]
    directors = [
        director(base, name, names, date, people, start, interval, timeout, uploads)
        for name, names in events.items()
    ]
    if args.approval:  # the uploads wait for the coordinator, who approves each
        planned = sum(len(names) for names in events.values())
        directors.append(coordinator(base, planned, deadline + GRACE, timeout, uploads))
    if args.events:  # the generated season: e00000.csv is its first event's results
        first = next(p for p in pages if "/events/001-" in p)
        directors.append(
            hand_editor(base, folder, first, start, interval, args.uploads, timeout, uploads)
        )
    try:
        await asyncio.wait_for(asyncio.gather(*readers, *directors), seconds + GRACE)
    except TimeoutError:
        uploads.failures.append(f"the run did not end within {seconds + GRACE:.0f} s")
    return (readings.ended or time.monotonic()) - start


async def hand_editor(
    base: str,
    folder: Path,
    page: str,
    start: float,
    interval: float,
    count: int,
    timeout: float,
    out: Uploads,
) -> None:
    """A coordinator's hand corrections of the season's first results file (e00000.csv, the
    event of ``page``) while the server runs, halfway between two uploads: the name of its
    winner corrected, the file saved whole as an editor saves it (a new file renamed over the
    old); the time until the event's page shows the correction."""
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        for k in range(1, count + 1):
            await asyncio.sleep(max(0.0, start + (k - 0.5) * interval - time.monotonic()))
            name = await asyncio.to_thread(correct_winner, folder / "e00000.csv", k)
            written = time.monotonic()
            while time.monotonic() - written < VISIBLE_WAIT:
                if name in (await client.get(page)).text:
                    out.edit_seconds.append(time.monotonic() - written)
                    break
                await asyncio.sleep(0.02)
            else:
                out.failures.append(f"hand edit {k} not on {page} within {VISIBLE_WAIT:.0f} s")


def correct_winner(path: Path, k: int) -> str:
    """The generated results file with its first player's name corrected for the ``k``-th
    time, saved whole at once; the name now written."""
    head, first, rest = path.read_text(encoding="utf-8").split("\n", 2)
    rank, name, ident, points = first.split(",")
    name = f"Player {ident} corrected {k}"
    saved = path.with_name(f".{path.name}.saving")
    saved.write_text(f"{head}\n{rank},{name},{ident},{points}\n{rest}", encoding="utf-8")
    os.replace(saved, path)
    return name


def lost(
    folder: Path,
    url: str,
    before: list[dict[str, object]],
    audit_before: set[int],
    written: list[Sent],
    approval: bool,
) -> list[str]:
    """What the season folder or the audit trail is missing (or has twice) of the earlier
    events and the uploads written (``approval``: by the coordinator, each entry saying which
    director sent it)."""
    problems = []
    for sent in written:
        path = folder / sent.filename
        if not path.is_file():
            problems.append(f"{sent.filename} (of {sent.event!r}) is not in the season folder")
        elif path.read_bytes() != sent.data:
            problems.append(f"{sent.filename} (of {sent.event!r}) holds other bytes than sent")
    listed = [str(entry.get("name")) for entry in season_events(folder)]
    wanted = [str(entry.get("name")) for entry in before] + [s.event for s in written]
    for name in wanted:
        if listed.count(name) != 1:
            problems.append(f"season.toml lists {name!r} {listed.count(name)} times")
    for sent in written:
        entries = [e for e in season_events(folder) if e.get("name") == sent.event]
        if entries and entries[0].get("results") != sent.filename:
            problems.append(
                f"season.toml gives {sent.event!r} the results "
                f"{entries[0].get('results')!r}, not {sent.filename!r}"
            )
    season, found = load_season(folder)
    errors = [p for p in found if p.severity is Severity.ERROR]
    if season is None or errors:
        problems.append(f"the season does not read: {', '.join(map(str, errors[:3]))}")
    store = Store(url)
    try:
        trail = [e for e in store.audit(KEY) if e.id not in audit_before]
    finally:
        store.close()
    if len(trail) != len(written):
        problems.append(
            f"the audit trail has {len(trail)} new entries for {len(written)} uploads written"
        )
    for sent in written:
        digest = hashlib.sha256(sent.data).hexdigest()
        matching = [
            e
            for e in trail
            if f"'{sent.event}'" in e.what
            and (
                f"sent by {sent.director}," in e.what if approval else e.user_name == sent.director
            )
            and any(f["name"] == sent.filename and f["sha256"] == digest for f in e.files)
        ]
        if len(matching) != 1:
            problems.append(
                f"the audit trail has {len(matching)} entries for {sent.event!r} by "
                f"{sent.director} with {sent.filename}"
            )
    return problems


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="how long the readers read")
    parser.add_argument("--readers", type=int, default=50, help="concurrent readers")
    parser.add_argument("--uploads", type=int, default=8, help="events each director uploads")
    parser.add_argument(
        "--every", type=float, default=0, help="a director uploads every N seconds (sets --uploads)"
    )
    parser.add_argument(
        "--events", type=int, default=0, help="a generated season of N events, not utah-2012"
    )
    parser.add_argument(
        "--players", type=int, default=20000, help="the generated season's players.csv"
    )
    parser.add_argument(
        "--approval",
        action="store_true",
        help="the uploads wait for approval (season.toml: approval = true); a coordinator "
        "approves each",
    )
    parser.add_argument(
        "--database",
        default="",
        help="the store's URL (postgresql://...; default: SQLite in a temporary folder); its "
        "accounts dir1, dir2 and coordinator are reset",
    )
    parser.add_argument("--timeout", type=float, default=10, help="seconds per request")
    parser.add_argument(
        "--plain-readers",
        action="store_true",
        help="the readers fetch on plain keep-alive connections instead of httpx (whose own "
        "work per request is counted in each latency, and holds the readers' load down)",
    )
    args = parser.parse_args()
    if args.every:
        args.uploads = max(1, int(args.seconds // args.every))
    with tempfile.TemporaryDirectory(prefix="grandprix-load-") as temp:
        folder = Path(temp) / KEY
        if args.events:
            generate(folder, args.events, "utah-2012", players=args.players)
        else:
            shutil.copytree(EXAMPLE, folder)
        if args.approval:
            toml = folder / "season.toml"
            toml.write_text("approval = true\n" + toml.read_text(encoding="utf-8"), "utf-8")
        before = season_events(folder)
        # On the last day of the season's events: listed after them, so that no earlier event's
        # page changes its number (and address) while the readers fetch it.
        date = max(str(entry["date"]) for entry in before)
        url = database_url(args.database or f"sqlite:///{temp}/store.sqlite3", folder)
        events = {d: [f"Upload {d[-1]}-{k}" for k in range(1, args.uploads + 1)] for d in DIRECTORS}
        audit_before = make_store(url, events)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = multiprocessing.get_context("spawn").Process(
            target=serve, args=(str(folder), url, secrets.token_bytes(32), port), daemon=True
        )
        server.start()
        try:
            asyncio.run(wait_for_server(base, server))
            readings, uploads = Readings(), Uploads()
            seconds = asyncio.run(
                load(base, args, events, date, players(folder), readings, uploads, folder)
            )
        finally:
            server.terminate()
            server.join(timeout=15)
            if server.is_alive():
                server.kill()
                server.join(timeout=5)
        # An accept whose answer never came counts as written when its file is in the folder.
        late = [sent for sent in uploads.unsure if (folder / sent.filename).is_file()]
        sent = uploads.accepted + late
        written = [s for s in sent if s.event in uploads.approved] if args.approval else sent
        problems = lost(folder, url, before, audit_before, written, args.approval)
    return report(args, seconds, len(before), url, events, readings, uploads, late, problems)


def report(
    args: argparse.Namespace,
    seconds: float,
    earlier: int,
    url: str,
    events: dict[str, list[str]],
    readings: Readings,
    uploads: Uploads,
    late: list[Sent],
    problems: list[str],
) -> int:
    """Print what was measured against the targets; 0 when every target is met."""
    latencies = [s * 1000 for s in readings.latencies]
    during = [
        ms
        for ms, start in zip(latencies, readings.starts, strict=True)
        if any(start < end and start + ms / 1000 > began for began, end in uploads.accepting)
    ]
    planned = sum(len(names) for names in events.values())
    shown = f"{earlier} events" + (
        f" and {args.players:,} players (generated)" if args.events else " (examples/utah-2012)"
    )
    who = "2 directors upload" + (" and a coordinator approves" if args.approval else "")
    print(
        f"server load: {args.readers} readers for {seconds:.1f} s while {who}; "
        f"season {shown}, store {url.split(':', 1)[0]}"
    )
    print(f"requests:        {len(latencies)}")
    print(f"errors:          {len(readings.errors)}")
    print(f"throughput:      {len(latencies) / seconds:.0f} req/s")
    print(f"latency p50:     {percentile(latencies, 0.50):.0f} ms")
    print(f"latency p95:     {percentile(latencies, 0.95):.0f} ms")
    print(f"latency max:     {max(latencies, default=0):.0f} ms")
    if uploads.accepting:
        worst = max(during, default=0)
        print(
            f"during accepts:  {len(during)} requests, p50 {percentile(during, 0.5):.0f} ms, "
            f"p95 {percentile(during, 0.95):.0f} ms, max {worst:.0f} ms"
        )
    verb = "sent for approval" if args.approval else "accepted"
    print(
        f"uploads:         {len(uploads.accepted)} of {planned} {verb}, "
        f"{uploads.retries} retries after 409"
    )
    if uploads.unsure:
        print(
            f"                 {len(late)} of {len(uploads.unsure)} accepts without an answer "
            "were written all the same"
        )
    print(
        f"upload p50:      {percentile([s.seconds * 1000 for s in uploads.accepted], 0.5):.0f} "
        "ms (form, preview, accept)"
    )
    visible = [s * 1000 for s in uploads.visible_seconds]
    if args.approval:
        approve = [s * 1000 for s in uploads.approve_seconds]
        print(
            f"approved:        {len(uploads.approved)} of {planned}; approval p50 "
            f"{percentile(approve, 0.5):.0f} ms, max {max(approve, default=0):.0f} ms "
            "(its preview and accept)"
        )
        print(
            f"on the page:     p50 {percentile(visible, 0.5):.0f} ms, max "
            f"{max(visible, default=0):.0f} ms from the accept sent to the standings page "
            "counting it"
        )
    edits = [s * 1000 for s in uploads.edit_seconds]
    if edits:
        print(
            f"hand edits:      {len(edits)}; on the page p50 {percentile(edits, 0.5):.0f} ms, "
            f"max {max(edits):.0f} ms from the results file saved"
        )
    for error in sorted(set(readings.errors))[:10]:
        print(f"  reader error: {error} ({readings.errors.count(error)}x)")
    for failure in uploads.failures:
        print(f"  upload failed: {failure}")
    for problem in problems:
        print(f"  lost: {problem}")
    ok = not readings.errors and not uploads.failures and len(uploads.accepted) == planned
    ok = ok and not problems
    if args.approval:
        print(
            f"target: 0 reader errors, p95 < {P95_TARGET} ms, max < {ACCEPT_MAX_TARGET} ms "
            f"during accepts, every upload approved and every hand edit on the page within "
            f"{VISIBLE_TARGET} ms, nothing lost"
        )
        ok = ok and len(uploads.approved) == planned
        ok = ok and percentile(latencies, 0.95) < P95_TARGET
        ok = ok and max(during, default=0) < ACCEPT_MAX_TARGET
        ok = ok and max(visible, default=0) < VISIBLE_TARGET
        ok = ok and max(edits, default=0) < VISIBLE_TARGET
    else:
        print("target: 0 reader errors, every upload accepted, nothing lost")
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""A server killed at any step of a change, then started again: the season folder, its
season.toml, the audit trail and the list of uploads waiting for approval agree, nothing is lost
and nothing stray is left (``serve/journal.py``).

Every operation (accept, approve, reject, correct, publish, start a season) is killed at each of
its steps: in this process by a fault that raises where the journal marks the step (the server's
own clean-up code does not run past it), and in a real server process by SIGKILL
(``GRANDPRIX_FAULT_AT``); a new application is then made on the same folder and database, as a
restarted server is, and the state checked."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.model import Severity
from grandprix.season.config import load_season
from grandprix.serve import journal
from grandprix.serve.accounts import hash_password
from grandprix.serve.app import create_app
from grandprix.serve.seasons import seasons_under
from grandprix.serve.security import CSRF_FIELD
from grandprix.serve.store import Store
from serving import free_port
from test_serve_workspace import GOOD, field

UTAH = ROOT / "examples" / "utah-2012"
KEY = "utah-2012"
BASE = f"/s/{KEY}/workspace"
PASSWORDS = {"cora": "coordinator-pw", "dan": "director-pw1"}
CORRECTED = GOOD.replace(b"5\n", b"4.5\n", 1)


class Killed(Exception):
    """The process dies here (nothing after this step runs)."""


@functools.cache
def hashed(name: str) -> str:
    return hash_password(PASSWORDS[name])


@dataclass
class Server:
    root: Path
    database: str

    @property
    def season(self) -> Path:
        return self.root / KEY

    def store(self) -> Store:
        return Store(self.database)

    @contextmanager
    def running(self) -> Iterator[tuple[TestClient, Store]]:
        """A server started on the folder and the database (its start-up runs)."""
        store = self.store()
        app = create_app(
            seasons_under(self.root), root=str(self.root), store=store, secret=b"s" * 32
        )
        try:
            with TestClient(app, base_url="http://127.0.0.1:8000") as web:
                yield web, store
        finally:
            store.close()


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return made_server(tmp_path)


def made_server(tmp_path: Path) -> Server:
    """Utah 2012 with approval, a coordinator and a director of Park City, on SQLite."""
    root = tmp_path / "root"
    shutil.copytree(UTAH, root / KEY)
    toml = root / KEY / "season.toml"
    toml.write_text(
        toml.read_text().replace("end = 2012-12-31", "end = 2012-12-31\napproval = true")
    )
    made = Server(root, f"sqlite:///{tmp_path / 'server.sqlite3'}")
    store = made.store()
    store.add_user("cora", "coordinator", hashed("cora"))
    store.add_user("dan", "director", hashed("dan"))
    store.assign("dan", KEY, "Park City")
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


def new_event(web: TestClient) -> httpx.Response:
    form = web.get(f"{BASE}/event").text
    return web.post(
        f"{BASE}/event",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "name": "Park City", "date": "2012-12-15"},
        files={"results": ("park.csv", GOOD, "text/csv")},
    )


def send(web: TestClient, preview: str) -> httpx.Response:
    return web.post(
        f"{BASE}/accept",
        data={
            CSRF_FIELD: field(preview, CSRF_FIELD),
            "token": field(preview, "token"),
            "version": field(preview, "version"),
        },
    )


def waiting_upload(web: TestClient, store: Store) -> int:
    """Dan's upload of Park City, sent for approval; its id."""
    log_in(web, "dan")
    assert "Sent for approval" in send(web, new_event(web).text).text
    web.cookies.clear()
    [sent] = store.submissions(KEY)
    return sent.id


def accept(web: TestClient, store: Store) -> None:
    log_in(web, "cora")
    send(web, new_event(web).text)


def approve(web: TestClient, store: Store) -> None:
    ident = waiting_upload(web, store)
    log_in(web, "cora")
    send(web, web.get(f"{BASE}/approvals/{ident}").text)


def reject(web: TestClient, store: Store) -> None:
    ident = waiting_upload(web, store)
    log_in(web, "cora")
    page = web.get(f"{BASE}/approvals/{ident}").text
    web.post(f"{BASE}/approvals/{ident}/reject", data={CSRF_FIELD: field(page, CSRF_FIELD)})


def correct(web: TestClient, store: Store) -> None:
    log_in(web, "cora")
    corrected(web)


def corrected(web: TestClient) -> httpx.Response:
    """The correction of Salt Lake Winter Quick previewed and sent: the answer."""
    form = web.get(f"{BASE}/results").text
    shown = web.post(
        f"{BASE}/results",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "file": "Salt Lake Winter Quick\t"},
        files={"results": ("winter_quick.csv", CORRECTED, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    return send(web, shown.text)


def publish(web: TestClient, store: Store) -> None:
    log_in(web, "cora")
    page = web.get(f"{BASE}/publish").text
    web.post(f"{BASE}/publish", data={CSRF_FIELD: field(page, CSRF_FIELD)})


def start(web: TestClient, store: Store) -> None:
    log_in(web, "cora")
    page = web.get("/new").text
    web.post(
        "/new",
        data={
            CSRF_FIELD: field(page, CSRF_FIELD),
            "name": "Next season",
            "folder": "next",
            "preset": "utah-2012",
            "like": "",
        },
    )


def names(web: TestClient, store: Store) -> None:
    """A new spelling of a player's name, then the coordinator's decision: different people."""
    log_in(web, "cora")
    quick = web.app.state.served.seasons[KEY].folder / "winter_quick.csv"  # type: ignore[attr-defined]
    if "Esme Daltan" not in quick.read_text(encoding="utf-8"):
        quick.write_text(quick.read_text(encoding="utf-8") + "99,Esme Daltan,,1\n")
    page = web.get(f"/s/{KEY}/workspace").text
    web.post(f"/s/{KEY}/reload", data={CSRF_FIELD: field(page, CSRF_FIELD)})
    page = web.get(f"{BASE}/names").text
    pair = re.search(
        r'name="name" value="([^"]*)">\s*<input type="hidden" name="other" value="([^"]*)"', page
    )
    assert pair, page
    web.post(
        f"{BASE}/names",
        data={
            CSRF_FIELD: field(page, CSRF_FIELD),
            "name": pair.group(1),
            "other": pair.group(2),
            "version": field(page, "version"),
            "decision": "different",
        },
    )


def rules(web: TestClient, store: Store) -> None:
    log_in(web, "cora")
    form = web.get(f"{BASE}/rules").text
    shown = web.post(
        f"{BASE}/rules",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "points.table": "[25, 18, 15, 12, 10, 8]"},
    )
    assert shown.status_code == 200, shown.text
    send(web, shown.text)


WRITES = ("intent", "intent written", "wrote a file", "wrote season.toml", "settled")
OPERATIONS: dict[str, tuple[Callable[[TestClient, Store], None], tuple[str, ...]]] = {
    "accept": (accept, WRITES),
    "approve": (approve, WRITES),
    "correct": (correct, ("intent", "intent written", "wrote a file", "settled")),
    "reject": (reject, ("reject",)),
    "names": (names, ("intent", "intent written", "wrote a file", "settled")),
    "rules": (rules, ("intent", "intent written", "wrote season.toml", "settled")),
    "publish": (publish, ("intent", "intent written", "work done", "settled")),
    "start": (start, ("season made", "season in place", "settled")),
}
CASES = [(op, at) for op, (_, steps) in OPERATIONS.items() for at in steps]
ACTION = {
    "accept": "event",
    "approve": "approve",
    "correct": "results",
    "reject": "reject",
    "names": "names",
    "rules": "rules",
    "publish": "publish",
    "start": "start",
}


def consistent(server: Server, operation: str) -> bool:
    """The four agree after a restart; whether the operation's change is in."""
    with server.running() as (web, store):
        log_in(web, "cora")
        assert web.get(f"/s/{KEY}/index.html").status_code == 200
        trail = [e for key in (KEY, "next") for e in store.audit(key)]
        waiting = store.submissions(KEY)
        decided = store.submissions(KEY, None)
        kept = {str(f[k]) for e in trail for f in e.files for k in ("sha256", "replaced") if k in f}
        assert all(store.file(digest) is not None for digest in kept)
    for folder in [p for p in server.root.iterdir()]:
        assert not folder.name.startswith("."), f"left behind: {folder}"
        assert not (folder / journal.JOURNAL).exists()
        strays = [p.name for p in folder.iterdir() if ".tmp-" in p.name]
        assert not strays, strays
        season, problems = load_season(folder)
        assert season is not None and not [p for p in problems if p.severity is Severity.ERROR], (
            problems
        )
    entries = [e for e in trail if e.action == ACTION[operation]]
    assert len(entries) <= 1, entries
    done = bool(entries)
    toml = tomllib.loads((server.season / "season.toml").read_text())
    named = {e.get("results") for e in toml["events"]}
    if operation in ("accept", "approve"):
        assert ("park.csv" in named) == done == (server.season / "park.csv").exists()
    if operation == "approve":
        assert [s.status for s in decided] == ["approved" if done else "waiting"]
    if operation == "reject":
        assert [s.status for s in decided] == ["rejected" if done else "waiting"]
        assert len(waiting) == (0 if done else 1)
    if operation == "correct":
        data = (server.season / "winter_quick.csv").read_bytes()
        assert data == (CORRECTED if done else (UTAH / "winter_quick.csv").read_bytes())
        if done:  # the earlier file kept, by its digest, in the trail and the database
            [written] = [f for f in entries[0].files if f["name"] == "winter_quick.csv"]
            earlier = (UTAH / "winter_quick.csv").read_bytes()
            assert written["replaced"] == hashlib.sha256(earlier).hexdigest()
    if operation == "names":
        aliases = server.season / "aliases.csv"
        different = aliases.exists() and aliases.read_text().splitlines()[-1].endswith(",different")
        assert different == done
    if operation == "rules":
        toml_text = (server.season / "season.toml").read_text()
        assert ("table = [25, 18, 15, 12, 10, 8]" in toml_text) == done
    if operation == "publish":
        assert (server.season / "site" / "index.html").exists() == done
    if operation == "start":
        assert (server.root / "next" / "season.toml").exists() == done
    return done


def kill_at(
    server: Server,
    monkeypatch: pytest.MonkeyPatch,
    at: str,
    run: Callable[[TestClient, Store], None],
) -> list[str]:
    """``run`` on a server that dies at step ``at`` (nothing after it runs); the steps reached."""
    reached: list[str] = []

    def die(name: str) -> None:
        reached.append(name)
        if name == at:
            raise Killed(name)

    with server.running() as (web, store):
        monkeypatch.setattr(journal, "fault", die)
        with pytest.raises(Killed):
            run(web, store)
        monkeypatch.setattr(journal, "fault", None)
    return reached


@pytest.mark.parametrize(("operation", "at"), CASES, ids=[f"{o}-{a}" for o, a in CASES])
def test_a_change_killed_at_any_step_is_whole_or_absent_after_a_restart(
    server: Server, operation: str, at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, _ = OPERATIONS[operation]
    reached = kill_at(server, monkeypatch, at, run)
    assert reached[-1] == at
    done = consistent(server, operation)
    assert done == (at not in ("intent", "season made", "reject")), (operation, at)


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_each_operation_without_a_fault_is_done_once(server: Server, operation: str) -> None:
    run, _ = OPERATIONS[operation]
    with server.running() as (web, store):
        run(web, store)
    assert consistent(server, operation)


def test_a_change_whose_file_was_edited_by_hand_after_the_kill_keeps_the_edit(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    kill_at(server, monkeypatch, "intent written", accept)
    (server.season / "park.csv").write_bytes(CORRECTED)  # by hand, before the restart
    with server.running() as (_, store):
        [entry] = [e for e in store.audit(KEY) if e.action == "event"]
    assert "park.csv edited by hand meanwhile, kept as it was" in entry.what
    assert (server.season / "park.csv").read_bytes() == CORRECTED


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("at", ["wrote a file", "settled"])
def test_a_real_server_killed_mid_approval_is_whole_after_a_restart(
    server: Server, at: str, tmp_path: Path
) -> None:
    with server.running() as (web, store):
        ident = waiting_upload(web, store)
    port = free_port()
    command = [
        str(ROOT / ".venv" / "bin" / "grandprix"),
        "serve",
        "--root",
        str(server.root),
        "--port",
        str(port),
        "--database",
        server.database,
    ]
    environment = {**os.environ, "GRANDPRIX_FAULT_AT": at}
    process = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        deadline = time.monotonic() + 30
        while True:
            try:
                client.get("/login")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        page = client.get("/login").text
        client.post(
            "/login",
            data={
                CSRF_FIELD: field(page, CSRF_FIELD),
                "name": "cora",
                "password": PASSWORDS["cora"],
                "next": "/",
            },
        )
        review = client.get(f"{BASE}/approvals/{ident}").text
        with pytest.raises(httpx.TransportError):
            client.post(
                f"{BASE}/accept",
                data={
                    CSRF_FIELD: field(review, CSRF_FIELD),
                    "token": field(review, "token"),
                    "version": field(review, "version"),
                },
            )
        assert process.wait(timeout=30) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (server.season / journal.JOURNAL).exists()  # killed mid-change, as meant
    assert consistent(server, "approve")
    assert re.search("park", (server.season / "season.toml").read_text())


def test_a_restart_removes_what_killed_processes_left_and_nothing_else(server: Server) -> None:
    import tempfile

    from grandprix.serve.new_season import NEW_PREFIX
    from grandprix.serve.workspace import PREVIEW_PREFIX

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a process id no process has now
    temp = Path(tempfile.gettempdir())
    left = [temp / f"{PREVIEW_PREFIX}{dead.pid}-abc", server.root / f"{NEW_PREFIX}x-{dead.pid}-ab"]
    alive = [
        temp / f"{PREVIEW_PREFIX}{os.getpid()}-abc",
        server.root / f"{NEW_PREFIX}y-{os.getpid()}-ab",
    ]
    stray = server.season / ".winter_quick.csv.tmp-0123456789ab"
    for folder in left + alive:
        folder.mkdir()
        (folder / "season.toml").write_text('name = "half made"\n')
    stray.write_bytes(b"half written")
    try:
        with server.running() as (web, _):
            assert web.get(f"/s/{KEY}/index.html").status_code == 200
            assert "x-" not in web.get("/").text  # an unfinished season is never served
        assert not any(p.exists() for p in left) and not stray.exists()
        assert all(p.exists() for p in alive)  # this process's own: at work still
    finally:
        for folder in left + alive:
            shutil.rmtree(folder, ignore_errors=True)


def test_a_season_folder_the_server_may_not_write_is_served_all_the_same(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A season served from a read-only folder: the folder's lock cannot be made, so there is
    nothing to finish, and the server starts and serves its pages."""
    from grandprix.serve import workspace

    def refused(folder: Path) -> Iterator[None]:
        raise PermissionError(13, "Read-only file system", str(folder))
        yield  # pragma: no cover (a generator, as workspace.locked is)

    monkeypatch.setattr(workspace, "locked", contextmanager(refused))
    with server.running() as (web, _):
        assert web.get(f"/s/{KEY}/index.html").status_code == 200


def test_a_publication_that_cannot_be_made_again_is_recorded_and_the_server_starts(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after its intent, with a folder where the site goes that holds another file:
    the restart cannot make the site again; it says so in the audit entry and serves on."""
    kill_at(server, monkeypatch, "intent written", publish)
    (server.season / "site").mkdir()
    (server.season / "site" / "notes.txt").write_text("the club's own file\n")
    with server.running() as (web, store):
        assert web.get(f"/s/{KEY}/index.html").status_code == 200
        [entry] = [e for e in store.audit(KEY) if e.action == "publish"]
    assert "not made again after a restart" in entry.what
    assert (server.season / "site" / "notes.txt").read_text() == "the club's own file\n"
    assert not (server.season / journal.JOURNAL).exists()

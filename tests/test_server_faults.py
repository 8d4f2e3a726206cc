"""The server's own faults: a database error at any write of a change, a migration stopped at any
statement, two sends of one form, a client that fails to log in, a proxy on another machine, a
broken season.toml; and what a page may say to whom (no server path to a director, no private
page in a shared cache, no form token outliving its session)."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from grandprix.errors import UsageError
from grandprix.runtime import files
from grandprix.serve import forms, journal, new_season
from grandprix.serve.accounts import Policy, Throttled, hash_password, log_in
from grandprix.serve.database import migrate, open_engine
from grandprix.serve.security import CSRF_FIELD
from grandprix.serve.store import Store, StoreError
from test_journal import (
    ACTION,
    BASE,
    KEY,
    OPERATIONS,
    Server,
    consistent,
    hashed,
    made_server,
    new_event,
    send,
)
from test_journal import log_in as log_in_as
from test_serve_workspace import field

# Private pages, the CSRF token, server paths, a broken season.toml


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return made_server(tmp_path)


def test_private_pages_may_be_kept_by_no_shared_cache(server: Server) -> None:
    with server.running() as (web, _):
        assert web.get(f"/s/{KEY}/index.html").headers["cache-control"] == "no-cache"
        assert web.get("/login").headers["cache-control"] == "no-cache"
        log_in_as(web, "cora")
        for path in (f"/s/{KEY}/index.html", BASE, f"{BASE}/event", f"{BASE}/audit", "/"):
            assert web.get(path).headers["cache-control"] == "private, no-store", path


def test_a_form_token_works_only_with_the_session_it_was_made_for(server: Server) -> None:
    with server.running() as (web, _):
        log_in_as(web, "cora")
        page = web.get(f"{BASE}/publish").text
        earlier = field(page, CSRF_FIELD)
        web.cookies.delete("grandprix_session")
        log_in_as(web, "cora")  # a new session, the same browser (the same CSRF cookie)
        refused = web.post(f"{BASE}/publish", data={CSRF_FIELD: earlier})
        assert refused.status_code == 403 and "Form refused" in refused.text
        now = field(web.get(f"{BASE}/publish").text, CSRF_FIELD)
        assert now != earlier


def test_forms_answer_on_a_broken_season_toml_and_show_no_server_path(server: Server) -> None:
    toml = server.season / "season.toml"
    toml.write_text(toml.read_text() + "\n[[events]\nname = \n")
    folder = str(server.season.resolve())
    with server.running() as (web, _):
        for who in ("cora", "dan"):
            web.cookies.clear()
            log_in_as(web, who)
            for path in ("event", "results"):
                got = web.get(f"{BASE}/{path}")
                assert got.status_code in (200, 409), (who, path, got.status_code)
                assert folder not in got.text and str(server.root) not in got.text
                if got.status_code == 409:  # says where, from inside the folder
                    assert re.search(r"season\.toml:\d+:\d+: not valid TOML", got.text)


def test_a_directors_stale_form_names_no_server_path(server: Server) -> None:
    with server.running() as (web, _):
        log_in_as(web, "cora")
        preview = new_event(web).text
        (server.season / "notes.txt").write_text("edited by hand\n")
        (server.season / "winter_quick.csv").write_bytes(
            (server.season / "winter_quick.csv").read_bytes() + b"\n"
        )
        got = send(web, preview)
        assert got.status_code == 409
        assert str(server.season.resolve()) not in got.text and "winter_quick.csv" in got.text


# One upload per submit


def test_the_same_upload_form_sent_twice_makes_one_upload(server: Server) -> None:
    with server.running() as (web, store):
        log_in_as(web, "dan")
        preview = new_event(web).text
        answers: list[int] = []

        def sent() -> None:
            answers.append(send(web, preview).status_code)

        threads = [threading.Thread(target=sent) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(store.submissions(KEY)) == 1, answers
        send(web, preview)  # and once more, later
        assert len(store.submissions(KEY)) == 1


def test_uploads_sent_at_once_cannot_pass_the_waiting_limit(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forms, "WAITING_PER_USER", 2)
    with server.running() as (web, store):
        log_in_as(web, "dan")
        previews = [new_event(web).text for _ in range(5)]
        answers: list[int] = []

        def sent(preview: str) -> None:
            answers.append(send(web, preview).status_code)

        threads = [threading.Thread(target=sent, args=(p,)) for p in previews]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(store.submissions(KEY)) == 2
        assert sorted(answers).count(429) == 3


# Logins: a slowing of each account that no client can turn against others


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_guesses_from_many_addresses_slow_the_account_and_never_lock_its_user_out(
    database: str,
) -> None:
    clock = Clock()
    store = Store(database, clock)
    store.add_user("admin", "coordinator", hash_password("right-password"))
    policy = Policy(window=900, tries_per_name=5, tries_per_address=30, slowest=60)
    waits = []
    for i in range(12):  # each guess from a new address, as soon as it may be checked
        while True:
            try:
                assert log_in(store, policy, "admin", "guess", f"10.1.0.{i}", None) is None
                break
            except Throttled as held:
                waits.append(held.seconds)
                clock.now += held.seconds
    assert waits == [1, 2, 4, 8, 16, 32, 60]  # doubling from the 6th failure, up to a minute
    # tries refused while held back are not noted: they never make the wait longer
    for left in (60, 50, 40, 30, 20, 10):
        with pytest.raises(Throttled) as refused:
            log_in(store, policy, "admin", "guess", "10.2.0.1", None)
        assert refused.value.seconds == left
        clock.now += 10
    # the admin, from their own address, gets in a minute after the last failure
    found = log_in(store, policy, "admin", "right-password", "192.168.1.5", None)
    assert found is not None
    store.close()


def test_one_address_failing_many_names_holds_back_that_address_only(database: str) -> None:
    clock = Clock()
    store = Store(database, clock)
    store.add_user("dan", "director", hash_password("right-password"))
    policy = Policy(window=900, tries_per_name=5, tries_per_address=4)
    for i in range(4):
        assert log_in(store, policy, f"guess-{i}", "x", "10.0.0.66", None) is None
    with pytest.raises(Throttled):
        log_in(store, policy, "dan", "right-password", "10.0.0.66", None)
    assert log_in(store, policy, "dan", "right-password", "10.0.0.7", None) is not None
    store.close()


def test_trusted_proxies_are_named_and_checked() -> None:
    from grandprix.cli.serve import proxy_options

    assert proxy_options(False, (), ("10.0.0.5", "10.1.0.0/24")) == (True, "10.0.0.5,10.1.0.0/24")
    assert proxy_options(True, ()) == (True, "127.0.0.1,::1")
    with pytest.raises(UsageError, match=r"--trusted-proxy 'proxy\.example': not an IP address"):
        proxy_options(False, (), ("proxy.example",))


# A database error at any write of a change: whole or absent, never half


ARMED_AT = {  # the step after which a change writes to the database
    "accept": "intent written",
    "approve": "intent written",
    "correct": "intent written",
    "publish": "work done",
    "start": "season in place",
    "reject": "reject",
    "names": "intent written",
    "rules": "intent written",
}


@contextmanager
def failing_writes(
    store: Store, armed: Callable[[], bool], at: int, count: list[int]
) -> Iterator[None]:
    """The database's ``at``-th write once ``armed`` fails as a full disk would (0: none
    fails); ``count`` gets the writes made once armed."""

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not armed() or not statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            return
        count[0] += 1
        if count[0] == at:
            raise sa.exc.OperationalError(statement, None, Exception("database or disk is full"))

    sa.event.listen(store.engine, "before_cursor_execute", before)
    try:
        yield
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", before)


def writes_of(server: Server, operation: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many database writes ``operation`` makes once its files are written."""
    run, _ = OPERATIONS[operation]
    reached: list[str] = []
    count = [0]
    monkeypatch.setattr(journal, "fault", reached.append)
    armed = ARMED_AT[operation]
    with (
        server.running() as (web, store),
        failing_writes(store, lambda: armed in reached, 0, count),
    ):
        run(web, store)
    monkeypatch.setattr(journal, "fault", None)
    return count[0]


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_database_error_at_any_write_of_a_change_leaves_it_whole_or_absent(
    tmp_path: Path, operation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = made_server(tmp_path / "probe")
    writes = writes_of(probe, operation, monkeypatch)
    assert writes >= 1
    for at in range(1, writes + 1):
        server = made_server(tmp_path / f"at-{at}")
        run, _ = OPERATIONS[operation]
        steps: list[str] = []
        monkeypatch.setattr(journal, "fault", steps.append)

        def armed(steps: list[str] = steps) -> bool:
            return ARMED_AT[operation] in steps

        with server.running() as (web, store), failing_writes(store, armed, at, [0]):
            run(web, store)  # a 500 would raise here
        monkeypatch.setattr(journal, "fault", None)
        done = consistent(server, operation)  # after a restart: whole or absent
        if operation != "reject":  # the files were written: the change is finished, whole
            assert done, (operation, at)
        store = Store(server.database)
        trail = [e for k in (KEY, "next") for e in store.audit(k) if e.action == ACTION[operation]]
        store.close()
        assert len(trail) == (1 if done else 0)


def test_a_rejection_waits_for_an_approval_a_database_error_left_half_done(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The approval's files are written, its database write failed and so did the recovery
    right after (the database still down): rejecting the upload then finishes the approval
    first, and finds it decided."""
    from test_journal import waiting_upload

    with server.running() as (web, store):
        ident = waiting_upload(web, store)
        log_in_as(web, "cora")
        preview = web.get(f"{BASE}/approvals/{ident}").text
        real = store.settle

        def down(*args: Any, **kwargs: Any) -> bool:
            raise StoreError("the server's database could not record it (disk full)")

        monkeypatch.setattr(store, "settle", down)  # the approval, and the recovery after it
        got = send(web, preview)
        monkeypatch.setattr(store, "settle", real)
        assert got.status_code in (400, 503) and "finished whole" in got.text
        assert (server.season / journal.JOURNAL).exists()
        page = web.get(f"{BASE}/approvals/{ident}")
        rejected = web.post(
            f"{BASE}/approvals/{ident}/reject",
            data={CSRF_FIELD: field(page.text if page.status_code == 200 else preview, CSRF_FIELD)},
        )
        assert rejected.status_code == 409 and "no longer waits" in rejected.text
        [decided] = store.submissions(KEY, None)
        assert decided.status == "approved"
    assert consistent(server, "approve")


def test_a_new_season_folder_is_on_the_disk_with_its_name(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[Path] = []

    def sync(folder: Path) -> None:
        synced.append(folder)
        files.sync_folder(folder)

    monkeypatch.setattr("grandprix.serve.new_season.sync_folder", sync)
    new_season.start_season(server.root, "next", "Next season", preset="utah-2012")
    assert server.root in synced  # the rename itself made durable


# Migrations: whole or absent, on SQLite and PostgreSQL


def statements_of(url: str, upgrade: Callable[[sa.Engine], None]) -> int:
    engine = open_engine(url)
    count = [0]

    def before(*args: Any) -> None:
        count[0] += 1

    sa.event.listen(engine, "before_cursor_execute", before)
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    return count[0]


def to(revision: str) -> Callable[[sa.Engine], None]:
    def upgrade(engine: sa.Engine) -> None:
        config = Config()
        config.set_main_option(
            "script_location", str(Path(migrate.__code__.co_filename).parent / "migrations")
        )
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    return upgrade


@pytest.mark.parametrize(
    "start", [None, "0001", "0002", "0003"], ids=["new", "0001", "0002", "0003"]
)
def test_a_migration_stopped_at_any_statement_leaves_the_database_as_before(
    database: str, start: str | None, request: pytest.FixtureRequest
) -> None:
    from databases import fresh_database

    made = iter(range(1_000_000))

    def another() -> str:
        n = next(made)
        if database.startswith("sqlite"):
            return database.replace("store.sqlite3", f"store-{n}.sqlite3")
        maintenance: str = request.getfixturevalue("postgres_cluster")
        return fresh_database(maintenance, f"m_{os.urandom(4).hex()}_{n}")

    def prepared() -> str:
        url = another()
        if start is not None:
            engine = open_engine(url)
            to(start)(engine)
            engine.dispose()
        return url

    url = prepared()
    statements = statements_of(url, to("head"))
    assert statements > 3
    for at in range(1, statements + 1):
        url = prepared()
        engine = open_engine(url)
        count = [0]

        def before(*args: Any, at: int = at, count: list[int] = count) -> None:
            count[0] += 1
            if count[0] == at:
                raise sa.exc.OperationalError("stopped", None, Exception("killed here"))

        sa.event.listen(engine, "before_cursor_execute", before)
        with pytest.raises(sa.exc.OperationalError, match="killed here"):
            to("head")(engine)
        sa.event.remove(engine, "before_cursor_execute", before)
        engine.dispose()
        store = Store(url)  # the next start migrates it whole
        with store.engine.connect() as db:
            version = db.execute(sa.text("select version_num from alembic_version")).scalar()
        assert version == "0004", (start, at)
        store.add_user("cora", "coordinator", hashed("cora"))
        assert store.journal_key()
        store.close()

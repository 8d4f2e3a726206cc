"""The server's store on SQLite and on PostgreSQL: its schema made by the migrations
(again changes nothing), accounts, sessions that expire, failed logins counted in a window,
kept files, the audit trail and uploads waiting for approval."""

from __future__ import annotations

import hashlib
import threading

import pytest
import sqlalchemy as sa

from grandprix.errors import UsageError
from grandprix.serve.accounts import (
    Policy,
    Throttled,
    hash_password,
    log_in,
    verify_password,
)
from grandprix.serve.database import database_url
from grandprix.serve.journal import Entry, Intent
from grandprix.serve.store import APPROVED, REJECTED, WAITING, Store


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_migrations_make_the_schema_once_and_again_change_nothing(database: str) -> None:
    first = Store(database)
    first.add_user("cora", "coordinator", hash_password("a-long-password"))
    again = Store(database)  # opening again runs the migrations again: nothing to do
    assert [u.name for u in again.users()] == ["cora"]
    tables = set(sa.inspect(again.engine).get_table_names())
    expected = {
        "users",
        "sessions",
        "assignments",
        "login_failures",
        "files",
        "audit",
        "submissions",
        "alembic_version",
    }
    assert expected <= tables
    with again.engine.connect() as db:
        assert db.execute(sa.text("select version_num from alembic_version")).scalar() == "0004"


def test_accounts_roles_and_assignments(database: str) -> None:
    store = Store(database)
    store.add_user("cora", "coordinator", "h1")
    dan = store.add_user("dan", "director", "h2")
    with pytest.raises(UsageError, match="already a user called 'dan'"):
        store.add_user("dan", "reader", "h3")
    with pytest.raises(UsageError, match="role 'admin'"):
        store.add_user("eve", "admin", "h")
    store.assign("dan", "utah-2012", "Park City")
    store.assign("dan", "utah-2012", "Park City")  # once
    store.assign("dan", "utah-2012", "Ogden Open")
    with pytest.raises(UsageError, match="only directors are given events"):
        store.assign("cora", "utah-2012", "Park City")
    assert store.events_of(dan, "utah-2012") == ["Ogden Open", "Park City"]
    assert store.events_of(dan, "other") == []
    store.unassign("dan", "utah-2012", "Ogden Open")
    assert store.assignments() == [("dan", "utah-2012", "Park City")]
    store.remove_user("dan")
    assert [u.name for u in store.users()] == ["cora"]
    assert store.assignments() == []


def test_a_session_ends_when_idle_or_too_old_and_a_token_is_never_stored(database: str) -> None:
    clock = Clock()
    store = Store(database, clock)
    user = store.add_user("dan", "director", "h")
    store.new_session(user, "token-one", None)
    assert store.session_user("token-one", idle=100, longest=1000) == user
    with store.engine.connect() as db:
        kept = db.execute(sa.text("select token_hash from sessions")).scalars().all()
    assert kept == [hashlib.sha256(b"token-one").hexdigest()]  # only its digest
    clock.now += 99
    assert store.session_user("token-one", idle=100, longest=1000) == user  # used: seen again
    clock.now += 101
    assert store.session_user("token-one", idle=100, longest=1000) is None  # idle too long
    assert store.session_user("token-one", idle=1e9, longest=1e9) is None  # and ended
    store.new_session(user, "token-two", None)
    for _ in range(12):  # used every 90 s, but begun more than 1000 s ago at the end
        clock.now += 90
        found = store.session_user("token-two", idle=100, longest=1000)
    assert found is None
    store.new_session(user, "token-three", "token-two")
    store.new_session(user, "token-four", "token-three")  # a login ends the earlier session
    assert store.session_user("token-three", idle=100, longest=1000) is None
    assert store.session_user("token-four", idle=100, longest=1000) == user
    store.new_session(user, "token-five", None)
    clock.now += 150
    store.end_expired(idle=100, longest=1000)  # at each login: sessions unused too long go
    with store.engine.connect() as db:
        assert db.execute(sa.text("select count(*) from sessions")).scalar() == 0


def test_logins_are_throttled_by_name_and_by_address_within_the_window(database: str) -> None:
    clock = Clock()
    store = Store(database, clock)
    store.add_user("dan", "director", hash_password("right-password"))
    policy = Policy(window=600, tries_per_name=3, tries_per_address=5)
    for _ in range(3):
        assert log_in(store, policy, "dan", "wrong-password", "10.0.0.1", None) is None
    with pytest.raises(Throttled) as refused:  # even the right password, from there
        log_in(store, policy, "dan", "right-password", "10.0.0.1", None)
    assert 1 <= refused.value.seconds <= 600
    # Someone else's guesses never lock the user out: from another address, after the
    # account's short slowing (a second after 3 failures), dan logs in.
    clock.now += 1
    found = log_in(store, policy, "dan", "right-password", "10.0.0.2", None)
    assert found is not None and found[0].name == "dan"
    clock.now += 601  # the failures leave the window
    assert log_in(store, policy, "dan", "right-password", "10.0.0.1", None) is not None
    for name in ("a", "b", "c", "d", "e"):  # unknown names from one address
        assert log_in(store, policy, name, "x", "10.0.0.9", None) is None
    with pytest.raises(Throttled):
        log_in(store, policy, "dan", "right-password", "10.0.0.9", None)
    assert log_in(store, policy, "dan", "right-password", "10.0.0.3", None) is not None


def test_passwords_are_argon2id_and_short_ones_refused() -> None:
    stored = hash_password("correct horse")
    assert stored.startswith("$argon2id$")
    assert verify_password(stored, "correct horse")
    assert not verify_password(stored, "correct horsE")
    assert not verify_password(None, "correct horse")
    assert not verify_password("not a hash", "correct horse")
    with pytest.raises(UsageError, match="at least 10 characters"):
        hash_password("short")


def test_the_audit_trail_keeps_every_file_and_the_one_it_replaced(database: str) -> None:
    store = Store(database)
    moves = [{"player": "Ann", "points_before": "1", "points_after": "2"}]
    change = Intent(
        "c1",
        {"a.csv": b"new"},
        {"a.csv": b"old"},
        Entry("utah", "cora", "results", "correct", moves),
    )
    assert store.settle(change)
    assert not store.settle(change)  # settled once: a change finished again adds nothing
    assert store.settle(Intent("c2", {}, {}, Entry("other", "cora", "names", "decide")))
    [found] = store.audit("utah")
    assert found.user_name == "cora" and found.action == "results" and found.what == "correct"
    [written] = found.files
    assert written["sha256"] == hashlib.sha256(b"new").hexdigest() and written["size"] == 3
    assert store.file(written["sha256"]) == b"new"
    assert store.file(written["replaced"]) == b"old"
    assert found.moves == [{"player": "Ann", "points_before": "1", "points_after": "2"}]
    assert store.keep(b"new") == written["sha256"]  # kept once
    with store.engine.connect() as db:
        assert db.execute(sa.text("select count(*) from files")).scalar() == 2


def test_a_waiting_upload_is_decided_once(database: str) -> None:
    store = Store(database)
    ident = store.submit("utah", "dan", "event", "Park City", {"filename": "p.csv"}, b"data")
    [waiting] = store.submissions("utah")
    assert waiting.id == ident and waiting.status == WAITING and waiting.fields["filename"]
    assert store.file(waiting.file_sha256) == b"data"
    results: list[bool] = []

    def decide(n: int, status: str) -> None:
        entry = Entry("utah", "cora", status, f"decision {n}", [], ident, status)
        results.append(store.settle(Intent(f"d{n}", {}, {}, entry)))

    statuses = (APPROVED, REJECTED, APPROVED)
    threads = [threading.Thread(target=decide, args=(n, s)) for n, s in enumerate(statuses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, True]  # one coordinator decides
    assert store.submissions("utah") == [] and not store.waiting(ident)
    [decided] = store.audit("utah")  # and only that decision is in the trail
    assert decided.action == store.submissions("utah", None)[0].status


def test_database_urls() -> None:
    from pathlib import Path

    assert database_url("postgresql://u@h/db", Path(".")) == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db", Path(".")) == "postgresql+psycopg://u@h/db"
    assert database_url(None, Path("/x")).endswith("/x/.grandprix-server.sqlite3")
    with pytest.raises(UsageError, match="give postgresql://"):
        database_url("mysql://u@h/db", Path("."))


def test_a_database_that_cannot_be_reached_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(UsageError, match="cannot open it"):
        Store("postgresql+psycopg://nobody@/nothing?host=/nonexistent-socket-folder")

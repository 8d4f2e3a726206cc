"""What a server with accounts keeps beside the season folders: its accounts,
sessions, directors' events, failed logins, the audit trail, every file it accepted or replaced,
and the uploads waiting for approval. SQLite by default (a file beside the seasons), PostgreSQL
with ``postgresql://...``, opened and its schema brought up to date by ``database.py`` when the
store is opened.

The season folder stays the source of truth for results and rules: the store never holds a
season's state, only who did what to it (and the bytes of the files it took in or replaced,
so none is ever lost).

Times are seconds since the epoch (UTC), the same on both databases.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from grandprix.errors import GrandprixError, UsageError
from grandprix.serve.database import migrate, open_engine
from grandprix.serve.journal import Intent
from grandprix.serve.tables import (
    ASSIGNMENTS,
    AUDIT,
    FILES,
    LOGIN_FAILURES,
    SERVER_KEYS,
    SESSIONS,
    SUBMISSIONS,
    USERS,
)

ROLES = ("coordinator", "director", "reader")
WAITING, APPROVED, REJECTED = "waiting", "approved", "rejected"


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: str


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: float
    season: str
    user_name: str
    action: str
    what: str
    files: list[dict[str, Any]]
    moves: list[dict[str, str]]


@dataclass(frozen=True)
class Submission:
    id: int
    season: str
    user_name: str
    created_at: float
    kind: str
    event: str
    fields: dict[str, str]
    file_sha256: str
    status: str
    decided_by: str


@dataclass(frozen=True)
class Failures:
    """Failed logins within the window, as ``Store.attempt`` counted them: of the name from
    this address, from this address (any name), of the name (any address); when the first of
    the name from here and the last of the name were; and now."""

    by_pair: int
    by_address: int
    by_name: int
    first_by_pair: float
    last_by_name: float
    now: float


class StoreError(GrandprixError):
    """The database failed to write (disk full, connection lost): nothing of that
    transaction was recorded."""


class TooManyWaiting(Exception):
    """A user's uploads waiting for approval are at the limit already."""

    def __init__(self, waiting: int) -> None:
        super().__init__(waiting)
        self.waiting = waiting


class Store:
    """The server's database. Every method is one transaction; safe from several threads."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.clock = clock
        self.engine = open_engine(url)
        self._lock = threading.Lock()  # SQLite: one writer at a time in this process
        self._journal_key: bytes | None = None
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One transaction of writes; a database error (disk full, connection lost) is a
        ``StoreError``, the transaction rolled back."""
        try:
            with self._lock, self.engine.begin() as connection:
                yield connection
        except sa.exc.DBAPIError as exc:
            raise StoreError(
                f"the server's database could not record it ({exc.orig}); check its disk "
                "and that it runs"
            ) from exc

    # Accounts

    def add_user(self, name: str, role: str, password_hash: str) -> User:
        if role not in ROLES:
            raise UsageError(f"role {role!r}: give one of {', '.join(ROLES)}")
        if not name.strip() or len(name) > 100 or any(not c.isprintable() for c in name):
            raise UsageError(f"{name[:40]!r} cannot be a user name (1 to 100 printable characters)")
        with self._write() as db:
            if db.execute(sa.select(USERS.c.id).where(USERS.c.name == name)).first():
                raise UsageError(f"there is already a user called {name!r}")
            found = db.execute(
                USERS.insert().values(
                    name=name, role=role, password_hash=password_hash, created_at=self.clock()
                )
            )
            key = found.inserted_primary_key
            assert key is not None
            return User(int(key[0]), name, role)

    def user(self, name: str) -> tuple[User, str] | None:
        """The user called ``name`` and their password hash."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(USERS).where(USERS.c.name == name)).first()
        return (User(row.id, row.name, row.role), row.password_hash) if row else None

    def users(self) -> list[User]:
        with self.engine.connect() as db:
            rows = db.execute(sa.select(USERS).order_by(USERS.c.name)).all()
        return [User(r.id, r.name, r.role) for r in rows]

    def has_users(self) -> bool:
        with self.engine.connect() as db:
            return db.execute(sa.select(USERS.c.id).limit(1)).first() is not None

    def set_password(self, name: str, password_hash: str) -> None:
        with self._write() as db:
            done = db.execute(
                USERS.update().where(USERS.c.name == name).values(password_hash=password_hash)
            )
            if not done.rowcount:
                raise UsageError(f"no user called {name!r}")
            row = db.execute(sa.select(USERS.c.id).where(USERS.c.name == name)).one()
            db.execute(SESSIONS.delete().where(SESSIONS.c.user_id == row.id))

    def remove_user(self, name: str) -> None:
        with self._write() as db:
            row = db.execute(sa.select(USERS.c.id).where(USERS.c.name == name)).first()
            if row is None:
                raise UsageError(f"no user called {name!r}")
            for table in (SESSIONS, ASSIGNMENTS):
                db.execute(table.delete().where(table.c.user_id == row.id))
            db.execute(USERS.delete().where(USERS.c.id == row.id))

    # Directors' events

    def assign(self, name: str, season: str, event: str) -> None:
        with self._write() as db:
            row = db.execute(sa.select(USERS).where(USERS.c.name == name)).first()
            if row is None:
                raise UsageError(f"no user called {name!r}")
            if row.role != "director":
                raise UsageError(f"{name!r} is a {row.role}: only directors are given events")
            taken = sa.select(ASSIGNMENTS.c.id).where(
                ASSIGNMENTS.c.user_id == row.id,
                ASSIGNMENTS.c.season == season,
                ASSIGNMENTS.c.event == event,
            )
            if db.execute(taken).first() is None:
                db.execute(ASSIGNMENTS.insert().values(user_id=row.id, season=season, event=event))

    def unassign(self, name: str, season: str, event: str) -> None:
        with self._write() as db:
            row = db.execute(sa.select(USERS.c.id).where(USERS.c.name == name)).first()
            if row is None:
                raise UsageError(f"no user called {name!r}")
            db.execute(
                ASSIGNMENTS.delete().where(
                    ASSIGNMENTS.c.user_id == row.id,
                    ASSIGNMENTS.c.season == season,
                    ASSIGNMENTS.c.event == event,
                )
            )

    def events_of(self, user: User, season: str) -> list[str]:
        """The events of ``season`` given to ``user``."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(ASSIGNMENTS.c.event)
                .where(ASSIGNMENTS.c.user_id == user.id, ASSIGNMENTS.c.season == season)
                .order_by(ASSIGNMENTS.c.event)
            ).all()
        return [r.event for r in rows]

    def assignments(self) -> list[tuple[str, str, str]]:
        """Every (user, season, event) given."""
        query = (
            sa.select(USERS.c.name, ASSIGNMENTS.c.season, ASSIGNMENTS.c.event)
            .join(USERS, USERS.c.id == ASSIGNMENTS.c.user_id)
            .order_by(USERS.c.name, ASSIGNMENTS.c.season, ASSIGNMENTS.c.event)
        )
        with self.engine.connect() as db:
            return [(r.name, r.season, r.event) for r in db.execute(query).all()]

    # Sessions

    def new_session(self, user: User, token: str, replaced: str | None) -> None:
        """A session for ``user`` under ``token``; the browser's earlier session, if any, is
        ended (a session id is never carried over a login)."""
        now = self.clock()
        with self._write() as db:
            if replaced:
                db.execute(SESSIONS.delete().where(SESSIONS.c.token_hash == _digest(replaced)))
            db.execute(
                SESSIONS.insert().values(
                    token_hash=_digest(token), user_id=user.id, created_at=now, seen_at=now
                )
            )

    def session_user(self, token: str, idle: float, longest: float) -> User | None:
        """The user of a live session (seen within ``idle`` seconds, begun within
        ``longest``), its last use noted; an expired session is ended."""
        now = self.clock()
        key = _digest(token)
        query = (
            sa.select(SESSIONS, USERS.c.name, USERS.c.role)
            .join(USERS, USERS.c.id == SESSIONS.c.user_id)
            .where(SESSIONS.c.token_hash == key)
        )
        with self.engine.connect() as db:
            row = db.execute(query).first()
        if row is None:
            return None
        if now - row.seen_at > idle or now - row.created_at > longest:
            with self._write() as db:
                db.execute(SESSIONS.delete().where(SESSIONS.c.token_hash == key))
            return None
        if now - row.seen_at > 60:  # noted at most once a minute: most requests only read
            with self._write() as db:
                db.execute(
                    SESSIONS.update().where(SESSIONS.c.token_hash == key).values(seen_at=now)
                )
        return User(row.user_id, row.name, row.role)

    def end_expired(self, idle: float, longest: float) -> None:
        """Sessions that can no longer be used are deleted (at each login)."""
        now = self.clock()
        with self._write() as db:
            db.execute(
                SESSIONS.delete().where(
                    (SESSIONS.c.seen_at < now - idle) | (SESSIONS.c.created_at < now - longest)
                )
            )

    def end_session(self, token: str) -> None:
        with self._write() as db:
            db.execute(SESSIONS.delete().where(SESSIONS.c.token_hash == _digest(token)))

    # Failed logins

    def attempt(
        self, name: str, address: str, within: float, wait: Callable[[Failures], float]
    ) -> float:
        """A login attempt: the failed logins of the last ``within`` seconds counted (a good
        login clears its name's), and unless ``wait`` (the policy's) says to wait for them
        first, this attempt noted as a failure, in one transaction; the seconds to wait (0:
        go on). A try refused while held back is not noted, so it never makes the wait longer;
        attempts sent at once are counted one after another, never all against one count."""
        now = self.clock()
        since = now - within
        failed = LOGIN_FAILURES.c
        with self._write() as db:
            pair = db.execute(
                sa.select(sa.func.count(), sa.func.min(failed.at)).where(
                    failed.name == name, failed.address == address, failed.at > since
                )
            ).one()
            by_address = db.execute(
                sa.select(sa.func.count()).where(failed.address == address, failed.at > since)
            ).scalar_one()
            account = db.execute(
                sa.select(sa.func.count(), sa.func.max(failed.at)).where(
                    failed.name == name, failed.at > since
                )
            ).one()
            found = Failures(
                int(pair[0]),
                int(by_address),
                int(account[0]),
                float(pair[1] or now),
                float(account[1] or now),
                now,
            )
            left = wait(found)
            if left <= 0:
                db.execute(LOGIN_FAILURES.insert().values(name=name, address=address, at=now))
        return left

    def forget_failures(self, name: str, older_than: float) -> None:
        """A good login clears its name's failures; failures older than ``older_than``
        seconds go too."""
        with self._write() as db:
            db.execute(LOGIN_FAILURES.delete().where(LOGIN_FAILURES.c.name == name))
            db.execute(
                LOGIN_FAILURES.delete().where(LOGIN_FAILURES.c.at < self.clock() - older_than)
            )

    # Files and the audit trail

    def keep(self, data: bytes) -> str:
        """Keep a file's bytes (once, by their SHA-256); its digest."""
        digest = hashlib.sha256(data).hexdigest()
        with self._write() as db:
            self._keep(db, digest, data)
        return digest

    def _keep(self, db: Connection, digest: str, data: bytes) -> None:
        if db.execute(sa.select(FILES.c.sha256).where(FILES.c.sha256 == digest)).first() is None:
            db.execute(
                FILES.insert().values(
                    sha256=digest, size=len(data), data=data, kept_at=self.clock()
                )
            )

    def file(self, digest: str) -> bytes | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(FILES.c.data).where(FILES.c.sha256 == digest)).first()
        return bytes(row.data) if row else None

    def settle(self, intent: Intent, note: str = "") -> bool:
        """A change's audit entry, the files it names kept and the upload it decides, in one
        transaction; False (and nothing done) when the change was settled already, or the
        upload no longer waits (another coordinator decided first)."""
        entry = intent.entry
        if entry is None:
            return False
        replaced = {k: v for k, v in intent.replaced.items() if v is not None}
        what = entry.what + (f" ({note})" if note else "")
        with self._write() as db:
            done = sa.select(AUDIT.c.id).where(AUDIT.c.change == intent.ident)
            if db.execute(done).first() is not None:
                return False
            if entry.submission is not None:
                # decided as the database has the upload: waiting, of this season, and (when
                # approved) its file among those the change writes
                written = {hashlib.sha256(data).hexdigest() for data in intent.files.values()}
                upload = SUBMISSIONS.c
                decided = db.execute(
                    SUBMISSIONS.update()
                    .where(
                        upload.id == entry.submission,
                        upload.status == WAITING,
                        upload.season == entry.season,
                        sa.true() if entry.status == REJECTED else upload.file_sha256.in_(written),
                    )
                    .values(status=entry.status, decided_by=entry.user, decided_at=self.clock())
                )
                if not decided.rowcount:
                    return False
            self._record(
                db,
                entry.season,
                entry.user,
                entry.action,
                what,
                intent.files,
                replaced,
                entry.moves,
                intent.ident,
            )
        return True

    def _record(
        self,
        db: Connection,
        season: str,
        user_name: str,
        action: str,
        what: str,
        written: dict[str, bytes],
        replaced: dict[str, bytes],
        moves: list[dict[str, str]],
        change: str | None = None,
    ) -> int:
        listed = []
        what = what.replace("\x00", "\ufffd")  # what a database can hold
        for name, data in written.items():
            digest = hashlib.sha256(data).hexdigest()
            self._keep(db, digest, data)
            entry: dict[str, Any] = {"name": name, "sha256": digest, "size": len(data)}
            if name in replaced:
                old = replaced[name]
                entry["replaced"] = hashlib.sha256(old).hexdigest()
                self._keep(db, entry["replaced"], old)
            listed.append(entry)
        found = db.execute(
            AUDIT.insert().values(
                at=self.clock(),
                season=season,
                user_name=user_name,
                action=action,
                what=what,
                files=json.dumps(listed),
                moves=json.dumps(moves),
                change=change,
            )
        )
        key = found.inserted_primary_key
        assert key is not None
        return int(key[0])

    def journal_key(self) -> bytes:
        """The key of the change journals' seals (``journal``), which only the database holds."""
        if self._journal_key is None:
            query = sa.select(SERVER_KEYS.c.value).where(SERVER_KEYS.c.name == "journal")
            with self.engine.connect() as db:
                self._journal_key = bytes(db.execute(query).scalar_one())
        return self._journal_key

    def refused(self, season: str, what: str) -> None:
        """A change journal refused (``journal.recover``), in the season's audit trail."""
        with self._write() as db:
            self._record(db, season, "server", "refused", what, {}, {}, [])

    def waiting(self, ident: int) -> bool:
        """Whether the upload ``ident`` still waits for a decision."""
        query = sa.select(SUBMISSIONS.c.status).where(SUBMISSIONS.c.id == ident)
        with self.engine.connect() as db:
            row = db.execute(query).first()
        return row is not None and row.status == WAITING

    def audit(self, season: str) -> list[AuditEntry]:
        """The season's audit trail, newest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(AUDIT).where(AUDIT.c.season == season).order_by(AUDIT.c.id.desc())
            ).all()
        return [
            AuditEntry(
                r.id,
                r.at,
                r.season,
                r.user_name,
                r.action,
                r.what,
                json.loads(r.files),
                json.loads(r.moves),
            )
            for r in rows
        ]

    # Uploads waiting for approval

    def submit(
        self,
        season: str,
        user_name: str,
        kind: str,
        event: str,
        fields: dict[str, str],
        data: bytes,
        form: str = "",
        limit: int | None = None,
    ) -> int:
        """A director's upload, waiting for approval: its id. ``form``:
        the key of the form it was sent from: the same form sent again, or twice at once, is
        the upload already made (never a second). ``TooManyWaiting`` when ``limit`` of the
        user's uploads wait already: counted and made in one transaction, the user's row
        locked meanwhile, so that uploads sent at once cannot pass the limit together."""
        digest = hashlib.sha256(data).hexdigest()
        key = hashlib.sha256(form.encode()).hexdigest() if form else None
        with self._write() as db:
            db.execute(sa.select(USERS.c.id).where(USERS.c.name == user_name).with_for_update())
            if key is not None:
                made = db.execute(
                    sa.select(SUBMISSIONS.c.id).where(SUBMISSIONS.c.form_key == key)
                ).scalar()
                if made is not None:
                    return int(made)
            if limit is not None:
                waiting = db.execute(
                    sa.select(sa.func.count()).where(
                        SUBMISSIONS.c.season == season,
                        SUBMISSIONS.c.user_name == user_name,
                        SUBMISSIONS.c.status == WAITING,
                    )
                ).scalar_one()
                if waiting >= limit:
                    raise TooManyWaiting(int(waiting))
            self._keep(db, digest, data)
            found = db.execute(
                SUBMISSIONS.insert().values(
                    season=season,
                    user_name=user_name,
                    created_at=self.clock(),
                    kind=kind,
                    event=event,
                    fields=json.dumps(fields),
                    file_sha256=digest,
                    status=WAITING,
                    form_key=key,
                )
            )
            made_key = found.inserted_primary_key
            assert made_key is not None
            return int(made_key[0])

    def submissions(self, season: str, status: str | None = WAITING) -> list[Submission]:
        query = sa.select(SUBMISSIONS).where(SUBMISSIONS.c.season == season)
        if status is not None:
            query = query.where(SUBMISSIONS.c.status == status)
        with self.engine.connect() as db:
            rows = db.execute(query.order_by(SUBMISSIONS.c.id)).all()
        return [_submission(r) for r in rows]

    def submission(self, season: str, ident: int) -> Submission | None:
        query = sa.select(SUBMISSIONS).where(
            SUBMISSIONS.c.season == season, SUBMISSIONS.c.id == ident
        )
        with self.engine.connect() as db:
            row = db.execute(query).first()
        return _submission(row) if row else None


def _submission(row: Any) -> Submission:
    return Submission(
        row.id,
        row.season,
        row.user_name,
        row.created_at,
        row.kind,
        row.event,
        json.loads(row.fields),
        row.file_sha256,
        row.status,
        row.decided_by,
    )


def _digest(token: str) -> str:
    """Sessions are kept by the SHA-256 of their token: the database never holds a token."""
    return hashlib.sha256(token.encode()).hexdigest()

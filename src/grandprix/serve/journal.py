"""Changes to a season folder that a crash at any moment cannot leave half-done.

A change (an accepted or approved upload, a correction, a decision on names, a rules change, a
new season, a publication) is written in this order:

1. its intent, whole, as ``.grandprix-change.json`` in the season folder (written to a
   temporary file and renamed): the new bytes of every file it writes, the bytes each one
   replaces, and the audit entry it makes (with the upload it approves), sealed with a keyed
   digest (HMAC-SHA256) whose key only the server's database holds (``Settler.journal_key``),
   over the folder's path and the intent;
2. the files, results first and ``season.toml`` last, each written whole (``write_whole``);
3. in one transaction of the server's database, the audit entry, the files it names kept, and
   the upload's new state (``Store.settle``, which does nothing for an intent already settled);
4. the intent removed.

``recover`` finishes what a killed server left: every file not yet at its new bytes is written
(one edited by hand since is left as it is, and the audit entry says so), the entry is settled,
the intent removed, and temporary files of unfinished writes are deleted. The server runs it for
each season as it starts and before each change, so that the folder, season.toml, the audit trail
and the list of uploads waiting for approval always agree.

Whoever may write into a season folder (a coordinator syncing it, a shared drive) could leave a
journal there; recovery applies only what this server wrote. A journal is refused whole, before
anything of it is written, when it is larger than ``JOURNAL_LIMIT``, is a link, is not the
server's JSON, bears no seal or one made with another key or for another folder, or names a file
outside the folder (absolute, ``..``, a NUL, through a linked folder). A refused journal is set
aside (renamed ``.grandprix-change.refused-*.json``), the refusal goes to the audit trail, and the
season takes no change until a coordinator has looked at it and deleted it (``set_aside``). The
upload a journal decides is decided only as the database has it (``Store.settle``).

``step`` marks each of these moments for fault injection: ``GRANDPRIX_FAULT_AT=<step>`` in the
environment kills the process with SIGKILL at that step (``tests/test_journal.py`` does it at
every step of every operation, and also raises there in-process).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import hmac
import json
import os
import re
import signal
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from grandprix.errors import GrandprixError, UsageError
from grandprix.runtime.files import sync_folder, write_whole
from grandprix.season.config import SEASON_FILE

JOURNAL = ".grandprix-change.json"
REFUSED = ".grandprix-change.refused-"  # a journal set aside: then its time, and .json
JOURNAL_LIMIT = 64 * 1024 * 1024  # bytes: a change's files twice (new and replaced), in base64
_TEMPORARY = re.compile(r"^\..+\.tmp-[0-9a-f]{12}$")  # write_whole's own temporary files
_PROCESS_KEY = os.urandom(32)  # the seal's key without a database: this process's own


class RefusedJournal(Exception):
    """A journal recovery does not apply, and why."""


class Unfinished(GrandprixError):
    """A change whose intent is written failed before it was settled (a file or the database
    could not be written): ``recover`` finishes it, whole."""


@dataclass(frozen=True)
class Entry:
    """The audit entry a change makes: the season's key, who, the kind of change (``accept``,
    ``approve``, ``names``, ``rules``, ``start``, ``publish``...), what it does in words, the
    standings' moves, and the waiting upload it decides (its id and new state)."""

    season: str
    user: str
    action: str
    what: str
    moves: list[dict[str, str]] = field(default_factory=list)
    submission: int | None = None
    status: str = ""


@dataclass(frozen=True)
class Intent:
    """A change about to be written: a random id, the new bytes of each file (names relative
    to the folder), the bytes each replaces (None: no file was there), and its audit entry."""

    ident: str
    files: dict[str, bytes]
    replaced: dict[str, bytes | None]
    entry: Entry | None = None

    def to_json(self) -> str:
        def encoded(data: bytes | None) -> str | None:
            return None if data is None else base64.b64encode(data).decode("ascii")

        entry = None if self.entry is None else self.entry.__dict__
        return json.dumps(
            {
                "ident": self.ident,
                "files": {name: encoded(data) for name, data in self.files.items()},
                "replaced": {name: encoded(data) for name, data in self.replaced.items()},
                "entry": entry,
            }
        )

    def sealed(self, folder: Path, key: bytes) -> bytes:
        """The journal's bytes: its seal on the first line, then the intent as JSON. A change
        whose journal recovery would refuse for its size (``JOURNAL_LIMIT``) is refused here,
        before anything of it is written (``UsageError``)."""
        body = self.to_json().encode()
        made = _seal(key, folder, body).encode("ascii") + b"\n" + body
        if len(made) > JOURNAL_LIMIT:
            raise UsageError(
                f"the change is too large to be written whole ({len(made):,} bytes with the "
                f"files it replaces; at most {JOURNAL_LIMIT:,}); nothing was written: make it "
                "in smaller parts"
            )
        return made

    @classmethod
    def unsealed(cls, folder: Path, data: bytes, key: bytes) -> Intent:
        """The intent a journal's bytes hold, if its seal is this server's for ``folder`` and
        every file it names is inside the folder; else ``RefusedJournal``."""
        seal, _, body = data.partition(b"\n")
        made = _seal(key, folder, body).encode("ascii")
        if not hmac.compare_digest(seal, made):
            raise RefusedJournal(
                "line 1: its seal is not this server's for this folder (written by someone "
                "else, or for another folder or server)"
            )
        try:
            intent = cls.from_json(body.decode("utf-8"))
        except (ValueError, TypeError, KeyError, AttributeError, binascii.Error) as exc:
            raise RefusedJournal(f"line 2: not a change as the server writes one ({exc})") from exc
        for name in (*intent.files, *intent.replaced):
            inside(folder, name)
        return intent

    @classmethod
    def from_json(cls, text: str) -> Intent:
        said: dict[str, Any] = json.loads(text)

        def decoded(value: object) -> bytes | None:
            if value is None:
                return None
            if not isinstance(value, str):
                raise TypeError(f"file bytes are a {type(value).__name__}, not base64 text")
            return base64.b64decode(value, validate=True)

        def named(said: object) -> dict[str, bytes | None]:
            if not isinstance(said, dict) or not all(isinstance(n, str) for n in said):
                raise TypeError("files are not listed by name")
            return {name: decoded(value) for name, value in said.items()}

        files = {name: data or b"" for name, data in named(said["files"]).items()}
        replaced = named(said["replaced"])
        given = said.get("entry")
        entry = None
        if given:
            if not isinstance(given, dict):
                raise TypeError("the audit entry is not a table")
            entry = Entry(**given)
            if not all(isinstance(getattr(entry, k), str) for k in ("season", "user", "action")):
                raise TypeError("the audit entry's season, user and action are not text")
            if entry.submission is not None and not isinstance(entry.submission, int):
                raise TypeError("the upload the audit entry decides is not a number")
        return cls(str(said["ident"]), files, replaced, entry)


def _seal(key: bytes, folder: Path, body: bytes) -> str:
    place = os.fsencode(folder.resolve())
    return hmac.new(key, place + b"\0" + body, hashlib.sha256).hexdigest()


def inside(folder: Path, name: str) -> Path:
    """``folder / name`` when ``name`` is a file's relative name inside ``folder`` reached
    through no link; else ``RefusedJournal``."""
    parts = name.split("/")
    if (
        not name
        or "\0" in name
        or "\\" in name
        or os.path.isabs(name)
        or any(part in ("", ".", "..") for part in parts)
    ):
        raise RefusedJournal(f"it names the file {name!r}, which is not a name inside the folder")
    path = folder
    for part in parts[:-1]:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            break  # made by the change: nothing below it can be a link yet
        if not stat.S_ISDIR(mode):
            raise RefusedJournal(
                f"it names the file {name!r}, reached through {path.name!r}, which is a link "
                "or not a folder"
            )
    return folder / name


class Settler(Protocol):
    """Where a change's audit entry is settled, and the key of its journals' seals, which only
    it holds (``store.Store``)."""

    def settle(self, intent: Intent, note: str = "") -> bool: ...

    def journal_key(self) -> bytes: ...

    def refused(self, season: str, what: str) -> None: ...


def _key(settler: Settler | None) -> bytes:
    return settler.journal_key() if settler is not None else _PROCESS_KEY


# Fault injection


def _from_environment() -> Callable[[str], None] | None:
    chosen = os.environ.get("GRANDPRIX_FAULT_AT")
    if not chosen:
        return None

    def kill(name: str) -> None:
        if name == chosen:
            os.kill(os.getpid(), signal.SIGKILL)

    return kill


fault: Callable[[str], None] | None = _from_environment()


def step(name: str) -> None:
    """A moment of a change where a fault may be injected (nothing happens otherwise)."""
    if fault is not None:
        fault(name)


# Writing


def replaced_bytes(folder: Path, names: list[str]) -> dict[str, bytes | None]:
    """The bytes each of ``names`` has now (None: no file, or a link, which is replaced and
    never followed out of the folder)."""
    out: dict[str, bytes | None] = {}
    for name in names:
        path = folder / name
        out[name] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return out


def carry_out(folder: Path, intent: Intent, settler: Settler | None) -> None:
    """Write ``intent`` into ``folder`` in the module's order; the caller holds the folder's
    lock (``workspace.locked``)."""
    begin(folder, intent, settler)
    try:
        for name in sorted(intent.files, key=lambda n: n == SEASON_FILE):  # season.toml last
            write_whole(folder / name, intent.files[name])
            step("wrote season.toml" if name == SEASON_FILE else "wrote a file")
        _settle(folder, intent, settler)
    except (OSError, GrandprixError) as exc:
        raise Unfinished(str(exc)) from exc


def _with_words(entry: Entry | None, words: str) -> Entry | None:
    if entry is None or not words:
        return entry
    return replace(entry, what=f"{entry.what} {words}")


def begin(folder: Path, intent: Intent, settler: Settler | None) -> None:
    """The intent written, sealed with ``settler``'s key, for a change whose work is not the
    season's files (a publication); ``finish`` settles it once the work is done."""
    step("intent")
    write_whole(folder / JOURNAL, intent.sealed(folder, _key(settler)))
    step("intent written")


def write_intent(made: Path, folder: Path, intent: Intent, settler: Settler | None) -> None:
    """The intent written into ``made``, a folder to be renamed ``folder`` (a new season),
    sealed for ``folder``."""
    write_whole(made / JOURNAL, intent.sealed(folder, _key(settler)))


def finish(folder: Path, intent: Intent, settler: Settler | None) -> None:
    step("work done")
    try:
        _settle(folder, intent, settler)
    except (OSError, GrandprixError) as exc:
        raise Unfinished(str(exc)) from exc


def _settle(folder: Path, intent: Intent, settler: Settler | None, note: str = "") -> None:
    if intent.entry is not None and settler is not None:
        settler.settle(intent, note)
    step("settled")
    (folder / JOURNAL).unlink(missing_ok=True)
    sync_folder(folder)


def recover(
    folder: Path,
    settler: Settler | None,
    redo: Callable[[Intent], str] | None = None,
    season: str = "",
) -> str:
    """Finish the change a killed process left in ``folder`` (see the module's docstring) and
    delete the temporary files of its unfinished writes; what was done, in words ('' when
    nothing was left). ``redo`` does again a change that writes no file of the season (a
    publication: the site is made again), its words added to the audit entry's. A journal
    this server did not write is set aside, unapplied, and its refusal recorded as of
    ``season`` (``set_aside`` then names it)."""
    done = ""
    path = folder / JOURNAL
    intent = None
    try:
        intent = _read(folder, path, settler)
    except RefusedJournal as exc:
        aside = _set_aside(folder, path)
        done = (
            f"{folder.name}/{JOURNAL}: refused, nothing of it applied: {exc}; set aside as {aside}"
        )
        if settler is not None:
            settler.refused(season, done)
    if intent is not None:
        if not intent.files and redo is not None:
            intent = replace(intent, entry=_with_words(intent.entry, redo(intent)))
        edited = []
        for name in sorted(intent.files, key=lambda n: n == SEASON_FILE):
            now = replaced_bytes(folder, [name])[name]
            if now == intent.files[name]:
                continue
            if now != intent.replaced.get(name):
                edited.append(name)  # changed by hand since: never written over
                continue
            write_whole(folder / name, intent.files[name])
        note = f"{', '.join(edited)} edited by hand meanwhile, kept as it was" if edited else ""
        _settle(folder, intent, settler, note)
        what = intent.entry.what if intent.entry else ", ".join(intent.files)
        done = f"{folder}: finished a change left half-done ({what})" + (
            f"; {note}" if note else ""
        )
    for stray in folder.iterdir() if folder.is_dir() else ():
        if _TEMPORARY.match(stray.name) and stray.is_file():
            stray.unlink(missing_ok=True)
    return done


def _read(folder: Path, path: Path, settler: Settler | None) -> Intent | None:
    """The intent of the journal at ``path`` (None: there is none), bounded and checked before
    anything of it is believed."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise RefusedJournal("it is a link, which the server never writes") from exc
        raise RefusedJournal(f"it cannot be read ({exc.strerror})") from exc
    with os.fdopen(fd, "rb") as opened:
        found = os.fstat(opened.fileno())
        if not stat.S_ISREG(found.st_mode):
            raise RefusedJournal("it is not a file")
        if found.st_size > JOURNAL_LIMIT:
            raise RefusedJournal(
                f"it holds {found.st_size:,} bytes, more than the {JOURNAL_LIMIT:,} a change "
                "can hold"
            )
        data = opened.read(JOURNAL_LIMIT + 1)
    if len(data) > JOURNAL_LIMIT:
        raise RefusedJournal(f"it holds more than the {JOURNAL_LIMIT:,} bytes a change can hold")
    return Intent.unsealed(folder, data, _key(settler))


def _set_aside(folder: Path, path: Path) -> str:
    """The refused journal renamed aside (hidden: the season's reading skips it); its name."""
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    name = f"{REFUSED}{stamp}-{os.urandom(3).hex()}.json"
    os.rename(path, folder / name)
    sync_folder(folder)
    return name


def set_aside(folder: Path) -> list[str]:
    """The journals refused and set aside in ``folder``, by name: while there are any, the
    season takes no change."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(name for name in names if name.startswith(REFUSED))

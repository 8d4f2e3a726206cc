"""Changes to a season folder that a crash at any moment cannot leave half-done.

A change (an accepted or approved upload, a correction, a decision on names, a rules change, a
new season, a publication) is written in this order:

1. its intent, whole, as ``.grandprix-change.json`` in the season folder (written to a
   temporary file and renamed): the new bytes of every file it writes, the bytes each one
   replaces, and the audit entry it makes (with the upload it approves);
2. the files, results first and ``season.toml`` last, each written whole (``write_whole``);
3. in one transaction of the server's database, the audit entry, the files it names kept, and
   the upload's new state (``Store.settle``, which does nothing for an intent already settled);
4. the intent removed.

``recover`` finishes what a killed server left: every file not yet at its new bytes is written
(one edited by hand since is left as it is, and the audit entry says so), the entry is settled,
the intent removed, and temporary files of unfinished writes are deleted. The server runs it for
each season as it starts and before each change, so that the folder, season.toml, the audit trail
and the list of uploads waiting for approval always agree.

``step`` marks each of these moments for fault injection: ``GRANDPRIX_FAULT_AT=<step>`` in the
environment kills the process with SIGKILL at that step (``tests/test_journal.py`` does it at
every step of every operation, and also raises there in-process).
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from grandprix.runtime.files import sync_folder, write_whole
from grandprix.season.config import SEASON_FILE

JOURNAL = ".grandprix-change.json"
_TEMPORARY = re.compile(r"^\..+\.tmp-[0-9a-f]{12}$")  # write_whole's own temporary files


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

    @classmethod
    def from_json(cls, text: str) -> Intent:
        said: dict[str, Any] = json.loads(text)

        def decoded(value: str | None) -> bytes | None:
            return None if value is None else base64.b64decode(value)

        files = {name: decoded(value) or b"" for name, value in said["files"].items()}
        replaced = {name: decoded(value) for name, value in said["replaced"].items()}
        entry = Entry(**said["entry"]) if said.get("entry") else None
        return cls(str(said["ident"]), files, replaced, entry)


class Settler(Protocol):
    """Where a change's audit entry is settled (``store.Store``)."""

    def settle(self, intent: Intent, note: str = "") -> bool: ...


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
    begin(folder, intent)
    for name in sorted(intent.files, key=lambda n: n == SEASON_FILE):  # season.toml last
        write_whole(folder / name, intent.files[name])
        step("wrote season.toml" if name == SEASON_FILE else "wrote a file")
    _settle(folder, intent, settler)


def _with_words(entry: Entry | None, words: str) -> Entry | None:
    if entry is None or not words:
        return entry
    return replace(entry, what=f"{entry.what} {words}")


def begin(folder: Path, intent: Intent) -> None:
    """The intent written, for a change whose work is not the season's files (a publication);
    ``finish`` settles it once the work is done."""
    step("intent")
    write_whole(folder / JOURNAL, intent.to_json().encode())
    step("intent written")


def finish(folder: Path, intent: Intent, settler: Settler | None) -> None:
    step("work done")
    _settle(folder, intent, settler)


def _settle(folder: Path, intent: Intent, settler: Settler | None, note: str = "") -> None:
    if intent.entry is not None and settler is not None:
        settler.settle(intent, note)
    step("settled")
    (folder / JOURNAL).unlink(missing_ok=True)
    sync_folder(folder)


def recover(
    folder: Path, settler: Settler | None, redo: Callable[[Intent], str] | None = None
) -> str:
    """Finish the change a killed process left in ``folder`` (see the module's docstring) and
    delete the temporary files of its unfinished writes; what was done, in words ('' when
    nothing was left). ``redo`` does again a change that writes no file of the season (a
    publication: the site is made again), its words added to the audit entry's."""
    done = ""
    path = folder / JOURNAL
    if path.is_file():
        intent = Intent.from_json(path.read_text(encoding="utf-8"))
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

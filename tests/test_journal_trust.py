"""A change journal the server did not write is never applied. Whoever may write into a season
folder could leave a ``.grandprix-change.json`` there naming files outside the folder, an audit
entry of their own, or an upload to decide: recovery refuses it whole, sets it aside, records the
refusal, serves the season read-only with the reason for its coordinator, and starts the other
seasons. On SQLite and on PostgreSQL (the key of the seals is in the database)."""

from __future__ import annotations

import base64
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from grandprix.serve import journal
from grandprix.serve.store import Store
from test_journal import (
    CORRECTED,
    KEY,
    UTAH,
    Server,
    correct,
    corrected,
    hashed,
    log_in,
    waiting_upload,
)
from test_serve_workspace import GOOD

OTHER = "utah-b"
EVIL = b"written by whoever could write into the folder\n"


@dataclass
class Served(Server):
    outside: Path  # a file outside every season folder

    def key(self) -> bytes:
        store = Store(self.database)
        try:
            return store.journal_key()
        finally:
            store.close()


@pytest.fixture
def served(tmp_path: Path, database: str) -> Served:
    root = tmp_path / "root"
    for key in (KEY, OTHER):
        shutil.copytree(UTAH, root / key)
        toml = root / key / "season.toml"
        toml.write_text(
            toml.read_text().replace("end = 2012-12-31", "end = 2012-12-31\napproval = true")
        )
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"the server user's own file\n")
    store = Store(database)
    store.add_user("cora", "coordinator", hashed("cora"))
    store.add_user("dan", "director", hashed("dan"))
    store.assign("dan", KEY, "Park City")
    store.close()
    return Served(root, database, outside)


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def body(files: dict[str, bytes], replaced: dict[str, bytes | None], entry: object = None) -> str:
    return json.dumps(
        {
            "ident": os.urandom(16).hex(),
            "files": {n: _b64(d) for n, d in files.items()},
            "replaced": {n: _b64(d) for n, d in replaced.items()},
            "entry": entry,
        }
    )


def sealed(key: bytes, folder: Path, text: str | bytes) -> bytes:
    """``text`` as the server seals a journal, with ``key`` (the attacker's guess, or the real
    one, as after a leak)."""
    data = text.encode() if isinstance(text, str) else text
    return journal._seal(key, folder, data).encode() + b"\n" + data


def refused(served: Served, reason: str) -> None:
    """Started on the folder: the journal refused and set aside, the season read-only with the
    reason for its coordinator, the refusal in the audit trail, the other season changing."""
    season = served.season
    toml_before = (season / "season.toml").read_bytes()
    with served.running() as (web, store):
        assert web.get(f"/s/{KEY}/index.html").status_code == 200
        assert not (season / journal.JOURNAL).exists()
        [aside] = journal.set_aside(season)
        [entry] = [e for e in store.audit(KEY) if e.action == "refused"]
        assert entry.user_name == "server" and reason in entry.what and aside in entry.what
        log_in(web, "cora")
        page = web.get(f"/s/{KEY}/workspace").text
        assert "This season takes no change" in page and aside in page
        answer = corrected(web)  # the forms open; the change is refused, saying why
        assert "takes no change" in answer.text and aside in answer.text
        assert (season / "season.toml").read_bytes() == toml_before
        assert (season / "winter_quick.csv").read_bytes() == (
            UTAH / "winter_quick.csv"
        ).read_bytes()
        # the other season starts and takes changes
        other = web.get(f"/s/{OTHER}/workspace").text
        assert "This season takes no change" not in other
    assert served.outside.read_bytes() == b"the server user's own file\n"


def test_an_unsealed_journal_writing_outside_the_folder_is_refused(served: Served) -> None:
    (served.season / journal.JOURNAL).write_text(
        body({"../../outside.txt": EVIL}, {"../../outside.txt": b"the server user's own file\n"})
    )
    refused(served, "its seal is not this server's")


@pytest.mark.parametrize(
    "name",
    ["../x.txt", "/tmp/absolute.txt", "sub/../../x.txt", "a\x00b.txt", "", "./season.toml"],
)
def test_a_sealed_journal_naming_a_file_outside_the_folder_is_refused(
    served: Served, name: str
) -> None:
    """Sealed with the server's own key (as after a leak of the database): still no file
    outside the folder."""
    folder = served.season
    (folder / journal.JOURNAL).write_bytes(
        sealed(served.key(), folder, body({name: EVIL}, {name: None}))
    )
    refused(served, "which is not a name inside the folder")
    assert not (served.root / "x.txt").exists() and not Path("/tmp/absolute.txt").exists()


def test_a_journal_writing_through_a_linked_folder_is_refused(served: Served) -> None:
    folder = served.season
    (folder / "linked").symlink_to(served.outside.parent)
    name = "linked/outside.txt"
    (folder / journal.JOURNAL).write_bytes(
        sealed(served.key(), folder, body({name: EVIL}, {name: b"the server user's own file\n"}))
    )
    refused(served, "which is a link or not a folder")


def test_a_journal_sealed_for_another_folder_is_refused(served: Served) -> None:
    """A journal the server wrote in one season folder, copied into another."""
    other = served.root / OTHER
    name = "winter_quick.csv"
    text = body({name: CORRECTED}, {name: (UTAH / name).read_bytes()})
    (served.season / journal.JOURNAL).write_bytes(sealed(served.key(), other, text))
    refused(served, "its seal is not this server's")
    assert (served.season / name).read_bytes() == (UTAH / name).read_bytes()


def approval(ident: int) -> dict[str, object]:
    """An audit entry approving the upload ``ident`` as the coordinator, as a journal has it."""
    return {
        "season": KEY,
        "user": "cora",
        "action": "approve",
        "what": "approved by cora",
        "moves": [],
        "submission": ident,
        "status": "approved",
    }


def test_a_forged_approval_decides_nothing(served: Served) -> None:
    """An unsealed journal whose audit entry approves a waiting upload as the coordinator:
    the upload still waits and no entry names the forger's words."""
    with served.running() as (web, store):
        ident = waiting_upload(web, store)
    entry = approval(ident)
    (served.season / journal.JOURNAL).write_text(
        body({"park.csv": GOOD}, {"park.csv": None}, entry)
    )
    refused(served, "its seal is not this server's")
    with served.running() as (_, store):
        assert [s.status for s in store.submissions(KEY, None)] == ["waiting"]
        assert not [e for e in store.audit(KEY) if e.action == "approve"]
    assert not (served.season / "park.csv").exists()


def test_a_sealed_approval_of_another_file_decides_nothing(served: Served) -> None:
    """Even sealed, a journal approving an upload decides it only as the database has it: the
    upload's own file among those written."""
    with served.running() as (web, store):
        ident = waiting_upload(web, store)
    entry = approval(ident)
    folder = served.season
    text = body({"notes.txt": b"not the upload\n"}, {"notes.txt": None}, entry)
    (folder / journal.JOURNAL).write_bytes(sealed(served.key(), folder, text))
    with served.running() as (_, store):
        assert [s.status for s in store.submissions(KEY, None)] == ["waiting"]
        assert not [e for e in store.audit(KEY) if e.action == "approve"]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{not json", "not a change as the server writes one"),
        (json.dumps({"ident": 1, "files": [], "replaced": {}}), "not a change"),
        (json.dumps({"ident": "a", "files": {"x.csv": "%%%"}, "replaced": {}}), "not a change"),
        (json.dumps({"ident": "a", "files": {"x.csv": 7}, "replaced": {}}), "not a change"),
        (json.dumps({"ident": "a", "files": {}, "replaced": {}, "entry": [1]}), "not a change"),
        (
            json.dumps({"ident": "a", "files": {}, "replaced": {}, "entry": {"season": 1}}),
            "not a change",
        ),
        (b"\xff\xfe\x00", "not a change"),
    ],
    ids=[
        "not-json",
        "wrong-types",
        "bad-base64",
        "number-bytes",
        "entry-list",
        "entry-shape",
        "not-utf8",
    ],
)
def test_a_sealed_journal_of_the_wrong_shape_is_refused_without_a_traceback(
    served: Served, data: str | bytes, reason: str
) -> None:
    folder = served.season
    (folder / journal.JOURNAL).write_bytes(sealed(served.key(), folder, data))
    refused(served, reason)


def test_a_journal_larger_than_a_change_can_be_is_refused_unread(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "JOURNAL_LIMIT", 1000)
    (served.season / journal.JOURNAL).write_bytes(b"x" * 5000)
    refused(served, "more than the 1,000 a change can hold")


def test_a_journal_that_is_a_link_is_refused(served: Served) -> None:
    (served.season / journal.JOURNAL).symlink_to(served.outside)
    refused(served, "it is a link")
    assert served.outside.read_bytes() == b"the server user's own file\n"


def test_deleting_the_journal_set_aside_makes_the_season_take_changes_again(
    served: Served,
) -> None:
    (served.season / journal.JOURNAL).write_text(body({"x.csv": EVIL}, {"x.csv": None}))
    with served.running():
        [aside] = journal.set_aside(served.season)
    (served.season / aside).unlink()
    with served.running() as (web, store):
        correct(web, store)
        assert (served.season / "winter_quick.csv").read_bytes() == CORRECTED
        assert not (served.season / "x.csv").exists()


def test_a_journal_the_server_wrote_is_still_recovered(served: Served) -> None:
    """A change killed half-way, as the server sealed it: finished after a restart."""
    folder = served.season
    name = "winter_quick.csv"
    text = body({name: CORRECTED}, {name: (UTAH / name).read_bytes()})
    (folder / journal.JOURNAL).write_bytes(sealed(served.key(), folder, text))
    with served.running():
        assert not journal.set_aside(folder)
    assert (folder / name).read_bytes() == CORRECTED
    assert not (folder / journal.JOURNAL).exists()


def test_a_change_too_large_for_its_journal_is_refused_before_anything_is_written(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recovery refuses a journal past its bound; the server never writes one it would refuse."""
    monkeypatch.setattr(journal, "JOURNAL_LIMIT", 2000)
    with served.running() as (web, _):
        log_in(web, "cora")
        answer = corrected(web)
    assert answer.status_code == 400 and "too large to be written whole" in answer.text
    quick = served.season / "winter_quick.csv"
    assert quick.read_bytes() == (UTAH / "winter_quick.csv").read_bytes()
    assert not (served.season / journal.JOURNAL).exists()

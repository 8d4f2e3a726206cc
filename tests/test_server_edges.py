"""The server's edges: a hand edit that keeps a file's size and modification time is never
written over; a director's upload to a planned event keeps the coordinator's values."""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.serve.app import create_app
from grandprix.serve.security import CSRF_FIELD
from test_serve_workspace import GOOD, accept, field, upload

UTAH = ROOT / "examples" / "utah-2012"
BASE = "/s/utah-2012/workspace"


def web_on(folder: Path) -> TestClient:
    app = create_app({"utah-2012": folder}, secret=b"s" * 32)
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_a_hand_edit_keeping_size_and_time_is_not_written_over(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    web = web_on(folder)
    shown = upload(web, GOOD)
    toml = folder / "season.toml"
    before = toml.stat()
    text = toml.read_text()
    edited = text.replace("Salt Lake Winter Quick", "Salt Lake Winter Quack")
    assert len(edited) == len(text) and edited != text
    toml.write_text(edited)
    os.utime(toml, ns=(before.st_atime_ns, before.st_mtime_ns))  # as it was: size and time
    got = accept(web, shown.text)
    assert got.status_code == 409 and "changed since" in got.text
    assert toml.read_text() == edited and not (folder / "park_city.csv").exists()


def test_a_directors_upload_to_a_planned_event_keeps_the_calendars_values(
    tmp_path: Path,
) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    toml = folder / "season.toml"
    toml.write_text(toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-12-15\n'
                    "planned = true\n")  # fmt: skip
    web = web_on(folder)
    form = web.get(f"{BASE}/event").text
    shown = web.post(
        f"{BASE}/event",
        data={
            CSRF_FIELD: field(form, CSRF_FIELD),
            "name": "Park City",
            "date": "2012-12-20",
            "category": "blitz",
            "prize_fund": "99999",
        },
        files={"results": ("park_city.csv", GOOD, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    [park] = [e for e in tomllib.loads(toml.read_text())["events"] if e["name"] == "Park City"]
    assert park == {"name": "Park City", "date": park["date"], "results": "park_city.csv"}
    assert str(park["date"]) == "2012-12-15"

"""grandprix serve started from a relative path, as the README and `make serve` start it: each
kind of workspace change (an event, corrected results, rules, a decision on names) is saved,
and a form made before a real change elsewhere is refused naming it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.season.config import SEASON_FILE
from grandprix.serve.app import create_app
from grandprix.serve.security import CSRF_FIELD

BASE = "/s/utah-2012/workspace"
GOOD = b'rank,name,id,points\n1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,4\n'


def field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, page
    return found.group(1)


def accept(web: TestClient, preview: str) -> httpx.Response:
    data = {k: field(preview, k) for k in (CSRF_FIELD, "token", "version")}
    return web.post(f"{BASE}/accept", data=data)


def test_every_kind_of_change_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "utah-2012"
    shutil.copytree(ROOT / "examples" / "utah-2012", folder)
    quick = folder / "winter_quick.csv"  # a name close to another, for a decision on names
    quick.write_text(quick.read_text(encoding="utf-8") + "99,Esme Daltan,,1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = create_app({"utah-2012": Path("utah-2012")}, secret=b"s" * 32)  # as typed
    web = TestClient(app, base_url="http://127.0.0.1:8000")
    page = web.get(f"{BASE}/names").text
    pair = re.search(
        r'name="name" value="([^"]*)">\s*<input type="hidden" name="other" value="([^"]*)"', page
    )
    assert pair, page
    done = web.post(
        f"{BASE}/names",
        data={
            CSRF_FIELD: field(page, CSRF_FIELD),
            "name": pair.group(1),
            "other": pair.group(2),
            "version": field(page, "version"),
            "decision": "different",
        },
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text
    assert (folder / "aliases.csv").read_text(encoding="utf-8").rstrip().endswith(",different")

    form = web.get(f"{BASE}/event").text
    shown = web.post(
        f"{BASE}/event",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "name": "Park City", "date": "2012-12-15"},
        files={"results": ("park.csv", GOOD, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    assert (folder / "park.csv").read_bytes() == GOOD

    form = web.get(f"{BASE}/results").text
    corrected = GOOD.replace(b"1219,4", b"1219,4.5")
    shown = web.post(
        f"{BASE}/results",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "file": "Park City\t"},
        files={"results": ("park.csv", corrected, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    assert (folder / "park.csv").read_bytes() == corrected

    form = web.get(f"{BASE}/rules").text
    shown = web.post(
        f"{BASE}/rules",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "points.table": "[25, 18, 15, 12, 10, 8]"},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    assert "table = [25, 18, 15, 12, 10, 8]" in (folder / SEASON_FILE).read_text(encoding="utf-8")


def test_a_real_change_elsewhere_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A form made before a hand edit is refused, saying which file changed."""
    shutil.copytree(ROOT / "examples" / "utah-2012", tmp_path / "utah-2012")
    monkeypatch.chdir(tmp_path)
    web = TestClient(
        create_app({"utah-2012": Path("utah-2012")}, secret=b"s" * 32),
        base_url="http://127.0.0.1:8000",
    )
    form = web.get(f"{BASE}/event").text
    shown = web.post(
        f"{BASE}/event",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "name": "Park City", "date": "2012-12-15"},
        files={"results": ("park.csv", GOOD, "text/csv")},
    )
    assert shown.status_code == 200
    (tmp_path / "utah-2012" / "notes.txt").write_text("a change by hand\n", encoding="utf-8")
    refused = accept(web, shown.text)
    assert refused.status_code == 409
    assert "notes.txt added" in refused.text
    assert not (tmp_path / "utah-2012" / "park.csv").exists()


def test_an_event_with_its_rate_and_place_from_the_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event form holds the keys an event of season.toml has: its rate (UT-6) and place
    too, written as typed; a rate that is not one is refused before anything is written."""
    shutil.copytree(ROOT / "examples" / "utah-2012", tmp_path / "utah-2012")
    monkeypatch.chdir(tmp_path)
    web = TestClient(
        create_app({"utah-2012": Path("utah-2012")}, secret=b"s" * 32),
        base_url="http://127.0.0.1:8000",
    )
    form = web.get(f"{BASE}/event").text
    assert 'name="weight"' in form and 'name="place"' in form
    data = {CSRF_FIELD: field(form, CSRF_FIELD), "name": "Park City", "date": "2012-12-15"}
    refused = web.post(
        f"{BASE}/event",
        data={**data, "weight": "heavy"},
        files={"results": ("park.csv", GOOD, "text/csv")},
    )
    assert refused.status_code == 400 and "is not a rate" in refused.text
    shown = web.post(
        f"{BASE}/event",
        data={**data, "weight": "1.5", "place": "Park City, Utah"},
        files={"results": ("park.csv", GOOD, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    toml = (tmp_path / "utah-2012" / SEASON_FILE).read_text(encoding="utf-8")
    assert 'name = "Park City"\ndate = 2012-12-15\nweight = 1.5\nplace = "Park City, Utah"' in toml

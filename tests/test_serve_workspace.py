"""The workspace's forms over HTTP: upload an event (a located error, then the
corrected file), preview and accept; a stale form refused; an identity decision; a rule change
previewed and accepted; publishing; hostile uploads."""

from __future__ import annotations

import datetime
import html
import re
import shutil
import stat
import tomllib
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.season.config import SEASON_FILE
from grandprix.serve.app import create_app
from grandprix.serve.security import CSRF_FIELD

UTAH = ROOT / "examples" / "utah-2012"
BASE = "/s/utah-2012/workspace"
GOOD = b'rank,name,id,points\n1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,4\n'
BAD = b'rank,name,id,points\n1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,lots\n'


@pytest.fixture
def utah(tmp_path: Path) -> Path:
    return Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))


@pytest.fixture
def web(utah: Path) -> TestClient:
    return TestClient(
        create_app({"utah-2012": utah}, secret=b"s" * 32), base_url="http://127.0.0.1:8000"
    )


def field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, page
    return found.group(1)


def upload(
    web: TestClient, data: bytes, filename: str = "park_city.csv", name: str = "Park City"
) -> httpx.Response:
    form = web.get(f"{BASE}/event").text
    return web.post(
        f"{BASE}/event",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "name": name, "date": "2012-12-15"},
        files={"results": (filename, data, "text/csv")},
    )


def accept(web: TestClient, preview: str) -> httpx.Response:
    return web.post(
        f"{BASE}/accept",
        data={
            CSRF_FIELD: field(preview, CSRF_FIELD),
            "token": field(preview, "token"),
            "version": field(preview, "version"),
        },
    )


def test_an_upload_with_an_error_is_located_then_the_corrected_file_is_accepted(
    web: TestClient, utah: Path
) -> None:
    refused = upload(web, BAD)
    assert refused.status_code == 422
    assert "<code>park_city.csv:3:" in refused.text and "points" in refused.text
    assert str(utah) not in refused.text  # where the server keeps its folders: not shown
    assert "Accept" not in refused.text and not (utah / "park_city.csv").exists()
    shown = upload(web, GOOD)
    assert shown.status_code == 200
    assert "Ellis, Aiden" in shown.text and "Who moves" in shown.text
    done = accept(web, shown.text)
    assert done.status_code == 200 and "Written into the season folder" in done.text
    assert (utah / "park_city.csv").read_bytes() == GOOD
    assert 'results = "park_city.csv"' in (utah / SEASON_FILE).read_text(encoding="utf-8")
    assert "Park City" in web.get("/s/utah-2012/events.html").text  # the pages follow


def test_a_preview_made_before_the_folder_changed_is_refused(web: TestClient, utah: Path) -> None:
    shown = upload(web, GOOD)
    (utah / "notes.txt").write_text("a change by hand\n", encoding="utf-8")
    refused = accept(web, shown.text)
    assert refused.status_code == 409 and "changed since this form was made" in refused.text
    assert not (utah / "park_city.csv").exists()


def test_accepted_files_keep_their_permissions_and_new_ones_get_the_usual_ones(
    web: TestClient, utah: Path
) -> None:
    (utah / SEASON_FILE).chmod(0o640)
    probe = utah.parent / "probe.txt"
    probe.write_text("", encoding="utf-8")
    usual = stat.S_IMODE(probe.stat().st_mode)  # 0o666 less the umask
    assert accept(web, upload(web, GOOD).text).status_code == 200
    assert stat.S_IMODE((utah / SEASON_FILE).stat().st_mode) == 0o640
    assert stat.S_IMODE((utah / "park_city.csv").stat().st_mode) == usual  # not mkstemp's 0o600


def test_an_accepted_change_cannot_be_accepted_twice(web: TestClient) -> None:
    shown = upload(web, GOOD)
    assert accept(web, shown.text).status_code == 200
    assert accept(web, shown.text).status_code == 410


def test_an_upload_name_that_leaves_the_folder_is_refused(web: TestClient, utah: Path) -> None:
    for name in ("../outside.csv", "/etc/x.csv", "sub/x.csv", ".hidden.csv"):
        refused = upload(web, GOOD, filename=name)
        assert refused.status_code == 400, name
        assert "cannot be used" in refused.text
    assert not (utah.parent / "outside.csv").exists()


def test_html_in_uploaded_names_is_escaped(web: TestClient) -> None:
    evil = b'rank,name,id,points\n1,"<script>alert(1)</script>",777,5\n'
    shown = upload(web, evil, name="<b>Open</b>")
    assert "<script>alert(1)</script>" not in shown.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown.text
    assert "<b>Open</b>" not in shown.text


def test_an_identity_decision_is_written_to_aliases_csv(web: TestClient, utah: Path) -> None:
    (utah / "winter_quick.csv").write_text(
        (utah / "winter_quick.csv").read_text(encoding="utf-8") + "99,Esme Daltan,,1\n",
        encoding="utf-8",
    )
    page = web.get(f"{BASE}/names").text
    assert "Esme Daltan" in page
    pair = re.search(
        r'name="name" value="([^"]*)">\s*<input type="hidden" name="other" '
        r'value="([^"]*)"',
        page,
    )
    assert pair
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
    assert done.status_code == 303
    rows = (utah / "aliases.csv").read_text(encoding="utf-8").splitlines()
    assert rows[-1].endswith(",different")


def test_a_rule_change_is_previewed_then_accepted(web: TestClient, utah: Path) -> None:
    form = web.get(f"{BASE}/rules").text
    assert 'name="points.table" value="[21, 15, 12, 10, 8, 6]"' in form
    shown = web.post(
        f"{BASE}/rules",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "points.table": "[25, 18, 15, 12, 10, 8]"},
    )
    assert shown.status_code == 200 and "Who moves" in shown.text
    assert accept(web, shown.text).status_code == 200
    text = (utah / SEASON_FILE).read_text(encoding="utf-8")
    assert "table = [25, 18, 15, 12, 10, 8]" in text and 'preset = "utah-2012"' in text


def test_publishing_writes_the_static_site_into_the_season_folder(
    web: TestClient, utah: Path
) -> None:
    form = web.get(f"{BASE}/publish").text
    done = web.post(f"{BASE}/publish", data={CSRF_FIELD: field(form, CSRF_FIELD)})
    assert done.status_code == 200 and "pages written" in done.text
    assert (utah / "site" / "index.html").is_file()
    # The published site is not part of the season: a form made before publishing still holds.
    shown = upload(web, GOOD)
    again = web.post(f"{BASE}/publish", data={CSRF_FIELD: field(form, CSRF_FIELD)})
    assert again.status_code == 200
    assert accept(web, shown.text).status_code == 200


def test_a_season_is_started_from_a_preset_under_the_root(tmp_path: Path) -> None:
    root = tmp_path / "seasons"
    root.mkdir()
    web = TestClient(
        create_app({}, secret=b"s" * 32, root=str(root)), base_url="http://127.0.0.1:8000"
    )
    assert 'href="/new"' in web.get("/").text
    form = web.get("/new").text
    assert "keshmat-2026" in form
    made = web.post(
        "/new",
        data={
            CSRF_FIELD: field(form, CSRF_FIELD),
            "name": "Club 2027",
            "folder": "club-2027",
            "preset": "acf-2004",
            "like": "",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303 and made.headers["location"] == "/s/club-2027/workspace"
    assert 'rules = "acf-2004"' in (root / "club-2027" / SEASON_FILE).read_text(encoding="utf-8")
    assert web.get("/s/club-2027/workspace").status_code == 200
    # No events yet, and no problem: its pages are there, and its forms work.
    assert "Club 2027" in web.get("/s/club-2027/").text
    assert "No similar names wait" in web.get("/s/club-2027/workspace/names").text
    for folder in ("../escape", "a/b", ""):
        refused = web.post(
            "/new",
            data={
                CSRF_FIELD: field(form, CSRF_FIELD),
                "name": "X",
                "folder": folder,
                "preset": "acf-2004",
            },
        )
        assert refused.status_code == 400, folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seasons"]


def test_an_oversize_upload_is_refused_and_nothing_is_written(utah: Path) -> None:
    web = TestClient(
        create_app({"utah-2012": utah}, secret=b"s" * 32, max_upload=10_000),
        base_url="http://127.0.0.1:8000",
    )
    before = sorted(p.name for p in utah.iterdir())
    big = GOOD + b"".join(f"{i},Player {i},{5000 + i},1\n".encode() for i in range(3, 2000))
    refused = upload(web, big)
    assert refused.status_code == 413
    assert sorted(p.name for p in utah.iterdir()) == before


def test_a_new_season_holds_its_days_language_and_approval_checked_before_it_is_made(
    tmp_path: Path,
) -> None:
    """The new-season form holds every key of a season but its events: name, first and last
    day, language, approval and rules; a day that does not exist or an end before the start
    is refused with season.toml's own words, and no folder is made."""
    root = tmp_path / "seasons"
    root.mkdir()
    web = TestClient(
        create_app({}, secret=b"s" * 32, root=str(root)), base_url="http://127.0.0.1:8000"
    )
    form = web.get("/new").text
    for key in ('name="start"', 'name="end"', 'name="language"', 'name="approval"'):
        assert key in form
    assert '<option value="it">Italiano</option>' in form
    base = {CSRF_FIELD: field(form, CSRF_FIELD), "name": "Circuito 2027", "preset": "acf-2004"}
    for bad, said in (
        ({"start": "2027-02-30"}, "no such date '2027-02-30'"),
        ({"start": "2027-03-01", "end": "2027-01-31"}, "before it starts"),
        ({"language": "xx"}, "no pages in language 'xx'"),
    ):
        refused = web.post("/new", data={**base, "folder": "bad", **bad})
        assert refused.status_code == 400 and said in html.unescape(refused.text), bad
        assert not (root / "bad").exists()
    made = web.post(
        "/new",
        data={
            **base,
            "folder": "circuito-2027",
            "start": "2027-01-01",
            "end": "2027-12-31",
            "language": "it",
            "approval": "yes",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303
    written = tomllib.loads((root / "circuito-2027" / SEASON_FILE).read_text(encoding="utf-8"))
    assert written["start"] == datetime.date(2027, 1, 1)
    assert written["end"] == datetime.date(2027, 12, 31)
    assert written["language"] == "it" and written["approval"] is True
    assert "Classifica" in web.get("/s/circuito-2027/").text  # its pages speak Italian

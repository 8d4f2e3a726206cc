"""The server WITH ACCOUNTS as its people meet it in Chromium: ``grandprix serve``
runs for real (uvicorn on a free port, tests/serving.py) over a store holding a coordinator,
two directors and a reader, and each person has a browser context of their own (their own
cookies: session and CSRF nonce). Playwright logs in through the login form, follows links,
fills inputs, chooses files and presses buttons.

- A director's upload in a season with ``approval = true`` waits (nothing written) until the
  coordinator approves it on the "Approve uploads" page; then the file and its event are in
  the season folder, a reader sees the new standings, and the audit trail lists the approval.
- A director is refused another director's event (403), even when the page's select is made
  to offer it, another event's results to correct, and the coordinator's pages (403, "Not
  allowed"); nor may they add their own event a second time once its results are in the
  season (the form does not offer it; the server must refuse it too).
- A session idle for longer than the policy allows has ended: the workspace sends the browser
  to the login page (``/login?next=...``), and a form sent meanwhile is refused (401).
- Failed logins are throttled: after ``tries_per_name`` wrong passwords even the right one is
  refused (429) and no session is made.

Every test runs on both databases of the store (the ``database`` fixture of conftest.py:
SQLite, and PostgreSQL in a temporary cluster).
"""

from __future__ import annotations

import functools
import re
import shutil
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page
from starlette.applications import Starlette

from conftest import ROOT
from grandprix.season.config import SEASON_FILE
from grandprix.serve.accounts import SESSION_COOKIE, Policy, hash_password
from grandprix.serve.app import create_app
from grandprix.serve.database import database_url
from grandprix.serve.store import APPROVED, Store
from serving import serving
from test_serve_browser import TIMEOUT_MS, follow, form_moves, press

KEY = "utah-2012"
UTAH = ROOT / "examples" / KEY
WORKSPACE = f"/s/{KEY}/workspace"
SECRET = b"s" * 32

COORDINATOR, DIRECTOR, OTHER_DIRECTOR, READER = "carol", "dana", "derek", "rita"
ROLES = {
    COORDINATOR: "coordinator",
    DIRECTOR: "director",
    OTHER_DIRECTOR: "director",
    READER: "reader",
}
PASSWORDS = {name: f"{name}-long-passphrase" for name in ROLES}
# Events given to the directors: one new event each, and dana corrects one already there.
NEW_EVENT, OTHERS_EVENT, OWN_OLD_EVENT = "Park City Open", "Ogden Winter Open", "December Quick"
UPLOAD = 'rank,name,id,points\n1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,4\n'
UPLOAD_NAME, UPLOAD_DATE = "park_city.csv", "2012-12-15"
DIRECTORS_ACTIONS = ["Add an event", "Correct an event's results", "Run an event's rounds"]


# -- the season, the store, the server ----------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of examples/utah-2012 whose season.toml asks for approval of directors' uploads."""
    copy = Path(shutil.copytree(UTAH, tmp_path / KEY))
    toml = copy / SEASON_FILE
    text = toml.read_text(encoding="utf-8")
    assert "\nend = 2012-12-31\n" in text
    toml.write_text(text.replace("\nend = 2012-12-31\n", "\nend = 2012-12-31\napproval = true\n"))
    assert tomllib.loads(toml.read_text(encoding="utf-8"))["approval"] is True
    return copy


@functools.cache
def hashed(name: str) -> str:
    """The Argon2id hash of ``name``'s password, made once per test process (it is slow)."""
    return hash_password(PASSWORDS[name])


@pytest.fixture
def store(database: str, tmp_path: Path) -> Iterator[Store]:
    """The server's store on SQLite or PostgreSQL, its accounts added (before ``create_app``:
    a store with users at creation turns the accounts on)."""
    made = Store(database_url(database, tmp_path))
    try:
        for name, role in ROLES.items():
            made.add_user(name, role, hashed(name))
        made.assign(DIRECTOR, KEY, NEW_EVENT)
        made.assign(DIRECTOR, KEY, OWN_OLD_EVENT)
        made.assign(OTHER_DIRECTOR, KEY, OTHERS_EVENT)
        yield made
    finally:
        made.close()


@pytest.fixture
def upload(tmp_path: Path) -> Path:
    """The results file a director uploads (in a folder of its own, not the season's)."""
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    path = uploads / UPLOAD_NAME
    path.write_text(UPLOAD, encoding="utf-8")
    return path


def app_of(folder: Path, store: Store, policy: Policy | None = None) -> Starlette:
    app = create_app({KEY: folder}, store=store, policy=policy, secret=SECRET)
    assert app.state.accounts
    return app


@contextmanager
def person(browser: Browser, base: str) -> Iterator[Page]:
    """A page in a browser context of its own (its own cookies: its session, its CSRF nonce)."""
    context = browser.new_context(base_url=base)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


# -- what a person does -------------------------------------------------------------------------


def log_in(page: Page, name: str, password: str, then: str = WORKSPACE) -> int:
    """The login form filled and sent, from ``/login?next=then``: the status of the page it
    leads to (after the redirect of a good login)."""
    page.goto(f"/login?next={quote(then)}")
    page.locator("#name").fill(name)
    page.locator("#password").fill(password)
    return press(page, "Log in")


def status_of(page: Page, path: str) -> int:
    response = page.goto(path)
    assert response is not None
    return response.status


def actions(page: Page) -> list[str]:
    """The workspace's list of what this user can do."""
    return page.locator("main ul li > a").all_inner_texts()


def options(page: Page, select: str) -> list[str]:
    return [t.strip() for t in page.locator(f"{select} option").all_inner_texts()]


def moves_of(page: Page, player: str) -> list[str]:
    """The preview's row of ``player`` in the table of who moves."""
    rows = [row for row in form_moves(page) if row[1] == player]
    assert len(rows) == 1, form_moves(page)
    return rows[0]


def standings_row(page: Page, player: str) -> str:
    row = page.locator("main table tbody tr", has_text=player)
    assert row.count() == 1
    return row.inner_text()


def session_cookies(page: Page) -> list[str]:
    names = [cookie.get("name", "") for cookie in page.context.cookies()]
    return [name for name in names if SESSION_COOKIE in name]


# -- the tests ----------------------------------------------------------------------------------


def test_a_directors_upload_waits_for_the_coordinators_approval_then_counts(
    browser: Browser, folder: Path, store: Store, upload: Path
) -> None:
    season_before = (folder / SEASON_FILE).read_bytes()
    with (
        serving(app_of(folder, store)) as base,
        person(browser, base) as director,
        person(browser, base) as coordinator,
        person(browser, base) as reader,
    ):
        # The reader sees the season as it is: 8 events, Ellis with 46.82 points.
        assert log_in(reader, READER, PASSWORDS[READER], then=f"/s/{KEY}/") == 200
        assert reader.url == f"{base}/s/{KEY}/"
        assert len(session_cookies(reader)) == 1  # the season's pages are the site's: no header
        assert "Standings after 8 of 8 events" in reader.inner_text("main")
        assert "46.82" in standings_row(reader, "Ellis, Aiden")
        assert status_of(reader, WORKSPACE) == 403  # a reader has no workspace

        # The director, in their workspace, may only add and correct events ...
        assert log_in(director, DIRECTOR, PASSWORDS[DIRECTOR]) == 200
        assert director.url == f"{base}{WORKSPACE}"
        assert f"{DIRECTOR} (director)" in director.inner_text("header")
        assert actions(director) == DIRECTORS_ACTIONS
        follow(director, "Add an event")
        # ... and is offered only their own event not yet in the season.
        assert options(director, "select#name") == [NEW_EVENT]
        director.locator("select#name").select_option(NEW_EVENT)
        director.get_by_label("Date (the last day)").fill(UPLOAD_DATE)
        director.get_by_label("Results file").set_input_files(upload)
        assert press(director, "Preview") == 200
        ellis = moves_of(director, "Ellis, Aiden")
        assert ellis[4] == "46.82" and ellis[5] not in ("46.82", "–"), ellis
        sent_moves = form_moves(director)
        # The season asks for approval: the director sends it, and cannot accept it.
        assert director.get_by_role("button", name="Accept").count() == 0
        assert director.get_by_role("button", name="Send for approval").count() == 1
        assert press(director, "Send for approval") == 200
        assert "Sent for approval" in director.inner_text("main")
        # Nothing is written yet: the upload waits in the store.
        assert not (folder / UPLOAD_NAME).exists()
        assert (folder / SEASON_FILE).read_bytes() == season_before
        waiting = store.submissions(KEY)
        assert [(s.user_name, s.kind, s.event, s.fields["filename"]) for s in waiting] == [
            (DIRECTOR, "event", NEW_EVENT, UPLOAD_NAME)
        ]
        reader.goto(f"/s/{KEY}/")
        assert "Standings after 8 of 8 events" in reader.inner_text("main")
        assert "46.82" in standings_row(reader, "Ellis, Aiden")

        # The coordinator finds it among the uploads waiting for approval ...
        assert log_in(coordinator, COORDINATOR, PASSWORDS[COORDINATOR]) == 200
        assert f"{COORDINATOR} (coordinator)" in coordinator.inner_text("header")
        assert "Approve uploads" in actions(coordinator)
        follow(coordinator, "Approve uploads")
        rows = coordinator.locator("main table tbody tr")
        assert rows.count() == 1
        row = rows.first.inner_text()
        assert DIRECTOR in row and NEW_EVENT in row and UPLOAD_NAME in row, row
        # ... previews it on the season as it is now (the same moves the director saw) ...
        follow(coordinator, "Preview")
        assert coordinator.url == f"{base}{WORKSPACE}/approvals/{waiting[0].id}"
        assert f"Sent by {DIRECTOR}" in coordinator.inner_text("main")
        assert form_moves(coordinator) == sent_moves
        assert coordinator.get_by_role("button", name="Reject it").count() == 1
        # ... and approves it: now it is in the season folder.
        assert press(coordinator, "Approve: write it into the season folder") == 200
        assert "Written into the season folder" in coordinator.inner_text("main")
        assert (folder / UPLOAD_NAME).read_text(encoding="utf-8") == UPLOAD
        events = tomllib.loads((folder / SEASON_FILE).read_text(encoding="utf-8"))["events"]
        added = [e for e in events if e["name"] == NEW_EVENT]
        assert [(str(e["date"]), e["results"]) for e in added] == [(UPLOAD_DATE, UPLOAD_NAME)]
        assert store.submissions(KEY) == []
        decided = store.submissions(KEY, None)
        assert [(s.status, s.decided_by) for s in decided] == [(APPROVED, COORDINATOR)]
        follow(coordinator, "The workspace")
        follow(coordinator, "Approve uploads")
        assert "Nothing waits for approval." in coordinator.inner_text("main")

        # The audit trail lists the approval: who approved, who sent it, the file written.
        coordinator.goto(WORKSPACE)
        follow(coordinator, "Audit trail")
        newest = coordinator.locator("section.audit-entry").first
        assert f"{COORDINATOR} · approve" in newest.locator("h2").inner_text()
        said = newest.inner_text()
        assert f"(sent by {DIRECTOR}, approved)" in said and NEW_EVENT in said, said
        assert UPLOAD_NAME in said and SEASON_FILE in said, said
        entries = store.audit(KEY)
        assert entries[0].user_name == COORDINATOR and entries[0].action == "approve"
        assert {f["name"] for f in entries[0].files} == {UPLOAD_NAME, SEASON_FILE}

        # The reader sees the new standings: the ninth event, Ellis's new total.
        reader.goto(f"/s/{KEY}/")
        assert "Standings after 9 of 9 events" in reader.inner_text("main")
        assert ellis[5] in standings_row(reader, "Ellis, Aiden")
        reader.goto(f"/s/{KEY}/events.html")
        assert NEW_EVENT in reader.inner_text("main")

        # The director's event is in the season: the form offers it no more.
        director.goto(f"{WORKSPACE}/event")
        assert director.locator("select#name").count() == 0
        assert "None of your events waits for its results" in director.inner_text("main")


def test_a_director_is_refused_another_directors_event_and_the_coordinators_pages(
    browser: Browser, folder: Path, store: Store, upload: Path
) -> None:
    season_before = (folder / SEASON_FILE).read_bytes()
    with serving(app_of(folder, store)) as base, person(browser, base) as director:
        assert log_in(director, DIRECTOR, PASSWORDS[DIRECTOR]) == 200
        follow(director, "Add an event")
        assert options(director, "select#name") == [NEW_EVENT]  # not derek's event
        # The select made to offer derek's event, by the page's script: the server refuses it.
        director.locator("select#name").evaluate(
            "(select, name) => { select.add(new Option(name, name)); select.value = name; }",
            OTHERS_EVENT,
        )
        assert director.locator("select#name").input_value() == OTHERS_EVENT
        director.get_by_label("Date (the last day)").fill(UPLOAD_DATE)
        director.get_by_label("Results file").set_input_files(upload)
        assert press(director, "Preview") == 403
        assert f"The event '{OTHERS_EVENT}' is not one of yours" in director.inner_text("main")
        assert director.get_by_role("button", name="Send for approval").count() == 0

        # Correcting results: only their own event's file is offered; another's is refused.
        director.goto(WORKSPACE)
        follow(director, "Correct an event's results")
        assert options(director, "select#file") == [f"{OWN_OLD_EVENT} (december_quick.csv)"]
        director.locator("select#file option").first.evaluate(
            "option => { option.value = 'Utah Open\\t'; }"
        )
        director.get_by_label("Corrected results file").set_input_files(upload)
        assert press(director, "Preview") == 403
        assert "Choose one of your events' results files." in director.inner_text("main")

        # The coordinator's pages are not theirs.
        for page in ("rules", "approvals", "audit", "audit.csv", "names", "publish"):
            assert status_of(director, f"{WORKSPACE}/{page}") == 403, page
            assert director.locator("h1").inner_text() == "Not allowed", page
            assert f"{DIRECTOR} is a director: only a coordinator" in director.inner_text("main")

        assert (folder / SEASON_FILE).read_bytes() == season_before
        assert not (folder / UPLOAD_NAME).exists()
        assert store.submissions(KEY, None) == []
        assert store.audit(KEY) == []


def test_a_director_cannot_add_their_event_already_in_the_season_a_second_time(
    browser: Browser, folder: Path, store: Store, upload: Path
) -> None:
    """dana's December Quick already has its results in the season: the event form does not
    offer it (to correct its results there is the other form), and the server must not take
    it either, or dana could add that event again and again, on other dates (the season
    refuses the same name only on the same date), each time counting for the standings."""
    season_before = (folder / SEASON_FILE).read_bytes()
    with serving(app_of(folder, store)) as base, person(browser, base) as director:
        assert log_in(director, DIRECTOR, PASSWORDS[DIRECTOR]) == 200
        follow(director, "Add an event")
        assert options(director, "select#name") == [NEW_EVENT]  # not December Quick
        director.locator("select#name").evaluate(
            "(select, name) => { select.add(new Option(name, name)); select.value = name; }",
            OWN_OLD_EVENT,
        )
        director.get_by_label("Date (the last day)").fill(UPLOAD_DATE)
        director.get_by_label("Results file").set_input_files(upload)
        status = press(director, "Preview")
        sendable = director.get_by_role("button", name="Send for approval").count()
        assert (status, sendable) == (403, 0), director.inner_text("main")
        assert (folder / SEASON_FILE).read_bytes() == season_before
        assert store.submissions(KEY, None) == []


def test_an_idle_session_ends_and_the_workspace_sends_the_browser_to_log_in(
    browser: Browser, folder: Path, store: Store, upload: Path
) -> None:
    policy = Policy(idle=600)
    with serving(app_of(folder, store, policy)) as base, person(browser, base) as page:
        assert log_in(page, COORDINATOR, PASSWORDS[COORDINATOR]) == 200
        assert page.url == f"{base}{WORKSPACE}"
        assert len(session_cookies(page)) == 1
        follow(page, "Add an event")
        store.clock = lambda: time.time() + policy.idle + 60  # eleven minutes without a request
        # A form sent after the session ended is refused, nothing written ...
        page.get_by_label("Name of the event").fill(NEW_EVENT)
        page.get_by_label("Date (the last day)").fill(UPLOAD_DATE)
        page.get_by_label("Results file").set_input_files(upload)
        assert press(page, "Preview") == 401
        assert page.locator("h1").inner_text() == "Log in first"
        # ... and the workspace sends the browser to the login page, then back.
        response = page.goto(WORKSPACE)
        assert response is not None and response.status == 200
        assert page.url == f"{base}/login?next={quote(WORKSPACE)}"
        assert response.request.redirected_from is not None
        assert page.locator("input[name=next]").input_value() == WORKSPACE
        assert page.get_by_role("button", name="Log in").count() == 1
        page.locator("#name").fill(COORDINATOR)
        page.locator("#password").fill(PASSWORDS[COORDINATOR])
        assert press(page, "Log in") == 200
        assert page.url == f"{base}{WORKSPACE}"
        assert not (folder / UPLOAD_NAME).exists()


def test_wrong_passwords_are_throttled_even_before_the_right_one(
    browser: Browser, folder: Path, store: Store
) -> None:
    tries = 3
    with (
        serving(app_of(folder, store, Policy(tries_per_name=tries))) as base,
        person(browser, base) as page,
    ):
        for attempt in range(tries):
            assert log_in(page, DIRECTOR, f"wrong-password-{attempt}") == 401, attempt
            assert page.get_by_role("alert").inner_text() == "Wrong name or password."
            assert page.locator("#name").input_value() == DIRECTOR
        assert log_in(page, DIRECTOR, PASSWORDS[DIRECTOR]) == 429
        said = page.get_by_role("alert").inner_text()
        wait = r"Too many failed logins: try again in \d+ (seconds?|minutes)\."
        assert re.fullmatch(wait, said), said
        # Not logged in: no session cookie, and the workspace asks to log in.
        assert session_cookies(page) == []
        page.goto(WORKSPACE)
        assert page.url == f"{base}/login?next={quote(WORKSPACE)}"
        # The throttle counts failures by name: another user from this address still logs in.
        assert log_in(page, COORDINATOR, PASSWORDS[COORDINATOR]) == 200
        assert page.url == f"{base}{WORKSPACE}"
        assert f"{COORDINATOR} (coordinator)" in page.inner_text("header")

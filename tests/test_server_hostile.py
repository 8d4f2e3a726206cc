"""Hostile visitors of a server with accounts, and mistaken users: what an attacker
tries against the login, the sessions, the CSRF tokens, the directors' limits, the approvals,
the audit trail and its kept files, and what must stay true whatever they send.

Each test states an attack and what the server must do. Attacks already handled are here so
that they stay handled; the others fail until the server is corrected (see the review)."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import shutil
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import httpx
import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.serve import accounts, common
from grandprix.serve.accounts import Policy
from grandprix.serve.app import create_app
from grandprix.serve.journal import Entry, Intent
from grandprix.serve.seasons import seasons_under
from grandprix.serve.security import CSRF_COOKIE, CSRF_FIELD, UnsafeName, safe_name
from grandprix.serve.store import WAITING, Store
from grandprix.writers.cells import FORMULA_STARTS
from test_serve_app import post_streamed
from test_serve_workspace import GOOD, accept, field, upload
from test_server_access import PASSWORDS, ROLES, hashed, log_in

UTAH = ROOT / "examples" / "utah-2012"
KEY = "utah-2012"
BASE = f"/s/{KEY}/workspace"
SECRET = b"s" * 32
ORIGIN = "http://127.0.0.1:8000"


# Fixtures and helpers


def _users(made: Store) -> Store:
    for name, role in ROLES.items():
        made.add_user(name, role, hashed(name))
    made.assign("dan", KEY, "Park City")
    made.assign("dee", KEY, "Moab Open")
    return made


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return Path(shutil.copytree(UTAH, tmp_path / KEY))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """The server's store on SQLite, with the users of the access tests."""
    made = _users(Store(f"sqlite:///{tmp_path / 'hostile.sqlite3'}"))
    yield made
    made.close()


@pytest.fixture
def any_store(database: str) -> Iterator[Store]:
    """The same on SQLite and PostgreSQL, for what differs between them."""
    made = _users(Store(database))
    yield made
    made.close()


def client(seasons: dict[str, Path], store: Store, **options: object) -> TestClient:
    """A browser of the server; an exception in the server is a 500 page, as uvicorn has it."""
    app = create_app(seasons, store=store, secret=SECRET, **options)  # type: ignore[arg-type]
    return TestClient(app, base_url=ORIGIN, raise_server_exceptions=False)


def browser(web: TestClient) -> TestClient:
    """Another browser of the same server (its waiting changes are in the server's memory)."""
    return TestClient(web.app, base_url=ORIGIN, raise_server_exceptions=False)


def logged_in(season: Path, store: Store, name: str, **options: object) -> TestClient:
    web = client({KEY: season}, store, **options)
    assert log_in(web, name).status_code == 303
    return web


def token(web: TestClient, path: str = "/login") -> str:
    return field(web.get(path).text, CSRF_FIELD)


def post_login(web: TestClient, name: str, password: str, next_: str = "/") -> httpx.Response:
    return web.post(
        "/login",
        data={CSRF_FIELD: token(web), "name": name, "password": password, "next": next_},
        follow_redirects=False,
    )


def correct(web: TestClient, choice: str, filename: str, data: bytes = GOOD) -> httpx.Response:
    """The correction form sent with ``choice`` as its ``file`` select value."""
    return web.post(
        f"{BASE}/results",
        data={CSRF_FIELD: token(web, f"{BASE}/results"), "file": choice},
        files={"results": (filename, data, "text/csv")},
    )


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file of a folder, hidden ones (the store, the lock) aside: what a change touches."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def with_approval(season: Path) -> None:
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text().replace("end = 2012-12-31", "end = 2012-12-31\napproval = true")
    )


def rules_preview(web: TestClient) -> httpx.Response:
    """A coordinator's rule change, previewed: it waits under its token."""
    form = web.get(f"{BASE}/rules").text
    table = "[25, 18, 15, 12, 10, 8]"
    return web.post(
        f"{BASE}/rules", data={CSRF_FIELD: field(form, CSRF_FIELD), "points.table": table}
    )


def browser_target(location: str) -> tuple[str, str]:
    """Where a browser goes for a Location header: (scheme, host), both '' for this server.
    Browsers drop tabs and newlines from URLs and read a backslash as a slash."""
    cleaned = "".join(c for c in location if c not in "\t\n\r").replace("\\", "/").strip()
    parts = urlsplit(cleaned)
    return parts.scheme, parts.netloc


# Logging in: redirects, CSRF, cookies


NEXT = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "/\u3000/evil.example",
    "/\uff0f/evil.example",
    "evil.example",
]


def test_the_login_redirect_never_leaves_this_server(season: Path, store: Store) -> None:
    web = client({KEY: season}, store)
    for target in NEXT:
        web.cookies.clear()
        done = post_login(web, "rita", PASSWORDS["rita"], target)
        assert done.status_code == 303, repr(target)
        location = done.headers["location"]
        assert location.startswith("/") and browser_target(location) == ("", ""), repr(target)
        refused = post_login(web, "rita", "wrong-password", target)  # the form shown again
        assert refused.status_code == 401
        assert 'name="next" value="/' in refused.text, repr(target)


def test_the_login_page_reflects_no_markup_from_its_next_parameter(
    season: Path, store: Store
) -> None:
    web = client({KEY: season}, store)
    page = web.get("/login", params={"next": '/"><script>alert(1)</script>'}).text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    shown = post_login(web, "<b>eve</b>", "wrong-password")
    assert shown.status_code == 401 and "<b>eve</b>" not in shown.text


def test_a_visitor_sent_to_the_login_page_comes_back_to_a_path_of_this_server(
    season: Path, store: Store
) -> None:
    web = client({KEY: season}, store)
    for path in (f"{BASE}?x=//evil.example", f"{BASE}/audit?next=https://evil.example"):
        sent = web.get(path, follow_redirects=False)
        assert sent.status_code == 303
        back = httpx.URL(sent.headers["location"]).params["next"]
        assert back.startswith(BASE) and browser_target(back) == ("", "")


def test_logging_out_needs_the_csrf_token(season: Path, store: Store) -> None:
    web = logged_in(season, store, "cora")
    session = web.cookies.get("grandprix_session")
    assert session
    refused = web.post("/logout", data={}, follow_redirects=False)
    assert refused.status_code == 403
    assert store.session_user(session, 1e9, 1e9) is not None  # another site cannot log us out
    assert web.get(BASE).status_code == 200


def test_the_store_keeps_no_usable_session_token(season: Path, store: Store) -> None:
    web = logged_in(season, store, "dan")
    session = web.cookies.get("grandprix_session")
    assert session
    digest = hashlib.sha256(session.encode()).hexdigest()
    other = client({KEY: season}, store)
    for forged in (digest, session + "x", "x" * 101, "' OR '1'='1"):
        other.cookies.set("grandprix_session", forged, domain="127.0.0.1", path="/")
        assert other.get(BASE, follow_redirects=False).status_code == 303, forged


def test_behind_https_the_csrf_cookie_is_secure_and_host_only_too(
    season: Path, store: Store
) -> None:
    """Over plain HTTP, or from a sibling sub-domain, an attacker can set a cookie that is
    neither Secure nor __Host-: a CSRF nonce of their choosing (see the next test)."""
    web = TestClient(
        create_app({KEY: season}, store=store, secret=SECRET, policy=Policy(secure=True)),
        base_url="https://127.0.0.1:8000",
    )
    cookies = web.get("/login").headers.get_list("set-cookie")
    csrf = [c for c in cookies if CSRF_COOKIE in c]
    assert csrf and all("HttpOnly" in c and "SameSite=Strict" in c for c in csrf)
    assert all(c.startswith(f"__Host-{CSRF_COOKIE}=") and "Secure" in c for c in csrf)


def test_a_planted_csrf_nonce_does_not_let_another_origin_send_forms(
    season: Path, store: Store
) -> None:
    """The attacker takes a nonce and its token from a page of their own session and plants
    the nonce in the coordinator's browser (a cookie set by a sibling sub-domain, by another
    server on localhost, or over plain HTTP). The token is bound to nothing else, so a form
    sent from the attacker's page would be taken: the Origin of the form must be checked."""
    cora = logged_in(season, store, "cora")
    attacker = browser(cora)
    their_token = token(attacker)
    their_nonce = attacker.cookies.get(CSRF_COOKIE)
    assert their_nonce
    cora.cookies.delete(CSRF_COOKIE)
    cora.cookies.set(CSRF_COOKIE, their_nonce, domain="127.0.0.1", path="/")
    forged = cora.post(
        f"/s/{KEY}/reload",
        data={CSRF_FIELD: their_token},
        headers={"origin": "http://localhost:3000"},
        follow_redirects=False,
    )
    assert forged.status_code == 403
    own = cora.post(
        f"/s/{KEY}/reload",
        data={CSRF_FIELD: token(cora, BASE)},
        headers={"origin": ORIGIN},
        follow_redirects=False,
    )
    assert own.status_code == 303  # the server's own pages still send their forms


# Logging in: enumeration and throttling


class CountingHasher(PasswordHasher):
    calls = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        CountingHasher.calls += 1
        return super().verify(hash, password)


def test_an_unknown_name_and_a_wrong_password_look_the_same(
    season: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(accounts, "_HASHER", CountingHasher())
    web = client({KEY: season}, store, policy=Policy(tries_per_name=2))
    answers = []
    for name in ("dan", "nobody-here"):
        before = CountingHasher.calls
        got = post_login(web, name, "not-the-password")
        assert CountingHasher.calls == before + 1, name  # a hash is checked either way
        answers.append((got.status_code, got.text.replace(name, "NAME")))
    assert answers[0] == answers[1]
    for name in ("dan", "nobody-here"):  # both are held back after as many failures
        post_login(web, name, "not-the-password")
        assert post_login(web, name, "not-the-password").status_code == 429


def test_variants_of_a_name_are_not_that_account(season: Path, store: Store) -> None:
    web = client({KEY: season}, store, policy=Policy(tries_per_name=2, tries_per_address=1000))
    for variant in ("Dan", "DAN", " dan", "dan ", "dan\u200b", "d\u0430n", "dan" + " " * 200):
        got = post_login(web, variant, PASSWORDS["dan"])
        assert got.status_code == 401 and web.cookies.get("grandprix_session") is None, variant
    for _ in range(2):
        post_login(web, "dan", "not-the-password")
    for variant in ("dan", "Dan", "dan "):  # dan held back: no variant gets in either
        assert post_login(web, variant, PASSWORDS["dan"]).status_code in (401, 429), variant
    assert web.cookies.get("grandprix_session") is None


def test_failures_from_one_address_hold_back_every_name(season: Path, store: Store) -> None:
    web = client({KEY: season}, store, policy=Policy(tries_per_address=4))
    for i in range(4):
        assert post_login(web, f"guess-{i}", "not-the-password").status_code == 401
    assert post_login(web, "rita", PASSWORDS["rita"]).status_code == 429


def test_concurrent_wrong_passwords_are_throttled_as_one_after_another(
    season: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """log_in counts the failures, then checks the password (slow by design), then notes the
    failure: requests sent at once all pass the count. An attacker sending guesses in parallel
    gets as many as the server has threads in each window, not ``tries_per_name``."""
    real = accounts.verify_password

    def slow(stored: str | None, password: str) -> bool:
        time.sleep(0.3)
        return real(stored, password)

    monkeypatch.setattr(accounts, "verify_password", slow)
    web = client({KEY: season}, store, policy=Policy(tries_per_name=3))
    csrf = token(web)
    statuses: list[int] = []
    lock = threading.Lock()

    def guess(i: int) -> None:
        got = web.post(
            "/login",
            data={CSRF_FIELD: csrf, "name": "dan", "password": f"guess-{i:04d}", "next": "/"},
        )
        with lock:
            statuses.append(got.status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(statuses)) <= [401, 429]
    assert statuses.count(401) <= 3, statuses  # passwords actually tried


def test_a_login_name_with_a_nul_character_is_a_wrong_name(season: Path, any_store: Store) -> None:
    """PostgreSQL refuses NUL in text: the failed login cannot be noted (500)."""
    web = client({KEY: season}, any_store)
    got = post_login(web, "da\x00n", PASSWORDS["dan"])
    assert got.status_code == 401 and "Wrong name or password." in got.text


def test_sql_in_names_and_passwords_is_only_text(season: Path, store: Store) -> None:
    web = client({KEY: season}, store)
    for name, password in (
        ("dan' OR '1'='1' --", "x' OR 'x'='x"),
        ("dan", "' OR ''='"),
        ('dan"; DROP TABLE users; --', "x"),
    ):
        assert post_login(web, name, password).status_code == 401
    assert [u.name for u in store.users()] == sorted(ROLES)
    odd = 'O\'Brien "Memorial"; --'
    store.assign("dan", KEY, odd)
    dan = next(u for u in store.users() if u.name == "dan")
    assert odd in store.events_of(dan, KEY) and store.user("x' OR '1'='1") is None


def test_a_huge_login_form_is_refused_before_it_is_read(season: Path, store: Store) -> None:
    web = client({KEY: season}, store, max_upload=10_000)
    csrf = token(web)
    big = web.post("/login", data={CSRF_FIELD: csrf, "name": "dan", "password": "x" * 20_000})
    assert big.status_code == 413
    streamed = post_streamed(web, "/login", f"{CSRF_FIELD}={csrf}&name=dan&password=", 30, 1000)
    assert streamed.status_code == 413


def test_names_that_only_look_like_this_server_are_refused(season: Path, store: Store) -> None:
    web = client({KEY: season}, store, hosts=("chess.example.org",))
    for host in (
        "evil.example",
        "chess.example.org.evil.example",
        "127.0.0.1.evil.example",
        "localhost.evil.example",
        "evil.example:8000",
        "chess.example.org:80@evil",
        "chess-example.org",
        "chessXexample.org",
        "",
    ):
        assert web.get("/login", headers={"host": host}).status_code == 400, host
    assert web.get("/login", headers={"host": "CHESS.example.org:443"}).status_code == 200


# Directors: only their events, only results files


def test_a_crafted_file_choice_names_no_other_event(season: Path, store: Store) -> None:
    dan = logged_in(season, store, "dan")
    before = files_of(season)
    for choice in (
        "Utah Open\t",
        "Utah Class Championships\tClass A",
        "Moab Open\t",
        "Park City\t",
        "Park City\tClass A",
        "Park City",
        "../../etc/passwd\t",
        "Utah Open\t\t",
        "utah open\t",
        "\t",
        "",
    ):
        refused = correct(dan, choice, "utah_open.trf")
        assert refused.status_code in (400, 403), repr(choice)
        assert 'name="token"' not in refused.text, repr(choice)
    for name in ("Utah Open", "Moab Open", "../Park City", "Park City\x00", "park city"):
        refused = upload(dan, GOOD, "park.csv", name)
        assert refused.status_code == 403 and "not one of yours" in refused.text, repr(name)
    assert files_of(season) == before


def test_a_correction_is_written_inside_the_season_folder_only(season: Path, store: Store) -> None:
    dan = logged_in(season, store, "dan")
    assert accept(dan, upload(dan, GOOD, "park.csv").text).status_code == 200
    before = files_of(season)
    outside = season.parent / "evil.csv"
    for name in (
        "../evil.csv",
        "..\\evil.csv",
        "sub/evil.csv",
        "/tmp/evil.csv",
        "C:evil.csv",
        ".grandprix-server.sqlite3",
        ".hidden.csv",
        "season.toml",
        "utah_open.trf",
        "winter_quick.csv",
        "con.csv",
        "evil",
    ):
        refused = correct(dan, "Park City\t", name)
        assert refused.status_code == 400, repr(name)
        assert 'name="token"' not in refused.text, repr(name)
    assert files_of(season) == before and not outside.exists()
    with pytest.raises(UnsafeName):  # a NUL, which the test client cannot send in a file name
        safe_name("evil.csv\x00.trf")


# A file that is both a results file and aliases.csv: the row is a player of the event, and a
# decision of the coordinator's 'names' form (merging or parting players in the whole season).
BOTH = b'name,other,decision,points,rank,id\n"Ellis, Aiden","Nobody, Else",different,5,1,1212\n'


@pytest.mark.parametrize("how", ["new event", "correction"])
def test_a_directors_file_cannot_be_the_seasons_aliases_file(
    season: Path, store: Store, how: str
) -> None:
    """aliases.csv is read by its name alone, and only the coordinator decides names."""
    dan = logged_in(season, store, "dan")
    if how == "new event":
        sent = upload(dan, BOTH, "aliases.csv")
    else:
        assert accept(dan, upload(dan, GOOD, "park.csv").text).status_code == 200
        sent = correct(dan, "Park City\t", "aliases.csv", BOTH)
    if sent.status_code == 200:
        accept(dan, sent.text)
    assert not (season / "aliases.csv").exists()


def test_a_directors_upload_cannot_be_the_seasons_players_file(season: Path, store: Store) -> None:
    """In a season without players.csv, a results file named so becomes the players' registry
    (whose columns decide prize eligibility for every player of the season)."""
    (season / "players.csv").unlink()
    dan = logged_in(season, store, "dan")
    sent = upload(dan, GOOD, "players.csv")
    if sent.status_code == 200:
        accept(dan, sent.text)
    assert not (season / "players.csv").exists()


def test_a_director_keeps_the_coordinators_calendar_of_a_planned_event(
    season: Path, store: Store
) -> None:
    """The coordinator planned the event with its category and prize fund (which choose its
    points tables in some rules); the director's upload gives its results, not new terms."""
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-11-10\n'
        'category = "open"\nprize_fund = 500\nplanned = true\n'
    )
    dan = logged_in(season, store, "dan")
    form = dan.get(f"{BASE}/event").text
    shown = dan.post(
        f"{BASE}/event",
        data={
            CSRF_FIELD: field(form, CSRF_FIELD),
            "name": "Park City",
            "date": "2012-11-10",
            "category": "premier",
            "prize_fund": "99999",
        },
        files={"results": ("park.csv", GOOD, "text/csv")},
    )
    if shown.status_code == 200:
        accept(dan, shown.text)
    [park] = [e for e in tomllib.loads(toml.read_text())["events"] if e["name"] == "Park City"]
    assert park.get("category") == "open" and park.get("prize_fund") == 500


def test_a_director_whose_event_is_taken_back_cannot_accept_its_preview(
    season: Path, store: Store
) -> None:
    dan = logged_in(season, store, "dan")
    shown = upload(dan, GOOD, "park.csv")
    assert shown.status_code == 200
    store.unassign("dan", KEY, "Park City")
    late = accept(dan, shown.text)
    assert late.status_code in (403, 410)
    assert not (season / "park.csv").exists()


def test_a_director_cannot_accept_or_decide_what_is_not_theirs(
    season: Path, store: Store, tmp_path: Path
) -> None:
    other = Path(shutil.copytree(UTAH, tmp_path / "other"))
    seasons = {KEY: season, "other": other}
    cora = client(seasons, store)
    log_in(cora, "cora")
    rules = rules_preview(cora)
    assert rules.status_code == 200
    before = files_of(season)
    dan = browser(cora)
    log_in(dan, "dan")
    stolen = dan.post(
        f"{BASE}/accept", data={CSRF_FIELD: token(dan, BASE), "token": field(rules.text, "token")}
    )
    assert stolen.status_code == 410  # the coordinator's rules change, not dan's
    elsewhere = cora.post(
        "/s/other/workspace/accept",
        data={CSRF_FIELD: token(cora, BASE), "token": field(rules.text, "token")},
    )
    assert elsewhere.status_code == 410  # previewed on another season
    assert files_of(season) == before and files_of(other) == files_of(UTAH)
    ident = store.submit(
        "other", "dee", "event", "Moab Open", {"date": "2012-12-01", "filename": "moab.csv"}, GOOD
    )
    assert cora.get(f"{BASE}/approvals/{ident}").status_code == 404  # another season's
    crossed = cora.post(f"{BASE}/approvals/{ident}/reject", data={CSRF_FIELD: token(cora, BASE)})
    assert crossed.status_code == 409
    refused = dan.post(
        f"/s/other/workspace/approvals/{ident}/reject", data={CSRF_FIELD: token(dan, BASE)}
    )
    assert refused.status_code == 403
    assert [s.status for s in store.submissions("other", None)] == [WAITING]


def test_a_director_cannot_push_out_the_coordinators_waiting_change(
    season: Path, store: Store
) -> None:
    """Previewed changes wait in one list of PENDING_LIMIT for everyone (each with its upload,
    up to the upload limit): one director's previews must not empty it for the others."""
    cora = logged_in(season, store, "cora")
    rules = rules_preview(cora)
    assert rules.status_code == 200
    dan = browser(cora)
    log_in(dan, "dan")
    for _ in range(common.PENDING_LIMIT):
        assert upload(dan, GOOD, "park.csv").status_code == 200
    assert accept(cora, rules.text).status_code == 200


def test_a_symbolic_link_in_the_folder_is_replaced_not_followed(season: Path, store: Store) -> None:
    """A results file that is a link out of the season folder: the season refuses it; a
    correction replaces the link, and neither writes nor keeps the file it pointed to."""
    outside = season.parent / "secret.csv"
    secret = b'rank,name,id,points\n1,"Secret, Person",4242,5\n'
    outside.write_bytes(secret)
    (season / "park.csv").symlink_to(outside)
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-12-15\n'
        'results = "park.csv"\n'
    )
    dan = logged_in(season, store, "dan")
    shown = correct(dan, "Park City\t", "park.csv")
    assert shown.status_code == 200
    assert accept(dan, shown.text).status_code == 200
    assert outside.read_bytes() == secret
    assert not (season / "park.csv").is_symlink() and (season / "park.csv").read_bytes() == GOOD
    assert store.file(hashlib.sha256(secret).hexdigest()) is None  # not read into the store


def test_a_results_path_out_of_the_folder_is_never_written(season: Path, store: Store) -> None:
    outside = season.parent / "outside.csv"
    outside.write_bytes(GOOD)
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-12-15\n'
        'results = "../outside.csv"\n'
    )
    dan = logged_in(season, store, "dan")
    refused = correct(dan, "Park City\t", "outside.csv", GOOD.replace(b"5\n", b"4.5\n"))
    if refused.status_code == 200:
        accept(dan, refused.text)
    assert outside.read_bytes() == GOOD  # a new file of that name inside the folder, at most


# What the pages show


def test_names_from_uploads_and_accounts_are_escaped_on_every_page(
    season: Path, store: Store
) -> None:
    with_approval(season)
    store.add_user("<script>alert(1)</script>", "director", hashed("dan"))
    evil = "<img src=x onerror=alert(1)>.csv"
    dan = logged_in(season, store, "dan")
    assert accept(dan, upload(dan, GOOD, evil).text).status_code == 200
    cora = browser(dan)
    log_in(cora, "cora")
    listed = cora.get(f"{BASE}/approvals").text
    assert "<img src=x" not in listed and "&lt;img src=x onerror=alert(1)&gt;.csv" in listed
    [waiting] = store.submissions(KEY)
    review = cora.get(f"{BASE}/approvals/{waiting.id}").text
    assert accept(cora, review).status_code == 200
    trail = cora.get(f"{BASE}/audit").text
    assert "<img src=x" not in trail and "&lt;img src=x onerror=alert(1)&gt;.csv" in trail
    eve = browser(dan)
    assert log_in(eve, "<script>alert(1)</script>", PASSWORDS["dan"]).status_code == 303
    refused = eve.get(f"{BASE}/audit")
    assert refused.status_code == 403 and "<script>" not in refused.text


def test_anonymous_visitors_of_a_public_server_do_not_see_its_folders(
    season: Path, store: Store, tmp_path: Path
) -> None:
    """The season list and a broken season's page tell anyone where the seasons are on the
    server's disk (and quote the broken files)."""
    other = Path(shutil.copytree(UTAH, tmp_path / "other"))
    (other / "winter_quick.csv").write_text("rank,name,points\n1,Someone,lots\n")
    anonymous = client({KEY: season, "other": other}, store)
    assert str(tmp_path) not in anonymous.get("/").text
    broken = anonymous.get("/s/other/")
    assert broken.status_code == 200 and str(tmp_path) not in broken.text


# The audit trail: CSV and kept files


def test_the_audit_csv_has_no_formula_cells(season: Path, store: Store) -> None:
    """Player names come from directors' files, file names from their uploads: a cell that
    begins with = + - @ is a formula in the coordinator's spreadsheet (writers/cells.py)."""
    store.add_user("@SUM(1+1)", "coordinator", hashed("cora"))
    player = '=HYPERLINK("http://evil.example/","click")'
    moves = [
        {
            "table": "",
            "player": player,
            "rank_before": "",
            "rank_after": "1",
            "points_before": "",
            "points_after": "21",
        }
    ]
    store.settle(
        Intent("f1", {"+cmd.csv": b"x"}, {}, Entry(KEY, "@SUM(1+1)", "event", "-2+3", moves))
    )
    dan = logged_in(season, store, "dan")
    evil = "=2+5+cmd|' -C calc'!A0.csv"
    assert accept(dan, upload(dan, GOOD, evil).text).status_code == 200
    cora = browser(dan)
    log_in(cora, "cora")
    got = cora.get(f"{BASE}/audit.csv")
    assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(got.text)))
    cells = [cell for row in rows[1:] for cell in row]
    assert any(evil in cell for cell in cells) and any(player in cell for cell in cells)
    assert [c for c in cells if c.startswith(FORMULA_STARTS)] == []


def test_a_kept_file_is_an_attachment_under_a_plain_name(season: Path, store: Store) -> None:
    cora = logged_in(season, store, "cora")
    name = "a\";b=c; filename*=UTF-8''x.html.csv"
    assert accept(cora, upload(cora, GOOD, name, "Quoted").text).status_code == 200
    [written] = [f for f in store.audit(KEY)[0].files if f["name"] != "season.toml"]
    kept = cora.get(f"{BASE}/files/{written['sha256']}")
    assert kept.status_code == 200 and kept.content == GOOD
    disposition = kept.headers["content-disposition"]
    assert disposition.count('"') == 2 and disposition.startswith('attachment; filename="')
    assert "filename*" not in disposition and ";" not in disposition.split('filename="')[1]
    assert kept.headers["content-type"] == "application/octet-stream"
    assert kept.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in kept.headers["content-security-policy"]


def test_a_kept_file_with_a_name_beyond_latin_1_is_served(season: Path, store: Store) -> None:
    """Its name made plain keeps letters that a Latin-1 header cannot carry: a 500."""
    cora = logged_in(season, store, "cora")
    assert accept(cora, upload(cora, GOOD, "東京-結果.csv", "Tokyo").text).status_code == 200
    [written] = [f for f in store.audit(KEY)[0].files if f["name"] != "season.toml"]
    kept = cora.get(f"{BASE}/files/{written['sha256']}")
    assert kept.status_code == 200 and kept.content == GOOD
    assert kept.headers["content-disposition"].isascii()


def test_only_files_named_by_this_seasons_trail_are_served(
    season: Path, store: Store, tmp_path: Path
) -> None:
    other = Path(shutil.copytree(UTAH, tmp_path / "other"))
    secret = b"another season's file\n"
    store.settle(Intent("s1", {"x.csv": secret}, {}, Entry("other", "cora", "event", "x")))
    store.keep(b"kept but named by no trail\n")
    digest = hashlib.sha256(secret).hexdigest()
    cora = client({KEY: season, "other": other}, store)
    log_in(cora, "cora")
    assert cora.get(f"/s/other/workspace/files/{digest}").content == secret
    unnamed = hashlib.sha256(b"kept but named by no trail\n").hexdigest()
    for asked in (
        digest,
        digest.upper(),
        unnamed,
        "' OR 1=1 --",
        "0" * 5000,
        f"{digest}%00",
        f"{digest} ",
    ):
        got = cora.get(f"{BASE}/files/{asked}")
        assert got.status_code == 404 and secret not in got.content, asked[:70]


# Audit trail completeness and the seasons a server holds


def test_a_change_written_is_always_in_the_audit_trail(season: Path, any_store: Store) -> None:
    """A NUL in an event's name: the file is written, then PostgreSQL refuses the audit
    entry (500): a change that nobody answers for."""
    cora = logged_in(season, any_store, "cora")
    shown = upload(cora, GOOD, "zero.csv", "Park\x00City")
    if shown.status_code == 200 and 'name="token"' in shown.text:
        accept(cora, shown.text)
    assert (season / "zero.csv").exists() == bool(any_store.audit(KEY))


def test_a_new_season_cannot_take_the_key_of_a_season_served(store: Store, tmp_path: Path) -> None:
    """A season under the root whose folder name is not a plain key is served under its slug;
    a new season in a folder of that slug took its key (its audit trail, its directors' events)
    and the first could no longer be reached."""
    root = tmp_path / "root"
    root.mkdir()
    shutil.copytree(UTAH, root / "Utah 2012")
    served = seasons_under(root)
    assert list(served) == [KEY]
    cora = client(served, store, root=str(root))
    log_in(cora, "cora")
    form = cora.get("/new").text
    made = cora.post(
        "/new",
        data={
            CSRF_FIELD: field(form, CSRF_FIELD),
            "name": "Clash",
            "folder": KEY,
            "preset": "acf-2004",
            "like": "",
        },
        follow_redirects=False,
    )
    assert made.status_code == 400
    assert "Utah Chess Grand Prix 2012" in cora.get(f"/s/{KEY}/").text
    assert sorted(os.listdir(root)) == ["Utah 2012"]

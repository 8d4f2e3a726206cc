"""A server with accounts over HTTP, on SQLite and PostgreSQL: every route of the
route table refused without login or with the wrong role; logins (session fixation, cookies,
CSRF, throttling, expiry); directors limited to their events; approval; the audit trail, with
every replaced file kept; concurrent uploads to one season."""

from __future__ import annotations

import csv
import functools
import io
import re
import shutil
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.routing import Route
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.cli import main
from grandprix.serve.accounts import NEEDED, OPEN, READ, Policy, hash_password
from grandprix.serve.app import create_app
from grandprix.serve.security import CSRF_FIELD
from grandprix.serve.store import Store
from test_serve_workspace import GOOD, accept, field
from test_serve_workspace import upload as upload_as

UTAH = ROOT / "examples" / "utah-2012"
KEY = "utah-2012"
BASE = f"/s/{KEY}/workspace"
PASSWORDS = {
    "cora": "coordinator-pw",
    "dan": "director-pw1",
    "dee": "director-pw2",
    "rita": "reader-pw-12",
}
ROLES = {"cora": "coordinator", "dan": "director", "dee": "director", "rita": "reader"}


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return Path(shutil.copytree(UTAH, tmp_path / KEY))


@functools.cache
def hashed(name: str) -> str:
    return hash_password(PASSWORDS[name])  # Argon2 is slow by design: once per password


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    made = Store(database)
    for name, role in ROLES.items():
        made.add_user(name, role, hashed(name))
    made.assign("dan", KEY, "Park City")
    made.assign("dee", KEY, "Moab Open")
    yield made
    made.close()


def client(season: Path, store: Store, **options: object) -> TestClient:
    app = create_app({KEY: season}, store=store, secret=b"s" * 32, **options)  # type: ignore[arg-type]
    return TestClient(app, base_url="http://127.0.0.1:8000")


def log_in(web: TestClient, name: str, password: str | None = None) -> httpx.Response:
    page = web.get("/login").text
    return web.post(
        "/login",
        data={
            CSRF_FIELD: field(page, CSRF_FIELD),
            "name": name,
            "password": password if password is not None else PASSWORDS[name],
            "next": "/",
        },
        follow_redirects=False,
    )


def upload(web: TestClient, name: str, filename: str = "park.csv") -> httpx.Response:
    return upload_as(web, GOOD, filename, name)


# Every route of the route table, for every kind of visitor.

SAMPLE = {
    "{season}": KEY,
    "{path:path}": "index.html",
    "{ident:int}": "1",
    "{event:int}": "1",
    "{section:int}": "1",
    "{digest:str}": "0" * 64,
}


def concrete(path: str) -> str:
    for pattern, value in SAMPLE.items():
        path = path.replace(pattern, value)
    assert "{" not in path, f"add a sample value for {path}"
    return path


@pytest.mark.parametrize("visitor", [None, "rita", "dan", "cora"])
def test_every_route_refuses_a_visitor_without_its_role(
    season: Path, store: Store, visitor: str | None
) -> None:
    """Generated from the app's route table: a route added later is checked as well."""
    web = client(season, store)
    if visitor:
        assert log_in(web, visitor).status_code == 303
    rank = {None: 0, "rita": 1, "dan": 2, "cora": 3}[visitor]
    routes = [r for r in web.app.routes if isinstance(r, Route)]  # type: ignore[attr-defined]
    assert len(routes) >= 25
    for route in routes:
        access = getattr(route.endpoint, "access")  # noqa: B009 (set by accounts.allow)
        allowed = access in (OPEN, READ) or rank >= NEEDED[access]
        for method in sorted((route.methods or set()) - {"HEAD"}):
            path = concrete(route.path)
            got = web.request(
                method, path, data={"x": "1"} if method == "POST" else None, follow_redirects=False
            )
            where = f"{method} {path} ({access}) as {visitor}"
            if allowed:
                assert got.status_code not in (401,) and "Not allowed" not in got.text, where
                if method == "POST":  # reached: only the missing CSRF token stops it
                    assert got.status_code == 403 and "Form refused" in got.text, where
            elif visitor is None and method == "GET":
                assert got.status_code == 303, where
                assert got.headers["location"].startswith("/login?next="), where
            elif visitor is None:
                assert got.status_code == 401, where
            else:
                assert got.status_code == 403 and "Not allowed" in got.text, where


def test_a_private_server_shows_its_pages_only_after_a_login(season: Path, store: Store) -> None:
    web = client(season, store, private=True)
    refused = web.get(f"/s/{KEY}/", follow_redirects=False)
    assert refused.status_code == 303 and refused.headers["location"] == f"/login?next=/s/{KEY}/"
    assert web.get("/style.css").status_code == 200  # the login page's style
    log_in(web, "rita")
    assert web.get(f"/s/{KEY}/").status_code == 200
    open_server = client(season, store)
    assert open_server.get(f"/s/{KEY}/").status_code == 200


def test_a_route_without_a_declared_access_is_refused(
    season: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandprix.serve import app as app_module

    async def page(request: object) -> None:
        return None

    monkeypatch.setattr(app_module, "_root_routes", lambda: [Route("/forgotten", page)])
    with pytest.raises(ValueError, match=r"without a declared access.*forgotten"):
        create_app({KEY: season}, store=store)


# Logging in


def test_a_login_always_starts_a_new_session(season: Path, store: Store) -> None:
    web = client(season, store)
    web.cookies.set("grandprix_session", "chosen-by-an-attacker", domain="127.0.0.1", path="/")
    done = log_in(web, "dan")
    token = web.cookies.get("grandprix_session")
    assert done.status_code == 303 and token and token != "chosen-by-an-attacker"
    cookie = done.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie
    assert web.get(BASE).status_code == 200
    log_in(web, "cora")  # the same browser, another login: dan's session has ended
    assert store.session_user(token, 1e9, 1e9) is None
    other = client(season, store)
    other.cookies.set("grandprix_session", token, domain="127.0.0.1", path="/")
    assert other.get(BASE, follow_redirects=False).status_code == 303


def test_behind_https_the_session_cookie_is_secure_and_host_only(
    season: Path, store: Store
) -> None:
    web = client(season, store, policy=Policy(secure=True))
    web.base_url = httpx.URL("https://127.0.0.1:8000")  # Secure cookies go over HTTPS only
    cookie = log_in(web, "dan").headers["set-cookie"]
    assert cookie.startswith("__Host-grandprix_session=") and "Secure" in cookie


def test_logging_out_ends_the_session(season: Path, store: Store) -> None:
    web = client(season, store)
    log_in(web, "dan")
    token = web.cookies.get("grandprix_session")
    assert token
    page = web.get(BASE).text
    assert "dan (director)" in page
    web.post("/logout", data={CSRF_FIELD: field(page, CSRF_FIELD)})
    assert store.session_user(token, 1e9, 1e9) is None
    assert web.get(BASE, follow_redirects=False).status_code == 303


def test_forms_without_the_csrf_token_are_refused_logins_too(season: Path, store: Store) -> None:
    web = client(season, store)
    refused = web.post("/login", data={"name": "dan", "password": PASSWORDS["dan"]})
    assert refused.status_code == 403 and "Form refused" in refused.text
    assert web.cookies.get("grandprix_session") is None
    log_in(web, "cora")
    forged = web.post(f"/s/{KEY}/reload", data={CSRF_FIELD: "0" * 64})
    assert forged.status_code == 403


def test_wrong_passwords_are_throttled(season: Path, store: Store) -> None:
    web = client(season, store, policy=Policy(tries_per_name=3))
    for _ in range(3):
        wrong = log_in(web, "dan", "not-the-password")
        assert wrong.status_code == 401 and "Wrong name or password." in wrong.text
    refused = log_in(web, "dan")
    assert refused.status_code == 429 and "Too many failed logins" in refused.text
    assert web.cookies.get("grandprix_session") is None
    assert log_in(web, "cora").status_code == 303  # another name is not held back


def test_an_expired_session_asks_for_a_login_again(season: Path, store: Store) -> None:
    web = client(season, store, policy=Policy(idle=600, longest=3600))
    log_in(web, "dan")
    assert web.get(BASE).status_code == 200
    store.clock = lambda: time.time() + 601  # ten minutes and a second later
    gone = web.get(BASE, follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"] == f"/login?next={BASE}"
    page = web.get("/login").text  # a form sent after the session ended: refused
    assert web.post(f"{BASE}/accept", data={CSRF_FIELD: field(page, CSRF_FIELD)}).status_code == 401


# Directors


def test_a_director_adds_only_their_events_and_cannot_change_the_rules(
    season: Path, store: Store
) -> None:
    web = client(season, store)
    log_in(web, "dan")
    form = web.get(f"{BASE}/event").text
    assert "<option>Park City</option>" in form and "Moab Open" not in form
    refused = upload(web, "Moab Open")
    assert refused.status_code == 403 and "not one of yours" in refused.text
    assert web.get(f"{BASE}/rules").status_code == 403
    assert web.get(f"{BASE}/names").status_code == 403
    shown = upload(web, "Park City")
    assert shown.status_code == 200 and "Accept: write it" in shown.text
    assert accept(web, shown.text).status_code == 200
    assert (season / "park.csv").read_bytes() == GOOD
    dee = TestClient(web.app, base_url="http://127.0.0.1:8000")  # the same server
    log_in(dee, "dee")
    assert "park.csv" not in dee.get(f"{BASE}/results").text  # not dee's event
    token = {CSRF_FIELD: field(dee.get(BASE).text, CSRF_FIELD), "token": field(shown.text, "token")}
    stolen = dee.post(f"{BASE}/accept", data=token)
    assert stolen.status_code == 410  # another user's waiting change


def test_corrected_results_replace_the_file_and_the_earlier_one_is_kept(
    season: Path, store: Store
) -> None:
    web = client(season, store)
    log_in(web, "dan")
    accept(web, upload(web, "Park City").text)
    form = web.get(f"{BASE}/results").text
    assert "Park City (park.csv)" in form
    corrected = GOOD.replace(b"1219,4", b"1219,4.5")
    shown = web.post(
        f"{BASE}/results",
        data={CSRF_FIELD: field(form, CSRF_FIELD), "file": "Park City\t"},
        files={"results": ("park.csv", corrected, "text/csv")},
    )
    assert shown.status_code == 200 and "park.csv replaced" in shown.text
    assert accept(web, shown.text).status_code == 200
    assert (season / "park.csv").read_bytes() == corrected
    latest = store.audit(KEY)[0]
    assert latest.user_name == "dan" and latest.action == "results"
    [written] = latest.files
    assert store.file(written["replaced"]) == GOOD  # the earlier file, never lost
    cora = client(season, store)
    log_in(cora, "cora")
    kept = cora.get(f"{BASE}/files/{written['replaced']}")
    assert kept.status_code == 200 and kept.content == GOOD
    assert 'filename="replaced-park.csv"' in kept.headers["content-disposition"]
    assert cora.get(f"{BASE}/files/{'1' * 64}").status_code == 404


def test_with_approval_an_upload_waits_for_the_coordinator(season: Path, store: Store) -> None:
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text().replace("end = 2012-12-31", "end = 2012-12-31\napproval = true")
    )
    dan = client(season, store)
    log_in(dan, "dan")
    shown = upload(dan, "Park City")
    assert "Send for approval" in shown.text and "Who moves" in shown.text
    sent = accept(dan, shown.text)
    assert sent.status_code == 200 and "Sent for approval" in sent.text
    assert not (season / "park.csv").exists()
    cora = client(season, store)
    log_in(cora, "cora")
    listed = cora.get(f"{BASE}/approvals").text
    ident = re.search(rf"{BASE}/approvals/(\d+)", listed)
    assert ident and "Park City" in listed and "dan" in listed
    review = cora.get(f"{BASE}/approvals/{ident.group(1)}").text
    assert "Approve: write it" in review and "Sent by dan" in review
    assert accept(cora, review).status_code == 200
    assert (season / "park.csv").read_bytes() == GOOD
    events = [e["name"] for e in tomllib.loads(toml.read_text())["events"]]
    assert events.count("Park City") == 1
    assert "Nothing waits" in cora.get(f"{BASE}/approvals").text
    entry = store.audit(KEY)[0]
    assert entry.user_name == "cora" and "sent by dan, approved" in entry.what
    assert any(m["player"] == "Ellis, Aiden" for m in entry.moves)
    # A second upload, rejected: nothing written, the decision in the trail.
    dan.cookies.clear()
    log_in(dan, "dan")
    store.assign("dan", KEY, "Vernal Open")
    vernal = GOOD.replace(b",4\n", b",3.5\n")  # its own results, not a copy of Park City's
    accept(dan, upload_as(dan, vernal, "vernal.csv", "Vernal Open").text)
    [waiting] = store.submissions(KEY)
    page = cora.get(f"{BASE}/approvals/{waiting.id}").text
    assert (
        cora.post(
            f"{BASE}/approvals/{waiting.id}/reject", data={CSRF_FIELD: field(page, CSRF_FIELD)}
        ).status_code
        == 200
    )
    assert not (season / "vernal.csv").exists()
    assert store.audit(KEY)[0].action == "reject"


def test_the_audit_trail_as_a_page_and_as_csv(season: Path, store: Store) -> None:
    web = client(season, store)
    log_in(web, "cora")
    accept(web, upload(web, "Park City").text)
    page = web.get(f"{BASE}/audit").text
    assert "cora · event" in page and "park.csv" in page and "Ellis, Aiden" in page
    got = web.get(f"{BASE}/audit.csv")
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert got.headers["content-type"].startswith("text/csv")
    assert {r["file"] for r in rows} == {"park.csv", "season.toml"}
    park = next(r for r in rows if r["file"] == "park.csv")
    assert (
        park["user"] == "cora" and park["bytes"] == str(len(GOOD)) and park["replaced sha256"] == ""
    )
    assert "Ellis, Aiden: 46.82 -> 67.82" in park["standings changes"]


def test_concurrent_uploads_to_one_season_all_land_or_are_refused(
    season: Path, store: Store
) -> None:
    names = [f"Event {i}" for i in range(6)]
    for name in names:
        store.assign("dan", KEY, name)
    web = client(season, store)
    log_in(web, "dan")
    previews = [upload(web, n, filename=f"e{i}.csv").text for i, n in enumerate(names)]
    statuses: list[int] = []
    lock = threading.Lock()

    def send(preview: str) -> None:
        got = accept(web, preview).status_code
        with lock:
            statuses.append(got)

    threads = [threading.Thread(target=send, args=(p,)) for p in previews]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    landed = statuses.count(200)
    assert landed >= 1 and sorted(set(statuses)) <= [200, 409]
    listed = [e["name"] for e in tomllib.loads((season / "season.toml").read_text())["events"]]
    written = [n for i, n in enumerate(names) if (season / f"e{i}.csv").exists()]
    assert sorted(n for n in listed if n in names) == sorted(written)
    assert len(written) == landed == len(store.audit(KEY))


# The command line


def test_users_from_the_command_line(season: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"

    def run(*args: str, stdin: str | None = None) -> str:
        result = runner.invoke(main, ["users", *args, "--database", url], input=stdin)
        assert result.exit_code == 0, result.output
        return result.output

    run(
        "add",
        str(season),
        "cora",
        "--role",
        "coordinator",
        "--password-stdin",
        stdin="coordinator-pw\n",
    )
    run("add", str(season), "dan", "--role", "director", stdin="director-pw1\ndirector-pw1\n")
    run("assign", str(season), "dan", "--season", KEY, "--event", "Park City")
    listed = run("list", str(season))
    assert "cora\tcoordinator\t" in listed and "dan\tdirector\tutah-2012: Park City" in listed
    bad = runner.invoke(
        main, ["users", "add", str(season), "eve", "--role", "admin", "--database", url]
    )
    assert bad.exit_code == 2 and "admin" in bad.output
    asked = ["users", "add", str(season), "eve", "--role", "reader", "--password-stdin"]
    short = runner.invoke(main, [*asked, "--database", url], input="short\n")
    assert short.exit_code != 0 and "at least 10 characters" in short.output
    run("password", str(season), "dan", "--password-stdin", stdin="another-password\n")
    store = Store(url)
    found = store.user("dan")
    assert found is not None and found[1].startswith("$argon2id$")
    run("remove", str(season), "dan")
    assert [u.name for u in store.users()] == ["cora"]
    default = runner.invoke(main, ["users", "list", str(season)])
    assert default.exit_code == 0 and (season / ".grandprix-server.sqlite3").exists()


def test_a_server_with_accounts_may_listen_beyond_this_machine(
    season: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    started: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    runner = CliRunner()
    refused = runner.invoke(main, ["serve", str(season), "--private"])
    assert refused.exit_code == 2 and "need accounts" in refused.output
    added = runner.invoke(
        main,
        ["users", "add", str(season), "cora", "--role", "coordinator", "--password-stdin"],
        input="coordinator-pw\n",
    )
    assert added.exit_code == 0, added.output
    served = runner.invoke(
        main,
        [
            "serve",
            str(season),
            "--host",
            "0.0.0.0",
            "--allowed-host",
            "chess.example.org",
            "--https",
            "--private",
        ],
    )
    assert served.exit_code == 0, served.output
    assert started == [
        {
            "host": "0.0.0.0",
            "port": 8000,
            "log_level": "warning",
            "proxy_headers": True,
            "forwarded_allow_ips": "127.0.0.1,::1",
        }
    ]
    assert "accounts: log in at /login" in served.output


def test_the_names_the_server_answers_to(season: Path, store: Store) -> None:
    plain = client(season, store)
    named = client(season, store, hosts=("chess.example.org",))
    for web, answers in ((plain, False), (named, True)):
        got = web.get(f"/s/{KEY}/", headers={"host": "chess.example.org"})
        assert (got.status_code == 200) is answers
        assert web.get(f"/s/{KEY}/", headers={"host": "evil.example.com"}).status_code == 400
        assert web.get(f"/s/{KEY}/", headers={"host": "localhost:8000"}).status_code == 200

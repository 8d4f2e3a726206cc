"""``grandprix serve``: the served pages are the static site's, the folder stays the source of
truth, and the server's guards (CSRF, Host, body limit, headers, uploaded names) hold."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import shutil
import time
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.routing import Route
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.cli import main
from grandprix.serve import app as app_module
from grandprix.serve.app import create_app
from grandprix.serve.seasons import seasons_under
from grandprix.serve.security import CSRF_COOKIE, CSRF_FIELD, Csrf, UnsafeName, safe_name
from grandprix.site.build import build_site
from seasons import event, load, standings_csv, write_season
from serving import serving

UTAH = ROOT / "examples" / "utah-2012"
LOCAL = "http://127.0.0.1:8000"
SECRET = b"s" * 32


def client(seasons: dict[str, Path], **options: object) -> TestClient:
    app = create_app(seasons, secret=SECRET, **options)  # type: ignore[arg-type]
    return TestClient(app, base_url=LOCAL)


@pytest.fixture
def utah(tmp_path: Path) -> Path:
    """A copy of the example season, free to edit."""
    return Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))


def token(web: TestClient, season: str = "utah-2012") -> str:
    """The CSRF token of the workspace page's reload form."""
    page = web.get(f"/s/{season}/workspace")
    assert page.status_code == 200
    found = re.search(rf'name="{CSRF_FIELD}" value="([0-9a-f]+)"', page.text)
    assert found, page.text
    return found.group(1)


# The pages.


def sheets(data: bytes) -> dict[str, bytes]:
    """A workbook's members but its time stamps (openpyxl writes the time of writing)."""
    with zipfile.ZipFile(BytesIO(data)) as book:
        return {i.filename: book.read(i) for i in book.infolist() if "core.xml" not in i.filename}


def test_every_page_served_is_the_static_sites_file_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(load(UTAH), out)
    web = client({"utah-2012": UTAH})
    files = [p for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".grandprix-site"]
    assert len(files) > 40
    for path in files:
        rel = path.relative_to(out).as_posix()
        served = web.get(f"/s/utah-2012/{rel}")
        assert served.status_code == 200, rel
        if rel.endswith(".xlsx"):
            assert sheets(served.content) == sheets(path.read_bytes())
        else:
            assert served.content == path.read_bytes(), rel
    assert web.get("/s/utah-2012/").content == (out / "index.html").read_bytes()
    assert web.get("/s/utah-2012/players/nobody.html").status_code == 404
    assert web.get("/s/nowhere/index.html").status_code == 404


def same_as_built(web: TestClient, key: str, folder: Path, out: Path) -> int:
    """Every file of the site built afresh from ``folder`` is served byte for byte (the
    workbook but its time stamps); the number of files compared."""
    build_site(load(folder), out)
    files = [p for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".grandprix-site"]
    for path in files:
        rel = path.relative_to(out).as_posix()
        served = web.get(f"/s/{key}/{rel}")
        assert served.status_code == 200, rel
        if rel.endswith(".xlsx"):
            assert sheets(served.content) == sheets(path.read_bytes()), rel
        else:
            assert served.content == path.read_bytes(), rel
    return len(files)


def test_a_snapshot_derived_after_each_change_serves_what_a_fresh_build_writes(
    utah: Path, tmp_path: Path
) -> None:
    """Changes one after another (an event on a new date, one on the latest date, a correction
    of an earlier event, players.csv edited): the server derives each new snapshot from the one
    before (its history, its awards), and every file it serves is what a site built afresh from
    the folder holds."""
    from grandprix.serve import seasons

    source = seasons.SeasonSource(utah)
    web = client({"utah-2012": utah})
    web.app.state.served.seasons["utah-2012"] = source  # type: ignore[attr-defined]
    source.refresh()
    toml = utah / "season.toml"
    rows = 'rank,name,id,points\n1,"Walsh, Milo",1214,4\n2,"Baird, Alma",1205,3\n'
    steps = [
        (
            "late.csv",
            rows,
            '\n[[events]]\nname = "Late Open"\ndate = 2012-12-20\nresults = "late.csv"\n',
        ),
        (
            "later.csv",
            rows.replace(",4\n", ",2\n"),
            '\n[[events]]\nname = "Same Day"\ndate = 2012-12-20\nresults = "later.csv"\n',
        ),
        ("winter_quick.csv", None, ""),
        ("players.csv", None, ""),
    ]
    compared = 0
    for n, (name, data, entry) in enumerate(steps):
        before = source.served
        path = utah / name
        if data is None:  # an earlier file edited, or a player's region
            text = path.read_text(encoding="utf-8")
            if name == "players.csv":
                text = text.replace(",UT,", ",NV,", 1)
            else:  # the first two eligible players exchange their places (names and ids)
                table = list(csv.reader(io.StringIO(text)))
                local = (utah / "players.csv").read_text(encoding="utf-8")
                a, b = [k for k, row in enumerate(table) if f'{row[2]},"{row[1]}",UT' in local][:2]
                table[a][1:3], table[b][1:3] = table[b][1:3], table[a][1:3]
                out = io.StringIO()
                csv.writer(out, lineterminator="\n").writerows(table)
                text = out.getvalue()
            path.write_text(text, encoding="utf-8")
        else:
            path.write_text(data, encoding="utf-8")
            toml.write_text(toml.read_text(encoding="utf-8") + entry, encoding="utf-8")
        now = source.refresh()
        assert now is not before and now.views is not None, now.problems
        compared += same_as_built(web, "utah-2012", utah, tmp_path / f"site{n}")
    assert compared > 4 * 40


def test_each_season_is_read_as_the_server_starts(utah: Path) -> None:
    """The first reader does not wait for the season to be read: the server reads it as it
    starts."""
    with client({"utah-2012": utah}) as web:
        source = web.app.state.served.seasons["utah-2012"]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 20
        while source.served is None:
            assert time.monotonic() < deadline, "the season was not read at the start"
            time.sleep(0.02)
        assert source.served.views is not None
        assert web.get("/s/utah-2012/").headers["etag"] == source.served.etag


def test_one_season_redirects_and_several_are_listed(tmp_path: Path, utah: Path) -> None:
    web = client({"utah-2012": utah})
    home = web.get("/", follow_redirects=False)
    assert home.status_code == 303 and home.headers["location"] == "/s/utah-2012/"
    shutil.copytree(ROOT / "examples" / "acf-2004", tmp_path / "acf-2004")
    (tmp_path / "notes").mkdir()  # no season.toml: not a season
    seasons = seasons_under(tmp_path)
    assert list(seasons) == ["acf-2004", "utah-2012"]
    listing = client(seasons).get("/")
    assert listing.status_code == 200
    assert 'href="/s/acf-2004/"' in listing.text and 'href="/s/utah-2012/"' in listing.text


def test_a_results_file_edited_by_hand_is_seen_by_its_contents(utah: Path) -> None:
    """An edit that keeps the file's size and modification time is seen all the same, within
    a moment; until then the season as it was is served, whole, without waiting."""
    web = client({"utah-2012": utah})
    page = "/s/utah-2012/players/1214.html"  # Walsh, Milo
    assert "Salt Lake Winter Quick" in web.get(page).text
    results = utah / "winter_quick.csv"
    was = results.stat()
    text = results.read_text()
    results.write_text(text.replace('"Walsh, Milo",1214,', '"Walsh, Milo",1299,'))
    os.utime(results, ns=(was.st_atime_ns, was.st_mtime_ns))
    assert results.stat().st_size == was.st_size
    deadline = time.monotonic() + 20
    while "Salt Lake Winter Quick" in web.get(page).text:
        assert time.monotonic() < deadline, "the edit was not seen"
        time.sleep(0.05)
    assert "Salt Lake Winter Quick" not in web.get(page).text  # and stays so


def test_readers_are_served_the_earlier_season_while_a_change_is_read(
    utah: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the folder is read again (here held up on purpose), requests are answered at once
    from the season as it was; then the new one is served."""
    import threading

    from grandprix.serve import seasons

    web = client({"utah-2012": utah})
    before = web.get("/s/utah-2012/")
    reading, go_on = threading.Event(), threading.Event()
    real = seasons._load

    def slow(folder: Path, version: str, *earlier: object) -> seasons.Loaded:
        reading.set()
        assert go_on.wait(20)
        return real(folder, version, *earlier)  # type: ignore[arg-type]

    monkeypatch.setattr(seasons, "_load", slow)
    (utah / "notes.txt").write_text("a change by hand\n", encoding="utf-8")
    time.sleep(seasons.CHECK_SECONDS)
    web.get("/s/utah-2012/rules.html")  # starts the look at the folder
    assert reading.wait(20)
    started = time.monotonic()
    for _ in range(5):
        again = web.get("/s/utah-2012/")
        assert again.status_code == 200 and again.content == before.content
        assert again.headers["etag"] == before.headers["etag"]
    assert time.monotonic() - started < 5
    go_on.set()
    deadline = time.monotonic() + 20
    while web.get("/s/utah-2012/").headers["etag"] == before.headers["etag"]:
        assert time.monotonic() < deadline, "the new season was not served"
        time.sleep(0.05)


def test_pages_answer_304_to_the_tag_or_time_the_reader_has(utah: Path) -> None:
    web = client({"utah-2012": utah})
    first = web.get("/s/utah-2012/players/1214.html")
    tag, modified = first.headers["etag"], first.headers["last-modified"]
    assert first.status_code == 200 and tag and modified
    for headers in (
        {"if-none-match": tag},
        {"if-none-match": f'"x", {tag}'},
        {"if-modified-since": modified},
    ):
        again = web.get("/s/utah-2012/players/1214.html", headers=headers)
        assert again.status_code == 304 and again.content == b"", headers
        assert again.headers["etag"] == tag
    for headers in (
        {"if-none-match": '"another"'},
        {"if-modified-since": "Mon, 01 Jan 2001 00:00:00 GMT"},
    ):
        assert web.get("/s/utah-2012/players/1214.html", headers=headers).status_code == 200
    for path in ("standings.csv", "players.js", "downloads.html"):
        served = web.get(f"/s/utah-2012/{path}")
        assert served.status_code == 200 and served.headers["etag"] == tag
        assert web.get(f"/s/utah-2012/{path}", headers={"if-none-match": tag}).status_code == 304


def test_an_unchanged_folder_is_not_read_again(utah: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from grandprix.serve import seasons

    monkeypatch.setattr(seasons, "CHECK_SECONDS", 0.0)
    web = client({"utah-2012": utah})
    web.get("/s/utah-2012/")
    reads: list[Path] = []
    monkeypatch.setattr(seasons, "_load", lambda f, *rest: reads.append(f))
    os.utime(utah / "winter_quick.csv")  # touched: the same contents
    for _ in range(3):
        assert web.get("/s/utah-2012/rules.html").status_code == 200
        time.sleep(0.1)
    assert reads == []


def test_a_season_with_errors_shows_them_located_and_escaped(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path / "bad",
        'name = "Bad"\nstart = 2012-01-01\nend = 2012-12-31\nrules = "utah-2012"\n\n'
        + event("Open", "<script>alert(1)</script>.csv"),
        {},
    )
    web = client({"bad": folder})
    page = web.get("/s/bad/")
    assert page.status_code == 200
    assert "season.toml:" in page.text  # located, as 'grandprix check' prints it
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.csv" in page.text
    assert "<script>alert" not in page.text
    assert web.get("/s/bad/rules.html").status_code == 200
    assert web.get("/s/bad/standings.csv").status_code == 404


def test_html_in_the_season_and_player_names_is_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    folder = write_season(
        tmp_path / "evil",
        f'name = "{evil} GP"\nstart = 2012-01-01\nend = 2012-12-31\nrules = "utah-2012"\n\n'
        + event(f"{evil} Open", "open.csv"),
        {"open.csv": standings_csv([(f"Mallory {evil}", "3"), ("Alice", "2")])},
    )
    web = client({"evil": folder})
    pages = ["", "players.html", "events.html", "events/001-script-alert-1-script-open.html"]
    for path in pages:
        page = web.get(f"/s/evil/{path}")
        assert page.status_code == 200, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text, path
        assert "<script>alert" not in page.text, path
    assert "<script>alert" not in web.get("/s/evil/workspace").text


# The guards.


def test_a_post_without_the_right_csrf_token_is_refused(utah: Path) -> None:
    web = client({"utah-2012": utah})
    right = token(web)
    assert web.post("/s/utah-2012/reload").status_code == 403
    assert web.post("/s/utah-2012/reload", data={CSRF_FIELD: ""}).status_code == 403
    nonce = web.cookies[CSRF_COOKIE]
    other = Csrf(b"another server's secret").token(nonce)
    refused = web.post("/s/utah-2012/reload", data={CSRF_FIELD: other})
    assert refused.status_code == 403 and "Form refused" in refused.text
    done = web.post("/s/utah-2012/reload", data={CSRF_FIELD: right}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/s/utah-2012/workspace"
    stranger = client({"utah-2012": utah})  # the right token, but not this browser's cookie
    assert stranger.post("/s/utah-2012/reload", data={CSRF_FIELD: right}).status_code == 403


def test_the_csrf_cookie_is_http_only_and_same_site_strict(utah: Path) -> None:
    cookie = client({"utah-2012": utah}).get("/s/utah-2012/workspace").headers["set-cookie"]
    assert cookie.startswith(f"{CSRF_COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie


def test_a_post_route_without_csrf_protection_is_refused(
    utah: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def naked(request: object) -> None:
        return None

    routes = [Route("/s/{season}/workspace/naked", naked, methods=["POST"])]
    monkeypatch.setattr(app_module, "_workspace_routes", lambda: routes)
    with pytest.raises(ValueError, match="without csrf_protected"):
        create_app({"utah-2012": utah})


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8000",
        "127.0.0.1.evil.example",
        "localhost.",
        "10.0.0.1:8000",
        "",
    ],
)
def test_an_unknown_host_header_is_refused(utah: Path, host: str) -> None:
    web = client({"utah-2012": utah})
    answer = web.get("/s/utah-2012/", headers={"host": host})
    assert answer.status_code == 400
    assert "content-security-policy" in answer.headers


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost:8000", "[::1]:9000"])
def test_the_local_host_names_are_served(utah: Path, host: str) -> None:
    answer = client({"utah-2012": utah}).get("/s/utah-2012/", headers={"host": host})
    assert answer.status_code == 200


def test_every_answer_has_the_security_headers(utah: Path) -> None:
    headers = client({"utah-2012": utah}).get("/s/utah-2012/").headers
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_site_has_no_inline_script_or_style_for_the_policy_to_block(utah: Path) -> None:
    web = client({"utah-2012": utah})
    pages = ("", "players/1214.html", "rules.html", "events/001-salt-lake-winter-quick.html")
    for path in pages:
        answer = web.get(f"/s/utah-2012/{path}")
        assert answer.status_code == 200, path
        page = answer.text
        assert re.findall(r"<script(?![^>]*\bsrc=)", page) == [], path
        assert " style=" not in page and "<style" not in page and " on" + "click" not in page


def test_a_body_beyond_the_limit_is_refused_by_its_length(utah: Path) -> None:
    web = client({"utah-2012": utah}, max_upload=1000)
    answer = web.post(
        "/s/utah-2012/reload",
        content=b"x" * 1001,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 413


def test_a_body_without_length_is_refused_once_the_limit_is_passed(utah: Path) -> None:
    web = client({"utah-2012": utah}, max_upload=1000)
    answer = post_streamed(web, "/s/utah-2012/reload", f"{CSRF_FIELD}={token(web)}&", 10, 500)
    assert answer.status_code == 413


def post_streamed(web: TestClient, path: str, head: str, parts: int, size: int) -> httpx.Response:
    """A form posted without Content-Length: ``head``, then ``parts`` chunks of ``size`` bytes
    (the server counts the body while it reads it)."""

    def chunks() -> Iterator[bytes]:
        yield head.encode()
        for _ in range(parts):
            yield b"x" * size

    return web.post(
        path, content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )


def test_an_oversize_body_is_refused_before_the_handler_reads_it(utah: Path) -> None:
    app = create_app({"utah-2012": utah}, secret=SECRET, max_upload=1000)
    pulled: list[int] = []
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        pulled.append(1)
        return {"type": "http.request", "body": b"x" * 100, "more_body": True}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/s/utah-2012/reload",
        "raw_path": b"/s/utah-2012/reload",
        "query_string": b"",
        "root_path": "",
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"content-length", b"5000000000"),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ],
    }
    # In a thread of its own: once the session's browser fixture has started, Playwright's sync
    # API keeps an event loop running in this one, where asyncio.run refuses to start.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()  # type: ignore[arg-type]
    assert sent[0]["status"] == 413
    assert pulled == []  # not one byte of the body was read


@pytest.mark.parametrize(
    "name",
    [
        "../x.trf",
        "/etc/passwd",
        "a/b.csv",
        "..",
        ".",
        "a\\b.csv",
        "C:evil.trf",
        "x\x00.trf",
        "x\n.trf",
        "con.csv",
        "CON.CSV",
        "lpt1.trf",
        "aux",
        "noextension",
        ".hidden.csv",
        "",
        "   ",
        "x.trf.",
        "x" * 200 + ".trf",
        "a\u202e.csv",
    ],
)
def test_safe_name_refuses_what_is_not_a_plain_file_name(name: str) -> None:
    with pytest.raises(UnsafeName):
        safe_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "Open 2026.trf",
        "class_a.csv",
        "Ogden Open (final).xlsx",
        "Dvořák.csv",
        "console.csv",
        "a.b.trf",
    ],
)
def test_safe_name_keeps_a_plain_file_name(name: str) -> None:
    assert safe_name(name) == name


# The command line and a real server.


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "::"])
def test_serve_refuses_a_host_beyond_this_machine(host: str) -> None:
    result = CliRunner().invoke(main, ["serve", str(UTAH), "--host", host])
    assert result.exit_code == 2
    assert "a server reached from other machines needs accounts" in result.output
    assert not (UTAH / ".grandprix-server.sqlite3").exists()  # refused before making one


def test_serve_needs_a_season(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", str(tmp_path)])
    assert result.exit_code == 2 and "no season.toml" in result.output
    missing = CliRunner().invoke(main, ["serve", "--root", str(tmp_path / "missing")])
    assert missing.exit_code == 2  # an empty root is served: its seasons start at /new
    assert CliRunner().invoke(main, ["serve"]).exit_code == 2


def test_serve_keeps_the_garbage_collector() -> None:
    assert getattr(main.commands["serve"], "long_running", False)


def test_a_real_server_answers_on_a_free_port(utah: Path) -> None:
    with serving(create_app({"utah-2012": utah})) as base:
        answer = httpx.get(f"{base}/", follow_redirects=True, timeout=10)
    assert answer.status_code == 200 and "Utah Chess Grand Prix 2012" in answer.text


def test_a_hand_edit_is_read_on_its_change_notice_without_a_request(utah: Path) -> None:
    """With the server started (its lifespan), the folder is watched: an edit is read again by
    the notice it makes, the next reader served the new season at once, while the server's own
    hidden files and the published site inside the folder make no reading."""
    with client({"utah-2012": utah}) as web:
        source = web.app.state.served.seasons["utah-2012"]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 20
        while not (source.watching and source.served is not None):
            assert time.monotonic() < deadline, "the season was not read and watched"
            time.sleep(0.05)
        first = source.served
        (utah / ".grandprix-lock").write_text("held\n", encoding="utf-8")
        (utah / "site").mkdir(exist_ok=True)
        (utah / "site" / "index.html").write_text("<p>published</p>\n", encoding="utf-8")
        time.sleep(1.5)  # time enough for a notice to be acted on, were these the season's
        assert source.served is first
        results = utah / "winter_quick.csv"
        text = results.read_text()
        results.write_text(text.replace('"Walsh, Milo",1214,', '"Walsh, Milo",1299,'))
        deadline = time.monotonic() + 20
        while source.served is first:  # no request asks: the notice alone reads it
            assert time.monotonic() < deadline, "the edit was not seen"
            time.sleep(0.05)
        assert "Salt Lake Winter Quick" not in web.get("/s/utah-2012/players/1214.html").text
    assert not source.watching  # the server ended: so did its watching


def test_a_season_no_longer_served_is_freed_without_the_cycle_collector(utah: Path) -> None:
    """A snapshot's views hold no reference cycle (the makers of its pages are given the views,
    not bound to them): when a new snapshot replaces it, reference counting frees it whole, and
    the collector finds nothing of it to collect."""
    import gc

    from grandprix.serve.seasons import SeasonSource

    source = SeasonSource(utah)
    loaded = source.refresh()
    assert loaded.views is not None
    for path in [*loaded.views._paths, "players.js", "downloads.html"]:  # every page made
        assert loaded.page(path) is not None, path
    del loaded
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        (utah / "notes.txt").write_text("a change\n", encoding="utf-8")  # a new version
        (utah / "winter_quick.csv").write_text(
            (utah / "winter_quick.csv").read_text().replace("Walsh, Milo", "Walsh, Mila")
        )
        source.refresh()
        gc.collect()
        ours = [o for o in gc.garbage if type(o).__module__.startswith("grandprix")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert ours == [], {type(o).__name__ for o in ours}


def test_a_change_notice_reads_again_only_the_files_it_names(tmp_path: Path) -> None:
    """The version after a notice, made from the files it names (read again, added, gone), is
    the version of the whole folder looked at again; a folder among them has it all looked at
    again."""
    from grandprix.serve.seasons import content_digests, digests_after, season_roots, version_of

    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    roots = season_roots(folder)
    before = content_digests(folder)
    results = folder / "winter_quick.csv"
    results.write_text(results.read_text().replace("Walsh, Milo", "Walsh, Mila"))
    (folder / "notes.txt").write_text("new\n", encoding="utf-8")
    (folder / "aliases.csv").unlink(missing_ok=True)
    changed = [str(results), str(folder / "notes.txt"), str(folder / "aliases.csv")]
    after = digests_after(before, roots, changed)
    assert after is not None and after != before
    assert version_of(after) == version_of(content_digests(folder))
    (folder / "more").mkdir()
    assert digests_after(after, roots, [str(folder / "more")]) is None
    assert digests_after(after, roots, ["/elsewhere/file.csv"]) is None

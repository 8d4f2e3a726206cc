"""The workspace as a coordinator meets it in Chromium: ``grandprix serve`` runs for
real (uvicorn on a free port, a server of several seasons starting empty) and Playwright clicks
links, fills inputs, chooses files and presses buttons, never posting by itself.

One season's life: started from a preset at /new; three events uploaded (the second first with
a located error and no Accept button, then corrected); a pair of similar names decided; a rule
changed; a stale preview refused (409) after another page accepted a change; the site
published, and the published folder compared byte for byte with what ``grandprix site``
writes; at the end the season folder holds exactly the expected files, and nothing was
written outside the test's folder (the previews' temporary copies included).

Every form of the workspace is driven in a browser context with JavaScript off (the server's
pages have no script: every form is plain HTML); the context with JavaScript on uploads and
accepts an event too, reads the season's pages, and must meet no console error (a script or
style refused by the Content-Security-Policy would be one).
"""

from __future__ import annotations

import stat
import tempfile
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, BrowserContext, Page

from grandprix.cli import main
from grandprix.season.config import ALIASES_FILE, SEASON_FILE
from grandprix.serve.app import create_app
from grandprix.serve.workspace import LOCK_FILE
from grandprix.site.build import MARK
from serving import serving

KEY = "club-2012"
NAME = "Club Grand Prix 2012"
PRESET = "utah-2012"
# The preset's eligibility (UT-1) needs each player's region and membership, from players.csv;
# the workspace has no form for that file, so the coordinator copies it into the folder.
PLAYERS = (
    "id,name,region,member\n"
    '1212,"Ellis, Aiden",UT,yes\n'
    '1219,"Kerr, Esme",UT,yes\n'
    '1230,"Price, Noah",UT,yes\n'
    '1231,"Lund, Tova",UT,yes\n'
)
HEAD = "rank,name,id,points\n"
SPRING = HEAD + '1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,4\n3,"Price, Noah",1230,3\n'
SUMMER_BAD = HEAD + '1,"Kerr, Esme",1219,4.5\n2,"Price, Noah",1230,lots\n3,"Lund, Tova",1231,2\n'
SUMMER = HEAD + '1,"Kerr, Esme",1219,4.5\n2,"Price, Noah",1230,3\n3,"Lund, Tova",1231,2\n'
# "Aiden Elis", without an id, is a similar spelling of Ellis, Aiden (1212) of the spring event.
AUTUMN = HEAD + '1,"Lund, Tova",1231,5\n2,Aiden Elis,,4\n3,"Kerr, Esme",1219,3\n'
WINTER = HEAD + '1,"Price, Noah",1230,4\n2,"Kerr, Esme",1219,3\n'
EVENTS = [  # (name, date, results file), in the order they are accepted
    ("Spring Open", "2012-03-10", "spring.csv"),
    ("Summer Swiss", "2012-06-16", "summer.csv"),
    ("Autumn Rapid", "2012-09-22", "autumn.csv"),
    ("Winter Blitz", "2012-12-08", "winter.csv"),
]
NEW_TABLE = "[25, 18, 15, 12, 10, 8]"
SEASON_AT_THE_END = """\
name = "Club Grand Prix 2012"
[[events]]
name = "Spring Open"
date = 2012-03-10
results = "spring.csv"

[[events]]
name = "Summer Swiss"
date = 2012-06-16
results = "summer.csv"

[[events]]
name = "Autumn Rapid"
date = 2012-09-22
results = "autumn.csv"

[[events]]
name = "Winter Blitz"
date = 2012-12-08
results = "winter.csv"

[rules]
preset = "utah-2012"

[rules.points]
table = [25, 18, 15, 12, 10, 8]
"""
TIMEOUT_MS = 10_000


def context(browser: Browser, base: str, *, script: bool, width: int = 1280) -> BrowserContext:
    """A browser of its own (its cookies, so its CSRF nonce), ``width`` CSS pixels wide."""
    made = browser.new_context(
        base_url=base, java_script_enabled=script, viewport={"width": width, "height": 844}
    )
    made.set_default_timeout(TIMEOUT_MS)
    return made


# -- what a person does -------------------------------------------------------------------------


def press(page: Page, button: str) -> int:
    """Press the button and wait for the page it leads to; that page's HTTP status."""
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name=button).click()
    response = navigation.value
    assert response is not None
    return response.status


def follow(page: Page, link: str) -> None:
    with page.expect_navigation():
        page.get_by_role("link", name=link, exact=True).click()


def start_season(page: Page) -> None:
    page.goto("/")
    follow(page, "Start a season")
    page.get_by_label("Name of the season").fill(NAME)
    page.get_by_label("Folder name").fill(KEY)
    page.get_by_label("Rules: a preset").select_option(PRESET)
    assert press(page, "Start the season") == 200
    assert page.url.endswith(f"/s/{KEY}/workspace")


def preview_event(page: Page, event: tuple[str, str, str], csv: Path) -> int:
    """From the workspace, the event's upload form filled and sent: the preview's status."""
    page.goto(f"/s/{KEY}/workspace")
    follow(page, "Add an event")
    name, date, _ = event
    page.get_by_label("Name of the event").fill(name)
    page.get_by_label("Date (the last day)").fill(date)
    page.get_by_label("Results file").set_input_files(csv)
    return press(page, "Preview")


def accept(page: Page) -> None:
    assert press(page, "Accept: write it into the season folder") == 200
    assert "Written into the season folder" in page.inner_text("main")


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the comparison with grandprix site ---------------------------------------------------------


def sheets(data: bytes) -> dict[str, bytes]:
    """A workbook's members but docProps/core.xml (openpyxl writes the time of writing)."""
    with zipfile.ZipFile(BytesIO(data)) as book:
        return {i.filename: book.read(i) for i in book.infolist() if "core.xml" not in i.filename}


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def assert_same_site(published: Path, cli: Path) -> None:
    """Every file of the two sites byte for byte, but the workbook's time stamp. The marker
    file (site/build.MARK) is compared too: it lists the files by their paths relative to the
    site, so two sites of one season written in different places have the same marker."""
    ours, theirs = files_under(published), files_under(cli)
    assert sorted(ours) == sorted(theirs)
    assert MARK in ours and "season.xlsx" in ours
    for rel, data in ours.items():
        if rel == "season.xlsx":
            assert sheets(data) == sheets(theirs[rel])
        else:
            assert data == theirs[rel], rel


# -- the test -----------------------------------------------------------------------------------


def test_a_season_made_in_the_browser_from_start_to_publication(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, uploads, temp = tmp_path / "root", tmp_path / "uploads", tmp_path / "temp"
    for made in (root, uploads, temp):
        made.mkdir()
    # The previews' temporary copies go here, so the end can see that none is left behind.
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    folder = root / KEY
    csv = {
        name: written(uploads, name, text)
        for name, text in [
            ("spring.csv", SPRING),
            ("summer.csv", SUMMER),
            ("autumn.csv", AUTUMN),
            ("winter.csv", WINTER),
        ]
    }
    (uploads / "first-try").mkdir()  # the file with the error has the corrected one's name
    bad = written(uploads / "first-try", "summer.csv", SUMMER_BAD)
    troubles: list[str] = []

    with serving(create_app({}, root=str(root))) as base:
        scripted = context(browser, base, script=True, width=390)  # a phone
        plain = context(browser, base, script=False)
        try:
            page = scripted.new_page()
            page.on("console", lambda m: troubles.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: troubles.append(str(e)))
            form = plain.new_page()  # every workspace form, JavaScript off

            # 1. A season started from a preset, in its workspace.
            start_season(form)
            assert NAME in form.inner_text("header")
            assert (folder / SEASON_FILE).read_text(encoding="utf-8") == (
                f'name = "{NAME}"\nrules = "{PRESET}"\nevents = []\n'
            )
            assert "Problems" not in form.inner_text("main")
            written(folder, "players.csv", PLAYERS)

            # 2. Three events: the first fine (JavaScript on) ...
            assert preview_event(page, EVENTS[0], csv["spring.csv"]) == 200
            assert form_moves(page) == [
                ["Standings", "Ellis, Aiden", "–", "1", "–", "21.00"],
                ["Standings", "Kerr, Esme", "–", "2", "–", "15.00"],
                ["Standings", "Price, Noah", "–", "3", "–", "12.00"],
            ]
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            accept(page)
            # ... the second with a non-number in 'points': located, and no Accept button ...
            assert preview_event(form, EVENTS[1], bad) == 422
            problems = form.inner_text("ul.problems")
            assert problems.startswith("summer.csv:3:") and "'lots'" in problems
            assert form.get_by_role("button", name="Accept").count() == 0
            assert not (folder / "summer.csv").exists()
            follow(form, "Try again")
            assert form.url.endswith(f"/s/{KEY}/workspace/event")
            # ... then corrected and sent again; the third fine.
            assert preview_event(form, EVENTS[1], csv["summer.csv"]) == 200
            assert ["Standings", "Kerr, Esme", "2", "1", "15.00", "36.00"] in form_moves(form)
            accept(form)
            assert preview_event(form, EVENTS[2], csv["autumn.csv"]) == 200
            assert "Aiden Elis" in form.inner_text("main")  # not in players.csv: a warning
            accept(form)
            follow(form, "The season's pages")
            assert form.url.endswith(f"/s/{KEY}/")
            follow(form, "Events")
            listed = form.inner_text("main")
            assert all(name in listed for name, _, _ in EVENTS[:3]), listed
            page.goto(f"/s/{KEY}/events.html")  # and with the site's scripts running
            assert all(name in page.inner_text("main") for name, _, _ in EVENTS[:3])

            # 3. The similar names decided: one person.
            form.goto(f"/s/{KEY}/workspace")
            follow(form, "Review similar names")
            pair = form.locator("section.pair")
            assert pair.count() == 1
            assert pair.get_by_role("heading").inner_text() == "Aiden Elis / Ellis, Aiden"
            assert press(form, "The same person") == 200
            assert "No similar names wait for a decision." in form.inner_text("main")
            aliases = 'name,other,decision\nAiden Elis,"Ellis, Aiden",same\n'
            assert (folder / ALIASES_FILE).read_text(encoding="utf-8") == aliases

            # 4. One rule changed.
            before = (folder / SEASON_FILE).read_text(encoding="utf-8")
            form.goto(f"/s/{KEY}/workspace")
            follow(form, "Change the rules")
            table = form.get_by_label("points.table", exact=True)
            assert table.input_value() == "[21, 15, 12, 10, 8, 6]"
            table.fill(NEW_TABLE)
            assert press(form, "Preview") == 200
            assert f"change the rules: points.table = {NEW_TABLE}" in form.inner_text("main")
            assert form_moves(form) == [  # 1st 25, 2nd 18, 3rd 15 instead of 21, 15, 12
                ["Standings", "Kerr, Esme", "1", "1", "48.00", "58.00"],
                ["Standings", "Ellis, Aiden", "2", "2", "36.00", "43.00"],
                ["Standings", "Lund, Tova", "3", "3", "33.00", "40.00"],
                ["Standings", "Price, Noah", "4", "4", "27.00", "33.00"],
            ]
            accept(form)
            after = (folder / SEASON_FILE).read_text(encoding="utf-8")
            rules = f'\n[rules]\npreset = "{PRESET}"\n\n[rules.points]\ntable = {NEW_TABLE}\n'
            # The preset's name, a plain key before, is now the [rules] table's first key.
            assert after == before.replace(f'rules = "{PRESET}"\n', "") + rules

            # 6. A stale preview refused: a rule change previewed in one page (JavaScript off),
            # an event accepted meanwhile in another (JavaScript on), then the first accepted.
            form.goto(f"/s/{KEY}/workspace")
            follow(form, "Change the rules")
            form.get_by_label("points.overflow", exact=True).fill("5")
            assert press(form, "Preview") == 200
            assert preview_event(page, EVENTS[3], csv["winter.csv"]) == 200
            accept(page)
            stale = (folder / SEASON_FILE).read_text(encoding="utf-8")
            assert press(form, "Accept: write it into the season folder") == 409
            assert "The season changed meanwhile" in form.inner_text("h1")
            assert "changed since this form was made" in form.inner_text("main")
            assert (folder / SEASON_FILE).read_text(encoding="utf-8") == stale
            assert "overflow" not in stale

            # 5. Published: the site folder is what grandprix site writes.
            form.goto(f"/s/{KEY}/workspace")
            follow(form, "Publish the site")
            assert press(form, "Publish") == 200
            said = form.inner_text("main")
            site = folder / "site"
            pages = len(list(site.rglob("*.html")))
            assert f"Published: {pages} pages written into {site}." in said, said
            cli = tmp_path / "cli-site"
            result = CliRunner().invoke(main, ["site", str(folder), "-o", str(cli)])
            assert result.exit_code == 0, result.output
            assert_same_site(site, cli)
            page.goto(f"/s/{KEY}/")  # the served pages, with the site's scripts, once more
            assert "Ellis, Aiden" in page.inner_text("main")
        finally:
            scripted.close()
            plain.close()

    assert troubles == []
    # 8. The season folder holds exactly what the coordinator made, nothing else was written.
    # The first event replaces the new season's 'events = []' (tomlkit); each later one is
    # written into the file's text after the last event, the file's own lines untouched, so
    # the event accepted after the rules change comes before the [rules] table it made.
    assert (folder / SEASON_FILE).read_text(encoding="utf-8") == SEASON_AT_THE_END
    for (_, _, results), text in zip(EVENTS, [SPRING, SUMMER, AUTUMN, WINTER], strict=True):
        assert (folder / results).read_text(encoding="utf-8") == text
    assert (folder / ALIASES_FILE).read_text(encoding="utf-8") == aliases
    own = sorted(p.name for p in folder.iterdir())
    # LOCK_FILE: the workspace's lock (an empty file, flock()ed while a change is written).
    assert own == sorted(
        [
            LOCK_FILE,
            SEASON_FILE,
            ALIASES_FILE,
            "players.csv",
            "site",
            *(results for _, _, results in EVENTS),
        ]
    )
    assert (folder / LOCK_FILE).read_bytes() == b""
    # What the workspace wrote may be read as any file the coordinator makes there.
    mode = stat.S_IMODE((folder / "players.csv").stat().st_mode)
    for name in [SEASON_FILE, ALIASES_FILE, *(results for _, _, results in EVENTS)]:
        assert stat.S_IMODE((folder / name).stat().st_mode) == mode, name
    assert sorted(p.name for p in root.iterdir()) == [KEY]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli-site", "root", "temp", "uploads"]
    assert list(temp.iterdir()) == []  # every preview's copy removed


def form_moves(page: Page) -> list[list[str]]:
    """The rows of the preview's table of who moves."""
    assert page.get_by_role("heading", name="Who moves").count() == 1
    rows = page.locator("table tbody tr")
    return [
        [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        for i in range(rows.count())
    ]

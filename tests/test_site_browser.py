"""The pages as readers meet them in Chromium: axe-core finds no violation on any page
type at 390 and 1280 px, no page scrolls sideways on a phone, every event page shows the points
its players' pages show, the search finds players in any order, case and accents, and without
JavaScript the search form and every table still work.

Playwright drives Debian's /usr/bin/chromium, as in test_site.py (skipped, with the reason, only
where it is not installed; CI installs it). axe-core is the npm package ``make unit`` installs
into .venv/node. The sites of the example seasons, and of examples/utah-2026 with an event in
progress (its page and its rounds' pages are page types too), are built once per session. The
points check reads the HTML files with Python; the markup it relies on is described at
``EventRow``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import ROOT
from grandprix.season.config import load_season
from grandprix.site.build import build_site
from html_tree import Node, parse
from live_season import LIVE, make_live_season

AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
# The example seasons (lupiae-2012-13 in Italian), examples/utah-2026 in Spanish, and
# examples/utah-2026 with an event in progress (``live_season``).
SPANISH = "utah-2026-es"
SEASONS = ["utah-2012", "acf-2004", "lupiae-2012-13", SPANISH, LIVE]
SPOKEN = {SPANISH: ("utah-2026", "es")}  # a season's site built in another language
WIDTHS = [390, 1280]  # a phone, a desktop
HEIGHT = 844
KINDS = ["home", "player", "event", "after", "events", "prizes", "rules", "downloads", "players"]
# The pages of an event in progress: its page (its sections' rounds) and a round's page.
LIVE_KINDS = ["live", "round"]
# Each season with each kind of page it has: the pages of an event in progress in LIVE only.
CASES = [(name, kind) for name in SEASONS for kind in KINDS] + [(LIVE, kind) for kind in LIVE_KINDS]
FILES = {
    "home": "index.html",
    "events": "events.html",
    "prizes": "prizes.html",
    "rules": "rules.html",
    "downloads": "downloads.html",
    "players": "players.html",
    "after": "events/after-001.html",
}
WAIT_MS = 3000  # for the search script to answer


# -- the sites and the browser ------------------------------------------------------------------


def _build(name: str, out: Path) -> Path:
    """The site of the example season ``name`` (or of the one ``SPOKEN`` in another language)."""
    folder, language = SPOKEN.get(name, (name, ""))
    season, problems = load_season(ROOT / "examples" / folder)
    assert season is not None, [str(p) for p in problems]
    if language:
        season = replace(season, language=language)
    build_site(season, out)
    return out


def _build_live(base: Path) -> Path:
    season, problems = load_season(make_live_season(base / "folders"))
    assert season is not None, [str(p) for p in problems]
    build_site(season, base / LIVE)
    return base / LIVE


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The site of each example season, and of the season with an event in progress, built
    once."""
    base = tmp_path_factory.mktemp("sites")
    built = {name: _build(name, base / name) for name in SEASONS if name != LIVE}
    return {**built, LIVE: _build_live(base)}


@pytest.fixture(scope="session")
def accented_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/utah-2026, the example season whose players have accented names
    ('Dvořák, Aleš'); the three others have none."""
    return _build("utah-2026", tmp_path_factory.mktemp("sites") / "utah-2026")


@contextmanager
def opened(browser: Browser, path: Path, width: int = 1280, script: bool = True) -> Iterator[Page]:
    """``path`` open in a fresh tab ``width`` CSS pixels wide, JavaScript on or off."""
    assert path.exists(), f"the site has no {path.name}"
    context = browser.new_context(
        viewport={"width": width, "height": HEIGHT}, java_script_enabled=script
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        yield page
    finally:
        context.close()


def live_events(site: Path) -> list[Path]:
    """The pages of the events in progress: those the calendar's list of the events still to
    come links to (``events/NNN-NAME.html``)."""
    tree = parse(site / "events.html")
    hrefs = {a.attrs.get("href", "") for li in tree.iter("li") for a in li.iter("a")}
    return sorted(site / href for href in hrefs if href.startswith("events/"))


def live_pages(site: Path) -> list[Path]:
    """The pages of the events in progress and of their rounds: an event's pages all begin
    with its number in the calendar ('002-')."""
    numbers = tuple(p.name[:4] for p in live_events(site))
    return [p for p in sorted((site / "events").glob("*.html")) if p.name.startswith(numbers)]


def event_pages(site: Path) -> list[Path]:
    """The pages of the events played (not the standings after each, ``events/after-NNN.html``,
    nor the pages of an event in progress)."""
    live = set(live_pages(site))
    return [
        p
        for p in sorted((site / "events").glob("*.html"))
        if not p.name.startswith("after-") and p not in live
    ]


def page_of(site: Path, kind: str) -> Path:
    """The page of each kind the browser tests open: for players, events and rounds, the
    longest; the first event in progress."""
    if kind in ("player", "event", "round"):
        if kind == "round":
            pages = [p for p in live_pages(site) if p not in live_events(site)]
        elif kind == "event":
            pages = event_pages(site)
        else:
            pages = sorted((site / "players").glob("*.html"))
        return max(pages, key=lambda p: p.stat().st_size)
    if kind == "live":
        return live_events(site)[0]
    return site / FILES[kind]


# -- reading the HTML files ---------------------------------------------------------------------


def _column(table: Node, heading: str) -> int:
    """The index of the column headed ``heading`` (-1 if none)."""
    heads = [th.text() for th in table.iter("th")]
    return heads.index(heading) if heading in heads else -1


def _cells(row: Node) -> list[Node]:
    return [n for n in row.children if isinstance(n, Node) and n.tag in ("td", "th")]


def _label(row: Node) -> str:
    """A row in a message: the text of its first link (the player's name), else of its cells."""
    link = next(row.iter("a"), None)
    return link.text() if link is not None else " | ".join(c.text() for c in _cells(row))


BAD_CELL = "a points cell needs data-division, and its text must show its data-points"


@dataclass(frozen=True)
class EventRow:
    """One player's row of an event page, as the page shows it.

    The markup read (the contract with templates/event.html), when the page has any
    ``data-points`` attribute:

    - each section's table is ``<table data-section="SECTION NAME">``;
    - a player's row is ``<tr data-player="../players/X.html">`` (the href of their page, as
      the row's link has it); a player without a page has a row without ``data-player``;
    - the points the player earned in each division are a cell
      ``<td data-division="DIVISION" data-points="20.00">...20.00...</td>``: the division's
      name ('' for the standings of a season without divisions), the points exactly as shown
      ('' for none), and the cell's text shows them. Only these cells carry ``data-points``.

    Today's markup, read when no element has ``data-points``: each ``<section>``'s ``<h2>`` is
    the section's name and its table has the columns headed ``Player`` (a link to the player's
    page) and ``GP points``, which names no division, so its points must be those of every
    division the player's page shows for the section; the section is keyed as the player pages
    key it, 'EVENT' (the ``<h1>``) when the section has the event's name, else 'EVENT, SECTION'.
    """

    event: Path
    section: str
    name: str
    player: Path | None  # their page; None without one
    points: dict[str | None, str]  # division (None: the column names none) -> points shown


def event_rows(path: Path) -> tuple[list[EventRow], list[str]]:
    """Every player's row of the event page at ``path``, and the problems of its markup."""
    tree = parse(path)
    rows: list[EventRow] = []
    problems: list[str] = []

    def add(section: str, tr: Node, href: str | None, points: dict[str | None, str]) -> None:
        player = (path.parent / href).resolve() if href else None
        if player is not None and not player.exists():
            problems.append(f"{path.name}: {_label(tr)!r} links to {href}, which does not exist")
        rows.append(EventRow(path.resolve(), section, _label(tr), player, points))

    if any("data-points" in n.attrs for n in tree.iter()):
        for table in tree.iter("table"):
            section = table.attrs.get("data-section")
            for tr in table.iter("tr"):
                cells = [n for n in tr.iter() if "data-points" in n.attrs]
                if not cells and "data-player" not in tr.attrs:
                    continue  # a heading
                if section is None:
                    problems.append(f"{path.name}: a player's row outside a table[data-section]")
                    continue
                points: dict[str | None, str] = {}
                for cell in cells:
                    shown, division = cell.attrs["data-points"], cell.attrs.get("data-division")
                    if shown not in cell.text() or division is None:
                        problems.append(f"{path.name}: {_label(tr)!r}: {BAD_CELL}")
                    points[division] = shown
                add(section, tr, tr.attrs.get("data-player"), points)
        return rows, problems
    h1 = next(tree.iter("h1")).text()
    for part in tree.iter("section"):
        h2 = next(part.iter("h2")).text()
        section = h1 if h2 == h1 else f"{h1}, {h2}"
        for table in part.iter("table"):
            who, gp = _column(table, "Player"), _column(table, "GP points")
            if who < 0 or gp < 0:
                problems.append(f"{path.name}: {h2!r} has no 'Player' and 'GP points' columns")
                continue
            for tbody in table.iter("tbody"):
                for tr in tbody.iter("tr"):
                    cells = _cells(tr)
                    link = next(cells[who].iter("a"), None)
                    add(
                        section,
                        tr,
                        link.attrs.get("href") if link else None,
                        {None: cells[gp].text()},
                    )
    return rows, problems


def player_points(path: Path) -> tuple[dict[tuple[Path, str], dict[str, str]], list[str]]:
    """The points a player's page shows: (event page, section) -> division -> points, and the
    problems of its markup.

    The markup read, when the page has any ``data-points`` attribute: each result is a row or a
    card ``<li data-event="../events/NNN-NAME.html" data-section="SECTION NAME">`` holding the
    cell ``<strong data-division="DIVISION" data-points="20.00">...20.00...</strong>`` (as on
    the event page;
    only result rows carry ``data-points``). Today's markup otherwise: each ``<section>``'s
    ``<h2>`` starts with the division's name and ': rank' ('Standings' is the season without
    divisions); its table has the columns ``Event`` (a link to the event's page, its text 'EVENT'
    or 'EVENT, SECTION') and ``Points``.
    """
    tree = parse(path)
    shown: dict[tuple[Path, str], dict[str, str]] = defaultdict(dict)
    problems: list[str] = []

    def add(href: str, section: str, division: str, points: str) -> None:
        key = ((path.parent / href).resolve(), section)
        if division in shown[key] and shown[key][division] != points:
            problems.append(f"{path.name}: {section!r} shown twice in {division!r}")
        shown[key][division] = points

    if any("data-points" in n.attrs for n in tree.iter()):
        for tr in (n for n in tree.iter() if n.tag in ("tr", "li")):  # a row, or a result card
            cells = [n for n in tr.iter() if "data-points" in n.attrs]
            if not cells:
                continue
            href, section = tr.attrs.get("data-event"), tr.attrs.get("data-section")
            if href is None or section is None:
                problems.append(f"{path.name}: {_label(tr)!r} has no data-event and data-section")
                continue
            for cell in cells:
                value, division = cell.attrs["data-points"], cell.attrs.get("data-division")
                if value not in cell.text() or division is None:
                    problems.append(f"{path.name}: {_label(tr)!r}: {BAD_CELL}")
                    continue
                add(href, section, division, value)
        return dict(shown), problems
    for part in tree.iter("section"):
        division = next(part.iter("h2")).text().split(": rank")[0]
        division = "" if division == "Standings" else division
        for table in part.iter("table"):
            event, gp = _column(table, "Event"), _column(table, "Points")
            for tbody in table.iter("tbody"):
                for tr in tbody.iter("tr"):
                    cells = _cells(tr)
                    link = next(cells[event].iter("a"))
                    add(link.attrs["href"], link.text(), division, cells[gp].text())
    return dict(shown), problems


def _shown(points: dict[str, str] | dict[str | None, str]) -> str:
    named = [f"{'(no division named)' if d is None else repr(d)}: {v!r}" for d, v in points.items()]
    return "{" + ", ".join(named) + "}"


def disagreements(site: Path) -> list[str]:
    """Where the site's event pages and player pages disagree on a player's points."""
    problems: list[str] = []
    theirs: dict[tuple[Path, Path, str], dict[str, str]] = {}
    for page in sorted((site / "players").glob("*.html")):
        shown, wrong = player_points(page)
        problems += wrong
        for (event, section), points in shown.items():
            theirs[page.resolve(), event, section] = {d: p for d, p in points.items() if p}
    rows_seen = set()
    for page in event_pages(site):
        rows, wrong = event_rows(page)
        problems += wrong
        if not rows:
            problems.append(f"{page.name}: no player's row found")
        for row in rows:
            where = f"{page.name}, {row.section!r}, {row.name!r}"
            mine = {d: p for d, p in row.points.items() if p}
            if row.player is None:
                if mine:
                    problems.append(f"{where}: points {_shown(mine)} for a player without a page")
                continue
            rows_seen.add((row.player, row.event, row.section))
            expected = theirs.get((row.player, row.event, row.section), {})
            if None in row.points:  # a column naming no division holds for all of them
                same = set(mine.values()) == set(expected.values())
            else:
                same = mine == expected
            if not same:
                problems.append(
                    f"{where}: event page shows {_shown(row.points)}, "
                    f"players/{row.player.name} shows {_shown(expected)}"
                )
    for (player, event, section), points in sorted(theirs.items()):
        if points and (player, event, section) not in rows_seen:
            problems.append(
                f"players/{player.name} shows {_shown(points)} for {event.name}, {section!r}, "
                "where no row links to that player"
            )
    return problems


@pytest.mark.parametrize("name", SEASONS)
def test_every_event_page_shows_the_points_of_its_players_pages(
    sites: dict[str, Path], name: str
) -> None:
    """For every row of every event page, the Grand Prix points shown in each division are, as
    text, those the player's page shows for that event and section; and every result a player's
    page shows is a row of its event page."""
    problems = disagreements(sites[name])
    assert not problems, f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:40])


# -- axe-core and the phone's width -------------------------------------------------------------

AXE_RUN = """async () => {
  const found = await axe.run(document);
  return found.violations.map(v => ({
    id: v.id, impact: v.impact || "", help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.map(String).join(" "),
                              summary: n.failureSummary || ""}))}));
}"""


def readable(violations: list[dict[str, object]]) -> str:
    """axe-core's violations as lines: rule, impact and help; then each element and why."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        nodes = v["nodes"]
        assert isinstance(nodes, list)
        for node in nodes[:5]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}: {summary}")
        if len(nodes) > 5:
            lines.append(f"    ... and {len(nodes) - 5} more element(s)")
    return "\n".join(lines)


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
@pytest.mark.parametrize(("name", "kind"), CASES)
def test_axe_core_finds_no_violation(
    sites: dict[str, Path], browser: Browser, name: str, kind: str, width: int
) -> None:
    """axe-core, the accessibility rules engine, injected into the page: no violation of any
    rule it runs by default (WCAG A and AA, best practices)."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: 'make unit' installs it with npm")
    path = page_of(sites[name], kind)
    with opened(browser, path, width) as page:
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(AXE_RUN)
    where = path.relative_to(sites[name])
    assert violations == [], f"{name}/{where} at {width} px:\n{readable(violations)}"


@pytest.mark.parametrize("name", SEASONS)
def test_no_page_scrolls_sideways_on_a_phone(
    sites: dict[str, Path], browser: Browser, name: str
) -> None:
    """At 390 px every page of the site fits the width, and no table is cut off inside a box
    that scrolls sideways: every column shows."""
    site = sites[name]
    wide = []
    with opened(browser, site / "index.html", 390) as page:
        for path in sorted(site.rglob("*.html")):
            page.goto(path.as_uri())
            scroll, width = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            if scroll > width:
                wide.append(f"{path.relative_to(site)}: {scroll} px wide in a {width} px window")
            cut = page.evaluate(
                "Array.from(document.querySelectorAll('.scroll, table'))"
                ".filter(e => e.scrollWidth > e.clientWidth + 1).length"
            )
            if cut:
                wide.append(f"{path.relative_to(site)}: {cut} table(s) wider than their box")
    assert not wide, "\n".join(wide)


@pytest.fixture(scope="session")
def long_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A made-up season of more than ``PAGE_ROWS`` players: its standings and players' list
    in pages."""
    import random

    from grandprix.site.views import PAGE_ROWS
    from seasons import write_season

    rng = random.Random(5)
    pool = [str(1000 + i) for i in range(900)]
    files = {
        "players.csv": "id,name,region,member\n" + "".join(f"{p},Player {p},UT,yes\n" for p in pool)
    }
    events = []
    for k in range(20):
        field = rng.sample(pool, 50)
        files[f"e{k}.csv"] = "rank,name,id,points\n" + "".join(
            f"{i},Player {p},{p},{(50 - i) / 2}\n" for i, p in enumerate(field, 1)
        )
        events.append(
            f'[[events]]\nname = "Open {k}"\ndate = 2012-{1 + k // 2:02d}-{1 + k:02d}\n'
            f'results = "e{k}.csv"\n'
        )
    toml = 'name = "Long"\nstart = 2012-01-01\nend = 2012-12-31\nrules = "utah-2012"\n\n'
    folder = write_season(tmp_path_factory.mktemp("long") / "long", toml + "\n".join(events), files)
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    out = folder.parent / "site"
    build_site(season, out)
    assert len(list((out / "standings").glob("*.html"))) == -(-len(season.players) // PAGE_ROWS)
    return out


@pytest.mark.parametrize("width", WIDTHS, ids=lambda w: f"{w}px")
@pytest.mark.parametrize(
    "page", ["index.html", "standings/standings-2.html", "players-2.html", "events/after-020.html"]
)
def test_the_pages_of_a_long_table_pass_axe_and_fit_a_phone(
    long_site: Path, browser: Browser, page: str, width: int
) -> None:
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: 'make unit' installs it with npm")
    with opened(browser, long_site / page, width) as tab:
        tab.add_script_tag(path=str(AXE))
        violations = tab.evaluate(AXE_RUN)
        scroll, inner = tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        links = tab.evaluate("Array.from(document.querySelectorAll('nav.pages a')).length")
    assert violations == [], f"{page} at {width} px:\n{readable(violations)}"
    assert scroll <= inner, f"{page}: {scroll} px wide in a {inner} px window"
    if page.startswith(("index", "standings/")):
        assert links >= 1  # the other pages of the table


# -- search -------------------------------------------------------------------------------------


def player_page(site: Path, name: str) -> Path:
    """The page of the player called ``name``: the one whose ``<h1>`` shows the name."""
    found = [
        p
        for p in sorted((site / "players").glob("*.html"))
        if name in next(parse(p).iter("h1")).text()
    ]
    assert len(found) == 1, (name, found)
    return found[0]


@pytest.mark.parametrize("name", SEASONS)
def test_every_page_has_the_search_form(sites: dict[str, Path], name: str) -> None:
    """``<form role="search" action="ROOT/players.html">`` holding ``<input id="find"
    type="search">`` on every page: without JavaScript it opens the players index."""
    site = sites[name]
    missing: list[str] = []
    for path in sorted(site.rglob("*.html")):
        forms = [f for f in parse(path).iter("form") if f.attrs.get("role") == "search"]
        good = [
            f
            for f in forms
            if (path.parent / f.attrs.get("action", "")).resolve() == (site / "players.html")
            and any(
                i.attrs.get("id") == "find" and i.attrs.get("type") == "search"
                for i in f.iter("input")
            )
        ]
        if not good:
            missing.append(str(path.relative_to(site)))
    shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if missing[5:] else "")
    assert not missing, f"no search form going to players.html on {shown}"


def find(page: Page, query: str) -> None:
    """Type ``query`` into the search box, key by key."""
    status = page.locator("#find-status")
    assert status.count() == 1, "no #find-status on the page"
    assert status.get_attribute("aria-live") == "polite"  # there before it changes, so it is read
    page.locator("#find").press_sequentially(query)


def listed(page: Page) -> str:
    links = page.locator("#find-results a").evaluate_all("els => els.map(e => e.href)")
    status = page.locator("#find-status").all_inner_texts()
    return f"results {links}, status {status}"


def wait_for(page: Page, script: str, arg: object, what: str) -> None:
    """Wait until ``script`` is true; else fail, saying ``what`` and what the page lists."""
    try:
        page.wait_for_function(script, arg=arg, timeout=WAIT_MS)
        done = True
    except PlaywrightTimeout:
        done = False
    assert done, f"{what}; the page shows {listed(page)}"


LINKS_TO = """url => [...document.querySelectorAll('#find-results a')].some(a => a.href === url)"""


@pytest.mark.parametrize(
    ("start", "query"),
    [("home", "hana hayes"), ("home", "HAYES"), ("home", "hayes, hana"), ("event", "hana hayes")],
)
def test_search_finds_a_player_in_any_order_and_case(
    sites: dict[str, Path], browser: Browser, start: str, query: str
) -> None:
    site = sites["acf-2004"]
    hayes = player_page(site, "Hayes, Hana").as_uri()
    with opened(browser, page_of(site, start), 390) as page:
        find(page, query)
        wait_for(page, LINKS_TO, hayes, f"{query!r} lists no link to {hayes}")


def test_search_ignores_accents(accented_site: Path, browser: Browser) -> None:
    dvorak = player_page(accented_site, "Dvořák, Aleš").as_uri()
    with opened(browser, accented_site / "index.html", 390) as page:
        find(page, "dvorak ales")
        wait_for(page, LINKS_TO, dvorak, f"'dvorak ales' lists no link to {dvorak}")


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("djordje brennan", "Brennan, Đorđe"),
        ("aaberg", "Åberg, Tove"),
        ("berg tov", "Åberg, Tove"),
        ("vorak", "Dvořák, Aleš"),
    ],
)
def test_search_finds_a_part_of_a_name_and_its_ascii_spellings(
    accented_site: Path, browser: Browser, query: str, name: str
) -> None:
    """Any part of a word finds it ('vorak' Dvořák), and so do the usual spellings of letters
    outside ASCII: đ as 'dj', å as 'aa'."""
    page_of_player = player_page(accented_site, name).as_uri()
    with opened(browser, accented_site / "index.html", 390) as page:
        find(page, query)
        wait_for(page, LINKS_TO, page_of_player, f"{query!r} lists no link to {name}")


def test_the_players_names_are_fetched_when_the_search_is_used(
    sites: dict[str, Path], browser: Browser
) -> None:
    """A page does not load players.js (every player's name) until the reader uses the search;
    then it does, once, and the search answers."""
    site = sites["acf-2004"]
    hayes = player_page(site, "Hayes, Hana").as_uri()
    with opened(browser, site / "rules.html", 390) as page:
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.wait_for_load_state("load")
        assert page.evaluate("window.grandprixPlayers === undefined")
        assert not [url for url in fetched if url.endswith("players.js")]
        find(page, "hayes")
        wait_for(page, LINKS_TO, hayes, "'hayes' lists no link to Hayes, Hana")
        assert len([url for url in fetched if url.endswith("players.js")]) == 1


def test_search_says_no_player_found(sites: dict[str, Path], browser: Browser) -> None:
    with opened(browser, sites["acf-2004"] / "index.html", 390) as page:
        find(page, "zzyzx")
        said = """() => (document.querySelector('#find-status')?.textContent || '')
                          .toLowerCase().includes('no player found')"""
        wait_for(page, said, None, "'zzyzx' is not announced as 'No player found'")
        assert page.locator("#find-results a").count() == 0, listed(page)


def test_enter_opens_the_only_match(sites: dict[str, Path], browser: Browser) -> None:
    site = sites["acf-2004"]
    hayes = player_page(site, "Hayes, Hana").as_uri()
    with opened(browser, site / "index.html", 390) as page:
        find(page, "hana hayes")
        one = "() => document.querySelectorAll('#find-results a').length === 1"
        wait_for(page, one, None, "'hana hayes' does not list exactly one player")
        page.locator("#find").press("Enter")
        page.wait_for_url(hayes)


# -- without JavaScript -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SEASONS)
def test_without_javascript_the_search_opens_the_players_index(
    sites: dict[str, Path], browser: Browser, name: str
) -> None:
    """The form submits to players.html, which links every player of the standings (each
    player's page) by their name."""
    site = sites[name]
    index = (site / "players.html").as_uri()
    with opened(browser, site / "index.html", 390, script=False) as page:
        page.locator("#find").fill("hayes")
        page.locator("#find").press("Enter")
        with suppress(PlaywrightTimeout):
            page.wait_for_url(lambda url: url.split("?")[0] == index, timeout=WAIT_MS)
        assert page.url.split("?")[0] == index, f"the search form went to {page.url}"
        links = page.locator("a").evaluate_all(
            "els => els.map(e => [e.href, e.textContent.replace(/\\s+/g, ' ').trim()])"
        )
    missing = []
    for path in sorted((site / "players").glob("*.html")):
        name_shown = next(parse(path).iter("h1")).text()
        if not any(href == path.as_uri() and name_shown in text for href, text in links):
            missing.append(f"{name_shown} ({path.name})")
    assert not missing, f"players.html has no link to {len(missing)} player(s): {missing}"


@pytest.mark.parametrize("name", SEASONS)
def test_without_javascript_every_page_shows_its_tables(
    sites: dict[str, Path], browser: Browser, name: str
) -> None:
    """Every row of a table that shows with JavaScript shows without it; the home, player and
    event pages show theirs (the standings, the player's results, the placings)."""
    site = sites[name]
    paths = {kind: page_of(site, kind) for case, kind in CASES if case == name}
    hidden = [f"{p.relative_to(site)}: no such page" for p in paths.values() if not p.exists()]
    paths = {kind: path for kind, path in paths.items() if path.exists()}
    rows: dict[tuple[str, bool], int] = {}
    for script in (True, False):
        with opened(browser, site / "index.html", 1280, script) as page:
            for kind, path in paths.items():
                page.goto(path.as_uri())
                rows[kind, script] = page.locator("tbody tr:visible, ol.results li:visible").count()
    for kind, path in paths.items():
        without, with_script = rows[kind, False], rows[kind, True]
        if without < with_script or (kind in ("home", "player", "event", "round") and not without):
            hidden.append(f"{path.relative_to(site)}: {without} row(s), {with_script} with JS")
    assert not hidden, "\n".join(hidden)


@pytest.fixture(scope="session")
def long_crosstable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of a 20-player round robin (19 rounds): a crosstable wider than the page."""
    from grandprix.writers.trf import write_trf
    from seasons import write_season
    from synthetic import round_robin

    toml = (
        'name = "Round robin"\nrules = "acf-2004"\n\n[[events]]\nname = "All play all"\n'
        'date = 2026-03-01\nresults = "rr.trf"\nprize_fund = 1000\n'
    )
    base = tmp_path_factory.mktemp("rr")
    folder = write_season(base / "rr", toml, {"rr.trf": write_trf(round_robin(20, 7))})
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    build_site(season, base / "site")
    (page,) = event_pages(base / "site")
    return page


def test_a_wide_crosstable_keeps_names_and_scores_in_view(
    long_crosstable: Path, browser: Browser
) -> None:
    """At 1280 px a 19-round crosstable scrolls sideways in its box, and wherever it is
    scrolled each row's player and score stay in view, and so does its caption, whole."""
    with opened(browser, long_crosstable, 1280) as page:
        box = page.locator(".scroll[role=region]").first
        assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the table fits: no test"
        for left in (0, 10_000):
            box.evaluate(f"e => e.scrollLeft = {left}")
            edges = box.evaluate(
                """e => {
                  const r = e.getBoundingClientRect();
                  const row = e.querySelector('tbody tr');
                  const at = s => row.querySelector(s).getBoundingClientRect();
                  const c = e.querySelector('caption').getBoundingClientRect();
                  return [r.left, r.right, at('.who').left, at('.pts').right, c.left, c.right];
                }"""
            )
            left_edge, right_edge, who, pts, caption_left, caption_right = edges
            assert left_edge - 1 <= who and pts <= right_edge + 1, (left, edges)
            assert left_edge - 1 <= caption_left and caption_right <= right_edge + 1, (left, edges)

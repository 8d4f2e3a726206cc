"""The site's pages as plain data (site/views.py), and the one standings document
(reports/document.py) that both the CLI's JSON and the site's season.json are."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main
from grandprix.players import PlayerKey
from grandprix.reports.document import SCHEMA, standings_document
from grandprix.reports.exports import write_exports
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.site.pages import Page
from grandprix.site.parts import Link
from grandprix.site.views import DOWNLOAD_FILES, DOWNLOADS, MENU, SiteViews
from grandprix.site.words.common import place_span
from live_season import LIVE, make_live_season

SEASONS = ["utah-2012", "acf-2004", "lupiae-2012-13", "utah-2026", "circuit-2026"]
# The pages every season has, checked on each example and on a season with an event in progress
# (``live_season``: its event page and round pages besides).
ALL_PAGES = [*SEASONS, LIVE]
DETAIL = {"bonus"}  # the fields only the CLI's document has, of a line and of a result
RESULT_DETAIL = {"base", "event_weight", "section_weight"}


def season_of(name: str) -> Season:
    season, problems = load_season(ROOT / "examples" / name)
    assert season is not None, [str(p) for p in problems]
    return season


def plain(value: object) -> bool:
    """Strings, numbers, None, tuples of them and frozen records of them: nothing else."""
    if value is None or isinstance(value, str | int):
        return True
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        frozen = vars(type(value))["__dataclass_params__"].frozen
        return bool(frozen) and all(plain(getattr(value, f.name)) for f in fields(value))
    return False


def every_page(views: SiteViews) -> list[Page]:
    return [*views.pages(), views.downloads(["season.json"])]


@pytest.fixture(scope="module")
def live_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_live_season(tmp_path_factory.mktemp("live"))


@pytest.fixture
def views(name: str, request: pytest.FixtureRequest) -> SiteViews:
    """The views of the example season ``name``, or of the season with an event in progress."""
    if name != LIVE:
        return SiteViews(season_of(name))
    season, problems = load_season(request.getfixturevalue("live_folder"))
    assert season is not None, [str(p) for p in problems]
    return SiteViews(season)


@pytest.mark.parametrize("name", ALL_PAGES)
def test_every_page_is_plain_data(views: SiteViews) -> None:
    pages = every_page(views)
    assert all(plain(page) for page in pages)
    paths = [page.path for page in pages]
    assert len(paths) == len(set(paths))
    assert set(paths) >= {"index.html", "events.html", "prizes.html", "rules.html"}


@pytest.mark.parametrize("name", ALL_PAGES)
def test_every_page_is_at_the_path_it_is_listed_at_under_a_menu_item(views: SiteViews) -> None:
    """The pages' one list (``MENU``, then the pages of which the site has many) gives the
    writer its pages and the server each page by its path: each page is made at the path it is
    listed at, the menu's pages first, and belongs to a menu item."""
    pages = every_page(views)
    assert [page.path for page in pages] == [*views._paths, DOWNLOADS.path]
    assert [page.path for page in pages[: len(MENU) - 1]] == [item.path for item in MENU[:-1]]
    assert {page.section for page in pages} <= {item.section for item in MENU}
    assert all(views.page(page.path) == page for page in pages[:-1])


@pytest.mark.parametrize("name", ALL_PAGES)
def test_every_link_of_a_page_leads_to_a_page(views: SiteViews) -> None:
    """The links are relative to the page's path, so served at the same paths they all work."""
    pages = every_page(views)
    paths = {page.path for page in pages} | set(DOWNLOAD_FILES)  # the exports, written by build

    def values(value: object, name: str) -> Iterator[str]:
        """Every non-empty field ``name`` inside a page ('': a player without a page)."""
        if isinstance(value, tuple):
            for item in value:
                yield from values(item, name)
        elif is_dataclass(value) and not isinstance(value, type):
            for f in fields(value):
                inner = getattr(value, f.name)
                if f.name == name and inner:
                    yield inner
                yield from values(inner, name)

    anchors = {page.path: set(values(page, "anchor")) for page in pages}
    for page in pages:
        for href in values(page, "href"):
            path, _, fragment = href.partition("#")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page.path), path))
            assert target in paths, (page.path, href)
            assert not fragment or fragment in anchors.get(target, set()), (page.path, href)


def test_the_player_view_has_the_standings_total_and_results() -> None:
    """A player's view, asked for on its own: in every division of the player, the rank and
    total of the standings and each result, counted or dropped as the standings count it."""
    season = season_of("acf-2004")
    views = SiteViews(season)
    decimals = season.rules.standings.decimals
    assert len(views.tables) > 1
    for division, lines in views.tables:
        for line in lines[:5]:
            page = views.player(line.player)
            assert page.name == line.name
            part = next(p for p in page.parts if p.division == division)
            assert (part.rank, part.total) == (place_span(line.rank), show(line.total, decimals))
            assert sorted(r.points for r in part.results) == sorted(
                show(a.points, decimals) for a in line.awards
            )
            counted = [r for r in part.results if r.counted]
            assert len(counted) == len(line.counted)
            assert f"Total: {part.total}." in "".join(map(str, part.summary))
    with pytest.raises(KeyError):
        views.player(PlayerKey("id:no such player"))


def test_the_home_view_holds_each_division_view() -> None:
    views = SiteViews(season_of("acf-2004"))
    home = views.home()
    assert home.tables == tuple(views.division(name) for name, _ in views.tables)
    assert all(t.chart.startswith("<svg") for t in home.tables)
    assert home.played == len(views.played)


def without_detail(document: dict[str, Any]) -> dict[str, Any]:
    for division in document["divisions"]:
        for line in division["standings"]:
            assert set(line) >= DETAIL
            for key in DETAIL:
                del line[key]
            for result in line["results"]:
                assert set(result) >= RESULT_DETAIL
                for key in RESULT_DETAIL:
                    del result[key]
    return document


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004"])
def test_the_cli_json_is_the_sites_season_json_with_the_detail(name: str, tmp_path: Path) -> None:
    """One document: ``standings --format json`` prints the site's season.json (indented),
    each line with its bonus and each result with its base and weights besides."""
    season = season_of(name)
    views = SiteViews(season)
    write_exports(tmp_path, season, views.tables)
    site = json.loads((tmp_path / "season.json").read_text(encoding="utf-8"))
    result = CliRunner().invoke(
        main, ["standings", str(ROOT / "examples" / name), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert without_detail(json.loads(result.stdout)) == site
    assert [d["division"] for d in site["divisions"]] == [n for n, _ in views.tables]


def test_the_document_without_detail_names_only_what_the_schema_names() -> None:
    season = season_of("lupiae-2012-13")
    document = standings_document(season, SiteViews(season).tables)
    division = SCHEMA["properties"]["divisions"]["items"]
    line = division["properties"]["standings"]["items"]
    result = line["properties"]["results"]["items"]
    assert set(document) == set(SCHEMA["properties"]) - {"not_eligible"}  # none listed here
    for d in document["divisions"]:
        assert set(d) == set(division["properties"])
        for ln in d["standings"]:
            assert set(ln) == set(line["properties"])
            assert all(set(r) == set(result["properties"]) for r in ln["results"])


def test_the_race_shows_on_the_home_and_player_pages(tmp_path: Path) -> None:
    """acf-2004 with one class 1 event still to come: the rows and the player pages say what
    the race module says (checked against every outcome in test_race.py)."""
    import shutil

    from grandprix.season.race import race
    from grandprix.site.words.season import race_note

    folder = tmp_path / "acf-2004"
    shutil.copytree(ROOT / "examples" / "acf-2004", folder)
    with (folder / "season.toml").open("a", encoding="utf-8") as toml:
        toml.write(
            '\n[[events]]\nname = "Darwin Cup"\ndate = 2004-12-20\nplanned = true\n'
            "prize_fund = 1000\n"
        )
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    views = SiteViews(season)
    outlooks = race(season)
    open_ = views.division("Open")
    assert open_.race.startswith("With 1 event left")
    notes = [row.race for row in open_.rows]
    assert notes == [race_note(o) for o in outlooks["Open"]]
    assert notes[0].startswith("Can still finish 1st") and "" in notes  # some are out of it
    # The Open division takes everyone: its places are the event's (no "among" in the need).
    assert notes[0] == "Can still finish 1st; sure of it with 1st at Darwin Cup"
    leader = outlooks["Open"][0]
    part = next(p for p in views.player(leader.player).parts if p.key == "Open")
    assert part.race.startswith("With 1 event still to play, their total can reach at most ")
    assert leader.best is not None and show(leader.best, 2) in part.race


def test_the_players_index_is_in_the_order_of_the_names_as_written() -> None:
    """'Abbey, Nina' before 'Ellis, Hugo' before 'Nguyen, Aiden': surname first, as written,
    ignoring case and accents (not the word-sorted key that matches spellings)."""
    from grandprix.players import normalise

    views = SiteViews(season_of("acf-2004"))
    names = [link.text for link in views.players_index().blocks[0].entries]
    assert names == sorted(names, key=normalise) and len(names) == len(views.lines)
    assert names.index("Ellis, Hugo") < names.index("Nguyen, Aiden")


def test_ut4_a_result_in_words_on_the_player_page() -> None:
    """Walsh at the 2012 Provo Open: tied 2nd-6th among the Grand Prix players (2nd-7th in the
    event, D-UT-1), so the mean of the five places' points (UT-3, UT-4)."""
    views = SiteViews(season_of("utah-2012"))
    walsh = next(ln for _, lines in views.tables for ln in lines if ln.name == "Walsh, Milo")
    part = views.player(walsh.player).parts[0]
    provo = next(r for r in part.results if r.event == "Provo Open")
    text = "".join(p if isinstance(p, str) else p.text for p in provo.sentence)
    assert text == (
        "Tied 2nd-6th with 4 others among the Grand Prix players (2nd-7th in the event: players "
        "who are not eligible are skipped), so the average of 15, 12, 10, 8 and 6 = 10.20. "
        "(D-UT-1, UT-4)"
    )
    links = [p for p in provo.sentence if not isinstance(p, str)]
    assert [link.href for link in links] == ["../rules.html#rule-D-UT-1", "../rules.html#rule-UT-4"]


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004"])
def test_long_tables_are_shown_in_part_and_listed_in_full_page_by_page(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table longer than one page: the home page shows its top rows and links every page;
    the pages hold every row once, in order, each at most a page long; the players' list and
    the "standings after" pages are bounded the same way."""
    from grandprix.site import list_view
    from grandprix.site import views as module

    monkeypatch.setattr(module, "PAGE_ROWS", 7)
    monkeypatch.setattr(list_view, "PAGE_ROWS", 7)  # the players' list's pages
    monkeypatch.setattr(module, "TOP_ROWS", 3)
    views = SiteViews(season_of(name))
    paths = {page.path for page in views.pages()}
    long = [(table, lines) for table, lines in views.tables if len(lines) > 7]
    assert long
    home = views.home()
    for (table, lines), shown in zip(views.tables, home.tables, strict=True):
        whole = views._standings(table, lines)
        if len(lines) <= 7:
            assert shown == whole and not shown.pages
            continue
        assert shown.rows == whole.rows[:3]
        assert shown.note.startswith(f"The top 3 of the {len(lines):,} players")
        pages = [views.standings_page(table, n) for n in range(1, len(shown.pages) + 1)]
        assert len(pages) == -(-len(lines) // 7)
        assert [link.href for link in shown.pages] == [page.path for page in pages]
        assert all(page.path in paths for page in pages)
        listed = [row for page in pages for row in page.tables[0].rows]
        assert [r._replace(href=r.href.removeprefix("../")) for r in listed] == list(whole.rows)
        assert all(len(page.tables[0].rows) <= 7 for page in pages)
        for n, page in enumerate(pages, 1):  # each page names itself without a link
            current = [link for link in page.tables[0].pages if not link.href]
            assert [c.text for c in current] == [shown.pages[n - 1].text]
            assert all(r.href.startswith("../players/") for r in page.tables[0].rows)
            assert all(
                posixpath.normpath(posixpath.join("standings", link.href)) in paths
                for link in page.tables[0].pages
                if link.href
            )
    players = [views.players_index(n) for n in range(1, -(-len(views.lines) // 7) + 1)]
    names = [entry.href for part in players for entry in part.blocks[0].entries]
    assert sorted(names) == sorted(f"players/{f}" for f in views.player_files.values())
    assert len(names) == len(set(names)) and all(p.path in paths for p in players)
    for event in views.played:
        if event.date in views.dated:
            after = views.after(event.index)
            assert all(len(t.rows) <= 7 for block in after.blocks for t in block.tables)


def test_share_makes_every_shared_value_before_a_fork() -> None:
    """What the static writer's two processes share is made once, before the fork: every
    cached value of the views (the event pages' too) and of the computed season."""
    from functools import cached_property

    views = SiteViews(season_of("lupiae-2012-13"))
    views.share()
    for owner in (views, views.computed):
        names = [
            name
            for kind in type(owner).__mro__
            for name, member in vars(kind).items()
            if isinstance(member, cached_property)
        ]
        assert names and all(name in vars(owner) for name in names), type(owner)
    assert "_awards" in vars(views)  # of the event pages, defined beside the views


def test_prizes_are_grouped_by_table_then_place() -> None:
    """acf-2004: a block per ranking (Open, then each division), each its prizes in the order
    of the places they went to, the place shown."""
    page = SiteViews(season_of("acf-2004")).prizes()
    headings = [b.heading for b in page.blocks if b.tables]
    assert (
        headings[0] == "Open" and "Under 2000" in headings and len(set(headings)) == len(headings)
    )
    for block in page.blocks:
        for table in block.tables:
            assert table.head == ("Prize", "Player", "Place", "Value", "Why")
            places = [int(re.match(r"\d+", str(row[2])).group()) for row in table.rows]  # type: ignore[union-attr]
            assert places == sorted(places), (block.heading, places)


def test_the_events_page_lists_each_events_field_winner_and_rate() -> None:
    """acf-2004: each event played with its date, its players, the first section's winner (all
    of those who share 1st, each with the score) and its rate."""
    views = SiteViews(season_of("acf-2004"))
    [table] = [t for b in views.events_index().blocks for t in b.tables]
    assert table.head == ("Date", "Event", "Players", "Winner", "Kind and rate")
    by_event = {row[1].text: row for row in table.rows if isinstance(row[1], Link)}
    for event in views.played:
        row = by_event[event.name]
        assert row[0] == event.date.isoformat()
        assert row[2] == str(sum(s.section.size for s in event.sections))
        columns = event.sections[0].section.columns
        best = max(columns.points)
        leaders = [n for n, p in zip(columns.name, columns.points, strict=True) if p == best]
        assert all(name in str(row[3]) for name in leaders), (row[3], leaders)


def test_the_home_page_names_each_tables_leaders_at_the_top(tmp_path: Path) -> None:
    """Before the tables: each table's players ranked 1st (all who share it), with the points."""
    out = tmp_path / "site"
    assert (
        CliRunner()
        .invoke(main, ["site", str(ROOT / "examples" / "acf-2004"), "-o", str(out)])
        .exit_code
        == 0
    )
    page = (out / "index.html").read_text()
    leaders = page[page.index('<ul class="leaders">') : page.index("</ul>", page.index("leaders"))]
    assert page.index('<ul class="leaders">') < page.index('<table class="standings">')
    for name, lines in SiteViews(season_of("acf-2004")).tables:
        firsts = [ln for ln in lines if ln.rank_first == 1]
        assert f">{name}</a>:" in leaders
        assert all(ln.name in leaders for ln in firsts)
        assert f"({show(firsts[0].total, 2)} points)" in leaders


def test_a_players_page_says_the_rating_used_and_why_in_or_out_of_each_division() -> None:
    """acf-2004: the rating and its list; each division 'In' exactly when the player has a line
    in its table, with the conditions in words."""
    views = SiteViews(season_of("acf-2004"))
    members = {name: {ln.player for ln in lines} for name, lines in views.tables}
    for key in list(views.lines)[:40]:
        said = views.player(key).divisions
        assert said[0].startswith("Rating used: ")
        for name, table in members.items():
            [line] = [s for s in said if s.startswith((f"In {name}: ", f"Not in {name}: "))]
            assert line.startswith("In ") == (key in table), line
    abbey = next(k for k in views.lines if views.lines[k][0][1].name == "Abbey, Nina")
    assert "In Under 2000: rating " in "\n".join(views.player(abbey).divisions)


def test_standings_after_a_date_of_several_events_say_so() -> None:
    """circuit-2026 plays two events on 2026-02-28: the standings of that date hold both, and
    their page and the events' links say 'after the events of 2026-02-28', naming both."""
    views = SiteViews(season_of("circuit-2026"))
    both = [e for e in views.played if str(e.date) == "2026-02-28"]
    assert len(both) == 2
    for event in both:
        page = views.after(event.index)
        assert page.title == "Standings after the events of 2026-02-28"
        assert all(e.name in page.intro for e in both)
        link = views.event(event.index).after
        assert link is not None and link.text == "The standings after the events of 2026-02-28"
    alone = next(e for e in views.played if str(e.date) != "2026-02-28" and e.date in views.dated)
    assert views.after(alone.index).title == f"Standings after {alone.name}"

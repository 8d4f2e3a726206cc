"""What a reader of the pages meets first: the tab's title, the site's icon, a standings table
after one event (no empty column), and the pages not loading every player's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.season.config import load_season
from grandprix.serve.app import create_app
from grandprix.site.build import build_site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """utah-2026 (one event played), utah-2012 (seven) and acf-2004 (divisions by the season's
    own rating list), built."""
    built = {}
    for name in ("utah-2026", "utah-2012", "acf-2004"):
        season, problems = load_season(ROOT / "examples" / name)
        assert season is not None, [str(p) for p in problems]
        out = tmp_path_factory.mktemp(name) / "site"
        build_site(season, out)
        built[name] = out
    return built


def title(page: Path) -> str:
    found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"))
    assert found is not None
    return found.group(1)


def test_a_tab_says_the_seasons_name_once(sites: dict[str, Path]) -> None:
    for site in sites.values():
        for page in [site / "index.html", site / "rules.html", *sorted(site.glob("players/*"))]:
            said = title(page)
            name = said.rsplit(" · ", 1)[-1]
            assert said.count(name) == 1, (page, said)


def test_every_page_has_the_sites_icon_and_none_loads_every_player(
    sites: dict[str, Path],
) -> None:
    """The icon is in the site and named by every page (no 404 for /favicon.ico); players.js
    (every player's name, 711 KB at 20,000 players) is fetched by the search when it is used,
    not by each page."""
    for site in sites.values():
        assert (site / "favicon.svg").read_text().startswith("<svg")
        for page in site.rglob("*.html"):
            html = page.read_text(encoding="utf-8")
            assert re.search(r'<link rel="icon" href="(\.\./)*favicon\.svg"', html), page
            assert "players.js" not in html, page


def test_after_one_event_the_standings_have_no_move_column(sites: dict[str, Path]) -> None:
    one = (sites["utah-2026"] / "index.html").read_text(encoding="utf-8")
    seven = (sites["utah-2012"] / "index.html").read_text(encoding="utf-8")
    assert ">Move</th>" not in one and 'class="move' not in one
    assert "movement since" not in one
    assert ">Move</th>" in seven and "movement since the previous event" in seven


def test_the_server_serves_the_icon_to_its_own_pages_and_each_seasons(tmp_path: Path) -> None:
    web = TestClient(
        create_app({"utah-2012": ROOT / "examples" / "utah-2012"}, secret=b"s" * 32),
        base_url="http://127.0.0.1:8000",
    )
    for path in ("/favicon.svg", "/s/utah-2012/favicon.svg"):
        answer = web.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert '<link rel="icon" href="/favicon.svg"' in web.get("/s/utah-2012/workspace").text
    assert '<link rel="icon" href="/favicon.svg"' in web.get("/s/no-such-season/").text


def test_an_events_rating_is_labelled_where_the_divisions_use_another(
    sites: dict[str, Path],
) -> None:
    """ACF Perth Open: Iverson is 2444 in the results file and unrated in the season's list
    (so 1st in Unrated): the event's column says it is the event's rating, and a note says the
    divisions go by the season's list. A season without lists keeps 'Rating'."""
    perth = next((sites["acf-2004"] / "events").glob("*-perth-open.html")).read_text("utf-8")
    assert '<th scope="col" class="num wide">Event rating</th>' in perth
    assert 'data-label="Event rating">2444<' in perth
    assert "The season's divisions go by its own rating list" in perth
    assert ">Rating</th>" not in perth
    for page in (sites["utah-2012"] / "events").glob("0*.html"):
        assert "Event rating" not in page.read_text("utf-8")


def test_players_level_on_no_points_have_no_rank_range(sites: dict[str, Path]) -> None:
    """utah-2026: 35 players share 73rd-107th on 0 points. The table shows them without a rank
    ('–', not '73-107') and their pages say 'no points yet'; a shared rank on points stays."""
    home = (sites["utah-2026"] / "index.html").read_text(encoding="utf-8")
    rows = re.findall(
        r'<tr><td>([^<]*)</td><td><a href="players/([^"]+)"><bdi>[^<]*</bdi></a>'
        r'.*?<td class="num">([^<]*)<',
        home,
    )
    assert rows
    zero = [(rank, page) for rank, page, points in rows if points == "0.00"]
    assert zero and all(rank == "–" for rank, _ in zero)
    assert all(rank != "–" for rank, _, points in rows if points != "0.00")
    assert any("-" in rank for rank, _, points in rows if points != "0.00")  # shared on points
    page = (sites["utah-2026"] / "players" / zero[0][1]).read_text(encoding="utf-8")
    assert "no points yet" in page

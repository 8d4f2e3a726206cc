"""What a results file or season.toml says cannot be turned against the reader of the pages: a
player's or an event's name is isolated (``<bdi>``) so that a right-to-left override in it turns
nothing around it, and every control character or bidirectional control it holds is shown as
its escape, on every page, in every language, and in the search box's list."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from grandprix.season.config import load_season
from grandprix.site.build import build_site

CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
PLAYER = "\u202eAlma Baird"  # shown reversed, and what follows it too, without isolation
EVENT = "Winter\x07 Quick\u2067"  # a bell, and an isolate left open


@pytest.fixture(scope="module", params=["en", "it", "es"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("season") / "utah"
    shutil.copytree(ROOT / "examples" / "utah-2012", folder)
    for listed in folder.glob("*.csv"):  # players.csv too: the name the pages show
        listed.write_text(listed.read_text().replace('"Baird, Alma"', f'"{PLAYER}"'))
    toml = folder / "season.toml"
    text = toml.read_text().replace(
        'name = "Salt Lake Winter Quick"', 'name = "Winter\\u0007 Quick\\u2067"'
    )
    if request.param != "en":
        text = text.replace("end = 2012-12-31", f'end = 2012-12-31\nlanguage = "{request.param}"')
    toml.write_text(text)
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    assert any(e.name == EVENT for e in season.events)
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(season, out)
    return out


def test_no_page_holds_a_control_character_and_each_is_shown_as_its_escape(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    showing_player = showing_event = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not CONTROLS.search(html), (page, CONTROLS.search(html))
        showing_player += "\\u202eAlma Baird" in html
        showing_event += "Winter\\x07 Quick\\u2067" in html
    assert showing_player >= 3  # the standings, the player's page, the event's
    assert showing_event >= 3  # the event's page, the events list, the players' results


def test_every_name_is_isolated_from_the_text_around_it(site: Path) -> None:
    """The name as a link or a heading sits in its own ``<bdi>`` wherever it is listed."""
    player = re.escape("\\u202eAlma Baird")
    event = re.escape("Winter\\x07 Quick\\u2067")
    home = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(f'<a href="[^"]+"><bdi>{player}</bdi></a>', home)
    [own] = [p for p in (site / "players").glob("*.html") if "Alma Baird" in p.read_text()]
    html = own.read_text(encoding="utf-8")
    assert "<h1><bdi>\\u202eAlma Baird</bdi></h1>" in html
    assert re.search(f'<a href="[^"]+"><bdi>{event}</bdi></a>', html)  # the results list
    page = site / "events" / "001-winter-quick.html"
    html = page.read_text(encoding="utf-8")
    assert "<h1><bdi>Winter\\x07 Quick\\u2067</bdi></h1>" in html
    assert re.search(f"<bdi><a [^>]+>{player}</a></bdi>|<a [^>]+><bdi>{player}</bdi>", html)
    events = (site / "events.html").read_text(encoding="utf-8")
    assert re.search(f'<bdi><a href="[^"]+">{event}</a></bdi>', events)


def test_the_search_box_lists_the_name_with_its_escapes(site: Path) -> None:
    script = (site / "players.js").read_text(encoding="utf-8")
    assert not CONTROLS.search(script)
    assert '"\\\\u202eAlma Baird"' in script  # the backslash itself, escaped in the JSON

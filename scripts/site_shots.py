"""Screenshots of the example sites: every page type, full length (make site-shots).

Builds the site of examples/acf-2004 into site-shots/site and saves site-shots/NAME-WIDTH.png
for the home page, a player, an event, the standings after it, the events, prizes, rules,
downloads and players pages, as a phone (390 px wide) and a desktop (1280 px) would show them,
with Debian's Chromium; then the same pages of examples/lupiae-2012-13, whose pages speak
Italian, as site-shots/it-NAME-WIDTH.png. A page missing from a site is named, and the script
ends with exit status 1 after the other shots.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.site.build import build_site

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "site-shots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = {390: "phone", 1280: "desktop"}


# Each example season shot, with the prefix of its shots and the event page shown.
SEASONS = (
    ("acf-2004", "", "002-sydney-open.html"),  # two sections, six divisions
    ("lupiae-2012-13", "it-", "002-prova-2.html"),  # in Italian, with a crosstable
)


def main() -> int:
    status = 0
    OUT.mkdir(exist_ok=True)
    for name, prefix, event in SEASONS:
        season, problems = load_season(ROOT / "examples" / name)
        if season is None:
            print("\n".join(map(str, problems)))
            return 2
        status = max(status, shoot(season, OUT / f"{prefix}site", prefix, event))
    return status


def shoot(season: Season, site: Path, prefix: str, event_file: str) -> int:
    """The shots of one season's site, built into ``site``; 1 when a page is missing."""
    build_site(season, site)
    player = sorted((site / "players").glob("*.html"))[0]
    event = site / "events" / event_file
    after = site / "events" / f"after-{event_file.split('-')[0]}.html"  # the standings after it
    pages = {"home": site / "index.html", "player": player, "event": event, "after": after}
    for name in ("events", "prizes", "rules", "downloads", "players"):
        pages[name] = site / f"{name}.html"
    missing = [name for name, path in pages.items() if not path.exists()]
    for name in missing:
        print(f"no {name} page: {pages.pop(name)} is not in the site", file=sys.stderr)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for width, label in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": 900})
            for name, path in pages.items():
                page.goto(path.as_uri())
                shot = OUT / f"{prefix}{name}-{label}.png"
                page.screenshot(path=str(shot), full_page=True)
                print(f"saved {shot}")
            page.close()
        browser.close()
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

"""Screenshots of the example site: every page type, full length (make site-shots).

Builds the site of examples/acf-2004 into site-shots/site and saves site-shots/NAME-WIDTH.png
for the home page, a player, an event, the standings after it, the events, prizes, rules,
downloads and players pages, as a phone (390 px wide) and a desktop (1280 px) would show them,
with Debian's Chromium. A page
missing from the site is named, and the script ends with exit status 1 after the other shots.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from grandprix.season.config import load_season
from grandprix.site.build import build_site

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "site-shots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
WIDTHS = {390: "phone", 1280: "desktop"}


def main() -> int:
    season, problems = load_season(ROOT / "examples" / "acf-2004")
    if season is None:
        print("\n".join(map(str, problems)))
        return 2
    site = OUT / "site"
    OUT.mkdir(exist_ok=True)
    build_site(season, site)
    player = sorted((site / "players").glob("*.html"))[0]
    event = site / "events" / "002-sydney-open.html"  # two sections, six divisions
    after = site / "events" / "after-002.html"  # the standings after it
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
                shot = OUT / f"{name}-{label}.png"
                page.screenshot(path=str(shot), full_page=True)
                print(f"saved {shot}")
            page.close()
        browser.close()
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

"""The page of a folder that holds several seasons' sites (``grandprix site-index DIR``): a list
of the seasons, each with its standings' date and a link to its site, styled by the first site's
style sheet. It is written only over a page it wrote before, never over another file."""

from __future__ import annotations

import json
from pathlib import Path

from grandprix.errors import UsageError
from grandprix.language import _, spoken
from grandprix.site.build import MARK, environment

INDEX_MARK = "<!-- written by grandprix site-index; the next run replaces it -->"


def season_sites(folder: Path) -> list[tuple[str, str, str]]:
    """(folder name, season name, what its standings are after) of every site in ``folder``,
    by season name."""
    found = []
    for site in sorted(p for p in folder.iterdir() if (p / MARK).is_file()):
        try:
            document = json.loads((site / "season.json").read_text(encoding="utf-8"))
            name = str(document.get("season") or site.name)
        except (OSError, ValueError):
            name = site.name
        found.append((site.name, name, _updated(site)))
    return sorted(found, key=lambda s: (s[1].casefold(), s[0]))


def _updated(site: Path) -> str:
    """The 'Standings after ...' line of the site's home page, '' when it has none."""
    try:
        page = (site / "index.html").read_text(encoding="utf-8")
    except OSError:
        return ""
    start = page.find('<p class="updated">')
    if start < 0:
        return ""
    start += len('<p class="updated">')
    end = page.find("</p>", start)
    return page[start:end] if end > start else ""


def write_site_index(folder: Path) -> int:
    """``folder``/index.html listing the season sites in it; the number of seasons. A
    UsageError when the folder has none, or holds an index.html this command did not write."""
    sites = season_sites(folder)
    if not sites:
        raise UsageError(
            f"{folder}: no site of a season in it (make them with 'grandprix site "
            f"SEASON_DIR -o {folder}/NAME')"
        )
    target = folder / "index.html"
    if target.exists() and INDEX_MARK not in target.read_text(encoding="utf-8", errors="replace"):
        raise UsageError(
            f"{target}: a page this command did not write; it is left as it was "
            "(move it away, or give another folder)"
        )
    style = f"{sites[0][0]}/style.css"
    html = (
        environment()
        .from_string(TEMPLATE)
        .render(sites=sites, style=style, mark=INDEX_MARK, lang=spoken(), title=_("Seasons"))
    )
    temp = folder / ".index.html.tmp"
    temp.write_text(html, encoding="utf-8")
    temp.replace(target)
    return len(sites)


TEMPLATE = """<!DOCTYPE html>
{{ mark | safe }}
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<link rel="stylesheet" href="{{ style }}">
</head>
<body>
<main id="main">
<h1>{{ title }}</h1>
<ul class="seasons">
{% for folder, name, updated in sites %}
<li><a href="{{ folder }}/index.html">{{ name }}</a>{% if updated %} · {{ updated }}{% endif %}</li>
{% endfor %}
</ul>
</main>
</body>
</html>
"""

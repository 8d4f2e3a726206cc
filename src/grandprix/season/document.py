"""The standings document: the one shape of the standings as data, for the site's season.json,
the output of ``grandprix standings --format json`` and any later API.

``{"season", "rules", "divisions": [{"division", "standings": [line, ...]}]}``, one division
named '' without divisions; every line lists every result behind it, counted or dropped. The
site publishes its JSON Schema (``site/exports.py``, season.schema.json). Numbers are decimal
strings (points with the rule set's decimals) so that they stay exact.
"""

from __future__ import annotations

from typing import Any

from grandprix.numbers import show
from grandprix.season.model import Award, Line, Season
from grandprix.season.report import Tables


def standings_document(season: Season, tables: Tables, detail: bool = False) -> dict[str, Any]:
    """The standings of every table in ``tables``. With ``detail`` each line also has its
    ``bonus`` and each result its ``base``, ``event_weight`` and ``section_weight``: fields the
    schema does not name, and allows."""
    decimals = season.rules.standings.decimals
    return {
        "season": season.name,
        "rules": season.rules.name,
        "divisions": [
            {"division": name, "standings": [_line(line, decimals, detail) for line in lines]}
            for name, lines in tables
        ],
    }


def _line(line: Line, decimals: int, detail: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rank": line.rank,
        "player_id": line.player.id or None,
        "name": line.name,
        "points": show(line.total, decimals),
        "events": line.events,
    }
    if detail:
        out["bonus"] = show(line.bonus, decimals)
    out["results"] = [_result(a, a in line.counted, decimals, detail) for a in line.awards]
    return out


def _result(award: Award, counted: bool, decimals: int, detail: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "date": award.date.isoformat(),
        "event": award.event_name,
        "section": award.section,
        "place": award.place,
        "score": show(award.score),
    }
    if detail:
        out["base"] = show(award.base, decimals)
        out["event_weight"] = show(award.event_weight)
        out["section_weight"] = show(award.section_weight)
    out["points"] = show(award.points, decimals)
    out["counted"] = counted
    return out

"""The standings document: the one shape of the standings as data, for the site's season.json,
the output of ``grandprix standings --format json`` and any later API.

``{"season", "rules", "divisions": [{"division", "standings": [line, ...]}]}``, one division
named '' without divisions; every line lists every result behind it, counted or dropped. Its JSON
Schema is ``SCHEMA`` below (the site publishes it as season.schema.json). Numbers are decimal
strings (points with the rule set's decimals) so that they stay exact.
"""

from __future__ import annotations

from typing import Any

from grandprix.numbers import show
from grandprix.season.model import Award, Line, Season
from grandprix.season.report import Tables

# The shape of the document, published beside the site's season.json as season.schema.json.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "grandprix season export",
    "description": "Standings of every division and every result behind them. Numbers are "
    "decimal strings (points with the rule set's decimals) so that they stay exact.",
    "type": "object",
    "required": ["season", "rules", "divisions"],
    "properties": {
        "season": {"type": "string", "description": "Season name."},
        "rules": {"type": "string", "description": "Rule set name."},
        "divisions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["division", "standings"],
                "properties": {
                    "division": {"type": "string", "description": "'' without divisions."},
                    "standings": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["rank", "name", "points", "events", "results"],
                            "properties": {
                                "rank": {"type": "string", "description": "'3' or '9-10'."},
                                "player_id": {"type": ["string", "null"]},
                                "name": {"type": "string"},
                                "points": {"type": "string", "pattern": "^-?[0-9]+(\\\\.[0-9]+)?$"},
                                "events": {"type": "integer", "minimum": 0},
                                "results": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "date": {"type": "string", "format": "date"},
                                            "event": {"type": "string"},
                                            "section": {"type": "string"},
                                            "place": {"type": "string"},
                                            "score": {"type": "string"},
                                            "points": {"type": "string"},
                                            "counted": {"type": "boolean"},
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def standings_document(season: Season, tables: Tables, detail: bool = False) -> dict[str, Any]:
    """The standings of every table in ``tables``. With ``detail`` each line also has its
    ``bonus`` and each result its ``base``, ``event_weight`` and ``section_weight`` (and its
    ``factor`` and ``extra`` when the rules have them): fields the schema does not name, and
    allows."""
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
        if award.factor != 1:  # FC-1, NW-1: points = base x factor x weights + extra
            out["factor"] = show(award.factor)
        if award.extra:  # KW-4, KW-5
            out["extra"] = show(award.extra, decimals)
    out["points"] = show(award.points, decimals)
    out["counted"] = counted
    return out

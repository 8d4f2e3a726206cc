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
from grandprix.placings import span_text
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
    texts = _Texts(decimals, detail)
    return {
        "season": season.name,
        "rules": season.rules.name,
        "divisions": [
            {"division": name, "standings": [_line(line, texts) for line in lines]}
            for name, lines in tables
        ],
    }


def _line(line: Line, texts: _Texts) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rank": line.rank,
        "player_id": line.player.id or None,
        "name": line.name,
        "points": show(line.total, texts.decimals),
        "events": line.events,
    }
    if texts.detail:
        out["bonus"] = show(line.bonus, texts.decimals)
    counted = line.counted
    if counted is line.awards:  # every result counts (``player_line`` gives the one tuple)
        out["results"] = [texts.result(a, True) for a in line.awards]
    else:  # by identity: a line never holds two equal awards (one person twice in an event)
        ids = set(map(id, counted))
        out["results"] = [texts.result(a, id(a) in ids) for a in line.awards]
    return out


class _Texts:
    """The fields of results, each made once for what they are made of: an event section's
    (date, event, section) for all its results, a valuation's points for all the results it
    values (half a million results in a large season)."""

    def __init__(self, decimals: int, detail: bool) -> None:
        self.decimals = decimals
        self.detail = detail
        # Keyed by the objects' identities: they live as long as the lines being shown.
        self._origins: dict[int, tuple[str, str, str]] = {}
        self._valuations: dict[int, dict[str, str]] = {}

    def result(self, award: Award, counted: bool) -> dict[str, Any]:
        origin = self._origins.get(id(award.origin))
        if origin is None:
            origin = self._origins[id(award.origin)] = (
                award.date.isoformat(), award.event_name, award.section
            )  # fmt: skip
        value = self._valuations.get(id(award.valuation))
        if value is None:
            value = self._valuations[id(award.valuation)] = self._value(award)
        date, event, section = origin
        place = span_text(award.first, award.last)
        out: dict[str, Any] = {"date": date, "event": event, "section": section, "place": place,
                               "score": show(award.score)}  # fmt: skip
        out.update(value)
        out["counted"] = counted
        return out

    def _value(self, award: Award) -> dict[str, str]:
        """The fields of a result that its valuation decides, in the document's order."""
        out: dict[str, str] = {}
        if self.detail:
            out["base"] = show(award.base, self.decimals)
            out["event_weight"] = show(award.event_weight)
            out["section_weight"] = show(award.section_weight)
            if award.factor != 1:  # FC-1, NW-1: points = base x factor x weights + extra
                out["factor"] = show(award.factor)
            if award.extra:  # KW-4, KW-5
                out["extra"] = show(award.extra, self.decimals)
        out["points"] = show(award.points, self.decimals)
        return out

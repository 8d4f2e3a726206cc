"""The standings document: the one shape of the standings as data, for the site's season.json,
the output of ``grandprix standings --format json`` and any later API.

``{"season", "rules", "divisions": [{"division", "standings": [line, ...]}]}``, one division
named '' without divisions; every line lists every result behind it, counted or dropped. Its JSON
Schema is ``SCHEMA`` below (the site publishes it as season.schema.json). Numbers are decimal
strings, never binary floats; points are each exact value rounded to the rule set's decimals
(a total is rounded once from the exact sum, not summed from rounded results).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from grandprix.scores import show, span_text
from grandprix.season.model import Award, Line, Season, Tables, Unplaced, Valuation

# Patterns of the document's numbers, all decimal strings (``numbers.show``): a decimal ('72.00',
# '-1.5', '3'), and a place or rank ('3', or '9-10' for a shared one).
DECIMAL_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"
SPAN_PATTERN = r"^[0-9]+(-[0-9]+)?$"


def _decimal(description: str) -> dict[str, Any]:
    return {"type": "string", "pattern": DECIMAL_PATTERN, "description": description}


# The shape of the document, published beside the site's season.json as season.schema.json.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "grandprix season export",
    "description": "Standings of every division and every result behind them. Numbers are "
    "decimal strings, never binary floats. Points (a line's and a result's) are shown with the "
    "rule set's decimals (standings.decimals), each its exact value rounded half away from "
    "zero. A line's points are the exact sum of its counted results' points and the season's "
    "bonus for events played (counting.bonus_per_event for each event, not among the results), "
    "rounded once, so the shown points of its results can add up to a little more or less. "
    "Scores are shown with all their decimals when they end, else rounded to 4.",
    "type": "object",
    "required": ["season", "rules", "divisions"],
    "properties": {
        "season": {"type": "string", "description": "Season name."},
        "rules": {"type": "string", "description": "Rule set name."},
        "not_eligible": {
            "type": "array",
            "description": "With standings.ineligible = 'listed': players of the season's "
            "events in no standings, with 0 points and why.",
            "items": {
                "type": "object",
                "required": ["name", "points", "events", "reason"],
                "properties": {
                    "player_id": {"type": ["string", "null"]},
                    "name": {"type": "string"},
                    "points": _decimal("0, with the rule set's decimals."),
                    "events": {"type": "integer", "minimum": 0},
                    "reason": {"type": "string"},
                },
            },
        },
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
                                "rank": {
                                    "type": "string",
                                    "pattern": SPAN_PATTERN,
                                    "description": "'3', or '9-10' shared.",
                                },
                                "player_id": {"type": ["string", "null"]},
                                "name": {"type": "string"},
                                "points": _decimal(
                                    "The total: the counted results' exact points plus the "
                                    "bonus, rounded once to the rule set's decimals."
                                ),
                                "events": {"type": "integer", "minimum": 0},
                                "results": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": [
                                            "date",
                                            "event",
                                            "section",
                                            "place",
                                            "score",
                                            "points",
                                            "counted",
                                        ],
                                        "properties": {
                                            "date": {"type": "string", "format": "date"},
                                            "event": {"type": "string"},
                                            "section": {"type": "string"},
                                            "place": {
                                                "type": "string",
                                                "pattern": SPAN_PATTERN,
                                                "description": "'3', or '6-8' shared.",
                                            },
                                            "score": _decimal("Game points in the section."),
                                            "points": _decimal(
                                                "The result's exact points rounded to the rule "
                                                "set's decimals."
                                            ),
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


def standings_document(
    season: Season, tables: Tables, detail: bool = False, left_out: Sequence[Unplaced] = ()
) -> dict[str, Any]:
    """The standings of every table in ``tables``. With ``detail`` each line also has its
    ``bonus`` and each result its ``base``, ``event_weight`` and ``section_weight`` (and its
    ``factor``, ``extra`` and the valuation's recorded steps, ``_steps``, when the rules have
    them): fields the schema does not name, and allows. ``left_out``: the players listed as
    in no standings (``not_eligible``)."""
    decimals = season.rules.standings.decimals
    texts = _Texts(decimals, detail)
    document: dict[str, Any] = {
        "season": season.name,
        "rules": season.rules.name,
        "divisions": [
            {"division": name, "standings": [_line(line, texts) for line in lines]}
            for name, lines in tables
        ],
    }
    if left_out:
        zero = show(Fraction(0), decimals)
        document["not_eligible"] = [
            {
                "player_id": u.player.id or None,
                "name": u.name,
                "points": zero,
                "events": u.events,
                "reason": u.reason,
            }
            for u in left_out
        ]
    return document


def compact_entries(season: Season) -> Callable[[Iterable[Line]], str]:
    """What gives the entries of some of the season's lines in the standings document (without
    ``detail``) as compact JSON, without the list's brackets: the text ``json.dumps`` gives
    them with separators ``(",", ":")`` and ``ensure_ascii=False``, each event section's and
    each valuation's part of a result made once for all the lines it is given (the site's
    season.json of half a million results, a thousand lines at a time)."""
    texts = _Texts(season.rules.standings.decimals, False)
    return lambda lines: ",".join(map(texts.line_json, lines))


def _line(line: Line, texts: _Texts) -> dict[str, Any]:
    out = _line_head(line, texts)
    out["results"] = [texts.result(a, counted) for a, counted in line.results()]
    return out


def _line_head(line: Line, texts: _Texts) -> dict[str, Any]:
    """A line's entry before its results (which come last)."""
    out: dict[str, Any] = {
        "rank": line.rank,
        "player_id": line.player.id or None,
        "name": line.name,
        "points": show(line.total, texts.decimals),
        "events": line.events,
    }
    if texts.detail:
        out["bonus"] = show(line.bonus, texts.decimals)
    return out


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _steps(valuation: Valuation, decimals: int) -> dict[str, Any]:
    """The steps of a result's valuation as the engine recorded them: each term of a sum with
    what it is for, the value the minimum raised (LUP-1), each multiplier and bonus with its
    reason and the rule IDs it stands for."""
    out: dict[str, Any] = {}
    if valuation.terms:
        out["terms"] = [{"for": str(w), "points": show(v, decimals)} for w, v in valuation.terms]
    if valuation.floored_from is not None:
        out["raised_from"] = show(valuation.floored_from, decimals)
    for key, steps in (("factors", valuation.factors), ("bonuses", valuation.bonuses)):
        if steps:
            out[key] = [
                {"for": str(w), "value": show(v), "rules": list(getattr(w, "cites", ()))}
                for w, v in steps
            ]
    return out


class _Texts:
    """The fields of results, each made once for what they are made of: an event section's
    (date, event, section) for all its results, a valuation's points for all the results it
    values (half a million results in a large season)."""

    def __init__(self, decimals: int, detail: bool) -> None:
        self.decimals = decimals
        self.detail = detail
        # Keyed by the objects' identities (cheaper than hashing them), each kept with its
        # text: alive while it is kept, no other object can take its identity.
        self._origins: dict[int, tuple[object, dict[str, str]]] = {}
        self._valuations: dict[int, tuple[object, dict[str, Any]]] = {}
        self._origin_json: dict[int, str] = {}
        self._valuation_json: dict[int, str] = {}  # (each valuation kept in _valuations)
        self._rest_json: dict[tuple[int, int, int, int, int, bool], str] = {}

    def result(self, award: Award, counted: bool) -> dict[str, Any]:
        out: dict[str, Any] = dict(self._origin(award))
        out["place"] = span_text(award.first, award.last)
        out["score"] = show(award.score)
        out.update(self._valuation(award))
        out["counted"] = counted
        return out

    def line_json(self, line: Line) -> str:
        """``_line`` as compact JSON: its head, then its results each made of the text of its
        section and the text of the rest (``_rest_text``; numbers, places and booleans need no
        escaping)."""
        head = _compact(_line_head(line, self))
        origin, rest = self._origin_text, self._rest_text
        results = ",".join([f"{{{origin(a)},{rest(a, counted)}}}" for a, counted in line.results()])
        return f'{head[:-1]},"results":[{results}]}}'

    def _rest_text(self, award: Award, counted: bool) -> str:
        """The fields of a result after its section's: place, score, its valuation's fields and
        whether it counts, made once for each such combination (the players of a place span
        share them all, but for the score when points are not by score)."""
        score = award.score
        key = (
            award.first,
            award.last,
            score.numerator,
            score.denominator,
            id(award.valuation),
            counted,
        )
        found = self._rest_json.get(key)
        if found is None:
            found = self._rest_json[key] = (
                f'"place":"{span_text(award.first, award.last)}","score":"{show(score)}",'
                f'{self._valuation_text(award)},"counted":{"true" if counted else "false"}'
            )
        return found

    def _origin(self, award: Award) -> dict[str, str]:
        found = self._origins.get(id(award.origin))
        if found is None:
            fields = {
                "date": award.date.isoformat(),
                "event": award.event_name,
                "section": award.section,
            }
            found = self._origins[id(award.origin)] = (award.origin, fields)
        return found[1]

    def _origin_text(self, award: Award) -> str:
        found = self._origin_json.get(id(award.origin))
        if found is None:
            found = self._origin_json[id(award.origin)] = _compact(self._origin(award))[1:-1]
        return found

    def _valuation(self, award: Award) -> dict[str, Any]:
        """The fields of a result that its valuation decides, in the document's order."""
        found = self._valuations.get(id(award.valuation))
        if found is not None:
            return found[1]
        out: dict[str, Any] = {}
        if self.detail:
            out["base"] = show(award.base, self.decimals)
            out["event_weight"] = show(award.event_weight)
            out["section_weight"] = show(award.section_weight)
            if award.factor != 1:  # FC-1, NW-1: points = base x factor x weights + extra
                out["factor"] = show(award.factor)
            if award.extra:  # KW-4, KW-5
                out["extra"] = show(award.extra, self.decimals)
            out.update(_steps(award.valuation, self.decimals))
        out["points"] = show(award.points, self.decimals)
        self._valuations[id(award.valuation)] = (award.valuation, out)
        return out

    def _valuation_text(self, award: Award) -> str:
        found = self._valuation_json.get(id(award.valuation))
        if found is None:
            found = _compact(self._valuation(award))[1:-1]
            self._valuation_json[id(award.valuation)] = found
        return found

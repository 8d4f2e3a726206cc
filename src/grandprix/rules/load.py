"""Reading rule sets: presets shipped with the package, rules files, and overrides.

Schema errors become located problems (file:line) with a "did you mean" for unknown keys.
"""

from __future__ import annotations

import difflib
import os
import re
import types
import typing
from pathlib import Path
from typing import Any

import tomli
from pydantic import BaseModel, ValidationError

from grandprix.dates import parse_date
from grandprix.errors import UsageError
from grandprix.model import Location, Problem
from grandprix.rules.event_points import PointsBase
from grandprix.rules.fields import TomlFloat
from grandprix.rules.schema import RuleSet
from grandprix.runtime.files import read_bytes
from grandprix.tiebreaks import Rules, parse
from grandprix.tomlpos import Path as KeyPath
from grandprix.tomlpos import key_lines, line_of

PRESETS = Path(__file__).parent / "presets"
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def preset_names() -> list[str]:
    return sorted(p.stem for p in PRESETS.glob("*.toml"))


class TomlFile:
    """A TOML document with the lines of its keys."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]):
        self.path = path
        self.data = data
        self.lines = key_lines(text)

    def where(self, key: KeyPath) -> Location:
        return Location(str(self.path), line_of(self.lines, key))


TOML_LIMIT = 4 * 1024 * 1024  # bytes of a TOML file, checked before it is read


def read_toml(path: Path, problems: list[Problem]) -> TomlFile | None:
    """Parse a TOML file; a syntax error becomes a located problem. Its floats are
    ``TomlFloat``: floats that keep the text they were written as, read exactly as numbers."""
    try:
        size = os.stat(path).st_size
        raw = b"" if size > TOML_LIMIT else read_bytes(path, TOML_LIMIT, size)
        if size > TOML_LIMIT or len(raw) > TOML_LIMIT:
            problems.append(
                Problem(
                    Location(str(path)),
                    f"the file is {max(size, len(raw)):,} bytes; at most {TOML_LIMIT:,} bytes "
                    "of a TOML file are read (a season's, an event's or a rule set's is a few "
                    "kilobytes): is this the right file?",
                )
            )
            return None
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            problems.append(
                Problem(
                    Location(str(path), 1),
                    "saved as UTF-16; TOML files are UTF-8: save it again as UTF-8",
                )
            )
            return None
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        problems.append(Problem(Location(str(path)), f"cannot read the file: {exc.strerror}"))
        return None
    except UnicodeDecodeError as exc:
        problems.append(
            Problem(Location(str(path)), f"not UTF-8 text ({exc.reason}); save as UTF-8")
        )
        return None
    try:
        data = tomli.loads(text, parse_float=TomlFloat)  # each float keeps its decimal text
    except RecursionError:
        line = _too_deep(text)
        problems.append(Problem(Location(str(path), line), "not valid TOML: nested too deeply"))
        return None
    except tomli.TOMLDecodeError as exc:
        match = _TOML_POSITION.search(str(exc))
        if match:
            line, column = int(match.group(1)), int(match.group(2))
        else:  # "(at end of document)"
            line, column = text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1
        message = _TOML_POSITION.sub("", str(exc)).replace("(at end of document)", "").strip()
        if not match:
            message += " at the end of the file (an unclosed bracket or quote?)"
        elif message.startswith("Invalid date"):  # '2025-02-30': say it as every date is said
            lines = text.splitlines()
            written = (
                re.match(r"[0-9-]+", lines[line - 1][column - 1 :]) if line <= len(lines) else None
            )
            try:
                parse_date(written.group(0) if written else "")
            except ValueError as why:
                problems.append(Problem(Location(str(path), line, column), str(why)))
                return None
        problems.append(Problem(Location(str(path), line, column), f"not valid TOML: {message}"))
        return None
    except ValueError as exc:  # Python's integer-size limit ("Exceeds the limit ... digits")
        found = re.search(r"\d{4000,}", text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        problems.append(
            Problem(
                Location(str(path), line), f"not valid TOML: a number is too long ({exc})"[:160]
            )
        )
        return None
    return TomlFile(path, text, data)


def _tiebreak_problems(
    rules: RuleSet, locate: typing.Callable[[KeyPath], Location]
) -> list[Problem]:
    """The rule set's tie-break codes, and each category's, checked when the rules are read."""
    where: list[tuple[KeyPath, PointsBase]] = [(("points",), rules.points)]
    for name, points in rules.points.categories.items():
        where.append((("points", "categories", name), points))
    out = []
    for path, points in where:
        try:
            parse(points.tiebreaks, Rules(points.tiebreak_rules))
        except UsageError as exc:
            name = ".".join(str(part) for part in (*path, "tiebreaks"))
            out.append(Problem(locate((*path, "tiebreaks")), f"'{name}': {exc}"))
    return out


def _rerank_problems(rules: RuleSet, locate: typing.Callable[[KeyPath], Location]) -> list[Problem]:
    """A division that places its players again (award = "rerank") gives table points only:
    the per-player additions of KW-4, KW-5 and FC-4 are not defined inside a division, so such
    rules are refused rather than computed without them."""
    used = [
        name
        for points in (rules.points, *rules.points.categories.values())
        for name in points.per_player
    ]
    out = []
    for i, division in enumerate(rules.divisions):
        if division.award == "rerank" and used:
            out.append(
                Problem(
                    locate(("divisions", i)),
                    f"division '{division.name[:60]}' places its players again (award = "
                    f'"rerank"), which gives table points only, but the rules use '
                    f'{", ".join(dict.fromkeys(used))}: use award = "filter" for this division',
                )
            )
    return out


def _too_deep(text: str, limit: int = 100) -> int:
    """The line where brackets first nest deeper than ``limit`` (for a located message)."""
    depth = 0
    for number, line in enumerate(text.split("\n"), start=1):
        for char in line:
            depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0)
            if depth > limit:
                return number
    return 1


def validation_problems(
    exc: ValidationError, model: type[BaseModel], locate: typing.Callable[[KeyPath], Location]
) -> list[Problem]:
    """Pydantic errors as located problems; unknown keys get the closest known key suggested."""
    problems = []
    for error in exc.errors():
        loc: KeyPath = tuple(error["loc"])
        where = locate(loc)
        # A table of a list by its place as people count (the 3rd [[events]]: events[3]).
        name = ".".join(str(part) for part in loc if not isinstance(part, int))
        if any(isinstance(part, int) for part in loc):
            name = "".join(
                f"[{part + 1}]" if isinstance(part, int) else f".{part}" if i else str(part)
                for i, part in enumerate(loc)
            )
        if error["type"] == "extra_forbidden":
            known = _fields_at(model, loc[:-1])
            guess = difflib.get_close_matches(str(loc[-1]), known, n=1)
            hint = f"; did you mean '{guess[0]}'?" if guess else ""
            allowed = ", ".join(known)
            message = f"unknown key '{name}'{hint} (allowed here: {allowed})"
        elif error["type"] == "missing":
            message = f"missing key '{name}'"
        elif str(error["type"]).startswith("date") and isinstance(error.get("input"), str):
            try:  # "no such date", as every date the program reads is refused
                parse_date(error["input"])
                reason = str(error["msg"])
            except ValueError as exc:
                reason = str(exc)
            message = f"'{name}': {reason}"
        else:
            value = error.get("input")
            shown = "" if isinstance(value, dict) else f" = {value!r}"
            message = f"'{name}'{shown}: {error['msg']}"
        problems.append(Problem(where, message))
    return problems


def _fields_at(model: type[BaseModel], loc: KeyPath) -> list[str]:
    """Field names of the model found by following ``loc`` from ``model``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        field = current.model_fields.get(part)
        if field is None:
            return []
        current = _model_in(field.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    """The BaseModel inside an annotation such as ``list[X]`` or ``X | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def merge(base: dict[str, Any], overrides: dict[str, Any], model: Any = RuleSet) -> dict[str, Any]:
    """Tables merge key by key; any other value replaces the base's. A table of names of the
    user's own (``require``, ``categories``, ``per_category``: a ``dict`` of ``model``) given
    empty (``require = {}``) clears the base's: the preset's table is then not kept, which a
    merge key by key of no keys could never say."""
    out = dict(base)
    fields = model.model_fields if _is_model(model) else {}
    for key, value in overrides.items():
        annotation = fields[key].annotation if key in fields else None
        if value == {} and _mapping(annotation) is not None:
            out[key] = {}
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge_into(out[key], value, annotation)
        else:
            out[key] = value
    return out


def _merge_into(base: dict[str, Any], value: dict[str, Any], annotation: Any) -> dict[str, Any]:
    """``value`` merged into ``base``: a table of a model by its fields, a mapping of names
    name by name (each entry by the mapping's values' model, if they are tables)."""
    model = _model_in(annotation)
    values = _mapping(annotation)
    if values is None:
        return merge(base, value, model)
    out = dict(base)
    for name, entry in value.items():
        if isinstance(entry, dict) and isinstance(out.get(name), dict):
            out[name] = merge(out[name], entry, values)
        else:
            out[name] = entry
    return out


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _mapping(annotation: Any) -> Any:
    """For a ``dict[str, V]`` field (or ``dict[...] | None``): V (or ``object``); else None."""
    if typing.get_origin(annotation) is dict:
        args = typing.get_args(annotation)
        return args[1] if len(args) == 2 else object
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        for arg in typing.get_args(annotation):
            found = _mapping(arg)
            if found is not None:
                return found
    return None


def load_rules(
    base: str,
    overrides: dict[str, Any],
    season: TomlFile,
    base_key: KeyPath,
    override_key: KeyPath,
    problems: list[Problem],
    inside: typing.Callable[[str, KeyPath], Path | None],
) -> RuleSet | None:
    """A preset name or a rules file (relative to the season folder; ``inside`` checks where
    it is), with overrides applied."""
    if base in preset_names():
        source = read_toml(PRESETS / f"{base}.toml", problems)
    elif base.endswith(".toml"):
        path = inside(base, base_key)
        if path is None:
            return None
        source = read_toml(path, problems)
        if source is None:
            problems[-1] = Problem(season.where(base_key), f"rules file: {problems[-1].message}")
    else:
        names = preset_names()
        guess = difflib.get_close_matches(base, names, n=1)
        hint = f"; did you mean '{guess[0]}'?" if guess else ""
        problems.append(
            Problem(
                season.where(base_key),
                f"unknown preset '{base}'{hint} (presets: {', '.join(names)}; or give the path "
                "of a rules file ending in .toml)",
            )
        )
        return None
    if source is None:
        return None

    def locate(loc: KeyPath) -> Location:
        if _has(overrides, loc):
            return season.where(override_key + loc)
        return source.where(loc)

    try:
        rules = RuleSet.model_validate(merge(source.data, overrides))
    except ValidationError as exc:
        problems.extend(validation_problems(exc, RuleSet, locate))
        return None
    bad = _tiebreak_problems(rules, locate) + _rerank_problems(rules, locate)
    if bad:
        problems.extend(bad)
        return None
    if not any(points.pays for points in (rules.points, *rules.points.categories.values())):
        problems.append(
            Problem(
                locate(("points", "table")),
                "the rules award no points: give points.table (e.g. [21, 15, 12]), "
                "points.classes, points.from_score = true, or points.terms",
            )
        )
        return None
    return rules


def _has(data: Any, loc: KeyPath) -> bool:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return True

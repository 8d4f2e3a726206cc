"""JSON from the sites' downloads read within bounds (the lichess and chess.com readers): the
text (UTF-8, with or without a byte-order mark, at most a given size, its size checked before
the file is opened), its value (numbers with a fraction or an exponent as ``Decimal``, never a
float; no NaN or Infinity; a key given twice in one object, nesting deeper than ``MAX_DEPTH``,
more values than a bound, a file cut short and broken JSON as located problems, each found
before or instead of the parse that would take the memory or the stack), exact numbers within
a range, and values as messages show them."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate
from pathlib import Path
from typing import Any, Final

from grandprix.model import Location, Problem
from grandprix.readers.bounds import Bound, file_bytes
from grandprix.readers.text import excerpt

# Arrays and objects inside one another: lichess's lines nest 2 deep, chess.com's groups 4.
# Deeper text is refused at the bracket that passes the bound, before it is parsed (the
# parser would need a level of the stack each).
MAX_DEPTH: Final = 32

_BOM = "\ufeff"

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def json_text(
    path: str | Path, data: bytes | None, problems: list[Problem], limit: int
) -> str | None:
    """The text of a JSON file (``data``: its bytes, read here, at most ``limit`` and one more,
    when None; UTF-8, as JSON is, with or without a byte-order mark); None, with a located
    problem, for a file over ``limit`` bytes or one that is not UTF-8."""
    name = str(path)
    if data is None:
        data = file_bytes(path, Bound(limit, "a JSON file", _SMALLER, _AGAIN_FIX), problems)
        if data is None:
            return None
    if len(data) > limit:
        problems.append(
            Problem(
                Location(name),
                f"the file is {len(data):,} bytes; results of one tournament are far smaller "
                f"(at most {limit:,} bytes are read): is this the right file?",
            )
        )
        return None
    if data.startswith(_UTF16_BOMS):
        problems.append(
            Problem(Location(name), "the file is UTF-16 text; JSON is UTF-8: save it as UTF-8")
        )
        return None
    try:
        return data.decode("utf-8").removeprefix(_BOM)
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line, column = before.count(b"\n") + 1, exc.start - (before.rfind(b"\n") + 1) + 1
        problems.append(
            Problem(
                Location(name, line, column),
                f"byte 0x{data[exc.start]:02X} is not UTF-8 ({exc.reason}); JSON is UTF-8 text: "
                "download the file again rather than saving it from an editor",
            )
        )
        return None


def _no_constant(text: str) -> None:
    raise ValueError(f"{text} is not a JSON number")


def json_value(text: str, where: Location, problems: list[Problem], cut: bool = False) -> Any:
    """The JSON value of ``text`` (numbers with a fraction or an exponent as ``Decimal``, so
    that no score passes through a float; no NaN or Infinity; each key once in an object:
    which of two values the site meant cannot be told); None, with a problem located in the
    text (``where``: its first line), when it is not JSON or nests deeper than ``MAX_DEPTH``
    (refused before it is parsed). ``cut``: the text is the end of a file that stops where
    the site never ends one (without the last line break, after something other than the
    closing brace), so that broken JSON there is a file cut short."""
    deep = _too_deep(text)
    if deep is not None:
        problems.append(
            Problem(
                _at(text, deep, where).at(0),  # (its line: a column among thousands of brackets)
                f"not readable JSON: arrays or objects nested too deeply (more than {MAX_DEPTH} "
                f"levels; the site's results have 2 to 4); {_AGAIN}",
            )
        )
        return None
    try:
        return json.loads(
            text, parse_float=Decimal, parse_constant=_no_constant, object_pairs_hook=_unique
        )
    except _Repeated as exc:
        offset = _repeated_at(text)
        problems.append(
            Problem(
                _at(text, offset, where) if offset is not None else where,
                f"key {excerpt(exc.key)} is given twice in one object ({shown_json(exc.first)}, "
                f"then {shown_json(exc.second)}): which the site meant cannot be told; "
                f"{_AGAIN}, or delete one of them",
            )
        )
    except RecursionError:  # (deeper than the stack, below MAX_DEPTH: never, as a rule)
        problems.append(
            Problem(where, "not readable JSON: arrays or objects nested too deeply; " + _AGAIN)
        )
    except json.JSONDecodeError as exc:
        line = where.line + exc.lineno - 1 if where.line else exc.lineno
        why = (
            f"the file ends in the middle of a record ({exc.msg}): the download was cut short"
            if cut
            else f"not JSON ({exc.msg})"
        )
        problems.append(Problem(Location(where.path, line, exc.colno), f"{why}; {_AGAIN}"))
    except ValueError as exc:  # NaN, Infinity, a number of thousands of digits
        problems.append(Problem(where, f"not readable JSON ({str(exc)[:80]}); {_AGAIN}"))
    return None


_AGAIN = "download the file again (it is written by the site, not by hand)"
_AGAIN_FIX = "Download the file again"
_SMALLER = "one tournament's results are far smaller"


class _Repeated(Exception):
    """A key given twice in one JSON object, with its first and second values."""

    def __init__(self, key: str, first: object, second: object) -> None:
        super().__init__(key)
        self.key, self.first, self.second = key, first, second


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, each key once (``_Repeated`` for a key given twice: the
    json module keeps the last without a word)."""
    record = dict(pairs)
    if len(record) < len(pairs):
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise _Repeated(key, seen[key], value)
            seen[key] = value
    return record


# A JSON string (its escapes included), and what is left once strings are taken out.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_TOKEN = re.compile(_STRING.pattern + r"|[\[\]{}:]")
_STRING_BYTES = re.compile(_STRING.pattern.encode())


def json_tokens(data: bytes) -> int:
    """At least as many as the values and keys of the JSON text ``data`` (its UTF-8 bytes, as
    read: no byte of a character past ASCII is a quote, a backslash or a mark), counted
    without decoding or parsing it: its strings, and the marks that a value follows (``,``
    ``:`` ``[``; the first value is one more). What parsing it would make is bounded by this
    and by its length."""
    skeleton, strings = _STRING_BYTES.subn(b"", data)
    return strings + skeleton.count(b",") + skeleton.count(b":") + skeleton.count(b"[") + 1


def _too_deep(text: str) -> int | None:
    """Where the text's arrays and objects first nest deeper than ``MAX_DEPTH`` (an offset
    in it), counted outside its strings; None when they never do."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None  # (a line of lichess results: a few brackets)
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= MAX_DEPTH:
        return None
    depth = 0
    for match in _TOKEN.finditer(text):
        step = _STEP.get(match[0], 0)
        depth += step
        if depth > MAX_DEPTH:
            return match.start()
    return None


def _repeated_at(text: str) -> int | None:
    """Where the first key given twice in one object is (an offset in the text); None when
    no key is (the parse found one the walk does not: never, as a rule)."""
    keys: list[set[str] | None] = []  # each open object's keys (None for an array)
    before: re.Match[str] | None = None  # the string just before the mark
    for match in _TOKEN.finditer(text):
        mark = match[0]
        if mark in ("{", "["):
            keys.append(set() if mark == "{" else None)
        elif mark in ("}", "]"):
            if keys:
                keys.pop()
        elif mark == ":" and before is not None and keys and keys[-1] is not None:
            key = _decoded(before[0])
            if key in keys[-1]:
                return before.start()
            keys[-1].add(key)
        before = match if mark.startswith('"') else None
    return None


def _decoded(string: str) -> str:
    """A JSON string's text (its escapes read); the string as written if they cannot be."""
    try:
        value = json.loads(string)
    except ValueError:
        return string
    return value if isinstance(value, str) else string


def _at(text: str, offset: int, where: Location) -> Location:
    """The location of an offset in ``text``, whose first line is ``where``'s."""
    line = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(where.path, (where.line or 1) + line, column)


def exact_number(value: object, low: int, high: int) -> Fraction | None:
    """A JSON number (an int, or a ``Decimal`` from ``json_value``) from ``low`` to ``high``,
    exactly; None for anything else. A decimal's exponent is bounded before it is turned into
    a fraction: ``1e999999999`` would ask for a billion-digit number."""
    if type(value) is int:
        number = Fraction(value)
    elif isinstance(value, Decimal) and value.is_finite():
        exponent = value.as_tuple().exponent
        if not isinstance(exponent, int) or exponent < -12 or value.adjusted() > 12:
            return None
        number = Fraction(value)
    else:
        return None
    return number if low <= number <= high else None


def json_type(value: object) -> str:
    """The JSON name of a value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | Decimal):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def shown_json(value: object) -> str:
    """A value as a message shows it: a short excerpt of its JSON text."""
    if isinstance(value, dict | list):
        return f"a JSON {json_type(value)}"
    if isinstance(value, str):
        return f"the text {excerpt(value)}"
    if isinstance(value, Decimal):
        return excerpt(str(value))
    return excerpt(json.dumps(value))

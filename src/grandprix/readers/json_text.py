"""JSON from the sites' downloads read within bounds (the lichess and chess.com readers): the
text (UTF-8, with or without a byte-order mark, at most a given size), its value (numbers with a
fraction or an exponent as ``Decimal``, never a float; no NaN or Infinity; nesting too deep, a
file cut short and broken JSON as located problems), exact numbers within a range, and values as
messages show them."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from grandprix.model import Location, Problem
from grandprix.readers.text import excerpt

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
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
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
    that no score passes through a float; no NaN or Infinity); None, with a problem located
    in the text (``where``: its first line), when it is not JSON. ``cut``: the text is the
    end of a file that stops where the site never ends one (without the last line break,
    after something other than the closing brace), so that broken JSON there is a file cut
    short."""
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_no_constant)
    except RecursionError:
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

"""The kinds of value the TOML files' schemas hold (rule sets, season.toml, event.toml, the
federation files): exact numbers read from integers, decimals or fractions, each kind with its
bounds (the reference lists them); counts; the tie-break rule books; and ``Strict``, the base of
every model (no unknown key, frozen).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer

from grandprix.scores import parse_score, show
from grandprix.tiebreaks import Rules


class TomlFloat(float):
    """A TOML float that keeps the decimal text it was written as (``read_toml`` makes them):
    ``5400000000000.05`` is read as that exact number, where a float holds only 15 to 17
    significant digits of it."""

    text: str

    def __new__(cls, text: str) -> TomlFloat:
        value = super().__new__(cls, text)
        value.text = text
        return value


_DECIMAL = re.compile(r"[+-]?\d+(\.\d+)?([eE][+-]?\d{1,3})?")


def _to_fraction(value: Any) -> Fraction:
    """An exact number from a TOML integer, float (read as its decimal text: the text it was
    written as, ``TomlFloat``) or string."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and abs(value) <= LIMIT:
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value) and abs(value) <= LIMIT:
        text = value.text.replace("_", "") if isinstance(value, TomlFloat) else repr(value)
        return Fraction(Decimal(text)) if _DECIMAL.fullmatch(text) else Fraction(repr(value))
    if isinstance(value, str) and len(value) <= 40:
        text = value.strip()
        if "/" in text:
            top, _, bottom = text.partition("/")
            if top.strip().lstrip("-").isdecimal() and bottom.strip().isdecimal() and int(bottom):
                return Fraction(int(top), int(bottom))
        parsed = parse_score(text)
        if parsed is None and _DECIMAL.fullmatch(text) and "e" not in text.lower():
            parsed = Fraction(Decimal(text))  # a long decimal ('1234567890123.45')
        if parsed is not None:
            return parsed
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ValueError(f"expected a number such as 4, 1.5 or '14/3', got {shown}")


# No number of a rule set or a season comes near (the largest bound, money's, is below it);
# it bounds the exact arithmetic.
LIMIT = 10**16
MONEY_LIMIT = 10**15  # a prize fund in any currency: 5.4 billion Lebanese pounds is US$ 60,000


def _within(low: int, high: int, what: str) -> AfterValidator:
    """A bound of a kind of number (documented in the reference)."""

    def check(value: Fraction) -> Fraction:
        if value < 0 <= low:
            raise ValueError(f"{what} cannot be negative, got {show(value, 2)}")
        if not low <= value <= high:
            raise ValueError(f"{what} must be from {low:,} to {high:,}, got {show(value, 2)}")
        return value

    return AfterValidator(check)


_READ = BeforeValidator(_to_fraction)
_WRITE = PlainSerializer(lambda v: show(v), return_type=str)
Number = Annotated[Fraction, _READ, _WRITE]
# The bounds of each kind of number (docs/rules-reference.md lists them).
Weight = Annotated[Fraction, _READ, _WRITE, _within(0, 1000, "a weight")]
PointValue = Annotated[Fraction, _READ, _WRITE, _within(0, 1_000_000, "points")]
Money = Annotated[Fraction, _READ, _WRITE, _within(0, MONEY_LIMIT, "an amount of money")]
Percent = Annotated[Fraction, _READ, _WRITE, _within(0, 100, "a percentage")]
Factor = Annotated[Fraction, _READ, _WRITE, _within(0, 1000, "a multiplier")]
Count = Annotated[int, Field(ge=0, le=1_000_000)]  # players, results, ratings, ages, rounds
if TYPE_CHECKING:
    TieBreakRules = str
else:  # the rule books of the registry, in its order: choices, messages and reference follow it
    TieBreakRules = Literal[tuple(book.value for book in Rules)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

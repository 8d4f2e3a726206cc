"""Scores and ratings read and shown exactly: '3.5', '3,5', '½', '10.75' <-> Fraction."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

_HALF = re.compile(r"^(\d{0,6})\s*½$")
# A score as results files write it: at most 6 digits before and 6 after the decimal mark. No
# exponents: '1e999999999' would ask for a billion-digit exact number.
_DECIMAL = re.compile(r"^[+-]?(\d{1,6}([.,]\d{0,6})?|[.,]\d{1,6})$")

# Characters of a field of a CSV file, and of a spreadsheet's cell: no name, id, result or note
# is this long. It is the csv module's own default limit (``csv.field_size_limit()``), which
# grandprix leaves as it is; a field past it is a located error (``readers.text``,
# ``readers.chess_results_sheet``, ``ratings.formats``).
FIELD_LIMIT = 131_072


@lru_cache(maxsize=4096)
def parse_score(text: str) -> Fraction | None:
    """An exact score from a decimal ('3.5', '3,5') or a half ('3½', '½'); None if not one."""
    text = text.strip()
    if not text:
        return None
    match = _HALF.match(text)
    if match:
        whole = int(match.group(1)) if match.group(1) else 0
        return Fraction(whole) + Fraction(1, 2)
    if len(text) > 16 or not _DECIMAL.match(text):
        return None
    return Fraction(Decimal(text.replace(",", ".")))


def is_rating(text: str) -> bool:
    """A rating as lists and results files write it: 1 to 4 ASCII digits."""
    return 0 < len(text) <= 4 and text.isascii() and text.isdecimal()


def show(value: Fraction | int | None, places: int | None = None) -> str:
    """A plain decimal: 3 -> '3', 7/2 -> '3.5', 43/4 -> '10.75'; non-terminating values are rounded.

    With ``places`` the number is always shown with that many decimals (half away from zero).
    Integer arithmetic on the numerator and denominator: cheaper than a cache keyed on the
    Fraction (hashing one costs more than showing it).
    """
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    top, bottom = value.numerator, value.denominator
    if places is None:
        if bottom == 1:
            return str(top)
        places = _decimals(bottom)
    units, rest = divmod(abs(top) * 10**places, bottom)
    if 2 * rest >= bottom:
        units += 1
    digits = str(units).rjust(places + 1, "0")
    sign = "-" if top < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else sign + digits


def _decimals(bottom: int) -> int:
    """The decimals a fraction with this denominator (in lowest terms) is shown with: all of
    them when it terminates (a power of 2 times a power of 5), else 4."""
    twos = fives = 0
    while bottom % 2 == 0:
        bottom //= 2
        twos += 1
    while bottom % 5 == 0:
        bottom //= 5
        fives += 1
    return max(twos, fives) if bottom == 1 else 4


def show_points(value: Fraction) -> str:
    """A score as TRF and result lists print it: always one decimal at least ('4.0', '3.5')."""
    text = show(value)
    return text if "." in text else text + ".0"


@lru_cache(maxsize=4096)
def span_text(first: int, last: int) -> str:
    """A place span as people write it: '3', or '2-4' for a shared place (one string for each
    span: a large season's awards hold hundreds of thousands)."""
    return str(first) if first == last else f"{first}-{last}"

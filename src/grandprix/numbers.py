"""Reading and showing exact numbers: '3.5', '3,5', '½', '10.75' <-> Fraction."""

from __future__ import annotations

import calendar
import datetime
import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

_HALF = re.compile(r"^(\d{0,6})\s*½$")
# A score as results files write it: at most 6 digits before and 6 after the decimal mark. No
# exponents: '1e999999999' would ask for a billion-digit exact number.
_DECIMAL = re.compile(r"^[+-]?(\d{1,6}([.,]\d{0,6})?|[.,]\d{1,6})$")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")


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


def parse_date(text: str) -> datetime.date:
    """A date written YYYY-MM-DD; ValueError saying what is wrong ('no such date' for
    2025-02-30, the expected form for anything else)."""
    match = _DATE.match(text.strip())
    if not match:
        raise ValueError(f"'{text[:40]}' is not a date: write it YYYY-MM-DD, e.g. 2025-02-28")
    year, month, day = (int(part) for part in match.groups())
    if not 1 <= month <= 12:
        raise ValueError(f"no such date '{text}': there is no month {month}")
    days = calendar.monthrange(year, month)[1] if year else 31
    if not 1 <= day <= days or not year:
        raise ValueError(
            f"no such date '{text}': {calendar.month_name[month]} {year} has {days} days"
        )
    return datetime.date(year, month, day)


@lru_cache(maxsize=65536, typed=True)  # a season shows the same few values a million times
def show(value: Fraction | int | None, places: int | None = None) -> str:
    """A plain decimal: 3 -> '3', 7/2 -> '3.5', 43/4 -> '10.75'; non-terminating values are rounded.

    With ``places`` the number is always shown with that many decimals (half away from zero).
    """
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    frac = value
    if places is None and frac.denominator == 1:
        return str(frac.numerator)
    if places is None and frac.denominator == 2:
        sign = "-" if frac.numerator < 0 else ""
        return f"{sign}{abs(frac.numerator) // 2}.5"
    if places is not None:
        quantum = Decimal(1).scaleb(-places)
        dec = (Decimal(frac.numerator) / Decimal(frac.denominator)).quantize(
            quantum, "ROUND_HALF_UP"
        )
        return f"{dec:f}"
    den = frac.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return show(frac, 4)
    digits = max(twos, fives)
    dec = Decimal(frac.numerator) / Decimal(frac.denominator)
    text = f"{dec.quantize(Decimal(1).scaleb(-digits)):f}" if digits else str(frac.numerator)
    return text


def show_points(value: Fraction) -> str:
    """A score as TRF and result lists print it: always one decimal at least ('4.0', '3.5')."""
    text = show(value)
    return text if "." in text else text + ".0"


_BIRTH_ISO = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2}))?$")
_BIRTH_DMY = re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$")


def parse_birth(text: str) -> datetime.date | None:
    """'2007-03-04', '2007/03/04', '04.03.2007' or '2007' (then the last day of that year);
    None when empty or unknown ('0000'); ValueError for a date that is not one ('1990-13-45')
    or text in no date form."""
    text = text.strip()
    if not text:
        return None
    match = _BIRTH_ISO.match(text)
    if match:
        year, month, day = match.groups()
        if month and day and int(month) and int(day):
            return parse_date(f"{year}-{month}-{day}")
        return datetime.date(int(year), 12, 31) if int(year) else None
    match = _BIRTH_DMY.match(text)
    if match:
        day, month, year = match.groups()
        return parse_date(f"{year}-{month}-{day}")
    raise ValueError(f"{text[:40]!r} is not a date: write it YYYY-MM-DD, or the year alone")


def birth_or_none(text: str) -> datetime.date | None:
    """``parse_birth`` for dates already checked when read, or from files that may carry
    anything in that field (TRF): an unreadable one counts as unknown."""
    try:
        return parse_birth(text)
    except ValueError:
        return None

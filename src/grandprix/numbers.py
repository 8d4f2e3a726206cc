"""Reading and showing exact numbers: '3.5', '3,5', '½', '10.75' <-> Fraction."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

_HALF = re.compile(r"^(\d*)\s*½$")


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
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    return Fraction(value)


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

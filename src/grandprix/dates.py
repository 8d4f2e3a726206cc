"""Dates read from what people and programs write: event dates (YYYY-MM-DD) and birth dates."""

from __future__ import annotations

import calendar
import datetime
import re

_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")


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

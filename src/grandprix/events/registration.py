"""Tournament registration with the federation: class, fee and the rules broken (ACF-4 to ACF-7)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction

from grandprix.events.config import EventFile
from grandprix.numbers import show

BASE_FEE = {1: Fraction(50), 2: Fraction(100), 3: Fraction(150)}
PER_PLAYER = Fraction(2)
CAP = Fraction(500)
REDUCTION = Fraction(50)
REDUCED_STATES = ("TAS", "SA", "WA", "NT")


def tournament_class(prize_fund: Fraction) -> int:
    """ACF-6: class 1 under $1500, class 2 $1500-2499, class 3 $2500 or more (trophies are not
    part of the prize fund)."""
    return 1 if prize_fund < 1500 else 2 if prize_fund < 2500 else 3


@dataclass(frozen=True)
class Registration:
    klass: int
    fee: Fraction
    workings: str
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"class": self.klass, "fee": show(self.fee, 2), "problems": self.problems}


def register(event: EventFile) -> Registration:
    """The class, the fee (D-ACF-2: min(cap, base + per player - reduction)) and the problems."""
    fund = event.prize_fund or Fraction(0)
    klass = tournament_class(fund)
    players = event.players or 0
    reduced = event.capital_city is False or event.state in REDUCED_STATES
    fee = BASE_FEE[klass] + PER_PLAYER * players - (REDUCTION if reduced else 0)
    workings = f"base {show(BASE_FEE[klass], 2)} (class {klass}) + {players} x 2.00"
    if reduced:
        where = "outside a state capital" if event.capital_city is False else f"in {event.state}"
        workings += f" - 50.00 ({where})"
    if fee > CAP:
        workings += f" = {show(fee, 2)}, capped at {show(CAP, 2)}"
        fee = CAP
    return Registration(klass, fee, workings + " (ACF-7)", _problems(event))


def _problems(event: EventFile) -> list[str]:
    problems = []
    start, end = event.first_day, event.last_day
    if event.prize_fund is None:
        problems.append("no prize_fund: the class cannot be told (ACF-6)")
    if event.players is None:
        problems.append("no players: the per-player fee cannot be counted (ACF-7)")
    if start is None or end is None:
        problems.append("no start and end dates (ACF-4)")
        return problems
    if (end - start).days + 1 > 5:
        problems.append(
            f"the tournament lasts {(end - start).days + 1} days; it must be completed within 5 "
            "consecutive days (ACF-4)"
        )
    registered = event.registered_on
    if registered is None:
        problems.append("no registered_on date (ACF-4)")
    else:
        if registered > datetime.date(start.year - 1, 12, 31):
            problems.append(
                f"registered on {registered}, after 31 December {start.year - 1} (ACF-4: "
                "register by 31 December of the year before if possible)"
            )
        latest = _months_before(start, 3)
        if registered > latest:
            problems.append(
                f"registered on {registered}, less than three months before the start on "
                f"{start} (ACF-4: at the latest {latest})"
            )
    sent = event.results_sent_on
    if sent is not None and (sent - end).days > 21:
        problems.append(
            f"results sent on {sent}, {(sent - end).days} days after the end; within 21 days "
            "(ACF-5)"
        )
    return problems


def _months_before(day: datetime.date, months: int) -> datetime.date:
    month = day.month - months
    year = day.year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    for back in range(4):
        try:
            return day.replace(year=year, month=month, day=day.day - back)
        except ValueError:
            continue
    return day.replace(year=year, month=month, day=28)

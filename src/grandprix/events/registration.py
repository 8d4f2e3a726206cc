"""Tournament registration with the federation: class, fee and the rules broken (ACF-4 to ACF-7).

The numbers come from the registration rules that event.toml names (``registration_rules``;
by default the bundled rules/federations/acf.toml).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction

from grandprix.events.config import EventFile
from grandprix.rules.federation import RegistrationRules, bundled_rules, cite
from grandprix.scores import show

MONTHS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def tournament_class(prize_fund: Fraction, rules: RegistrationRules) -> int:
    """ACF-6: class 1 under $1500, class 2 $1500-2499, class 3 $2500 or more (trophies are not
    part of the prize fund). Classes are numbered from 1, the lowest prize fund first."""
    return max(n for n, c in enumerate(rules.classes, 1) if prize_fund >= c.min_prize_fund)


@dataclass(frozen=True)
class Registration:
    klass: int
    fee: Fraction
    workings: str
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"class": self.klass, "fee": show(self.fee, 2), "problems": self.problems}


def register(event: EventFile, rules: RegistrationRules | None = None) -> Registration:
    """The class, the fee (D-ACF-2: min(cap, base + per player - reduction)) and the problems.

    ``rules`` are the event's (``read_event_rules``); without them, those of the bundled
    federation the event names."""
    if rules is None:
        rules = bundled_rules(registration_rules=event.registration_rules).registration
    fund = event.prize_fund or Fraction(0)
    klass = tournament_class(fund, rules)
    base, fees = rules.classes[klass - 1].base_fee, rules.fee
    players = event.players or 0
    outside = fees.outside_capital and event.capital_city is False
    reduced = outside or event.state in fees.reduced_regions
    fee = base + fees.per_player * players - (fees.reduction if reduced else 0)
    workings = f"base {show(base, 2)} (class {klass}) + {players} x {show(fees.per_player, 2)}"
    if reduced:
        where = "outside a state capital" if outside else f"in {event.state}"
        workings += f" - {show(fees.reduction, 2)} ({where})"
    if fees.cap is not None and fee > fees.cap:
        workings += f" = {show(fee, 2)}, capped at {show(fees.cap, 2)}"
        fee = fees.cap
    return Registration(klass, fee, workings + cite(fees.rule), _problems(event, rules))


def _problems(event: EventFile, rules: RegistrationRules) -> list[str]:
    problems = []
    dates, start, end = rules.dates, event.first_day, event.last_day
    if event.prize_fund is None:
        problems.append(f"no prize_fund: the class cannot be told{cite(rules.class_rule)}")
    if event.players is None:
        problems.append(f"no players: the per-player fee cannot be counted{cite(rules.fee.rule)}")
    if start is None or end is None:
        problems.append(f"no start and end dates{cite(dates.rule)}")
        return problems
    days = (end - start).days + 1
    if dates.max_days is not None and days > dates.max_days:
        problems.append(
            f"the tournament lasts {days} days; it must be completed within {dates.max_days} "
            f"consecutive days{cite(dates.rule)}"
        )
    registered = event.registered_on
    if registered is None and (dates.year_before or dates.months_before):
        problems.append(f"no registered_on date{cite(dates.rule)}")
    elif registered is not None:
        if dates.year_before and registered > datetime.date(start.year - 1, 12, 31):
            problems.append(
                f"registered on {registered}, after 31 December {start.year - 1} "
                + _why(dates.rule, "register by 31 December of the year before if possible")
            )
        months = dates.months_before
        if months and registered > (latest := _months_before(start, months)):
            problems.append(
                f"registered on {registered}, less than {_months(months)} before the start on "
                f"{start} " + _why(dates.rule, f"at the latest {latest}")
            )
    sent, within = event.results_sent_on, rules.results.within_days
    if sent is not None and within is not None and (sent - end).days > within:
        problems.append(
            f"results sent on {sent}, {(sent - end).days} days after the end; within {within} "
            f"days{cite(rules.results.rule)}"
        )
    return problems


def _months(count: int) -> str:
    """'three months', 'one month', '18 months'."""
    word = MONTHS[count - 1] if count <= len(MONTHS) else str(count)
    return f"{word} month" + ("s" if count > 1 else "")


def _why(rule: str, text: str) -> str:
    """'(ACF-4: text)', or '(text)' when the federation names no rule."""
    return f"({rule}: {text})" if rule else f"({text})"


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

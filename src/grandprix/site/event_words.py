"""How an event pays, in the facts at the top of its page, for the rules of real series: the
points by place of its own field (percentile bands, the places that earn, 1st place alone), the
tie split, its multipliers and bonuses, and the rounds a player must play (KW-3 to KW-6, FC-1 to
FC-4, NW-1). Nothing for an event whose rules use none of them.
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.numbers import show
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import RuleSet
from grandprix.season.model import Season, SeasonEvent
from grandprix.season.points import Valuations, earning_sections, plays_enough, section_scale
from grandprix.site.rules_points import gain_caps
from grandprix.site.rules_words import ordinal, share


def event_has_more(points: PointsBase) -> bool:
    """Whether the event's points need more than its table in a sentence."""
    return bool(
        points.bands
        or points.paid_places
        or points.top_percent is not None
        or points.first_outright is not None
        or points.rating_factor is not None
        or any(c.factor != 1 for c in points.classes)
    )


def _runs(table: tuple[Fraction, ...]) -> str:
    """'1st 70, 2nd 63, 3rd-4th 50': equal neighbouring places said once."""
    parts = []
    start = 0
    for i in range(1, len(table) + 1):
        if i == len(table) or table[i] != table[start]:
            span = ordinal(start + 1) if i == start + 1 else f"{ordinal(start + 1)}-{ordinal(i)}"
            parts.append(f"{span} {show(table[start])}")
            start = i
    return ", ".join(parts)


def event_points_facts(event: SeasonEvent, points: PointsBase, rules: RuleSet) -> list[str]:
    """The event's points beyond a plain table, from its first earning section."""
    facts: list[str] = []
    earning = [s for s, _ in earning_sections(event, rules) if s.section.size]
    if event_has_more(points) and earning:
        section = earning[0].section
        scale = section_scale(event, section, rules, Valuations(rules))
        size = section.size
        if points.by_place and not points.from_score:
            table = scale.table
            said = f"Points by place in this field of {size} players: {_runs(table)}"
            if points.first_outright is not None:
                said += f" (1st place alone: {show(points.first_outright)})"
            if len(table) < size:
                said += f"; {ordinal(len(table) + 1)} and below: nothing"
            facts.append(said + ".")
        for reason, value in scale.factors:
            facts.append(f"Points are multiplied by {show(value)}, for {reason}.")
    if points.ties == "split" and not points.from_score:
        facts.append(
            "Players on the same score get half the points of their place on tie-break plus half "
            "the average of the places they share."
        )
    gain = points.gain
    if gain is not None:
        caps = gain_caps(points)
        seed = "by rating" if gain.seed == "rating" else "by start number"
        capped = f", {' and '.join(caps)}" if caps else ""
        facts.append(
            f"Each place finished above the seed ({seed}) adds {show(gain.per_place)}{capped}."
        )
    if points.completion:
        facts.append(f"Playing every round adds {show(points.completion)}.")
    needed = rules.eligibility.min_rounds_percent
    if needed is not None:
        facts.append(f"Only players who play at least {share(needed)} of the rounds earn points.")
    return facts


def short_of_rounds(played: int, rounds: int, season: Season) -> str:
    """Why a player who took part in ``played`` rounds of a section earns nothing there: too
    few rounds played (KW-6); '' otherwise."""
    rules = season.rules
    needed = rules.eligibility.min_rounds_percent
    if needed is None or plays_enough(played, rounds, rules):
        return ""
    return f"played {played} of {rounds} rounds; points need at least {share(needed)} of them"

"""How an event pays, in the facts at the top of its page, for the rules of real series: the
points by place of its own field (percentile bands, the places that earn, 1st place alone), the
tie split, its multipliers and bonuses, and the rounds a player must play (KW-3 to KW-6, FC-1 to
FC-4, NW-1). Nothing for an event whose rules use none of them.
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.language import _, ngettext
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import RuleSet
from grandprix.season.eligible import plays_enough
from grandprix.season.model import Season, SeasonEvent
from grandprix.season.points import Valuations, earning_sections, section_scale
from grandprix.site.words.common import figure, ordinal, share
from grandprix.site.words.points import gain_caps


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
            parts.append(f"{span} {figure(table[start])}")
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
            said = ngettext(
                "Points by place in this field of {n} player: {places}",
                "Points by place in this field of {n} players: {places}",
                size,
            ).format(n=size, places=_runs(table))
            if points.first_outright is not None:
                said += " " + _("(1st place alone: {points})").format(
                    points=figure(points.first_outright)
                )
            if len(table) < size:
                said += "; " + _("{place} and below: nothing").format(place=ordinal(len(table) + 1))
            facts.append(said + ".")
        for reason, value in scale.factors:
            facts.append(
                _("Points are multiplied by {factor}, for {reason}.").format(
                    factor=figure(value), reason=reason
                )
            )
    if points.ties == "split" and not points.from_score:
        facts.append(
            _(
                "Players on the same score get half the points of their place on tie-break plus "
                "half the average of the places they share."
            )
        )
    gain = points.gain
    if gain is not None:
        caps = gain_caps(points)
        seed = _("by rating") if gain.seed == "rating" else _("by start number")
        per_place = figure(gain.per_place)
        if caps:
            limits = caps[0]
            for cap in caps[1:]:
                limits = _("{first} and {second}").format(first=limits, second=cap)
            said = _("Each place finished above the seed ({seed}) adds {points}, {limits}.")
        else:
            limits = ""
            said = _("Each place finished above the seed ({seed}) adds {points}.")
        facts.append(said.format(seed=seed, points=per_place, limits=limits))
    if points.completion:
        facts.append(
            _("Playing every round adds {points}.").format(points=figure(points.completion))
        )
    needed = rules.eligibility.min_rounds_percent
    if needed is not None:
        facts.append(
            _("Only players who play at least {share} of the rounds earn points.").format(
                share=share(needed)
            )
        )
    return facts


def short_of_rounds(played: int, rounds: int, season: Season) -> str:
    """Why a player who took part in ``played`` rounds of a section earns nothing there: too
    few rounds played (KW-6); '' otherwise."""
    rules = season.rules
    needed = rules.eligibility.min_rounds_percent
    if needed is None or plays_enough(played, rounds, rules):
        return ""
    return _("played {played} of {rounds} rounds; points need at least {share} of them").format(
        played=played, rounds=rounds, share=share(needed)
    )

"""The players a season leaves out of its standings, and why: they played in its events but
earned nothing anywhere, because the rules' ``eligibility.require`` excludes them (UT-1: a
region, membership, ...) or they played too few rounds in each event (KW-6). With
``standings.ineligible = "listed"`` every output lists them after the standings, with no rank,
0 points and the reason; ``explain`` always says why such a player has no line."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from grandprix.conditions import attribute_words, unmet
from grandprix.language import _, decimal
from grandprix.players import PlayerKey
from grandprix.scores import show
from grandprix.season.eligible import plays_enough
from grandprix.season.model import Season, Tables, Unplaced
from grandprix.season.points import earning_sections


def not_eligible(
    attribute: Callable[[str], str | None], require: Mapping[str, str | list[str]]
) -> str:
    """Why a player earns no Grand Prix points in an event (UT-1): 'not eligible: lives in ID
    (UT required)'."""
    reasons = [
        attribute_words(name, have, wanted)
        for name, have, wanted in unmet(lambda n: attribute(n) or "", require)
    ]
    if not reasons:
        return _("not eligible")
    return _("not eligible: {reasons}").format(reasons="; ".join(reasons))


def unplaced(season: Season, tables: Tables) -> list[Unplaced]:
    """Everyone who played in an earning section of the season's events and has no line in
    any of ``tables``, in name order, with the reason."""
    placed = {line.player for _, lines in tables for line in lines}
    rules = season.rules
    directory = season.directory
    found: dict[PlayerKey, tuple[str, set[int], str]] = {}
    for event in season.events:
        if event.planned:
            continue
        for section, _rate in earning_sections(event, rules):
            results = section.section
            took_part = results.rounds_played(rules.points.for_category(event.category).played)
            for i, entrant in enumerate(directory.entrants(results)):
                if entrant.key in placed:
                    continue
                name, events, reason = found.get(entrant.key, (entrant.name, set(), ""))
                events.add(event.index)
                if not reason and not entrant.eligible:
                    attributes = directory.key(results.columns.record(i))[2]
                    reason = not_eligible(attributes.get, rules.eligibility.require)
                elif not reason and not plays_enough(took_part[i], results.rounds, rules):
                    needed = decimal(show(rules.eligibility.min_rounds_percent or 0))
                    reason = _("played fewer than {percent}% of the rounds of each event").format(
                        percent=needed
                    )
                found[entrant.key] = (name, events, reason)
    return sorted(
        (
            Unplaced(key, name, len(events), reason or _("no points in any table"))
            for key, (name, events, reason) in found.items()
        ),
        key=lambda u: (u.name, u.player),
    )

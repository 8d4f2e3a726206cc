"""Which results of an event may earn points, beyond who the player is (``identity``): a
share of the rounds played (KW-6) and no game won or lost by forfeit (KEN-6)."""

from __future__ import annotations

import re

from grandprix.model import Section
from grandprix.rules.schema import RuleSet


def plays_enough(played: int, rounds: int, rules: RuleSet) -> bool:
    """Keshmat 2026: points only for a player who took part in ``played`` rounds of at least
    ``min_rounds_percent`` of the rounds (every player, when the rules or the file do not
    say)."""
    share = rules.eligibility.min_rounds_percent
    return share is None or not rounds or played * 100 >= share * rounds


COUNT = re.compile(r"[0-9]{1,4}")  # a number of games


def forfeited(section: Section) -> list[bool]:
    """KEN-6: whether each player won or lost a game by forfeit in the section: a crosstable's
    rounds, or a standings list's ``forfeits`` column (the number of such games)."""
    if section.has_crosstable:  # a game won or lost by forfeit has an opponent (a bye has none)
        return [
            any(r.kind.forfeit and r.opponent is not None for r in p.rounds)
            for p in section.players
        ]
    counts = (dict(extra).get("forfeits", "").strip() for extra in section.columns.extra)
    return [bool(COUNT.fullmatch(count)) and int(count) > 0 for count in counts]

"""Who is who across a season: results-file players matched to players.csv.

For now: by id (FIDE or national), then by the normalised name. Issue 3/6 adds birth years,
"Surname, Given" order, near matches and an aliases file.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from grandprix.model import Player
from grandprix.rules.schema import RuleSet
from grandprix.season.model import SeasonPlayer

_SPACES = re.compile(r"\s+")


def normalise(name: str) -> str:
    """Case, accents and stray spaces removed: 'Dvořák,  Marek ' -> 'dvorak, marek'."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", plain.casefold().replace(" ,", ",")).strip()


class Entrant(NamedTuple):
    """A results-file player as the season sees them."""

    key: str
    name: str
    eligible: bool


def is_eligible(attributes: dict[str, str], rules: RuleSet) -> bool:
    """UT-1: every required attribute has (one of) the required value(s), ignoring case."""
    for name, wanted in rules.eligibility.require.items():
        allowed = [wanted] if isinstance(wanted, str) else wanted
        have = attributes.get(name, "").strip().casefold()
        if have not in {w.strip().casefold() for w in allowed}:
            return False
    return True


class Directory:
    """The season's players, looked up by id or normalised name."""

    def __init__(self, players: tuple[SeasonPlayer, ...], rules: RuleSet):
        self.rules = rules
        self.by_id = {p.id: p for p in players if p.id}
        self.by_name: dict[str, SeasonPlayer] = {}
        for p in players:
            self.by_name.setdefault(normalise(p.name), p)
        self._seen: dict[tuple[object, ...], Entrant] = {}
        # Eligibility read from players.csv alone does not depend on the results file's row.
        columns = {name for p in players for name, _ in p.attributes}
        self._short_memo = set(rules.eligibility.require) <= columns

    def entrant(self, player: Player) -> Entrant:
        """Key, name and eligibility of a results-file player (remembered: players recur)."""
        if self._short_memo:
            memo: tuple[object, ...] = (player.fide_id, player.name)
        else:
            memo = (player.fide_id, player.name, player.extra, player.federation, player.sex,
                    player.title, player.birth_date, player.rating)  # fmt: skip
        found = self._seen.get(memo)
        if found is None:
            key, name, attributes = self.key(player)
            found = Entrant(key, name, is_eligible(attributes, self.rules))
            self._seen[memo] = found
        return found

    def find(self, player: Player) -> SeasonPlayer | None:
        if player.id and player.id in self.by_id:
            return self.by_id[player.id]
        return self.by_name.get(normalise(player.name))

    def key(self, player: Player) -> tuple[str, str, dict[str, str]]:
        """The season key, display name and attributes of a results-file player."""
        known = self.find(player)
        attributes = {
            "federation": player.federation,
            "sex": player.sex,
            "title": player.title,
            "birth_date": player.birth_date,
            "rating": str(player.rating or ""),
            **dict(player.extra),
        }
        if known is not None:
            attributes.update(dict(known.attributes))
            key = f"id:{known.id}" if known.id else f"name:{normalise(known.name)}"
            return key, known.name or player.name, attributes
        if player.id:
            return f"id:{player.id}", player.name, attributes
        return f"name:{normalise(player.name)}", player.name, attributes

"""Who is who across a season: results-file players matched to players.csv.

For now: by id (FIDE or national), then by the normalised name. Issue 3/6 adds birth years,
"Surname, Given" order, near matches and an aliases file.
"""

from __future__ import annotations

import re
import unicodedata

from grandprix.model import Player
from grandprix.season.model import SeasonPlayer

_SPACES = re.compile(r"\s+")


def normalise(name: str) -> str:
    """Case, accents and stray spaces removed: 'Dvořák,  Marek ' -> 'dvorak, marek'."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", plain.casefold().replace(" ,", ",")).strip()


class Directory:
    """The season's players, looked up by id or normalised name."""

    def __init__(self, players: tuple[SeasonPlayer, ...]):
        self.by_id = {p.id: p for p in players if p.id}
        self.by_name: dict[str, SeasonPlayer] = {}
        for p in players:
            self.by_name.setdefault(normalise(p.name), p)

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

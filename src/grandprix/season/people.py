"""The people of a season and the uncertain matches between them (``grandprix players``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from grandprix.players import PlayerKey, look_alike_key, name_key
from grandprix.season.identity import NEAR_MATCH
from grandprix.season.model import Season


@dataclass(frozen=True)
class Person:
    key: PlayerKey
    name: str
    ids: tuple[str, ...]
    spellings: tuple[str, ...]  # every name the results files give
    events: tuple[str, ...]


@dataclass(frozen=True)
class NearMatch:
    """Two people whose names are alike; never merged without the coordinator's decision."""

    first: Person
    second: Person
    score: float
    verdict: str  # "review", "apart: ..." or "different (aliases.csv)"

    @property
    def uncertain(self) -> bool:
        return self.verdict == "review"


def people(season: Season) -> list[Person]:
    """Every person of the season's results, with the names and ids they appear under."""
    directory = season.directory
    names: dict[PlayerKey, str] = {}
    ids: dict[PlayerKey, set[str]] = defaultdict(set)
    spellings: dict[PlayerKey, set[str]] = defaultdict(set)
    events: dict[PlayerKey, list[str]] = defaultdict(list)
    for event in season.events:
        for section in event.sections:
            for player in section.section.players:
                key, name, _ = directory.key(player)
                names.setdefault(key, name)
                if player.fide_id:
                    ids[key].add(player.fide_id)
                spellings[key].add(player.name)
                if event.name not in events[key]:
                    events[key].append(event.name)
    return sorted(
        (
            Person(
                k, names[k], tuple(sorted(ids[k])), tuple(sorted(spellings[k])), tuple(events[k])
            )
            for k in names
        ),
        key=lambda p: (name_key(p.name), p.key),
    )


def near_matches(
    season: Season, found: list[Person], threshold: int = NEAR_MATCH
) -> list[NearMatch]:
    """Pairs of people with similar names, each with why they are kept apart or to review.

    Two people who played in the same event are different people. A pair the coordinator
    marked ``different`` in aliases.csv is not asked about again. Names are compared as they
    look (``look_alike_key``: a Cyrillic 'А' in 'Аdams' is the Latin 'A').
    """
    directory = season.directory
    keys = [look_alike_key(p.name) for p in found]
    names = [name_key(p.name) for p in found]
    out = []
    for i, person in enumerate(found):
        for _, score, j in process.extract(
            keys[i], keys, scorer=fuzz.token_sort_ratio, score_cutoff=threshold, limit=None
        ):
            if j <= i or found[j].key == person.key:
                continue
            other = found[j]
            together = [e for e in person.events if e in other.events]
            if frozenset((names[i], names[j])) in directory.apart:
                verdict = "different (aliases.csv)"
            elif together:
                verdict = f"apart: both played in {together[0]}"
            elif person.ids and other.ids and set(person.ids).isdisjoint(other.ids):
                verdict = "apart: different ids"
            else:
                verdict = "review"
            out.append(NearMatch(person, other, score, verdict))
    return sorted(out, key=lambda m: (not m.uncertain, -m.score, m.first.name))

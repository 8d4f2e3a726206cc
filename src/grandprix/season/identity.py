"""Who is who across a season: results-file players matched to one person each.

Matching, in order: the FIDE or national id; then the normalised name (accents, case, stray
spaces and "Surname, Given" order do not matter) with the birth year when both sides know it.
A name seen with exactly one id elsewhere in the season takes that id. Near matches (similar
names, rapidfuzz) are never merged: they are listed for review, and the coordinator's decisions
go in ``aliases.csv`` (``name,other,same`` to merge, joined as far as they reach: A same B and
B same C make one name of the three; ``name,other,different`` to keep apart).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple, cast

from grandprix.conditions import meets
from grandprix.model import Columns, Location, Player, Section
from grandprix.players import ListedPlayer, PlayerKey, birth_year, name_key
from grandprix.rules.schema import RuleSet

NEAR_MATCH = 85  # rapidfuzz token_sort_ratio from which two names are shown for review


@dataclass(frozen=True, slots=True)
class Alias:
    """A coordinator's decision from aliases.csv: two names are one person, or two people."""

    name: str
    other: str
    same: bool
    location: Location | None = field(default=None, compare=False)


def same_names(aliases: Iterable[Alias]) -> dict[str, str]:
    """Each name key that aliases.csv joins to others, with the key all of them go by: the
    decisions 'same' joined as far as they reach ('A same B' and 'B same C' make A, B and C
    one name). The key of a group is the 'other' of its decisions (the 'other' of the last one
    reached when they chain), so that 'A same B' alone writes A as B."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.get(key, key) != key:
            key = parent[key]
        return key

    for alias in aliases:
        if alias.same:
            name, other = root(name_key(alias.name)), root(name_key(alias.other))
            if name != other:
                parent[name] = other
                parent.setdefault(other, other)
    return {key: root(key) for key in parent if root(key) != key}


class Entrant(NamedTuple):
    """A results-file player as the season sees them."""

    key: PlayerKey
    name: str
    eligible: bool


_WHO = ("fide_id", "name", "birth_date")  # fields of both Player and Columns
_WHO_AND_COLUMNS = (*_WHO, "extra", "federation", "sex", "title", "rating")


class Directory:
    """The season's people: players.csv, what the results files say, and the aliases."""

    def __init__(
        self,
        players: tuple[ListedPlayer, ...],
        rules: RuleSet,
        aliases: Iterable[Alias] = (),
        seen: Iterable[Columns] = (),
    ):
        self.rules = rules
        self.players = players
        self.by_id = {p.id: p for p in players if p.id}
        excluded = rules.eligibility.exclude  # KEN-5: by id, or by name in any spelling
        self._excluded = {*excluded, *map(name_key, excluded)} - {""}
        decided = tuple(aliases)
        self.same = same_names(decided)
        self.apart: set[frozenset[str]] = {
            frozenset((name_key(a.name), name_key(a.other))) for a in decided if not a.same
        }
        self.by_name: dict[str, list[ListedPlayer]] = defaultdict(list)
        for p in players:
            self.by_name[self._canonical(p.name)].append(p)
        ids_by_name: dict[str, set[str]] = defaultdict(set)
        self.years_of_name: dict[str, set[str]] = defaultdict(set)
        tables = list(seen)
        if all(all(table.fide_id) for table in tables):
            tables = []  # what the pass learns serves only players listed without an id
        rows = {row for t in tables for row in zip(t.name, t.fide_id, t.birth_date, strict=True)}
        for name, ident, born in rows:  # each distinct row once (what it adds to are sets)
            canonical = self._canonical(name)
            if ident:
                ids_by_name[canonical].add(ident)
            if birth_year(born):
                self.years_of_name[canonical].add(birth_year(born))
        self.id_of_name = {k: next(iter(v)) for k, v in ids_by_name.items() if len(v) == 1}
        self._seen: dict[tuple[object, ...], Entrant] = {}
        # The entrants that only their id decides (``_found``): one look-up of the id string
        # instead of a tuple made and looked up for each of half a million rows.
        self._by_id_only: dict[str, Entrant] = {}
        self._by_row: set[str] = set()  # ids listed without a name or a required value
        # What decides a player's entrant, read alike from a Player and from Columns: who they
        # are, and the results file's own columns when eligibility needs attributes (a value
        # players.csv leaves empty, or a player it does not list, is the row's own).
        short = not rules.eligibility.require
        self._memo_of = attrgetter(*(_WHO if short else _WHO_AND_COLUMNS))

    def sameness(self) -> tuple[object, ...]:
        """Everything that decides a results-file player's entrant: two directories with equal
        sameness give every player the same key, name and eligibility."""
        return (
            self.rules.eligibility,
            self.players,
            self.same,
            self.apart,
            self.id_of_name,
            self.years_of_name,
        )

    def _canonical(self, name: str) -> str:
        key = name_key(name)
        return self.same.get(key, key)

    def alike(self, name: str, other: str) -> bool:
        """Whether two spellings are one name: their ``name_key`` agrees, or aliases.csv makes
        them one (directly or through other names decided 'same')."""
        return self._canonical(name) == self._canonical(other)

    def find(self, player: Player) -> ListedPlayer | None:
        """The players.csv row of this player, if any."""
        if player.fide_id and player.fide_id in self.by_id:
            return self.by_id[player.fide_id]
        candidates = self.by_name.get(self._canonical(player.name), [])
        year = birth_year(player.birth_date)
        if year:
            known = [c for c in candidates if birth_year(c.attribute("birth_date")) in ("", year)]
            candidates = known
        if len(candidates) == 1 and (not player.fide_id or not candidates[0].id):
            return candidates[0]
        return None

    def key(self, player: Player) -> tuple[PlayerKey, str, dict[str, str]]:
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
            attributes.update({k: v for k, v in known.attributes if v})
            key = PlayerKey.of(known.id, self._canonical(known.name))
            return key, known.name or player.name, attributes
        ident = player.fide_id or self.id_of_name.get(self._canonical(player.name), "")
        if ident:
            return PlayerKey.of(ident, ""), player.name, attributes
        # Two people of the same name told apart by their birth years.
        canonical = self._canonical(player.name)
        year = birth_year(player.birth_date)
        suffix = f"|{year}" if year and len(self.years_of_name.get(canonical, ())) > 1 else ""
        return PlayerKey.of("", canonical + suffix), player.name, attributes

    def entrant(self, player: Player) -> Entrant:
        """Key, name and eligibility of a results-file player (remembered: players recur)."""
        memo: tuple[object, ...] = self._memo_of(player)
        found = self._seen.get(memo)
        return self._found(player, memo) if found is None else found

    def entrants(self, section: Section) -> list[Entrant]:
        """``entrant`` of every player of a section, read from its columns (no record per
        player, except for a player not seen before and not decided by players.csv alone)."""
        c = section.columns
        found = list(map(self._by_id_only.get, c.fide_id))
        if all(found):  # (C loops, usually)
            return cast(list[Entrant], found)
        memos: list[tuple[object, ...]] = []
        for i, entrant in enumerate(found):
            if entrant is None:
                entrant = self._listed_only(c.fide_id[i])
            if entrant is None:
                memos = memos or list(zip(*self._memo_of(c), strict=True))
                entrant = self._seen.get(memos[i]) or self._found(c.record(i), memos[i])
            found[i] = entrant
        return cast(list[Entrant], found)

    def _found(self, player: Player, memo: tuple[object, ...]) -> Entrant:
        found = self._listed_only(player.fide_id)
        if found is None:
            key, name, attributes = self.key(player)
            require = self.rules.eligibility.require
            eligible = meets(lambda n: attributes.get(n, ""), require)
            found = Entrant(key, name, eligible and not self.excluded(player.fide_id, name))
        self._seen[memo] = found
        return found

    def excluded(self, ident: str, name: str) -> bool:
        """Whether the rules exclude the player by id or by name (KEN-5)."""
        return bool(self._excluded) and (
            ident in self._excluded or name_key(name) in self._excluded
        )

    def _listed_only(self, ident: str) -> Entrant | None:
        """The entrant of id ``ident`` when players.csv alone decides it: the id is listed there
        (``find`` goes by id first) with a name and every value eligibility requires, so no
        column of a results file changes the key, the name or the eligibility ``key`` gives.
        Remembered by the id (``_by_id_only``, and ``_by_row`` for a listed id that does not
        qualify); None for any other id."""
        known = self.by_id.get(ident) if ident else None
        if known is None or ident in self._by_row:
            return None
        values = dict(known.attributes)
        require = self.rules.eligibility.require
        if not known.name or not all(map(values.get, require)):
            self._by_row.add(ident)  # each row by its own columns (``_seen``), from now on
            return None
        key = PlayerKey.of(known.id, self._canonical(known.name))
        eligible = meets(lambda n: values.get(n, ""), require)
        found = Entrant(key, known.name, eligible and not self.excluded(known.id, known.name))
        self._by_id_only[ident] = found
        return found

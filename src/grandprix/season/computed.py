"""A season and what is computed from it, as one value: the standings of each division, the
race while events are left, the season as it stood after each of its latest event dates.

``Computed(season)`` ranks the season once; the rest is made when first asked for and kept.
Nothing in it changes once made, so any number of threads may read it (the server renders pages
from one in several threads) without a lock. A change to the season (an event added, replaced or
removed, results given to a planned event, an identity decision, players.csv or a rating list
changed, the rules changed) gives a new season as read from its files, and ``Computed(season,
computed.memo, computed)`` its computed value: it takes from this one what the change leaves as
it was (each event's awards while the rules and the season's people are the same, the history's
dates before the first one the change touches) and computes the rest; ``tests/test_computed.py``
checks that it equals a computation from scratch.
"""

from __future__ import annotations

from functools import cached_property

from grandprix.players import PlayerKey
from grandprix.season.history import ROWS_KEPT, History
from grandprix.season.model import Season, Tables
from grandprix.season.race import Outlook, race, remaining_events
from grandprix.season.standings import AwardMemo, division_standings


class Computed:
    """``season``, its divisions' standings (``tables``), and what is made from them when
    asked: the race (``race``) and the history (``history``). ``memo``: the events' awards of
    earlier computations of the same season folder; ``previous``: the computed value of the
    season before a change, whose history this one takes what is still the same of."""

    def __init__(
        self, season: Season, memo: AwardMemo | None = None, previous: Computed | None = None
    ) -> None:
        self.season = season
        self.memo = memo
        self.tables: Tables = division_standings(season, memo=memo)
        self._previous = previous

    @cached_property
    def race(self) -> dict[str, dict[PlayerKey, Outlook]]:
        """Each table's race, by player (nothing once no planned event is left)."""
        if not remaining_events(self.season):
            return {}
        found = race(self.season, tables=self.tables)
        return {name: {o.player: o for o in outlooks} for name, outlooks in found.items()}

    @cached_property
    def history(self) -> History:
        """The tables as they stood after each of the latest event dates."""
        earlier = self._previous.__dict__.get("history") if self._previous else None
        self._previous = None  # not kept alive any longer than this
        return History(self.season, self.tables, ROWS_KEPT, earlier)

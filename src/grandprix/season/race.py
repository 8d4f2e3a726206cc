"""The race at a glance: for each table and each player, whether 1st place and each prize place
is already clinched, still reachable or out of reach, and the most the player can still total.

Pure: the season (its standings and its planned events) in, plain records out. The records
and what the search is made of are in ``race_parts.py``; the search over one table in
``race_table.py``.

What an event left can give is read from the rule set as ``season/points.py`` applies it: the
points table (by tournament class from the prize fund, ACF-6 and ACF-13.1), shared places (UT-4),
places below the table (UT-5), the minimum for every participant (LUP-1), the event's weight
(UT-6) and the rate of the section played (UT-7). How much of it adds to a total follows the
counting rule: every result, the best N (ACF-14), the best ceil(p% of the calendar) (LUP-3,
D-LUP-1), plus the bonus for every event played (LUP-3). A division that awards its own points
(ACF-13) is raced on those points and its own best N; a division that filters the overall
standings (LUP-5) on the overall totals of its players.

Equal totals go by the season's tie-break chain (LUP-6, D-LUP-2), ranked by the standings'
own code (``standings.rerank``) on the outcome in question, never by a copy of it:

- "out of reach" and the place a player needs at the next event for a chance: the player takes
  that place (and 1st place in every later event) while everyone else stays away. That is the
  player's best outcome on the chain too (a rival who plays gains points, points not counted, a
  best result, a place in the last event, an event), so a tie-break lost there is lost in every
  outcome. The one exception, a result worth nothing that lowers a rival's total per result
  counted (``per-event``), leaves the place within reach, ``undecided``;
- "clinched" and the place that makes it sure: a rival whose most is the player's total exactly
  can only end level. Their best way of ending level plays a set of the events left, 1st in
  each (more points, points not counted, a best result, a place in the last event are all
  better for them, and any way of ending level with fewer points ends level with these), so
  each set is ranked with the player; a rival who loses every one never passes the player;
- a place that rivals can take from the player only on equal points in some other way (several
  rivals together, or a search cut short) depends on tie-breaks that results still to come
  decide: the place stays "reachable" and is listed in ``Outlook.undecided``, and ``Need.tie``
  names the place that makes it sure unless such a tie-break goes against the player.

Without a chain, equal totals share the place: "reachable", as is a place shared by the chain
exhausted. With no event left the rank is known and decides.

Exact, given what is known of the events left (``site/words/season.race_assumptions`` says it
in words):

- ``total`` and ``best``: a player's total never falls (a new result is counted or dropped, never
  subtracted; points are never negative), and the most is 1st place in every event left;
- "out of reach", for every place: the player wins every event left while everyone else stays
  away, which gives the player their most and every rival their least at once;
- "clinched", for every place: the player stays away (their least). For 1st place one rival who
  can reach the player's total is enough. For a place k >= 2, k rivals must get there together,
  and they cannot all win the same event: rivals who overtake together lose nothing when they
  alone play each event left and share its first places among themselves (a table falls from
  1st place down; a tie is worth the mean of the places it spans, UT-4, or the best of them), so
  a search over who they are and their order in each event, ties included, decides it. Two
  rivals tied for 1st-2nd may both pass where 1st and 2nd would take only one past.

Conservative, so that "clinched" and "out of reach" are never wrong:

- anyone not yet in a table may enter it by playing an event left (``newcomers`` limits them);
- an event left is played in one section, at the rate of the top section (1) or the highest
  rate any section of the season has, whichever is more (UT-7, D-UT-2); an event without the
  prize fund its class needs may be of the class worth the most (ACF-6); a table that does not
  fall from 1st place down is raised until it does; points by event score have no limit while
  an event is left (its number of rounds is unknown);
- the search stops after ``race_table.SEARCH_LIMIT`` ways (never in the seasons it is meant
  for: a few events left, prize places 1st to 5th) and then answers "reachable"; ``cautious``
  names them.

Divisions are those of today: who belongs to one is decided on the dates the rule set names,
and a player outside a division enters it only as a newcomer.
"""

from __future__ import annotations

from grandprix.language import N_
from grandprix.rules.schema import Conditions, Counting, Prize, RuleSet
from grandprix.rules.terms import TERM_KINDS
from grandprix.season.divisions import division_counting
from grandprix.season.model import (
    Line,
    Season,
    SeasonEvent,
    Tables,
)
from grandprix.season.race_parts import ANY_PLACE as ANY_PLACE
from grandprix.season.race_parts import CLINCHED as CLINCHED
from grandprix.season.race_parts import OUT_OF_REACH as OUT_OF_REACH
from grandprix.season.race_parts import REACHABLE as REACHABLE
from grandprix.season.race_parts import Chain, Chance
from grandprix.season.race_parts import Need as Need
from grandprix.season.race_parts import Outlook as Outlook
from grandprix.season.race_parts import section_rate as section_rate
from grandprix.season.race_table import Table
from grandprix.season.standings import division_standings, standings


def remaining_events(season: Season) -> list[SeasonEvent]:
    """The events of the competition still to be played (``planned``, no results yet)."""
    return [e for e in season.events if e.planned and e.counts]


def prize_places(season: Season, ranking: str) -> tuple[int, ...]:
    """1st place and every place of the table that a prize goes by: the prizes of that ranking
    with no condition of their own, one place each in list order (money and titles counted
    apart). A prize for some players only (a rating band, the best of each region, ACF-8) is
    not a place of the table."""
    plain = [p for p in season.rules.prizes.prize if p.ranking == ranking and _plain(p)]
    money = sum(1 for p in plain if p.amount is not None)
    titles = len(plain) - money
    return tuple(range(1, max(1, money, titles) + 1))


def _plain(prize: Prize) -> bool:
    default = Conditions()
    return prize.each is None and all(
        getattr(prize, name) == getattr(default, name) for name in Conditions.model_fields
    )


def race(
    season: Season, newcomers: int | None = None, tables: Tables | None = None
) -> dict[str, list[Outlook]]:
    """Every table's race, by division name ('' for the overall table), in standings order.

    ``newcomers``: how many players not yet in a table may still enter it by playing an event
    left; None (the default) for any number. A table is listed for each division, and the
    overall one when there are no divisions or a prize goes down it (as the prizes do).
    ``tables``: the division standings when the caller has them already.
    """
    planned = remaining_events(season)
    chances = [Chance.of(e, season) for e in planned]
    unbounded = (by_score(season.rules) or bool(unbounded_by(season.rules))) and bool(planned)
    out: dict[str, list[Outlook]] = {}
    own = {  # a division that awards its own points among some players only (ACF-13)
        d.name
        for d in season.rules.divisions
        if d.award == "rerank"
        and any(getattr(d, name) != getattr(Conditions(), name) for name in Conditions.model_fields)
    }
    for name, lines, counting in _tables(season, tables):
        places = prize_places(season, name)
        if not planned:
            out[name] = [_final(line, places) for line in lines]
            continue
        table = Table(lines, counting, season.calendar, chances, places, unbounded, newcomers)
        table.chain = Chain(season.rules, counting, season.calendar, planned, lines)
        table.among = name if name in own else ""
        out[name] = [table.outlook(i, places) for i in range(len(lines))]
    return out


def by_score(rules: RuleSet) -> bool:
    """Whether an event's points go by the scores its players make."""
    return rules.points.from_score and rules.points.score_factor > 0


def unbounded_by(rules: RuleSet) -> list[str]:
    """What makes an event left worth an amount the race cannot bound from the rule set alone:
    points that depend on the field (its size, seeds, ratings, rounds; KW-3, KW-4, KW-5, FC-1,
    FC-3), on the category of the event, or counting rules that change with the events played
    (KC-2, KW-7). The race then sets no limit, so its statuses stay true."""
    found: list[str] = []
    for points in (rules.points, *rules.points.categories.values()):
        if points.bands or points.top_percent is not None or points.paid_places:
            found.append(N_("the size of its field"))
        if points.gain is not None:
            found.append(N_("the players' seeds"))
        if points.completion:
            found.append(N_("who plays every round"))
        if points.rating_factor is not None:
            found.append(N_("the ratings of its field"))
        if any(c.factor != 1 for c in points.classes) or points.first_outright is not None:
            found.append(N_("its prize fund or its winner"))
        if points.ties == "split":
            found.append(N_("its tie-breaks"))
        found.extend(TERM_KINDS[t.kind].depends for t in points.terms if TERM_KINDS[t.kind].depends)
    if rules.points.categories:
        found.append(N_("its category"))
    if rules.counting.mode == "most-minus" or rules.counting.per_category or rules.counting.changes:
        found.append(N_("how many results will count"))
    if rules.counting.total == "mean" or rules.standings.first_by_counted:  # KEN-3, KEN-4
        found.append(N_("a mean of the results counted"))
    if rules.counting.round != "none":  # KEN-3: a total rounded can tie one it was below
        found.append(N_("the rounding of the totals"))
    return list(dict.fromkeys(found))


def _tables(season: Season, known: Tables | None) -> list[tuple[str, list[Line], Counting]]:
    """Each table with the counting rule its totals follow: a division that awards its own
    points may count its own best N (ACF-14); a division that filters the overall standings
    keeps the overall totals (LUP-5)."""
    rules = season.rules
    tables = known if known is not None else division_standings(season)
    if rules.divisions and any(p.ranking == "" for p in rules.prizes.prize):
        tables = [("", standings(season)), *tables]
    divisions = {d.name: d for d in rules.divisions}
    out = []
    for name, lines in tables:
        division = divisions.get(name) if name else None
        counting = rules.counting.on(season.day_of())
        if division is not None and division.award == "rerank":
            counting = division_counting(division, rules).on(season.day_of())
        out.append((name, lines, counting))
    return out


def _final(line: Line, places: tuple[int, ...]) -> Outlook:
    """No event left: the rank is known, and a shared rank across a place decides nothing."""
    statuses = []
    for place in places:
        if line.rank_last <= place:
            statuses.append((place, CLINCHED))
        elif line.rank_first > place:
            statuses.append((place, OUT_OF_REACH))
        else:
            statuses.append((place, REACHABLE))
    return Outlook(line.player, line.name, line.total, line.total, tuple(statuses))

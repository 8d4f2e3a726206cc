"""Event points: an event's placings turned into awards under a rule set.

Pure functions: placings (issue 1/6) -> eligible players and their places -> table values ->
multipliers. Each step names the rule it implements.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from grandprix.model import Player
from grandprix.numbers import show
from grandprix.placings import Placing, place
from grandprix.rules.schema import Points, RuleSet
from grandprix.season.identity import Directory
from grandprix.season.model import Award, SeasonEvent, SeasonSection
from grandprix.tiebreaks import Rules, parse


@dataclass(frozen=True)
class Entrant:
    """A player of a section as the season sees them."""

    player: Player
    key: str
    name: str
    attributes: dict[str, str]
    eligible: bool


def is_eligible(attributes: dict[str, str], rules: RuleSet) -> bool:
    """UT-1: every required attribute has (one of) the required value(s), ignoring case."""
    for name, wanted in rules.eligibility.require.items():
        allowed = [wanted] if isinstance(wanted, str) else wanted
        have = attributes.get(name, "").strip().casefold()
        if have not in {w.strip().casefold() for w in allowed}:
            return False
    return True


def earning_sections(event: SeasonEvent, rules: RuleSet) -> list[tuple[SeasonSection, Fraction]]:
    """The sections that earn points and their rates (UT-7, D-UT-2)."""
    out = []
    for position, section in enumerate(event.sections):
        if section.weight is not None:
            out.append((section, section.weight))
        elif rules.sections.unweighted == "all" or position == 0:
            out.append((section, Fraction(1)))
    return out


def table_for(event: SeasonEvent, points: Points) -> tuple[list[Fraction], str]:
    """The points table, chosen by tournament class from the prize fund when classes exist.

    ACF-6: the class of a tournament goes by its total prize money (trophies excluded);
    ACF-13.1: each class has its own table.
    """
    if not points.classes:
        return list(points.table), ""
    fund = event.prize_fund or Fraction(0)
    chosen = max(
        (c for c in points.classes if c.min_prize_fund <= fund),
        key=lambda c: c.min_prize_fund,
        default=min(points.classes, key=lambda c: c.min_prize_fund),
    )
    return list(chosen.table), chosen.name


def place_value(place: int, first: int, table: list[Fraction], points: Points) -> Fraction:
    """The table value of one place of a tie that starts at ``first``.

    UT-5: a place below the table is worth ``overflow`` only when the tie includes the last
    paid place; a tie entirely below the table earns nothing.
    """
    if place <= len(table):
        return table[place - 1]
    if points.overflow is not None and first <= len(table):
        return points.overflow
    return Fraction(0)


def base_points(
    first: int, last: int, score: Fraction, table: list[Fraction], points: Points
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """Points for a player placed ``first``..``last`` before multipliers, the values shared,
    and notes for the explanation."""
    notes = []
    if points.from_score:
        value = score * points.score_factor
        notes.append(f"event score {show(score)} x {show(points.score_factor)}")
        values: tuple[Fraction, ...] = ()
    else:
        values = tuple(place_value(p, first, table, points) for p in range(first, last + 1))
        if last > len(table) >= first and points.overflow is not None:
            notes.append(
                f"places below {len(table)} tied with it are worth {show(points.overflow)} (UT-5)"
            )
        if points.ties == "full":
            value = values[0]  # everyone tied gets the best place's points
        else:
            value = sum(values, Fraction(0)) / len(values)  # UT-4: the mean of the places
            if len(values) > 1:
                shown = " + ".join(show(v) for v in values)
                notes.append(f"tie {first}-{last}: ({shown}) / {len(values)}")
    if value < points.minimum:
        notes.append(f"minimum {show(points.minimum)} for every participant (LUP-1)")
        value = points.minimum
    return value, values, notes


def section_placings(section: SeasonSection, event: SeasonEvent, rules: RuleSet) -> list[Placing]:
    """Places in the section: shared spans by score (UT-4), or ordered (LUP-2, D-LUP-3)."""
    results = section.section
    if rules.points.ties != "tiebreak":
        return list(place(results, official_order=False).rows)
    codes = event.tiebreaks if event.tiebreaks is not None else rules.points.tiebreaks
    book = Rules(event.tiebreak_rules or rules.points.tiebreak_rules)
    if results.has_crosstable and codes:
        return list(place(results, parse(codes, book), book).rows)
    return list(place(results).rows)


def renumber(rows: list[Placing], keep: set[int]) -> Iterator[Placing]:
    """The rows of the start numbers kept, placed again so that those below move up
    (D-UT-1 ``skip``).

    Players who shared a place and are both kept still share one.
    """
    position = 1
    index = 0
    while index < len(rows):
        end = index
        while end + 1 < len(rows) and (rows[end + 1].first, rows[end + 1].last) == (
            rows[index].first,
            rows[index].last,
        ):
            end += 1
        kept = [r for r in rows[index : end + 1] if r.player.start_no in keep]
        for row in kept:
            yield Placing(position, position + len(kept) - 1, row.player, row.points, row.values)
        position += len(kept)
        index = end + 1


def event_awards(event: SeasonEvent, rules: RuleSet, directory: Directory) -> list[Award]:
    """Every award of one event."""
    awards = []
    table, table_name = table_for(event, rules.points)
    for section, weight in earning_sections(event, rules):
        entrants = {}
        for p in section.section.players:
            key, name, attributes = directory.key(p)
            entrants[p.start_no] = Entrant(p, key, name, attributes, is_eligible(attributes, rules))
        rows = section_placings(section, event, rules)
        if rules.eligibility.ineligible_players == "skip":
            eligible = {no for no, e in entrants.items() if e.eligible}
            rows = list(renumber(rows, eligible))
        for row in rows:
            entrant = entrants[row.player.start_no]
            if not entrant.eligible:
                continue  # keep-place: the place is taken, its points go to nobody
            base, values, notes = base_points(row.first, row.last, row.points, table, rules.points)
            awards.append(
                Award(
                    event=event.index,
                    event_name=event.name,
                    date=event.date,
                    section=section.name,
                    player=entrant.key,
                    name=entrant.name,
                    first=row.first,
                    last=row.last,
                    score=row.points,
                    values=values,
                    base=base,
                    event_weight=event.weight,
                    section_weight=weight,
                    points=base * event.weight * weight,
                    table_name=table_name,
                    notes=tuple(notes),
                )
            )
    return awards

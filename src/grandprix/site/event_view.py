"""An event's page in the season's site: each section's placings with their tie-breaks and every
division's points, or why a player has none (a part of ``views.SiteViews``)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from fractions import Fraction
from functools import cached_property

from grandprix.model import Section
from grandprix.numbers import show
from grandprix.placings import span_text
from grandprix.players import PlayerKey
from grandprix.season.identity import Entrant
from grandprix.season.ineligible import not_eligible
from grandprix.season.model import Award, Season, SeasonEvent, section_awards
from grandprix.season.places import placed_rows
from grandprix.season.points import earning_sections, table_for
from grandprix.season.report import Tables
from grandprix.site.event_words import event_has_more, event_points_facts, short_of_rounds
from grandprix.site.pages import EventPage, EventRow, EventSection, PointsCell
from grandprix.site.parts import Link
from grandprix.site.rules_text import terms_in_words
from grandprix.site.rules_words import place_span

DIVISION_HEADS = {"": "Points"}  # an event page's points column of the season without divisions


class EventView:
    """The event pages of ``SiteViews``, which gives these values."""

    season: Season
    tables: Tables
    decimals: int
    events: dict[int, SeasonEvent]  # played, by calendar index
    event_files: dict[int, str]
    player_files: dict[PlayerKey, str]
    dated: set[datetime.date]  # the event dates with a "standings after" page
    _reasons: dict[PlayerKey, str]  # why a player earns no points, once each
    _points: dict[int, str]  # an award's points shown, by id() of its Valuation
    _scores: dict[tuple[int, int], str]  # a score shown, by its two integers

    @cached_property
    def _awards(self) -> dict[tuple[int, str], dict[str, dict[PlayerKey, Award]]]:
        """Every award of every table, by (event, section), then table (in the tables' order),
        then player."""
        found: dict[tuple[int, str], dict[str, dict[PlayerKey, Award]]] = defaultdict(dict)
        for name, lines in self.tables:
            for origin, awards in section_awards(lines):
                found[origin.event, origin.section].setdefault(name, {}).update(awards)
        return dict(found)

    @cached_property
    def _members(self) -> dict[str, set[PlayerKey]]:
        return {name: {ln.player for ln in lines} for name, lines in self.tables}

    def event(self, index: int) -> EventPage:
        """The page of the event played at ``index`` in the calendar; KeyError if not played."""
        event = self.events[index]
        rules = self.season.rules
        rates = {id(s): w for s, w in earning_sections(event, rules)}
        sections = []
        for s in event.sections:
            results = s.section
            codes, placed = placed_rows(results, event, rules)
            columns = results.columns
            entrants = self.season.directory.entrants(results)
            earned = {
                name: awards for name, awards in self._awards.get((index, s.name), {}).items()
                if any(e.key in awards for e in entrants)
            }  # fmt: skip
            rows = []
            tables, names, files = list(earned.items()), columns.name, self.player_files
            cell, shown = self._points_cell, self._score
            took_part = results.rounds_played(rules.points.for_category(event.category).played)
            for first, last, i, score, values in placed:  # (50 rows an event, 10,000 events)
                entrant = entrants[i]
                key, span = entrant.key, (first, last)
                page = files.get(key)
                played = (took_part[i], results.rounds)
                cells = tuple([cell(name, awards.get(key), span, entrant, results, i, played)
                               for name, awards in tables])  # fmt: skip
                rows.append(
                    EventRow(span_text(first, last), names[i],
                             f"../players/{page}" if page else "", shown(score),
                             tuple(map(show, values)), cells)
                )  # fmt: skip
            facts = _section_facts(results.rounds, dict(results.headers))
            if not earned:
                facts += ("This section earns no Grand Prix points.",)
            elif id(s) in rates and rates[id(s)] != 1:
                facts += (f"Its points count {show(rates[id(s)])} times.",)
            heads = tuple(DIVISION_HEADS.get(name, name) for name in earned)
            sections.append(EventSection(s.name, codes, heads, tuple(rows), facts))
        path = f"events/{self.event_files[index]}"
        after = None
        if event.date in self.dated:
            after = Link("The standings after this event", self._after_file(index))
        return EventPage(path, "events", event.name, event.date.isoformat(),
                         self._event_facts(event), tuple(sections), after)  # fmt: skip

    def _points_cell(
        self,
        division: str,
        award: Award | None,
        span: tuple[int, int],
        entrant: Entrant,
        results: Section,
        row: int,
        played: tuple[int, int],
    ) -> PointsCell:
        """A player's points in one division (``span``: their places in the section, ``row``
        their row in its columns, ``played`` the rounds they took part in of the section's),
        or why none."""
        label = division or "Grand Prix"
        if award is not None:
            same = (award.first, award.last) == span
            note = "" if same else f"{place_span(award.place)} in {label}"
            return PointsCell(division, self._points_text(award), note)
        if entrant.eligible:
            short = short_of_rounds(*played, self.season)
            if short:
                return PointsCell(division, "", short)
            if entrant.key not in self._members[division]:
                return PointsCell(division, "", f"not in {label}", member=False)
            return PointsCell(division, "", f"no {label} points from this section")
        reason = self._reasons.get(entrant.key)
        if reason is None:
            require = self.season.rules.eligibility.require
            attributes = self.season.directory.key(results.columns.record(row))[2]
            reason = not_eligible(lambda n: attributes.get(n, ""), require)
            self._reasons[entrant.key] = reason
        return PointsCell(division, "", reason)

    def _score(self, score: Fraction) -> str:
        """A score shown, remembered by its numerator and denominator."""
        key = (score.numerator, score.denominator)
        shown = self._scores.get(key)
        if shown is None:
            shown = self._scores[key] = show(score)
        return shown

    def _event_facts(self, event: SeasonEvent) -> tuple[str, ...]:
        rules = self.season.rules
        facts = []
        headers = dict(event.sections[0].section.headers) if event.sections else {}
        place = event.place or headers.get("022", "").strip()  # season.toml, else TRF 022
        if place:
            facts.append(f"Played in {place}.")
        if event.weight != 1:
            facts.append(f"Points count {show(event.weight)} times the normal rate.")
        points = rules.points.for_category(event.category)
        if points.terms:
            facts.append(terms_in_words(points))
        if points.from_score:
            facts.append(f"Points are the score times {show(points.score_factor)}.")
        elif points.by_place and not event_has_more(points):
            table, name = table_for(event, points)
            values = ", ".join(show(v) for v in table)
            kind = f" (a class {name} tournament)" if name else ""
            facts.append(f"Points for 1st, 2nd, ... places{kind}: {values}.")
        facts.extend(event_points_facts(event, points, rules))
        return tuple(facts)

    def _after_file(self, index: int) -> str:
        return f"after-{index + 1:03d}.html"

    def _points_text(self, award: Award) -> str:
        """The award's points shown, made once for each valuation (awards share them; hashing
        the Fraction to look it up costs more than this)."""
        shown = self._points.get(id(award.valuation))
        if shown is None:
            shown = self._points[id(award.valuation)] = show(award.points, self.decimals)
        return shown


def _section_facts(rounds: int, headers: dict[str, str]) -> tuple[str, ...]:
    """Rounds and time control, when the results file gives them (its rounds; TRF 122)."""
    facts = []
    if rounds:
        facts.append(f"{rounds} rounds.")
    control = headers.get("122", "").strip()
    if control:
        facts.append(f"Time control: {control}.")
    return tuple(facts)

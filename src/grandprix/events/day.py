"""An event's day: each section's Swiss tournament kept in the section's results file (the TRF
that event.toml's ``results`` names), started from the entries placed in the section, and
changed round by round: paired, results entered, byes and withdrawals marked, late entries
added. The file is the truth and is written whole after every change, so that a finished
event is the results file a season reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grandprix.errors import UsageError
from grandprix.events.byes import Bye
from grandprix.events.config import EventFile, EventSection
from grandprix.events.export import section_trf
from grandprix.events.sections import Placed
from grandprix.model import Player, ResultKind
from grandprix.pairing.records import Forbidden
from grandprix.pairing.state import Tournament, add_player, read_tournament, tournament_text
from grandprix.players import name_key
from grandprix.runtime.files import write_whole

K = ResultKind


@dataclass(frozen=True)
class Day:
    """One section's tournament on the day, where it is kept, and what reading it noticed
    (late entries added)."""

    section: EventSection
    path: Path
    tournament: Tournament
    notes: tuple[str, ...] = ()


def section_of(event: EventFile, name: str | None, event_file: Path) -> EventSection:
    """The section named, or the event's only one."""
    if name is None:
        if len(event.sections) == 1:
            return event.sections[0]
        names = ", ".join(s.name for s in event.sections) or "none"
        raise UsageError(f"{event_file}: name the section with --section (sections: {names})")
    found = next((s for s in event.sections if s.name == name), None)
    if found is None:
        names = ", ".join(s.name for s in event.sections) or "none"
        raise UsageError(f"{event_file}: no section {name!r} (sections: {names})")
    if not found.results:
        raise UsageError(
            f"{event_file}: section {name!r} has no 'results' file: name the TRF the day is "
            'kept in (e.g. results = "results/a.trf")'
        )
    return found


def open_day(
    event_file: Path,
    event: EventFile,
    section: EventSection,
    placed: list[Placed],
    byes: dict[str, list[Bye]],
) -> Day:
    """The section's tournament: read from its results file when there is one, else started
    from the entries placed in it (by rating, with the byes granted); entries not yet in the
    file are added as late entries."""
    section = section_of(event, section.name, event_file)
    assert section.results is not None
    path = event_file.parent / section.results
    if not path.exists():
        if not any(p.section == section.name for p in placed):
            raise UsageError(
                f"{event_file}: section {section.name!r} has no entries placed in it yet: "
                "there is nobody to pair (see 'grandprix sections')"
            )
        text = section_trf(event, section, placed, byes)
        tournament = read_tournament(path, text.encode("utf-8"))
        _check_forbidden(event, placed)
        tournament = _with_event_plan(tournament, event)
        return Day(section, path, tournament, (f"{path}: started from the entries",))
    tournament = read_tournament(path)
    notes = []
    known = {_key(p.fide_id, p.name) for p in tournament.section.players}
    for p in sorted(placed, key=lambda p: -(p.entry.rating or 0)):
        if p.section != section.name or _key(p.entry.id, p.entry.name) in known:
            continue
        missed = {b.round: b.kind for b in byes.get(p.entry.id or p.entry.name, [])}
        entrant = Player(
            start_no=0,
            name=p.entry.name,
            rating=p.entry.rating,
            fide_id=p.entry.id,
            extra=(("class", p.klass),),
        )
        kind = K.HALF_BYE if missed.get(1) == "H" else K.ZERO_BYE
        tournament = add_player(tournament, entrant, kind)
        notes.append(
            f"late entry: {p.entry.name} added with a {_said(kind)} for each round already "
            "paired; pairing numbers assigned again by rating (C.04.2)"
        )
    return Day(section, path, tournament, tuple(notes))


def _said(kind: ResultKind) -> str:
    return "half-point bye" if kind is K.HALF_BYE else "zero-point bye"


def _key(identifier: str, name: str) -> str:
    return f"id:{identifier}" if identifier else f"name:{name_key(name)}"


def _with_event_plan(tournament: Tournament, event: EventFile) -> Tournament:
    """The acceleration and the forbidden pairs event.toml asks for, as the tournament's
    records (250 and 260); a group names players by entry id or name, and only those of this
    section are kept apart in it."""
    from dataclasses import replace

    from grandprix.pairing.baku import baku

    plan = tournament.plan
    players = tournament.section.players
    if event.acceleration == "baku":
        win = tournament.section.scoring.win
        plan = replace(plan, accelerations=baku(len(players), plan.rounds, win))
    known = {p.fide_id: p.start_no for p in players if p.fide_id}
    known.update({name_key(p.name): p.start_no for p in players})
    groups = []
    for group in event.forbidden:
        numbers = tuple(dict.fromkeys(known[w] for w in _keys(group) if w in known))
        if len(numbers) > 1:
            groups.append(Forbidden(1, plan.rounds, numbers))
    if groups:
        plan = replace(plan, forbidden=tuple(groups))
    return replace(tournament, plan=plan)


def _check_forbidden(event: EventFile, placed: list[Placed]) -> None:
    """Every player a forbidden group names is an entry (by id or name): a misspelt name would
    otherwise keep nobody apart."""
    entered = {p.entry.id for p in placed if p.entry.id}
    entered.update(name_key(p.entry.name) for p in placed)
    for group in event.forbidden:
        for text, key in zip(group, _keys(group), strict=True):
            if key not in entered:
                raise UsageError(
                    f"forbidden: {text!r} is not an entry of the event (write an entry's id or "
                    "its name as the entries give it)"
                )


def _keys(group: list[str]) -> list[str]:
    """Each name of a forbidden group as the players are known: an id as it is, a name by
    ``name_key``."""
    return [text if text.isdecimal() else name_key(text) for text in group]


def save(day: Day, tournament: Tournament) -> None:
    """The tournament written whole to the section's results file."""
    write_whole(day.path, tournament_text(tournament).encode("utf-8"))

"""event.toml: one event's sections, fees, byes, prizes and registration particulars."""

from __future__ import annotations

import datetime
from fractions import Fraction
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from grandprix.errors import InputError
from grandprix.model import Problem
from grandprix.paths import OutsideError, contained, shared_folders
from grandprix.rules.federation import EventRules, load_federation
from grandprix.rules.fields import Count, Factor, Money, Strict, TieBreakRules
from grandprix.rules.load import TomlFile, read_toml, validation_problems
from grandprix.rules.schema import Prizes
from grandprix.tomlpos import Path as KeyPath


class EventSection(Strict):
    """A section: the classes it gathers (UCC-1, UCC-4), its time control and its results."""

    name: str = Field(description="Section name (a prize's `ranking`).")
    classes: list[str] = Field(
        default_factory=list,
        description="Classes playing in it (of `class_rules`); more than one is a combined section "
        "(UCC-4), whose players keep their own class for prizes (UCC-9).",
    )
    results: str | None = Field(
        default=None, description="The section's results once played, relative to event.toml."
    )
    time_control: str = Field(default="", description="E.g. 'G/60;+10' (UCC-5).")
    rating_type: str = Field(default="", description="regular, quick or dual (UCC-5).")
    round_times: list[datetime.datetime] = Field(
        default_factory=list, description="Start of each round (for bye requests, UCC-15)."
    )
    tiebreaks: str = Field(default="", description="Tie-breaks that order tied players.")
    tiebreak_rules: TieBreakRules = Field(default="us-chess", description="Their rule book.")


class Fees(Strict):
    """Entry fees (UCC-13, LUP-E2)."""

    advance: Money = Field(description="Fee when paid by the advance deadline.")
    on_site: Money = Field(description="Fee otherwise.")
    advance_deadline: datetime.datetime | None = Field(default=None, description="Deadline.")
    free_town: str | None = Field(
        default=None, description="Residents of this town play free (LUP-E2: Carmiano)."
    )


class Byes(Strict):
    """Bye rules (UCC-14, UCC-15)."""

    half_point: Count = Field(default=1, description="Half-point byes a player may take.")
    notice_hours: Factor = Field(default=Fraction(1), description="Hours before the round to ask.")
    last_round_by: Count = Field(
        default=2, description="A last-round bye must be asked before this round starts."
    )
    late_minutes: Count = Field(
        default=15,
        description="Unregistered players arriving later than this before round 1 get a "
        "half-point bye in round 1 (UCC-14).",
    )


class EventFile(Strict):
    """event.toml."""

    name: str = Field(description="Event name.")
    date: datetime.date | None = Field(default=None, description="The (last) day.")
    start: datetime.date | None = Field(default=None, description="First day.")
    end: datetime.date | None = Field(default=None, description="Last day.")
    # Not Count: the bounds inside that Annotated type would win over these.
    rounds: int = Field(default=0, ge=0, le=199, description="Number of rounds.")
    supplement: str = Field(default="", description="Rating supplement used (UCC-1).")
    pairing: Literal["fide-dutch-2026"] = Field(
        default="fide-dutch-2026",
        description="The pairing system of `grandprix round`: the FIDE Dutch system as in force "
        "from 1 February 2026 (C.04.3), the only one for now.",
    )
    acceleration: Literal["none", "baku"] = Field(
        default="none",
        description="'baku': FIDE's Baku acceleration (virtual points for the top group in the "
        "first rounds), written as TRF-2026 records 250 when a section starts.",
    )
    forbidden: list[list[str]] = Field(
        default_factory=list,
        description="Groups of players (entry ids or names) who must not be paired with each "
        'other, e.g. one family: [["7001", "7004"]] (TRF-2026 record 260).',
    )
    entries: str | None = Field(default=None, description="The entries CSV.")
    min_section: Count = Field(default=6, description="Smaller sections are flagged (UCC-4).")
    class_rules: str = Field(
        default="us-chess",
        description="Classes by rating and, for the unrated, by grade (UCC-1, UCC-2): a bundled "
        "federation or a federation file inside the event's folder.",
    )
    sections: list[EventSection] = Field(default_factory=list, description="Sections, top first.")
    fees: Fees | None = Field(default=None, description="Entry fees.")
    byes: Byes = Field(default_factory=Byes, description="Bye rules.")
    players_file: str = Field(default="players.csv", description="Player attributes, if any.")
    shared_folders: list[str] = Field(
        default_factory=list,
        description="Folders outside the event's folder that its files may come from; every "
        "other path must stay inside the folder of event.toml.",
    )
    prizes: Prizes = Field(default_factory=Prizes, description="The prizes.")
    prize_fund: Money | None = Field(
        default=None, description="Total prize money, trophies excluded (ACF-6)."
    )
    players: Count | None = Field(default=None, description="Players taking part (ACF-7).")
    registration_rules: str = Field(
        default="acf",
        description="Registration with the federation (ACF-4 to ACF-7): a bundled federation "
        "or a federation file inside the event's folder.",
    )
    state: str | None = Field(
        default=None,
        description="State or territory: one of the `regions` of `registration_rules` (ACF-7).",
    )
    capital_city: bool | None = Field(default=None, description="Played in a capital (ACF-7).")
    registered_on: datetime.date | None = Field(default=None, description="Registered (ACF-4).")
    results_sent_on: datetime.date | None = Field(
        default=None, description="Results sent to the Co-ordinator (ACF-5)."
    )

    @property
    def first_day(self) -> datetime.date | None:
        return self.start or self.date or self.end

    @property
    def last_day(self) -> datetime.date | None:
        return self.end or self.date or self.start


def read_event_rules(path: Path) -> tuple[EventFile, TomlFile, EventRules]:
    """event.toml parsed and validated, with the federation rules it names (also checked: the
    file's ``state`` must be one of the registration rules' regions); ``InputError`` with
    located problems otherwise."""
    problems: list[Problem] = []
    toml = read_toml(path, problems)
    if toml is None:
        raise InputError(problems)
    try:
        event = EventFile.model_validate(toml.data)
    except ValidationError as exc:
        raise InputError(validation_problems(exc, EventFile, toml.where)) from None
    allowed = _check_paths(path.parent, event, toml, problems)
    rules = _federations(path.parent, allowed, event, toml, problems)
    if problems or rules is None:
        raise InputError(problems)
    return event, toml, rules


def _check_paths(
    folder: Path, event: EventFile, toml: TomlFile, problems: list[Problem]
) -> list[Path]:
    """Every file event.toml names lies inside its folder or a shared folder it names (the
    shared folders are returned)."""
    allowed, bad = shared_folders(folder, event.shared_folders)
    problems.extend(Problem(toml.where(("shared_folders",)), message) for message in bad)
    named: list[tuple[str, KeyPath]] = [(event.players_file, ("players_file",))]
    if event.entries:
        named.append((event.entries, ("entries",)))
    named += [
        (s.results, ("sections", i, "results")) for i, s in enumerate(event.sections) if s.results
    ]
    for name, key in named:
        try:
            contained(folder, name, allowed)
        except OutsideError as exc:
            problems.append(Problem(toml.where(key), str(exc)))
    return allowed


def _federations(
    folder: Path, allowed: list[Path], event: EventFile, toml: TomlFile, problems: list[Problem]
) -> EventRules | None:
    """The classes and the registration rules of the federations event.toml names."""
    at_classes, at_registration = toml.where(("class_rules",)), toml.where(("registration_rules",))
    classes = load_federation(event.class_rules, folder, at_classes, problems, allowed)
    registration = (
        classes
        if event.registration_rules == event.class_rules
        else load_federation(event.registration_rules, folder, at_registration, problems, allowed)
    )
    if classes is not None and classes.classes is None:
        problems.append(
            Problem(
                at_classes,
                f"class_rules: '{event.class_rules}' has no [classes]; name a federation with "
                "rating classes (e.g. 'us-chess')",
            )
        )
    if registration is not None and registration.registration is None:
        problems.append(
            Problem(
                at_registration,
                f"registration_rules: '{event.registration_rules}' has no [registration]; name "
                "a federation with registration rules (e.g. 'acf')",
            )
        )
    if classes is None or classes.classes is None:
        return None
    if registration is None or registration.registration is None:
        return None
    regions = registration.registration.regions
    if event.state is not None and regions and event.state not in regions:
        *rest, last = (repr(r) for r in regions)
        expected = f"{', '.join(rest)} or {last}" if rest else last
        problems.append(
            Problem(
                toml.where(("state",)),
                f"'state' = {event.state!r}: Input should be {expected} (the regions of "
                f"registration_rules '{event.registration_rules}')",
            )
        )
    return EventRules(classes.classes, registration.registration)

"""What season.toml may hold: its keys, their types and defaults, and the checks one entry can
make alone (``season/config.py`` reads the file into these and checks the rest against the folder
and the rules)."""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator, model_validator

from grandprix.language import ENGLISH, LANGUAGES
from grandprix.readers import FormatName as Format
from grandprix.rules.fields import Money, Strict, TieBreakRules, Weight


class SectionEntry(Strict):
    """A section of an event: its own results file and, optionally, its rate (UT-7)."""

    name: str = Field(
        description="Section name, e.g. 'Open' or 'Class A'; in a results file of several "
        "sections (a US Chess report), the section read, as the file names it."
    )
    results: str = Field(description="Results file, relative to the season folder.")
    weight: Weight | None = Field(default=None, description="Section rate (UT-7).")
    format: Format | None = Field(default=None, description="Results format if not detected.")


class EventEntry(Strict):
    """An event of the season."""

    name: str = Field(description="Event name.")
    date: datetime.date = Field(description="Date (the last day, for a multi-day event).")
    results: str | None = Field(default=None, description="Results file of a one-section event.")
    sections: list[SectionEntry] = Field(default_factory=list, description="Sections, in order.")
    weight: Weight = Field(default=Fraction(1), description="Event multiplier (UT-6).")
    prize_fund: Money | None = Field(default=None, description="Total prize money (ACF-6).")
    based_on: bool = Field(
        default=False,
        description="The prize fund is 'based on' entries, not guaranteed: it counts at the "
        "rules' `points.based_on_percent` when choosing the tournament class.",
    )
    category: str = Field(
        default="",
        max_length=60,
        description="The event's category (e.g. rapid, classical): the rules may give it its "
        "own points (`points.categories`) and limit how many of its results count "
        "(`counting.per_category`).",
    )
    tiebreaks: str | None = Field(default=None, description="Tie-breaks for this event.")
    tiebreak_rules: TieBreakRules | None = Field(default=None, description="Their rule book.")
    format: Format | None = Field(default=None, description="Results format if not detected.")
    planned: bool = Field(
        default=False, description="In the calendar but not played yet (no results)."
    )
    in_progress: bool = Field(
        default=False,
        description="Being played: its results files are the TRFs `grandprix round` and the "
        "workspace keep round by round; its pages show each round's pairings and the standings "
        "after it, and nothing counts in the season until this key is removed.",
    )
    place: str = Field(
        default="", max_length=200, description="Where it is played (shown on its page)."
    )
    counts: bool = Field(
        default=True,
        description="false: shown with its results, but outside the season's competition: it "
        "earns no points and is no event played (an evening 'buiten competitie', Dworp).",
    )

    @model_validator(mode="after")
    def _one_source(self) -> EventEntry:
        if self.in_progress and self.planned:
            raise ValueError("an event is either planned or in progress: remove one of the two")
        if self.in_progress and not self.results and not self.sections:
            raise ValueError(
                "an event in progress needs its results files (the TRF of each section, "
                "'results = \"file.trf\"' or [[events.sections]])"
            )
        if self.planned and (self.results or self.sections):
            raise ValueError("a planned event has no results yet: remove 'planned' or the results")
        if not self.planned and not self.results and not self.sections:
            raise ValueError(
                "needs 'results = \"file\"' or [[events.sections]] (or 'planned = true')"
            )
        if self.results and self.sections:
            raise ValueError("give either 'results' or [[events.sections]], not both")
        return self


class RatingListEntry(Strict):
    """A rating list to keep in the season's store (imported once; again changes nothing)."""

    file: str = Field(description="The list file, relative to the season folder.")
    kind: str = Field(description="fide-standard, fide-rapid, fide-blitz or national(-NAME).")
    date: datetime.date = Field(description="The date the list is in force from.")


class SeasonFile(Strict):
    """season.toml."""

    name: str = Field(description="Season name.")
    start: datetime.date | None = Field(default=None, description="First day of the season.")
    end: datetime.date | None = Field(default=None, description="Last day of the season.")
    rules: str | dict[str, Any] = Field(
        description="A preset name or a rules file; or a [rules] table with 'preset' (or "
        "'file') and keys that override it."
    )
    players: str = Field(default="players.csv", description="The players file, if any.")
    shared_folders: list[str] = Field(
        default_factory=list,
        description="Folders outside the season folder that its files may come from (a "
        "federation's rules file or rating lists kept for many seasons); every other path "
        "must stay inside the season folder.",
    )
    ratings_store: str | None = Field(
        default=None,
        description="A rating store prepared with 'grandprix ratings import --store' (an SQLite "
        "file, only read); instead of 'rating_lists'.",
    )
    rating_lists: list[RatingListEntry] = Field(
        default_factory=list,
        description="Rating lists of the season, read from their files at every run (nothing "
        "is written).",
    )
    events: list[EventEntry] = Field(description="The events.")
    language: str = Field(
        default=ENGLISH,
        description="The language of the season's pages: "
        + ", ".join(f"'{code}' ({name})" for code, name in LANGUAGES.items())
        + ". Downloads and the command line stay in English.",
    )
    approval: bool = Field(
        default=False,
        description="On a server with accounts (grandprix serve): a director's upload waits "
        "for a coordinator's approval before it is written into the season.",
    )

    @field_validator("language")
    @classmethod
    def _known_language(cls, code: str) -> str:
        if code not in LANGUAGES:
            choices = ", ".join(f"'{c}' ({name})" for c, name in LANGUAGES.items())
            raise ValueError(f"no pages in language '{code}': write one of {choices}")
        return code

    def days_problem(self) -> str:
        """What is wrong with the season's first and last days together ('' when nothing)."""
        if self.start and self.end and self.end < self.start:
            return (
                f"the season ends ({self.end}) before it starts ({self.start}); correct "
                "'start' or 'end'"
            )
        return ""

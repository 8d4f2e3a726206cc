"""Federation files: the event-side rules of a federation, as data (rules/federations/*.toml).

A federation file may hold rating and grade classes (``[classes]``, UCC-1, UCC-2), the
registration of a tournament (``[registration]``, ACF-4 to ACF-7), or both. An event.toml
chooses them with ``class_rules`` and ``registration_rules``: a bundled name, or the path of a
file of its own inside its folder (or a shared folder it names). The files are read with the
season presets' machinery, so a bad one gets located errors (file:line).
"""

from __future__ import annotations

import difflib
import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from pydantic import Field, ValidationError, model_validator

from grandprix.errors import InputError, UsageError
from grandprix.model import Location, Problem
from grandprix.paths import OutsideError, contained
from grandprix.rules.fields import Count, Money, Strict
from grandprix.rules.load import read_toml, validation_problems
from grandprix.scores import show

FEDERATIONS = Path(__file__).parent / "federations"


class ClassRules(Strict):
    """Players' classes: by rating, and by school grade for the unrated (UCC-1, UCC-2)."""

    ratings: dict[str, Count] = Field(
        min_length=1,
        description="Each class with the lowest rating in it, top class first (UCC-1); a "
        "rating below the last one is in the last class.",
    )
    grades: dict[str, Count] = Field(
        default_factory=dict,
        description="For unrated players: a class with the lowest school grade in it (0 = "
        "kindergarten), highest first (UCC-2); a grade below the last is in the last class.",
    )
    adults: str = Field(description="Class of unrated players with no grade (UCC-2: E).")
    unrated_rule: str = Field(
        default="",
        description="Rule ID cited when an unrated player's class comes from the grade or the "
        "director (UCC-2).",
    )

    @model_validator(mode="after")
    def _classes_in_order(self) -> ClassRules:
        for what, table in (("rating", self.ratings), ("grade", self.grades)):
            lows = list(table.values())
            if any(low <= below for low, below in itertools.pairwise(lows)):
                raise ValueError(
                    f"the lowest {what}s of the classes must fall from the first class to the "
                    f"last, got {lows}"
                )
        unknown = [c for c in [*self.grades, self.adults] if c not in self.ratings]
        if unknown:
            raise ValueError(
                f"class {unknown[0]!r} of unrated players is not a rating class (one of "
                f"{', '.join(self.ratings)})"
            )
        return self

    @property
    def order(self) -> tuple[str, ...]:
        """The classes, top first."""
        return tuple(self.ratings)


class TournamentClass(Strict):
    """A tournament class, numbered from 1 in the order given: the prize fund it starts at
    and its base fee (ACF-6, ACF-7)."""

    min_prize_fund: Money = Field(description="Smallest total prize money of the class (ACF-6).")
    base_fee: Money = Field(default=Fraction(0), description="Base registration fee (ACF-7).")


class Dates(Strict):
    """When a tournament is registered and how long it may last (ACF-4)."""

    rule: str = Field(default="", description="Rule ID cited by these checks (ACF-4).")
    year_before: bool = Field(
        default=False, description="Register by 31 December of the year before the start."
    )
    months_before: int | None = Field(
        default=None, ge=1, le=120, description="Register at the latest this many months before."
    )
    max_days: int | None = Field(
        default=None, ge=1, le=1000, description="Complete within this many consecutive days."
    )


class Results(Strict):
    """When the results are due (ACF-5)."""

    rule: str = Field(default="", description="Rule ID cited by this check (ACF-5).")
    within_days: Count | None = Field(default=None, description="Days after the end.")


class Fee(Strict):
    """The registration fee beyond the class's base: min(cap, base + per player - reduction)
    (ACF-7, D-ACF-2)."""

    rule: str = Field(default="", description="Rule ID cited by the fee's workings (ACF-7).")
    per_player: Money = Field(default=Fraction(0), description="Fee per player.")
    cap: Money | None = Field(default=None, description="The most a fee can be.")
    reduction: Money = Field(default=Fraction(0), description="Taken off where reduced.")
    reduced_regions: list[str] = Field(
        default_factory=list, description="Regions where the fee is reduced."
    )
    outside_capital: bool = Field(
        default=False, description="The fee is reduced outside a capital city."
    )


class RegistrationRules(Strict):
    """Registering a tournament with the federation (ACF-4 to ACF-7)."""

    regions: list[str] = Field(
        default_factory=list,
        description="The regions an event.toml `state` may name (ACF-7); none: any.",
    )
    class_rule: str = Field(default="", description="Rule ID of the classes (ACF-6).")
    classes: list[TournamentClass] = Field(
        min_length=1, description="Tournament classes by prize fund, lowest first (ACF-6)."
    )
    dates: Dates = Field(default_factory=Dates, description="Registration dates (ACF-4).")
    results: Results = Field(default_factory=Results, description="Results due (ACF-5).")
    fee: Fee = Field(default_factory=Fee, description="The fee (ACF-7).")

    @model_validator(mode="after")
    def _consistent(self) -> RegistrationRules:
        funds = [c.min_prize_fund for c in self.classes]
        if funds[0] != 0 or any(low >= high for low, high in itertools.pairwise(funds)):
            raise ValueError(
                "the classes' min_prize_fund must start at 0 and rise from one class to the "
                f"next, got {', '.join(show(f) for f in funds)}"
            )
        outside = [r for r in self.fee.reduced_regions if self.regions and r not in self.regions]
        if outside:
            raise ValueError(
                f"reduced region {outside[0]!r} is not one of the regions "
                f"({', '.join(self.regions)})"
            )
        return self


class Federation(Strict):
    """A federation file."""

    name: str = Field(default="", description="Name of the federation.")
    description: str = Field(default="", description="Where its rules come from.")
    classes: ClassRules | None = Field(default=None, description="Players' classes.")
    registration: RegistrationRules | None = Field(
        default=None, description="Tournament registration."
    )


@dataclass(frozen=True)
class EventRules:
    """The federation rules one event follows."""

    classes: ClassRules
    registration: RegistrationRules


def federation_names() -> list[str]:
    return sorted(p.stem for p in FEDERATIONS.glob("*.toml"))


def read_federation(path: Path, problems: list[Problem]) -> Federation | None:
    """A federation file, validated; its problems are located in it."""
    source = read_toml(path, problems)
    if source is None:
        return None
    try:
        return Federation.model_validate(source.data)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, Federation, source.where))
        return None


def load_federation(
    name: str,
    folder: Path,
    where: Location,
    problems: list[Problem],
    allowed: Sequence[Path] = (),
) -> Federation | None:
    """A bundled federation by name, or a federation file relative to ``folder`` that must stay
    inside it (or inside one of the ``allowed`` shared folders); a wrong name is a problem
    located at ``where`` (the key that names it)."""
    if name in federation_names():
        return bundled(name)
    if not name.endswith(".toml"):
        names = federation_names()
        guess = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean '{guess[0]}'?" if guess else ""
        problems.append(
            Problem(
                where,
                f"unknown federation '{name[:120]}'{hint} (bundled: {', '.join(names)}; or give "
                "the path of a federation file ending in .toml)",
            )
        )
        return None
    try:
        path = contained(folder, name, allowed)
    except OutsideError as exc:
        problems.append(Problem(where, str(exc)))
        return None
    if not path.is_file():
        problems.append(Problem(where, f"federation file '{name[:120]}' not found in {folder}"))
        return None
    return read_federation(path, problems)


@functools.cache
def bundled(name: str) -> Federation:
    """A federation shipped with grandprix, read once."""
    if name not in federation_names():
        raise UsageError(
            f"'{name[:120]}' is not a bundled federation ({', '.join(federation_names())}); "
            "read the event with read_event_rules to use a federation file"
        )
    problems: list[Problem] = []
    federation = read_federation(FEDERATIONS / f"{name}.toml", problems)
    if federation is None:
        raise InputError(problems)
    return federation


@functools.cache
def bundled_rules(class_rules: str = "us-chess", registration_rules: str = "acf") -> EventRules:
    """The rules of bundled federations (for an event built in code rather than read)."""
    classes, registration = bundled(class_rules).classes, bundled(registration_rules).registration
    if classes is None:
        raise UsageError(f"the federation '{class_rules}' has no [classes]")
    if registration is None:
        raise UsageError(f"the federation '{registration_rules}' has no [registration]")
    return EventRules(classes, registration)


def rating_class(rating: int, classes: ClassRules) -> str:
    """The class of a rating: the first whose lowest rating it reaches, else the last (UCC-1)."""
    return next((name for name, low in classes.ratings.items() if rating >= low), classes.order[-1])


def us_class(rating: int | None) -> str:
    """US Chess class of a rating (UCC-1: X 2000+, A 1800-1999, ..., J/I 100-399), from the
    bundled us-chess.toml."""
    if rating is None:
        return ""
    return rating_class(rating, bundled_rules().classes)


def cite(rule: str) -> str:
    """' (ACF-7)' after a message, or nothing when the federation names no rule."""
    return f" ({rule})" if rule else ""

"""Tie-break codes as written by arbiters (``BH/C1``, ``SB``, ``KS/L60``, ``MM``) and parsed."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from grandprix.errors import UsageError

if TYPE_CHECKING:
    from grandprix.tiebreaks.context import Context

_MODIFIER = re.compile(r"^(C[12]|M[12]|P|F|R|L(\d+|[+-]\d+))$")


@dataclass(frozen=True)
class Spec:
    """A parsed tie-break code."""

    code: str  # as given, e.g. 'BH/C1'
    name: str  # 'BH'
    cut_low: int = 0  # /C1 /C2 /M1 /M2
    cut_high: int = 0  # /M1 /M2
    forfeits_played: bool = False  # /P
    fore: bool = False  # /F (AOB over Fore Buchholz)
    koya_percent: int = 50  # /L60
    koya_shift: int = 0  # /L+1, /L-1: half-points above or below the limit
    rule_book: bool = False  # /R (US Chess CUM, OCUM): subtract unplayed wins only

    @property
    def lower_is_better(self) -> bool:
        return self.name == "DE"


Values = list[Fraction | None]
Function = Callable[["Context", Spec], Values]


@dataclass(frozen=True)
class TieBreak:
    """What a code means under a rule book: the function computing it, its name and what it
    measures in words (marked for translation, shown through ``_``), and the modifiers taken."""

    compute: Function | None  # None for DE, which depends on who is tied (placings computes it)
    name: str  # 'Buchholz'
    meaning: str  # what it measures, in a sentence: an event page explains its columns with it
    cuts: bool = False  # takes /C1 /C2 (cut lowest) and /M1 /M2 (median), C.07 art. 14
    rule_book: bool = False  # takes /R: the rule book's reading instead of SwissSys's (34E3)


def parse_codes(text: str, book: Mapping[str, TieBreak]) -> list[Spec]:
    """Split a comma- or space-separated list and parse each code; unknown codes are refused."""
    return [parse_code(part, book) for part in re.split(r"[,\s]+", text.strip()) if part]


def parse_code(code: str, book: Mapping[str, TieBreak]) -> Spec:
    parts = code.strip().upper().split("/")
    name = parts[0]
    if name not in book:
        known = ", ".join(sorted(book))
        raise UsageError(f"unknown tie-break '{code}' for these rules (known: {known})")
    cut_low = cut_high = koya_shift = 0
    koya_percent = 50
    forfeits = fore = rule_book = False
    for mod in parts[1:]:
        match = _MODIFIER.match(mod)
        if not match:
            raise UsageError(
                f"unknown modifier '/{mod}' in tie-break '{code}' (expected /C1 /C2 /M1 /M2 /P /F, "
                "/Lnn for KS or /R for us-chess CUM and OCUM)"
            )
        if mod[0] in "CM" and not book[name].cuts:
            raise UsageError(f"tie-break '{code}': {name} takes no cut or median modifier")
        if mod == "R" and not book[name].rule_book:
            raise UsageError(
                f"tie-break '{code}': {name} takes no /R modifier (the rule book's reading of "
                "us-chess CUM and OCUM)"
            )
        if mod[0] == "C":
            cut_low = int(mod[1])
        elif mod[0] == "M":
            cut_low = cut_high = int(mod[1])
        elif mod == "P":
            forfeits = True
        elif mod == "F":
            fore = True
        elif mod == "R":
            rule_book = True
        elif mod[0] == "L":
            if mod[1] in "+-":
                koya_shift = int(mod[1:])
            else:
                koya_percent = int(mod[1:])
    return Spec(
        code.strip(), name, cut_low, cut_high, forfeits, fore, koya_percent, koya_shift, rule_book
    )

"""Tie-break codes as written by arbiters (``BH/C1``, ``SB``, ``KS/L60``, ``MM``) and parsed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from grandprix.errors import UsageError

# Names accepted under the FIDE rule sets (C.07 art. 5-11; GE is the 2024 name of REP).
FIDE_NAMES = frozenset(
    {
        "BH", "FB", "AOB", "SB", "KS", "DE", "WIN", "WON", "BPG", "BWG", "PS", "REP", "GE",
        "ARO", "TPR", "PTP", "APRO", "APPO",
    }
)  # fmt: skip
# US Chess rule 34E systems (plus the own-result counts that need no adjustment).
US_NAMES = frozenset({"MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SB", "BPG", "WIN", "DE"})
_MODIFIER = re.compile(r"^(C[12]|M[12]|P|F|L(\d+|[+-]\d+))$")
_CUTS = frozenset({"BH", "FB", "AOB", "SB", "PS", "ARO", "TPR", "PTP"})


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

    @property
    def lower_is_better(self) -> bool:
        return self.name == "DE"


def parse_codes(text: str, names: frozenset[str]) -> list[Spec]:
    """Split a comma- or space-separated list and parse each code; unknown codes are refused."""
    return [parse_code(part, names) for part in re.split(r"[,\s]+", text.strip()) if part]


def parse_code(code: str, names: frozenset[str]) -> Spec:
    parts = code.strip().upper().split("/")
    name = parts[0]
    if name not in names:
        known = ", ".join(sorted(names))
        raise UsageError(f"unknown tie-break '{code}' for these rules (known: {known})")
    cut_low = cut_high = koya_shift = 0
    koya_percent = 50
    forfeits = fore = False
    for mod in parts[1:]:
        match = _MODIFIER.match(mod)
        if not match:
            raise UsageError(
                f"unknown modifier '/{mod}' in tie-break '{code}' (expected /C1 /C2 /M1 /M2 /P /F "
                "or /Lnn for KS)"
            )
        if mod[0] in "CM" and name not in _CUTS:
            raise UsageError(f"tie-break '{code}': {name} takes no cut or median modifier")
        if mod[0] == "C":
            cut_low = int(mod[1])
        elif mod[0] == "M":
            cut_low = cut_high = int(mod[1])
        elif mod == "P":
            forfeits = True
        elif mod == "F":
            fore = True
        elif mod[0] == "L":
            if mod[1] in "+-":
                koya_shift = int(mod[1:])
            else:
                koya_percent = int(mod[1:])
    return Spec(code.strip(), name, cut_low, cut_high, forfeits, fore, koya_percent, koya_shift)

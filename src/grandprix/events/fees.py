"""Entry fees and the fee ledger (UCC-13, LUP-E2)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from fractions import Fraction

from grandprix.events.config import Fees
from grandprix.events.sections import Placed
from grandprix.scores import show
from grandprix.writers.cells import CsvRows, safe_text


@dataclass(frozen=True)
class Fee:
    placed: Placed
    amount: Fraction
    basis: str


def fee_of(fees: Fees, placed: Placed) -> Fee:
    """Free for residents of the named town (LUP-E2); the advance fee when paid by the
    deadline, the on-site fee otherwise (UCC-13)."""
    entry = placed.entry
    if fees.free_town and entry.town.casefold() == fees.free_town.casefold():
        return Fee(placed, Fraction(0), f"resident of {fees.free_town}: free (LUP-E2)")
    deadline = fees.advance_deadline
    if entry.paid_on is not None and (deadline is None or entry.paid_on <= deadline):
        return Fee(placed, fees.advance, f"paid in advance on {entry.paid_on:%Y-%m-%d} (UCC-13)")
    return Fee(placed, fees.on_site, "on site (UCC-13)")


def ledger_csv(fees: list[Fee]) -> str:
    """``name,id,section,class,fee,basis`` and a TOTAL line; the text from the entries and the
    event file as safe spreadsheet text (``safe_text``)."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(["name", "id", "section", "class", "fee", "basis"])
    for fee in fees:
        entry = fee.placed.entry
        writer.writerow(
            [
                *map(safe_text, (entry.name, entry.id, fee.placed.section, fee.placed.klass)),
                show(fee.amount, 2),
                safe_text(fee.basis),
            ]
        )
    total = sum((f.amount for f in fees), Fraction(0))
    writer.writerow(["TOTAL", "", "", "", show(total, 2), f"{len(fees)} entries"])
    return out.getvalue()

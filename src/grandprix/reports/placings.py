"""Event placings as CSV, JSON or a terminal table. Numbers are plain decimals ('3.5', '10.75')."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

from grandprix.model import Problem
from grandprix.placings import Placings
from grandprix.scores import show
from grandprix.writers.cells import CsvRows, safe_text

if TYPE_CHECKING:
    from rich.table import Table

CSV_COLUMNS = ("place", "start_no", "name", "id", "points")


def placings_csv(placings: Placings) -> str:
    """``place,start_no,name,id,points`` then one column per tie-break, named as given; the
    name and id from the results file as safe spreadsheet text (``safe_text``)."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow([*CSV_COLUMNS, *(spec.code for spec in placings.specs)])
    for row in placings.rows:
        writer.writerow(
            [
                row.place,
                row.player.start_no,
                safe_text(row.player.name),
                safe_text(row.player.id),
                show(row.points),
                *(show(v) for v in row.values),
            ]
        )
    return out.getvalue()


def placings_json(placings: Placings, warnings: list[Problem]) -> str:
    """The placings as JSON; numbers are decimal strings so that they stay exact."""
    section = placings.section
    document: dict[str, Any] = {
        "event": section.name,
        "source": section.source,
        "date": section.date or None,
        "rounds": section.rounds,
        "round_robin": section.round_robin,
        "tiebreak_rules": placings.rules.value,
        "tiebreaks": [spec.code for spec in placings.specs],
        "placings": [
            {
                "place": row.place,
                "start_no": row.player.start_no,
                "name": row.player.name,
                "id": row.player.id or None,
                "rating": row.player.rating,
                "points": show(row.points),
                "tiebreaks": {
                    spec.code: (None if value is None else show(value))
                    for spec, value in zip(placings.specs, row.values, strict=True)
                },
            }
            for row in placings.rows
        ],
        "warnings": [str(p) for p in warnings],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def placings_table(placings: Placings) -> Table:
    """A rich table for the terminal; the event's and the players' names from the results
    file made safe for it (``writers.table.rich_table``: control characters shown as escapes,
    no markup)."""
    from grandprix.writers.table import rich_table

    section = placings.section
    caption = f"{section.rounds} rounds" if section.has_crosstable else "final scores only"
    if placings.specs:
        caption += f"; tie-breaks ({placings.rules.value}): " + ", ".join(
            s.code for s in placings.specs
        )
    heads = ["Place", "No", "Name", "Rtg", "Pts", *(spec.code for spec in placings.specs)]
    right = [True, True, False, True, True, *(True for _ in placings.specs)]
    rows = [
        [
            row.place,
            str(row.player.start_no),
            row.player.name,
            str(row.player.rating or ""),
            show(row.points),
            *(show(v) for v in row.values),
        ]
        for row in placings.rows
    ]
    return rich_table(section.name, caption, heads, right, rows)

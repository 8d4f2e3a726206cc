"""Prize lists as text, CSV and JSON; every award with its reason."""

from __future__ import annotations

import io
import json

from grandprix.prizes.season import PrizeList
from grandprix.scores import show
from grandprix.writers.cells import CsvRows, safe_text

COLUMNS = ("prize", "ranking", "place", "player_id", "name", "amount", "title", "reason")


def prizes_text(result: PrizeList) -> str:
    if result.offered == 0:
        return (
            f"Prizes: {result.title}\n\nthe rules give no season prizes: add them to "
            "season.toml as [[rules.prizes.prize]] tables (name, ranking, amount or title; "
            "docs/season.md, 'Prizes')\n"
        )
    lines = [f"Prizes: {result.title}", ""]
    for won in result.won:
        value = show(won.amount, 2) if won.amount is not None else won.title or ""
        lines.append(f"{won.prize:<28} {won.name:<28} {value:>10}  {won.reason}")
    paid = sum(w.amount for w in result.won if w.amount is not None)
    lines.append("")
    lines.append(f"paid in all: {show(paid, 2)}")
    for missed in result.missed:
        lines.append(f"not awarded: {missed.prize}: {missed.reason}")
    return "\n".join(lines) + "\n"


def prizes_csv(result: PrizeList) -> str:
    """One row per award (``COLUMNS``); prize, ranking, id, name, title and reason come from the
    rules and results files and are written as safe spreadsheet text (``safe_text``)."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(COLUMNS)
    for won in result.won:
        amount = show(won.amount, 2) if won.amount is not None else ""
        writer.writerow(
            [
                safe_text(won.prize),
                safe_text(won.ranking),
                won.place,
                safe_text(won.key.id),
                safe_text(won.name),
                amount,
                safe_text(won.title or ""),
                safe_text(won.reason),
            ]
        )
    return out.getvalue()


def prizes_json(result: PrizeList) -> str:
    document = {
        "title": result.title,
        "awards": [
            {
                "prize": w.prize,
                "ranking": w.ranking,
                "place": w.place,
                "player_id": w.key.id or None,
                "name": w.name,
                "amount": show(w.amount, 2) if w.amount is not None else None,
                "title": w.title,
                "reason": w.reason,
            }
            for w in result.won
        ],
        "not_awarded": [{"prize": m.prize, "reason": m.reason} for m in result.missed],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

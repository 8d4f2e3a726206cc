"""The people of a season (``grandprix players``) as CSV, JSON and text, and the aliases.csv
line that decides an uncertain match."""

from __future__ import annotations

import csv
import io
import json

from grandprix.season.people import NearMatch, Person
from grandprix.writers.cells import CsvRows, safe_text


def people_csv(found: list[Person]) -> str:
    """``key,name,ids,names,events``; the text from the results files as safe spreadsheet text."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(["key", "name", "ids", "names", "events"])
    for p in found:
        texts = (p.key, p.name, " ".join(p.ids), " | ".join(p.spellings))
        writer.writerow([*map(safe_text, texts), len(p.events)])
    return out.getvalue()


def people_json(found: list[Person], matches: list[NearMatch]) -> str:
    document = {
        "players": [
            {
                "key": p.key,
                "name": p.name,
                "ids": list(p.ids),
                "names": list(p.spellings),
                "events": list(p.events),
            }
            for p in found
        ],
        "near_matches": [
            {
                "first": m.first.key,
                "second": m.second.key,
                "score": round(m.score, 1),
                "verdict": m.verdict,
            }
            for m in matches
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def alias_line(name: str, other: str, decision: str) -> str:
    """One aliases.csv row, quoted as CSV needs ('Hadad, Peter' holds a comma)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow([name, other, decision])
    return out.getvalue()


def people_text(found: list[Person], matches: list[NearMatch], review: bool) -> str:
    lines = [f"{len(found)} players"]
    for p in found:
        also = [s for s in p.spellings if s != p.name]
        extra = f"  (also: {'; '.join(also)})" if also else ""
        ids = f" [{', '.join(p.ids)}]" if p.ids else ""
        lines.append(f"  {p.name}{ids}: {len(p.events)} event(s){extra}")
    if review:
        uncertain = [m for m in matches if m.uncertain]
        lines.append("")
        lines.append(f"{len(uncertain)} uncertain match(es) to decide in aliases.csv:")
        for m in uncertain:
            lines.append(
                f"  {m.first.name} ({', '.join(m.first.events)}) ~ {m.second.name} "
                f"({', '.join(m.second.events)}): similarity {m.score:.0f}"
            )
            lines.append("    add one of these lines to aliases.csv:")
            for decision in ("same", "different"):
                lines.append("      " + alias_line(m.first.name, m.second.name, decision))
        kept = [m for m in matches if not m.uncertain]
        if kept:
            lines.append("")
            lines.append("similar names kept apart:")
            lines.extend(f"  {m.first.name} ~ {m.second.name}: {m.verdict}" for m in kept)
    return "\n".join(lines) + "\n"

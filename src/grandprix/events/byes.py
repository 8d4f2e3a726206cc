"""Bye requests checked against the event's rules (UCC-14, UCC-15)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from grandprix.events.config import EventFile
from grandprix.events.sections import Placed


@dataclass(frozen=True)
class Bye:
    name: str
    round: int
    kind: str  # 'H' half-point, 'Z' zero-point, '' refused
    reason: str


def byes_of(event: EventFile, placed: Placed) -> list[Bye]:
    """Every bye of a player: granted (H or Z) or refused, each with why."""
    entry = placed.entry
    rules = event.byes
    section = next((s for s in event.sections if s.name == placed.section), None)
    times = section.round_times if section is not None else []
    out: list[Bye] = []
    halves = 0
    if times and entry.arrived is not None and entry.paid_on is None:
        limit = times[0] - datetime.timedelta(minutes=rules.late_minutes)
        if entry.arrived > limit:
            halves += 1
            out.append(
                Bye(entry.name, 1, "H", f"arrived after {limit:%H:%M} unregistered (UCC-14)")
            )
    last = event.rounds
    for request in sorted(entry.byes, key=lambda r: r.round):
        start = times[request.round - 1] if request.round <= len(times) else None
        asked = request.asked
        if start is not None and asked is not None:
            notice = datetime.timedelta(hours=float(rules.notice_hours))
            if asked > start - notice:
                out.append(
                    Bye(
                        entry.name,
                        request.round,
                        "",
                        f"asked at {asked:%H:%M}, less than {rules.notice_hours} hour(s) "
                        f"before round {request.round} (UCC-15)",
                    )
                )
                continue
        if request.round == last and rules.last_round_by <= len(times) and asked is not None:
            deadline = times[rules.last_round_by - 1]
            if asked >= deadline:
                out.append(
                    Bye(
                        entry.name,
                        request.round,
                        "",
                        f"last-round byes must be asked before round {rules.last_round_by} "
                        f"({deadline:%H:%M}) (UCC-15)",
                    )
                )
                continue
        if halves < rules.half_point:
            halves += 1
            note = " (irrevocable)" if request.round == last else ""
            out.append(Bye(entry.name, request.round, "H", f"half-point bye{note} (UCC-15)"))
        else:
            out.append(
                Bye(entry.name, request.round, "Z", "only one half-point bye: zero-point (UCC-15)")
            )
    return out

"""Sections written as TRF-16 for a pairing program, with the byes granted (TRF-2026 record 240)."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

from grandprix.errors import UsageError
from grandprix.events.byes import Bye
from grandprix.events.config import EventFile, EventSection
from grandprix.events.sections import Placed
from grandprix.model import Player, Section
from grandprix.writers.trf import write_trf


def section_trf(
    event: EventFile, section: EventSection, placed: list[Placed], byes: dict[str, list[Bye]]
) -> str:
    """The section's players by rating (unrated last), start numbers 1..N, and record 240 lines
    for the byes granted, one line per round and kind."""
    members = [p for p in placed if p.section == section.name]
    members.sort(key=lambda p: (-(p.entry.rating or 0), p.entry.name))
    players = tuple(
        Player(
            start_no=i,
            name=p.entry.name,
            rating=p.entry.rating,
            fide_id=p.entry.id,
            declared_points=Fraction(0),  # TRF's points field (81-84) is read by every engine
            extra=(("class", p.klass),),
        )
        for i, p in enumerate(members, start=1)
    )
    granted: dict[tuple[str, int], list[int]] = defaultdict(list)
    for number, p in enumerate(members, start=1):
        for bye in byes.get(p.entry.id or p.entry.name, []):
            if bye.kind:
                granted[(bye.kind, bye.round)].append(number)
    extra = tuple(
        f"240 {kind} {rnd:>3} " + " ".join(f"{n:>4}" for n in sorted(numbers))
        for (kind, rnd), numbers in sorted(granted.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    )
    day = event.last_day
    headers = [("012", f"{event.name} - {section.name}")]
    if day is not None:
        headers.append(("042", f"{day:%Y/%m/%d}"))
    headers += [("092", "Swiss System"), ("142", str(event.rounds))]
    if section.time_control:
        headers.append(("122", section.time_control))
    trf = Section(
        name=section.name,
        players=players,
        rounds=event.rounds,
        headers=tuple(headers),
        extra_records=extra,
    )
    return write_trf(trf)


def trf_path(folder: Path, section: str) -> Path:
    """Where the section's TRF goes: its name in lower case, spaces and slashes as '_'."""
    return folder / f"{section.lower().replace('/', '_').replace(' ', '_')}.trf"


def write_trf_files(folder: Path, texts: dict[str, str], force: bool = False) -> list[Path]:
    """Each section's TRF text written into ``folder``; the paths written.

    A file already there is overwritten only with ``force``: otherwise nothing at all is
    written, and the ``UsageError`` names every file that exists."""
    paths = {name: trf_path(folder, name) for name in texts}
    shared = sorted(p.name for p, n in Counter(paths.values()).items() if n > 1)
    if shared:
        raise UsageError(
            f"sections whose names differ only in case, spaces or slashes would share a file "
            f"({', '.join(shared)}); rename one of them in the event file"
        )
    there = [str(p) for p in paths.values() if p.exists() or p.is_symlink()]
    if there and not force:
        raise UsageError(
            f"{', '.join(there)}: already in {folder}; nothing was written (give --force to "
            "overwrite, or another -o folder)"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            paths[name].write_text(text, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror.lower() if exc.strerror else str(exc)
        raise UsageError(
            f"{exc.filename or folder}: {why}; the TRF files were not all written"
        ) from exc
    return list(paths.values())

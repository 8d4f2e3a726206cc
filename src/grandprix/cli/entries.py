"""The event side: sections, fees, byes, export and registration of an ``event.toml``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandprix.cli.base import EVENT_FILE, fail, format_option, main, output_folder, say
from grandprix.errors import InputError, UsageError

if TYPE_CHECKING:
    from grandprix.events.config import EventFile
    from grandprix.events.sections import Placed
    from grandprix.rules.federation import EventRules


def entries_of(event_file: Path) -> tuple[EventFile, list[Placed], EventRules]:
    """The event, its entries placed in sections and its federation rules; any problem stops
    here (exit 2)."""
    from grandprix.events.config import read_event_rules
    from grandprix.events.entries import read_entries
    from grandprix.events.sections import place_entries

    event, _, rules = read_event_rules(event_file)
    if not event.entries:
        raise UsageError(f"{event_file}: no 'entries' file named in the event")
    entries = read_entries(event_file.parent / event.entries, event.rounds)
    placed, problems = place_entries(event, entries, rules.classes)
    if problems:
        raise InputError(problems)
    return event, placed, rules


@main.command("sections")
@click.argument("event_file", type=EVENT_FILE)
def sections_command(event_file: Path) -> None:
    """Each entry's class and section (UCC-1 to UCC-3), and the sections too small (UCC-4)."""
    from collections import Counter

    from grandprix.events.sections import suggestions

    event, placed, rules = entries_of(event_file)
    sizes = Counter(p.section for p in placed)
    for section in [s.name for s in event.sections] + sorted(
        set(sizes) - {s.name for s in event.sections}
    ):
        members = [p for p in placed if p.section == section]
        say(f"== {section}: {len(members)} players")
        for p in sorted(members, key=lambda p: -(p.entry.rating or 0)):
            rating = p.entry.rating if p.entry.rating is not None else "unr"
            say(f"  {p.entry.name} ({rating}, class {p.klass}): {p.note}")
    for hint in suggestions(event, placed, rules.classes):
        say(f"note: {hint} (UCC-4)")


@main.command("fees")
@click.argument("event_file", type=EVENT_FILE)
def fees_command(event_file: Path) -> None:
    """The fee ledger as CSV, with the total (UCC-13, LUP-E2)."""
    from grandprix.events.fees import fee_of, ledger_csv

    event, placed, _ = entries_of(event_file)
    if event.fees is None:
        fail(UsageError(f"{event_file}: no [fees] in the event"))
    click.echo(ledger_csv([fee_of(event.fees, p) for p in placed]), nl=False)


@main.command("byes")
@click.argument("event_file", type=EVENT_FILE)
def byes_command(event_file: Path) -> None:
    """Every bye request, granted (half- or zero-point) or refused, with why (UCC-14, UCC-15)."""
    from grandprix.events.byes import byes_of

    event, placed, _ = entries_of(event_file)
    for p in placed:
        for bye in byes_of(event, p):
            verdict = {"H": "half-point bye", "Z": "zero-point bye"}.get(bye.kind, "REFUSED")
            say(f"{bye.name}\tround {bye.round}\t{verdict}\t{bye.reason}")


@main.command("export")
@click.argument("event_file", type=EVENT_FILE)
@output_folder("Folder for the sections' TRF files (one per section).")
@click.option(
    "--force",
    is_flag=True,
    help="Overwrite TRF files already in the folder (never a file the event reads, never "
    "through a symbolic link).",
)
def export_command(event_file: Path, output: Path, force: bool) -> None:
    """Each section as a TRF-16 file for a pairing program, with the byes granted. Files
    already in the folder are left alone (nothing is written) unless --force is given; a file
    the event reads (event.toml, its entries, players and results files) and a symbolic link
    are never overwritten, with --force or not."""
    from grandprix.events.byes import byes_of
    from grandprix.events.export import section_trf, trf_path, write_trf_files

    event, placed, _ = entries_of(event_file)
    byes = {p.entry.id or p.entry.name: byes_of(event, p) for p in placed}
    texts = {s.name: section_trf(event, s, placed, byes) for s in event.sections}
    _refuse_overwriting(event_file, event, [trf_path(output, name) for name in texts])
    # Everything is computed, and every file checked, before anything is written.
    for path in write_trf_files(output, texts, force):
        say(f"wrote {path}")


def _refuse_overwriting(event_file: Path, event: EventFile, targets: list[Path]) -> None:
    """A UsageError (exit 2, nothing written) when a file to write is one the event reads
    (the same file, by any path: a symbolic link, a hard link, the event's own folder as -o),
    or is a symbolic link, whose target the write would change instead of the link."""
    folder = event_file.parent
    names = [event_file.name, event.players_file, event.class_rules, event.registration_rules]
    names += [event.entries or ""] + [s.results or "" for s in event.sections]
    identities = {_identity(folder / name) for name in names if name} - {None}
    for target in targets:
        if target.is_symlink():
            fail(
                UsageError(
                    f"{target}: a symbolic link; export writes no file through a link (it would "
                    "change the file it points to): remove the link, or give another -o folder"
                )
            )
        if _identity(target) in identities:
            fail(
                UsageError(
                    f"{target}: a file the event reads ({event_file.name} names it); export never "
                    "overwrites the event's own files, --force or not: give another -o folder "
                    "(nothing was written)"
                )
            )


def _identity(path: Path) -> tuple[int, int] | None:
    """The file ``path`` is (device, inode), links followed; None when there is none."""
    try:
        found = path.stat()
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino)


@main.command("register")
@click.argument("event_file", type=EVENT_FILE)
@format_option("Output format; JSON keys: class, fee, problems.", ("table", "json"))
def register_command(event_file: Path, fmt: str) -> None:
    """Registration of a tournament with the federation: class by prize fund, fee, and every
    rule broken (ACF-4 to ACF-7)."""
    import json

    from grandprix.events.config import read_event_rules
    from grandprix.events.registration import register

    event, _, rules = read_event_rules(event_file)
    result = register(event, rules.registration)
    if fmt == "json":
        click.echo(json.dumps(result.as_json(), indent=2))
        return
    from grandprix.scores import show

    say(f"class {result.klass}; fee {show(result.fee, 2)}: {result.workings}")
    for problem in result.problems:
        say(f"problem: {problem}")

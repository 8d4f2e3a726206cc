"""``grandprix ratings``: import rating lists into a store and look ratings up."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandprix.cli.base import DATE, F, fail, main, say
from grandprix.errors import GrandprixError, UsageError

if TYPE_CHECKING:
    from grandprix.ratings.store import ListInfo


@main.group("ratings")
def ratings_group() -> None:
    """Rating lists: import FIDE or national lists into a store and look ratings up."""


STORE = click.option(
    "--store",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("ratings.sqlite"),
    show_default=True,
    help="The rating store (an SQLite file). Only 'import' creates one or adds to it, and "
    "'remove' takes a list out; a season names it with 'ratings_store' in season.toml.",
)
KIND = click.option(
    "--kind",
    required=True,
    help="List kind: fide-standard, fide-rapid, fide-blitz, national or national-NAME.",
)


def _date(name: str, help_text: str) -> Callable[[F], F]:
    """A required ``--NAME YYYY-MM-DD`` option, passed as ``NAME``."""
    return click.option(f"--{name}", name, required=True, type=DATE, help=help_text)


@ratings_group.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@KIND
@_date("date", "The date the list is in force from (YYYY-MM-DD).")
@STORE
def ratings_import(file: Path, kind: str, date: datetime.datetime, store: Path) -> None:
    """Import a rating list (FIDE TXT or XML, zipped or not, or CSV id,name,rating,...):
    all or nothing; importing the same list again changes nothing."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from grandprix.ratings.store import RatingStore
    from grandprix.writers.terminal import shown

    new_store = not store.exists()
    try:
        size = list_lines(file)
        with (
            RatingStore(store) as ratings,
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as bar,
        ):
            name = escape(shown(file.name))  # as text: no control character, no markup
            task = bar.add_task(f"importing {name}", total=size or None)
            result = ratings.import_list(
                file, kind, date.date(), lambda n: bar.update(task, completed=n)
            )
    except GrandprixError as exc:
        if new_store:  # the store this run created holds nothing: leave no empty file behind
            store.unlink(missing_ok=True)
        fail(exc)
    verb = "imported" if result.new else "already in the store, nothing changed:"
    say(f"{verb} {result.list.kind} list of {result.list.date}: {result.list.rows} players")


def list_lines(file: Path) -> int:
    """The line breaks of a plain list, the progress bar's total, counted a megabyte at a time
    (the list is not held twice); 0 (no total) for a zipped list or a file that cannot be read."""
    try:
        with file.open("rb") as stream:
            first = stream.read(1024 * 1024)
            if first.startswith(b"PK"):
                return 0
            count = first.count(b"\n")
            while chunk := stream.read(1024 * 1024):
                count += chunk.count(b"\n")
            return count
    except OSError:
        return 0


@ratings_group.command("lists")
@STORE
def ratings_lists(store: Path) -> None:
    """The lists in the store, with their kind, date and size."""
    from grandprix.ratings.store import RatingStore

    with RatingStore(store, read_only=True) as ratings:
        for info in ratings.lists():
            say(f"{info.kind}\t{info.date}\t{info.rows}\t{info.source}")


@ratings_group.command("show")
@click.argument("player_id")
@KIND
@_date("on", "The date (YYYY-MM-DD): the list in force then is used.")
@STORE
def ratings_show(player_id: str, kind: str, on: datetime.datetime, store: Path) -> None:
    """The rating of PLAYER_ID on the KIND list in force on a date. Exit 1 when the list
    holds no rating of the player (as 'check' finding errors: the look-up found nothing),
    with the reason on stderr and nothing on stdout; exit 2 when the store has no KIND list
    in force on that date."""
    from grandprix.ratings.store import RatingStore

    with RatingStore(store, read_only=True) as ratings:
        info = ratings.in_force(kind, on.date())
        if info is None:
            when = f"in force on {on.date()}"
            fail(UsageError(f"{store}: {_no_list(ratings.lists(), kind, when)}"))
        found = ratings.ratings_on([player_id], kind, on.date()).get(player_id)
    if found is None:
        say(
            f"{player_id}: no rating on the {kind} list of {info.date} (in force on "
            f"{on.date()}) in {store}",
            err=True,
        )
        sys.exit(1)
    say(f"{player_id}: {found.rating} ({found.kind} list of {found.date})")


def _no_list(lists: list[ListInfo], kind: str, when: str) -> str:
    """Why no list was found, with the lists the store holds."""
    held = ", ".join(f"{info.kind} of {info.date}" for info in lists) or "none"
    return f"no {kind} list {when} (the store holds: {held})"


@ratings_group.command("remove")
@KIND
@_date("date", "The date of the list to remove (YYYY-MM-DD).")
@STORE
def ratings_remove(kind: str, date: datetime.datetime, store: Path) -> None:
    """Remove one list from the store; a list the store does not hold is an error (exit 2),
    and the store is left as it was."""
    from grandprix.ratings.store import RatingStore

    if not store.is_file():
        fail(UsageError(f"{store}: no rating store there, nothing to remove"))
    with RatingStore(store) as ratings:
        done = ratings.remove(kind, date.date())
        lists = ratings.lists() if not done else []
    if not done:
        fail(
            UsageError(
                f"{store}: {_no_list(lists, kind, f'dated {date.date()}')}; nothing "
                "was removed ('grandprix ratings lists' shows the lists)"
            )
        )
    say(f"removed the {kind} list of {date.date()} from {store}")

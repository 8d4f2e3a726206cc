"""What the commands share: the ``grandprix`` group, common options and the one place where
errors become messages and exit codes.

Exit codes: 0 done; 1 the check found problems; 2 bad input or bad usage (nothing written).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click

from grandprix import __version__
from grandprix.errors import GrandprixError, InputError, errors_only
from grandprix.model import Problem

if TYPE_CHECKING:
    from grandprix.season.model import Season

EXIT_INPUT = 2
SEASON_DIR = click.Path(path_type=Path, file_okay=False)
EVENT_FILE = click.Path(path_type=Path, dir_okay=False)
DATE = click.DateTime(formats=["%Y-%m-%d"])

F = TypeVar("F", bound=Callable[..., object])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grandprix")
def main() -> None:
    """Run chess Grand Prix series from the results files pairing programs write."""
    # Each command reads, computes, prints and exits; its records hold no reference cycles.
    # The cyclic collector would rescan millions of live records as a season loads (seconds
    # on a 10,000-event season) and free nothing.
    gc.disable()


def format_option(
    help_text: str, choices: tuple[str, ...] = ("table", "csv", "json")
) -> Callable[[F], F]:
    """The ``--format`` option (into ``fmt``), table by default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default="table",
        show_default=True,
        help=help_text,
    )


def as_of_option(help_text: str) -> Callable[[F], F]:
    """The optional ``--as-of YYYY-MM-DD`` option of the season commands."""
    return click.option("--as-of", type=DATE, default=None, help=help_text)


def output_folder(help_text: str) -> Callable[[F], F]:
    """The required ``-o/--output FOLDER`` option of the commands that write files."""
    return click.option(
        "-o",
        "--output",
        type=click.Path(path_type=Path, file_okay=False),
        required=True,
        help=help_text,
    )


def read_season(folder: Path) -> Season:
    """The season in ``folder``, its warnings printed; any error stops here (exit 2)."""
    from grandprix.season.config import load_season

    season, problems = load_season(folder)
    if season is None:
        fail(InputError(problems))
    for warning in problems:
        click.echo(str(warning), err=True)
    return season


def stop_on_errors(problems: list[Problem]) -> None:
    errors = errors_only(problems)
    if errors:
        raise InputError(problems)


def fail(exc: GrandprixError) -> NoReturn:
    """Print the error (every located problem of an input error) and exit 2."""
    if isinstance(exc, InputError):
        errors = errors_only(exc.problems)
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        click.echo(
            f"{len(errors)} error(s): nothing was computed; correct the file and run again.",
            err=True,
        )
    else:
        click.echo(f"error: {exc}", err=True)
    sys.exit(EXIT_INPUT)

"""What the commands share: the ``grandprix`` group, common options and the one place where
errors become messages and exit codes (the group's ``invoke``).

Exit codes: 0 done; 1 the check found problems (or ``ratings show`` found no rating); 2 bad
input or bad usage (nothing written), a path the system refuses (too long, not allowed) among
them; 70 an internal error (a bug of grandprix: one line, the traceback only with ``--debug``).

Every text for the terminal goes out through ``say``, which shows the control characters of
input strings as escapes (``writers.terminal``); CSV and JSON go out as they are.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from grandprix import __version__
from grandprix.errors import GrandprixError, InputError, errors_only
from grandprix.model import Problem
from grandprix.readers.text import excerpt
from grandprix.runtime import pause_for_good, paused_collection
from grandprix.writers.terminal import shown_text

if TYPE_CHECKING:
    from grandprix.season.model import Season

EXIT_INPUT = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE of sysexits.h
EXIT_PIPE = 141  # what a shell reports for a process ended by SIGPIPE
MAX_PER_FILE = 50  # messages printed for one file; the rest are counted
SEASON_DIR = click.Path(path_type=Path, file_okay=False)
EVENT_FILE = click.Path(path_type=Path, dir_okay=False)
# What the system says of a path the user gave: bad input (exit 2), never an internal error.
PATH_ERRORS = frozenset(
    {
        errno.ENAMETOOLONG,
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.ELOOP,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOSPC,
        errno.EEXIST,
        errno.ENOTEMPTY,
        errno.EXDEV,
        errno.EBUSY,
        errno.EFBIG,
        getattr(errno, "EDQUOT", errno.ENOSPC),
    }
)


class _Date(click.ParamType):  # type: ignore[type-arg]
    """A calendar date written YYYY-MM-DD; an impossible one ('2025-02-30') is named as such."""

    name = "date"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import datetime

        from grandprix.dates import parse_date

        if isinstance(value, datetime.datetime):
            return value
        try:
            day = parse_date(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return datetime.datetime(day.year, day.month, day.day)


DATE = _Date()

F = TypeVar("F", bound=Callable[..., object])


class _Boundary(click.Group):
    """The group whose ``invoke`` is the one error boundary of the command line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GrandprixError as exc:
            fail(exc)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader of the output stopped early ('| head'): not a bug
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(EXIT_PIPE)
        except OSError as exc:
            if exc.errno not in PATH_ERRORS:
                _internal(ctx, exc)
            say(f"error: {path_error(exc)}", err=True)  # bad input: no traceback, as above
            sys.exit(EXIT_INPUT)
        except Exception as exc:  # a bug: say so in one line, never a traceback by default
            _internal(ctx, exc)


def _internal(ctx: click.Context, exc: Exception) -> NoReturn:
    """Say in one line that grandprix has a bug (the traceback only with ``--debug``)."""
    if ctx.meta.get("debug"):
        traceback.print_exc()
    say(
        f"internal error: {type(exc).__name__}: {excerpt(str(exc), 120)}. This is a bug of "
        "grandprix, not of your files: please report it with the command you ran "
        "(run it again with 'grandprix --debug ...' for the details).",
        err=True,
    )
    sys.exit(EXIT_INTERNAL)


def path_error(exc: OSError) -> str:
    """What the system refused, and of which path (a long one shortened), in one line."""
    why = (exc.strerror or str(exc)).lower()
    where = str(exc.filename) if exc.filename is not None else ""
    hint = {
        errno.ENAMETOOLONG: "give a shorter path",
        errno.EACCES: "check that you may read and write there",
        errno.EPERM: "check that you may read and write there",
        errno.EROFS: "give a folder you can write",
        errno.ENOSPC: "free some space, or give another folder",
    }.get(exc.errno or 0, "check the path and run again")
    if len(where) > 120:  # the start and the file's name, not 100,000 characters
        where = _cut(where)
    return f"{where}: {why}; {hint}" if where else f"{why}; {hint}"


_LONG = re.compile(r"\S{1000,}")  # a word no message needs whole: a path of 100,000 characters


def _cut(word: str) -> str:
    return f"{word[:57]}...{word[-60:]} ({len(word):,} characters)"


def short(message: str) -> str:
    """A message with each word of 1,000 characters or more (a path given on the command
    line, say) cut to its start and its end."""
    return (
        _LONG.sub(lambda found: _cut(found.group()), message) if len(message) >= 1000 else message
    )


def say(text: str, err: bool = False, nl: bool = True) -> None:
    """Text for the terminal, input strings in it made safe (``terminal.shown_text``: control
    characters and bidirectional overrides shown as escapes, line ends and tabs kept)."""
    click.echo(shown_text(text), err=err, nl=nl)


@click.group(cls=_Boundary, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grandprix")
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error.")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Run chess Grand Prix series from the results files pairing programs write.

    Exit codes: 0 done; 1 'check' found errors; 2 bad input or usage (nothing written);
    70 an internal error of grandprix (please report it)."""
    ctx.meta["debug"] = debug
    command = main.get_command(ctx, ctx.invoked_subcommand or "")
    if command is not None and not getattr(command, "long_running", False):
        ctx.with_resource(batch_collection())
        _BATCH[0] = True


_BATCH = [False]  # a batch command ran in this process (``run`` may then end it at once)
_RUN = [False]  # ``run`` called main: it ends the process at once after a batch command
_KEPT: list[object] = []  # what ``keep`` keeps, never freed before the process ends
T = TypeVar("T")


def keep(value: T) -> T:
    """``value``, kept alive until ``run`` ends the process after a batch command: otherwise a
    command's locals are freed record by record as it returns, before ``run`` can end it (the
    standings of a 10,000-event season: 0.19 s). Where ``run`` is not the caller (the tests'
    runner, the server) nothing is kept."""
    if _RUN[0] and _BATCH[0]:
        _KEPT.append(value)
    return value


def run() -> NoReturn:
    """The ``grandprix`` program: ``main``, and after a batch command the process ends as soon
    as its output is flushed, without freeing one by one the millions of records a large season
    holds (a second of a 10,000-event season's run went there). Nothing is left to do at that
    point: the command has written its files and closed them; the exit code is main's."""
    _BATCH[0], _RUN[0] = False, True
    try:
        main()
        code: int = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:  # sys.exit("message"), as Python prints it
            print(exc.code, file=sys.stderr)
            code = 1
    finally:
        _RUN[0] = False
    if not _BATCH[0]:
        sys.exit(code)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early ('| head'), as the boundary says
        code = EXIT_PIPE
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)


@contextlib.contextmanager
def batch_collection() -> Iterator[None]:
    """The cyclic garbage collector paused for one batch command, restored after it unless
    ``run`` ends the process next.

    A batch command reads, computes, prints and exits; its records hold no reference cycles,
    and the collector would rescan millions of live records as a season loads (seconds on a
    10,000-event season) and free nothing. Restored, its first collection would scan every
    record made meanwhile and still alive, for a process about to end (0.1-0.5 s of a
    10,000-event season's standings). A long-running command (a server) sets
    ``long_running = True`` on itself and keeps the collector.
    """
    if _RUN[0]:
        pause_for_good()
    with paused_collection():
        yield


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
    echo_problems(problems)
    return season


def stop_on_errors(problems: list[Problem]) -> None:
    errors = errors_only(problems)
    if errors:
        raise InputError(problems)


def echo_problems(problems: Sequence[Problem], err: bool = True) -> None:
    """Print problems, at most ``MAX_PER_FILE`` for one file, then how many more there are."""
    shown: Counter[str] = Counter()
    for problem in problems:
        shown[problem.location.path] += 1
        if shown[problem.location.path] <= MAX_PER_FILE:
            say(short(str(problem)), err=err)
    for path, count in shown.items():
        if count > MAX_PER_FILE:
            say(short(f"{path}: and {count - MAX_PER_FILE} more problem(s)"), err=err)


def fail(exc: GrandprixError) -> NoReturn:
    """Print the error (every located problem of an input error) and exit 2."""
    if isinstance(exc, InputError):
        errors = errors_only(exc.problems)
        echo_problems(exc.problems)
        say(
            f"{len(errors)} error(s): nothing was computed; correct the file and run again.",
            err=True,
        )
    else:
        say(short(f"error: {exc}"), err=True)
    sys.exit(EXIT_INPUT)

"""``grandprix event FILE``: the final placings of one event."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandprix.cli.base import format_option, main, say, stop_on_errors
from grandprix.model import Location, Problem, Severity
from grandprix.readers import FORMATS
from grandprix.tiebreaks import Rules

if TYPE_CHECKING:
    from grandprix.placings import Placings


@main.command("event")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--tiebreaks",
    "codes",
    default="",
    metavar="CODES",
    help="Ordered tie-breaks, comma separated, e.g. 'BH/C1,BH,SB,DE'. Without them, players on "
    "equal points share a span of places ('6-8').",
)
@click.option(
    "--tiebreak-rules",
    "rules_name",
    type=click.Choice([book.value for book in Rules]),
    default=Rules.FIDE_2026.value,
    show_default=True,
    help="Rule book of the tie-breaks: C.07 as applied from 1 March 2026 or from 1 August 2024, "
    "the 2009 FIDE rules, or US Chess. Never taken from the event's date: state it for older "
    "events.",
)
@format_option("Output format.")
@click.option(
    "--input-format",
    type=click.Choice(list(FORMATS)),
    default=None,
    help="Format of FILE; detected from its name and content when not given.",
)
@click.option(
    "--pairing",
    type=click.Choice(["auto", "swiss", "round-robin"]),
    default="auto",
    show_default=True,
    help="Swiss or pre-determined (round robin) pairing, which changes how forfeits count "
    "(C.07 art. 15). 'auto' reads the file's tournament type, else the pairings.",
)
@click.option(
    "--unrated-rating",
    type=click.IntRange(0, 4000),
    default=None,
    help="Rating that unrated players count with in ARO/TPR/PTP/APRO/APPO; without it those "
    "tie-breaks are left empty when anyone is unrated (C.07 art. 10).",
)
def event_command(
    file: Path,
    codes: str,
    rules_name: str,
    fmt: str,
    input_format: str | None,
    pairing: str,
    unrated_rating: int | None,
) -> None:
    """Place every player of one event FILE (TRF, standings CSV, a chess-results export, a US
    Chess rating report, lichess or chess.com results)."""
    from dataclasses import replace

    from grandprix.placings import place
    from grandprix.readers import load_section
    from grandprix.tiebreaks import parse

    rules = Rules(rules_name)
    specs = parse(codes, rules) if codes else []
    section, problems = load_section(file, input_format)
    stop_on_errors(problems)
    assert section is not None
    if pairing != "auto":
        section = replace(section, round_robin=pairing == "round-robin")
    placings = place(section, specs, rules, unrated_rating)
    warnings = [p for p in problems if p.severity is Severity.WARNING]
    if not section.size and not any("no player" in w.message for w in warnings):
        warnings.append(_no_players(file))  # (the TRF reader says it in its own words)
    emit(placings, fmt, warnings)


def _no_players(file: Path) -> Problem:
    """The warning of a results file read without a player: located at its last line that
    holds anything (the header, when only a header is there)."""
    try:
        lines = file.read_bytes().splitlines()
    except OSError:
        lines = []
    last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=1)
    return Problem(
        Location(str(file), last),
        f"no players below the header on line {last}: nothing to place (add the players' "
        "rows, or give the file of the event once it is played)",
        Severity.WARNING,
    )


def emit(placings: Placings, fmt: str, warnings: list[Problem]) -> None:
    from grandprix.reports.placings import placings_csv, placings_json, placings_table

    for warning in warnings:
        say(str(warning), err=True)
    if fmt == "csv":
        click.echo(placings_csv(placings), nl=False)
    elif fmt == "json":
        click.echo(placings_json(placings, warnings), nl=False)
    else:
        from rich.console import Console

        Console().print(placings_table(placings))

"""The ``grandprix`` command line. Only this module turns errors into messages and exit codes.

Exit codes: 0 done; 1 the check found problems; 2 bad input or bad usage (nothing written).
"""

from __future__ import annotations

import datetime
import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click

from grandprix import __version__
from grandprix.errors import GrandprixError, InputError, UsageError, errors_only
from grandprix.model import Problem, Severity

if TYPE_CHECKING:
    from grandprix.events.config import EventFile
    from grandprix.events.sections import Placed
    from grandprix.placings import Standings
    from grandprix.season.model import Line, Season

EXIT_INPUT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grandprix")
def main() -> None:
    """Run chess Grand Prix series from the results files pairing programs write."""
    # Each command reads, computes, prints and exits; its records hold no reference cycles.
    # The cyclic collector would rescan millions of live records as a season loads (seconds
    # on a 10,000-event season) and free nothing.
    gc.disable()


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
    type=click.Choice(["fide-2024", "fide-2026", "fide-2009", "us-chess"]),
    default="fide-2026",
    show_default=True,
    help="Rule book of the tie-breaks: C.07 as applied from 1 March 2026 or from 1 August 2024, "
    "the 2009 FIDE rules, or US Chess. Never taken from the event's date: state it for older "
    "events.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--input-format",
    type=click.Choice(["trf", "csv", "chess-results"]),
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
    help="Rating that unrated players count with in ARO/TPR/PTP; without it those tie-breaks "
    "are left empty when anyone is unrated (C.07 art. 10).",
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
    """Place every player of one event FILE (TRF, standings CSV or a chess-results export)."""
    from dataclasses import replace

    from grandprix.placings import place
    from grandprix.readers import load_section
    from grandprix.tiebreaks import Rules, parse

    rules = Rules(rules_name)
    try:
        specs = parse(codes, rules) if codes else []
        section, problems = load_section(file, input_format)
        _stop_on_errors(problems)
        assert section is not None
        if pairing != "auto":
            section = replace(section, round_robin=pairing == "round-robin")
        standings = place(section, specs, rules, unrated_rating)
    except GrandprixError as exc:
        _fail(exc)
    warnings = [p for p in problems if p.severity is Severity.WARNING]
    _emit(standings, fmt, warnings)


SEASON_DIR = click.Path(path_type=Path, file_okay=False)

F = TypeVar("F", bound=Callable[..., object])


def output_folder(help_text: str) -> Callable[[F], F]:
    """The required ``-o/--output FOLDER`` option of the commands that write files."""
    return click.option(
        "-o",
        "--output",
        type=click.Path(path_type=Path, file_okay=False),
        required=True,
        help=help_text,
    )


@main.command("standings")
@click.argument("season_dir", type=SEASON_DIR)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format. CSV columns: rank,player_id,name,points,events.",
)
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Standings after the events on or before this date (YYYY-MM-DD).",
)
@click.option("--division", default=None, help="Only this division (default: every division).")
def standings_command(
    season_dir: Path, fmt: str, as_of: datetime.datetime | None, division: str | None
) -> None:
    """Grand Prix standings of the season in SEASON_DIR (season.toml and its results files);
    with divisions, each division its own table."""
    from grandprix.season.report import standings_csv, standings_json, standings_table

    season = _season(season_dir)
    tables = _division_tables(season, as_of, division)
    if fmt == "csv":
        click.echo(standings_csv(tables, season.rules.standings.decimals), nl=False)
    elif fmt == "json":
        click.echo(standings_json(season, tables), nl=False)
    else:
        from rich.console import Console

        console = Console()
        for name, lines in tables:
            console.print(standings_table(season, name, lines))


def _division_tables(
    season: Season, as_of: datetime.datetime | None, division: str | None
) -> list[tuple[str, list[Line]]]:
    from grandprix.season.standings import division_standings

    names = [d.name for d in season.rules.divisions]
    if division is not None and division not in names:
        known = ", ".join(names) or "none: these rules have one overall standings"
        _fail(UsageError(f"unknown division '{division}' (divisions: {known})"))
    return division_standings(season, as_of.date() if as_of else None, division)


@main.command("explain")
@click.argument("season_dir", type=SEASON_DIR)
@click.argument("player")
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Explain the standings after the events on or before this date (YYYY-MM-DD).",
)
@click.option("--division", default=None, help="Only this division (default: all of the player's).")
def explain_command(
    season_dir: Path, player: str, as_of: datetime.datetime | None, division: str | None
) -> None:
    """Why PLAYER (an id or a name) has every point: each event's place, tie, table value,
    multipliers, counted or dropped, and the bonus, adding up to the total (in every division
    of the player, or in one)."""
    from grandprix.season.identity import normalise
    from grandprix.season.report import explain, player_id

    season = _season(season_dir)
    tables = _division_tables(season, as_of, division)
    wanted = normalise(player)
    everyone = {ln.player: ln for _, lines in tables for ln in lines}.values()
    found = [ln for ln in everyone if player_id(ln) == player or normalise(ln.name) == wanted]
    if not found:
        found = [ln for ln in everyone if wanted in normalise(ln.name)]
    if len(found) != 1:
        names = ", ".join(f"{ln.name} ({ln.player})" for ln in found[:10])
        reason = f"several players match: {names}" if found else "no player of the standings"
        _fail(UsageError(f"'{player}': {reason}; give the player's id or full name"))
    key = found[0].player
    parts = [
        explain(season, line, name)
        for name, lines in tables
        for line in lines
        if line.player == key
    ]
    click.echo("\n".join(parts), nl=False)


@main.command("check")
@click.argument("season_dir", type=SEASON_DIR)
def check_command(season_dir: Path) -> None:
    """Every problem in the season (rules, season.toml, results files, players.csv); exit 1
    if there is any error."""
    from grandprix.season.config import load_season

    season, problems = load_season(season_dir)
    for problem in problems:
        click.echo(str(problem))
    errors = len(errors_only(problems))
    warnings = len(problems) - errors
    click.echo(f"{errors} error(s), {warnings} warning(s) in {season_dir}")
    if errors or season is None:
        sys.exit(1)


@main.command("players")
@click.argument("season_dir", type=SEASON_DIR)
@click.option(
    "--review",
    is_flag=True,
    help="List the similar names that may be one person (never merged without a decision "
    "in aliases.csv), and those kept apart and why.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
def players_command(season_dir: Path, review: bool, fmt: str) -> None:
    """The people of the season: their names, ids and events, as matched across events."""
    from grandprix.season.people import near_matches, people
    from grandprix.season.report import people_csv, people_json, people_text

    season = _season(season_dir)
    found = people(season)
    matches = near_matches(season, found) if review else []
    if fmt == "csv":
        click.echo(people_csv(found), nl=False)
    elif fmt == "json":
        click.echo(people_json(found, matches), nl=False)
    else:
        click.echo(people_text(found, matches, review), nl=False)


@main.group("ratings")
def ratings_group() -> None:
    """Rating lists: import FIDE or national lists into a store and look ratings up."""


STORE = click.option(
    "--store",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("ratings.sqlite"),
    show_default=True,
    help="The rating store (an SQLite file); a season's default is ratings.sqlite beside "
    "season.toml.",
)
KIND = click.option(
    "--kind",
    required=True,
    help="List kind: fide-standard, fide-rapid, fide-blitz, national or national-NAME.",
)


@ratings_group.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@KIND
@click.option(
    "--date",
    "date",
    required=True,
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="The date the list is in force from (YYYY-MM-DD).",
)
@STORE
def ratings_import(file: Path, kind: str, date: datetime.datetime, store: Path) -> None:
    """Import a rating list (FIDE TXT or XML, zipped or not, or CSV id,name,rating,...):
    all or nothing; importing the same list again changes nothing."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from grandprix.ratings.store import RatingStore

    try:
        size = file.read_bytes().count(b"\n") if file.is_file() else 0
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
            task = bar.add_task(f"importing {file.name}", total=size or None)
            result = ratings.import_list(
                file, kind, date.date(), lambda n: bar.update(task, completed=n)
            )
    except GrandprixError as exc:
        _fail(exc)
    verb = "imported" if result.new else "already in the store, nothing changed:"
    click.echo(f"{verb} {result.list.kind} list of {result.list.date}: {result.list.rows} players")


@ratings_group.command("lists")
@STORE
def ratings_lists(store: Path) -> None:
    """The lists in the store, with their kind, date and size."""
    from grandprix.ratings.store import RatingStore

    with RatingStore(store) as ratings:
        for info in ratings.lists():
            click.echo(f"{info.kind}\t{info.date}\t{info.rows}\t{info.source}")


@ratings_group.command("show")
@click.argument("player_id")
@KIND
@click.option(
    "--on",
    "on",
    required=True,
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="The date (YYYY-MM-DD): the list in force then is used.",
)
@STORE
def ratings_show(player_id: str, kind: str, on: datetime.datetime, store: Path) -> None:
    """The rating of PLAYER_ID on the KIND list in force on a date."""
    from grandprix.ratings.store import RatingStore

    with RatingStore(store) as ratings:
        found = ratings.ratings_on([player_id], kind, on.date()).get(player_id)
    if found is None:
        click.echo(f"{player_id}: no {kind} rating on {on.date()}")
        sys.exit(1)
    click.echo(f"{player_id}: {found.rating} ({found.kind} list of {found.date})")


@ratings_group.command("remove")
@KIND
@click.option("--date", "date", required=True, type=click.DateTime(formats=["%Y-%m-%d"]),
              help="The date of the list to remove (YYYY-MM-DD).")  # fmt: skip
@STORE
def ratings_remove(kind: str, date: datetime.datetime, store: Path) -> None:
    """Remove one list from the store."""
    from grandprix.ratings.store import RatingStore

    with RatingStore(store) as ratings:
        done = ratings.remove(kind, date.date())
    click.echo("removed" if done else "no such list")


@main.command("prizes")
@click.argument("season_dir", type=SEASON_DIR, required=False)
@click.option(
    "--event",
    "event_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The prizes of one event (an event.toml) instead of a season's.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format. CSV columns: prize,ranking,place,player_id,name,amount,title,reason.",
)
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Season prizes on the standings after this date (YYYY-MM-DD).",
)
def prizes_command(
    season_dir: Path | None, event_file: Path | None, fmt: str, as_of: datetime.datetime | None
) -> None:
    """Who wins what: the season's prizes (SEASON_DIR) or an event's (--event EVENT.toml),
    each award with its reason (place, tie and pool, reduction)."""
    from grandprix.prizes.report import prizes_csv, prizes_json, prizes_text

    if (season_dir is None) == (event_file is None):
        _fail(UsageError("give a SEASON_DIR or --event EVENT.toml (one of the two)"))
    try:
        if event_file is not None:
            from grandprix.prizes.event import event_prizes

            result = event_prizes(event_file)
        else:
            from grandprix.prizes.season import season_prizes

            assert season_dir is not None
            result = season_prizes(_season(season_dir), as_of.date() if as_of else None)
    except GrandprixError as exc:
        _fail(exc)
    if fmt == "csv":
        click.echo(prizes_csv(result), nl=False)
    elif fmt == "json":
        click.echo(prizes_json(result), nl=False)
    else:
        click.echo(prizes_text(result), nl=False)


EVENT_FILE = click.Path(path_type=Path, dir_okay=False)


def _entries(event_file: Path) -> tuple[EventFile, list[Placed]]:
    """The event and its entries placed in sections; any problem stops here (exit 2)."""
    from grandprix.events.config import read_event
    from grandprix.events.entries import read_entries
    from grandprix.events.sections import place_entries

    try:
        event, _ = read_event(event_file)
        if not event.entries:
            raise UsageError(f"{event_file}: no 'entries' file named in the event")
        entries = read_entries(event_file.parent / event.entries, event.rounds)
        placed, problems = place_entries(event, entries)
        if problems:
            raise InputError(problems)
    except GrandprixError as exc:
        _fail(exc)
    return event, placed


@main.command("sections")
@click.argument("event_file", type=EVENT_FILE)
def sections_command(event_file: Path) -> None:
    """Each entry's class and section (UCC-1 to UCC-3), and the sections too small (UCC-4)."""
    from collections import Counter

    from grandprix.events.sections import suggestions

    event, placed = _entries(event_file)
    sizes = Counter(p.section for p in placed)
    for section in [s.name for s in event.sections] + sorted(
        set(sizes) - {s.name for s in event.sections}
    ):
        members = [p for p in placed if p.section == section]
        click.echo(f"== {section}: {len(members)} players")
        for p in sorted(members, key=lambda p: -(p.entry.rating or 0)):
            rating = p.entry.rating if p.entry.rating is not None else "unr"
            click.echo(f"  {p.entry.name} ({rating}, class {p.klass}): {p.note}")
    for hint in suggestions(event, placed):
        click.echo(f"note: {hint} (UCC-4)")


@main.command("fees")
@click.argument("event_file", type=EVENT_FILE)
def fees_command(event_file: Path) -> None:
    """The fee ledger as CSV, with the total (UCC-13, LUP-E2)."""
    from grandprix.events.fees import fee_of, ledger_csv

    event, placed = _entries(event_file)
    if event.fees is None:
        _fail(UsageError(f"{event_file}: no [fees] in the event"))
    click.echo(ledger_csv([fee_of(event.fees, p) for p in placed]), nl=False)


@main.command("byes")
@click.argument("event_file", type=EVENT_FILE)
def byes_command(event_file: Path) -> None:
    """Every bye request, granted (half- or zero-point) or refused, with why (UCC-14, UCC-15)."""
    from grandprix.events.byes import byes_of

    event, placed = _entries(event_file)
    for p in placed:
        for bye in byes_of(event, p):
            verdict = {"H": "half-point bye", "Z": "zero-point bye"}.get(bye.kind, "REFUSED")
            click.echo(f"{bye.name}\tround {bye.round}\t{verdict}\t{bye.reason}")


@main.command("export")
@click.argument("event_file", type=EVENT_FILE)
@output_folder("Folder for the sections' TRF files (one per section).")
def export_command(event_file: Path, output: Path) -> None:
    """Each section as a TRF-16 file for a pairing program, with the byes granted."""
    from grandprix.events.byes import byes_of
    from grandprix.events.export import section_trf

    event, placed = _entries(event_file)
    byes = {p.entry.id or p.entry.name: byes_of(event, p) for p in placed}
    texts = {s.name: section_trf(event, s, placed, byes) for s in event.sections}
    output.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():  # everything is computed before anything is written
        path = output / f"{name.lower().replace('/', '_').replace(' ', '_')}.trf"
        path.write_text(text, encoding="utf-8")
        click.echo(f"wrote {path}")


@main.command("register")
@click.argument("event_file", type=EVENT_FILE)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Output format; JSON keys: class, fee, problems.",
)
def register_command(event_file: Path, fmt: str) -> None:
    """Registration of a tournament with the federation: class by prize fund, fee, and every
    rule broken (ACF-4 to ACF-7)."""
    import json

    from grandprix.events.config import read_event
    from grandprix.events.registration import register

    try:
        event, _ = read_event(event_file)
    except GrandprixError as exc:
        _fail(exc)
    result = register(event)
    if fmt == "json":
        click.echo(json.dumps(result.as_json(), indent=2))
        return
    from grandprix.numbers import show

    click.echo(f"class {result.klass}; fee {show(result.fee, 2)}: {result.workings}")
    for problem in result.problems:
        click.echo(f"problem: {problem}")


@main.command("site")
@click.argument("season_dir", type=SEASON_DIR)
@output_folder("Folder of the site; replaced whole once the new site is complete.")
def site_command(season_dir: Path, output: Path) -> None:
    """Write the season's static website: standings of every division with movement, a page
    per player and per event, prizes, rules in plain words, a chart and downloads (UT-8)."""
    from grandprix.site.build import build_site

    season = _season(season_dir)
    try:
        count = build_site(season, output)
    except GrandprixError as exc:
        _fail(exc)
    click.echo(f"wrote {count} pages to {output}")


@main.command("rules-reference")
def rules_reference_command() -> None:
    """Print the rule-set reference (Markdown), generated from the schema, presets included."""
    from grandprix.rules.reference import reference

    click.echo(reference(), nl=False)


def _season(folder: Path) -> Season:
    from grandprix.season.config import load_season

    season, problems = load_season(folder)
    if season is None:
        _fail(InputError(problems))
    for warning in problems:
        click.echo(str(warning), err=True)
    return season


def _emit(standings: Standings, fmt: str, warnings: list[Problem]) -> None:
    from grandprix.report import standings_csv, standings_json, standings_table

    for warning in warnings:
        click.echo(str(warning), err=True)
    if fmt == "csv":
        click.echo(standings_csv(standings), nl=False)
    elif fmt == "json":
        click.echo(standings_json(standings, warnings), nl=False)
    else:
        from rich.console import Console

        Console().print(standings_table(standings))


def _stop_on_errors(problems: list[Problem]) -> None:
    errors = errors_only(problems)
    if errors:
        raise InputError(problems)


def _fail(exc: GrandprixError) -> NoReturn:
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


if __name__ == "__main__":  # pragma: no cover
    main()

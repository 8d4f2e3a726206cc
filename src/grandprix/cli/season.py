"""The season commands: standings, explain, check, players, prizes, site, rules-reference."""

from __future__ import annotations

import datetime
import difflib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandprix.cli.base import (
    SEASON_DIR,
    as_of_option,
    echo_problems,
    fail,
    format_option,
    keep,
    main,
    output_folder,
    read_season,
    say,
)
from grandprix.errors import UsageError, errors_only

if TYPE_CHECKING:
    from grandprix.players import PlayerKey
    from grandprix.season.model import Line, Season, Tables


@main.command("standings")
@click.argument("season_dir", type=SEASON_DIR)
@format_option("Output format. CSV columns: division,rank,player_id,name,points,events.")
@as_of_option("Standings after the events on or before this date (YYYY-MM-DD).")
@click.option("--division", default=None, help="Only this division (default: every division).")
def standings_command(
    season_dir: Path, fmt: str, as_of: datetime.datetime | None, division: str | None
) -> None:
    """Grand Prix standings of the season in SEASON_DIR (season.toml and its results files);
    with divisions, each division its own table."""
    from grandprix.reports.standings import standings_csv

    season = read_season(season_dir)
    tables = _division_tables(season, as_of, division)
    left_out = []
    if season.rules.standings.ineligible == "listed":
        from grandprix.season.ineligible import unplaced

        left_out = unplaced(season, _division_tables(season, as_of, None))
    if fmt == "csv":
        click.echo(standings_csv(tables, season.rules.standings.decimals, left_out), nl=False)
    elif fmt == "json":
        from grandprix.reports.document import standings_document

        document = standings_document(season, tables, detail=True, left_out=left_out)
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        from grandprix.reports.standings import (
            HEADS,
            RIGHT,
            UNPLACED_HEADS,
            table_parts,
            unplaced_parts,
        )
        from grandprix.writers import table

        console = Console()
        styled = console.is_terminal and console.color_system is not None
        parts: list[tuple[tuple[str, str, list[list[str]]], tuple[str, ...], tuple[bool, ...]]]
        parts = [
            (table.safe(*table_parts(season, name, lines)), HEADS, RIGHT) for name, lines in tables
        ]
        if left_out:
            parts.append(
                (
                    table.safe(*unplaced_parts(season, left_out)),
                    UNPLACED_HEADS,
                    (False, True, False),
                )
            )
        for (title, caption, rows), heads, right in parts:
            text = table.lines(title, caption, heads, right, rows, console.width, styled)
            if text is None:  # too wide for the console: rich wraps its cells
                console.print(table.rich_table(title, caption, heads, right, rows))
            else:
                console.file.write("".join(f"{line}\n" for line in text))


def _division_tables(
    season: Season, as_of: datetime.datetime | None, division: str | None
) -> Tables:
    from grandprix.season.standings import division_standings

    names = [d.name for d in season.rules.divisions]
    if division is not None and division not in names:
        known = ", ".join(names) or "none: these rules have one overall standings"
        fail(UsageError(f"unknown division '{division}' (divisions: {known})"))
    return keep(division_standings(season, as_of.date() if as_of else None, division))


@main.command("explain")
@click.argument("season_dir", type=SEASON_DIR)
@click.argument("player")
@as_of_option("Explain the standings after the events on or before this date (YYYY-MM-DD).")
@click.option("--division", default=None, help="Only this division (default: all of the player's).")
def explain_command(
    season_dir: Path, player: str, as_of: datetime.datetime | None, division: str | None
) -> None:
    """Why PLAYER (an id or a name) has every point: each event's place, tie, table value,
    multipliers, counted or dropped, and the bonus, adding up to the total (in every division
    of the player, or in one)."""
    from grandprix.reports.standings import explain

    season = read_season(season_dir)
    tables = _division_tables(season, as_of, division)
    placed = {ln.player: ln for _, lines in tables for ln in lines}
    if division is None:
        from grandprix.players import name_key
        from grandprix.season.ineligible import unplaced

        for u in unplaced(season, tables):  # named, they are told why they have no points
            if u.player.id == player or name_key(u.name) == name_key(player):
                events = "event" if u.events == 1 else "events"
                say(
                    f"{u.name} ({u.player}): in no standings, 0 points from {u.events} "
                    f"{events}: {u.reason}"
                )
                return
    key = _player_named(player, placed.values())
    parts = [
        explain(season, line, name)
        for name, lines in tables
        for line in lines
        if line.player == key
    ]
    say("\n".join(parts), nl=False)


def _player_named(player: str, everyone: Iterable[Line]) -> PlayerKey:
    """The one player of the standings that ``player`` names: an id, or a name in any word
    order, case and commas ('Alice Adams', 'ADAMS ALICE' and 'Adams,Alice' agree), else the
    only name holding all its words. None or several: a usage error (exit 2) listing the
    players meant, or the closest names when none is."""
    from grandprix.players import name_key

    everyone = list(everyone)
    wanted = name_key(player)
    found = [ln for ln in everyone if ln.player.id == player or name_key(ln.name) == wanted]
    if not found:
        words = wanted.split()
        found = [ln for ln in everyone if all(w in name_key(ln.name) for w in words)]
    if len(found) == 1:
        return found[0].player
    if found:
        names = ", ".join(f"{ln.name} ({ln.player})" for ln in found[:10])
        fail(
            UsageError(
                f"'{player}': several players match: {names}; give the player's id or full name"
            )
        )
    keyed: dict[str, Line] = {}
    for ln in everyone:
        keyed.setdefault(name_key(ln.name), ln)
    close = difflib.get_close_matches(wanted, list(keyed), n=3, cutoff=0.6)
    hint = ""
    if close:
        names = " or ".join(f"'{keyed[k].name}' ({keyed[k].player})" for k in close)
        hint = f"; did you mean {names}?"
    fail(
        UsageError(
            f"'{player}': no player of the standings{hint} (give the player's id or "
            "full name; 'grandprix players SEASON_DIR' lists them)"
        )
    )


@main.command("check")
@click.argument("season_dir", type=SEASON_DIR)
def check_command(season_dir: Path) -> None:
    """Every problem in the season (rules, season.toml, results files, players.csv); exit 1
    if there is any error."""
    from grandprix.season.checks import undecided_names
    from grandprix.season.config import load_season

    season, problems = load_season(season_dir)
    if season is not None:
        problems += undecided_names(season)
    echo_problems(problems, err=False)
    errors = len(errors_only(problems))
    warnings = len(problems) - errors
    say(f"{errors} error(s), {warnings} warning(s) in {season_dir}")
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
@format_option("Output format.")
def players_command(season_dir: Path, review: bool, fmt: str) -> None:
    """The people of the season: their names, ids and events, as matched across events."""
    from grandprix.reports.people import people_csv, people_json, people_text
    from grandprix.season.people import near_matches, people

    season = read_season(season_dir)
    found = people(season)
    matches = near_matches(season, found) if review else []
    if fmt == "csv":
        click.echo(people_csv(found), nl=False)
    elif fmt == "json":
        click.echo(people_json(found, matches), nl=False)
    else:
        say(people_text(found, matches, review), nl=False)


@main.command("prizes")
@click.argument("season_dir", type=SEASON_DIR, required=False)
@click.option(
    "--event",
    "event_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The prizes of one event (an event.toml) instead of a season's.",
)
@format_option(
    "Output format. CSV columns: prize,ranking,place,player_id,name,amount,title,reason."
)
@as_of_option("Season prizes on the standings after this date (YYYY-MM-DD).")
def prizes_command(
    season_dir: Path | None, event_file: Path | None, fmt: str, as_of: datetime.datetime | None
) -> None:
    """Who wins what: the season's prizes (SEASON_DIR) or an event's (--event EVENT.toml),
    each award with its reason (place, tie and pool, reduction)."""
    from grandprix.reports.prizes import prizes_csv, prizes_json, prizes_text

    if (season_dir is None) == (event_file is None):
        fail(UsageError("give a SEASON_DIR or --event EVENT.toml (one of the two)"))
    if event_file is not None:
        from grandprix.prizes.event import event_prizes

        result = event_prizes(event_file)
    else:
        from grandprix.prizes.season import season_prizes

        assert season_dir is not None
        result = season_prizes(read_season(season_dir), as_of.date() if as_of else None)
    if fmt == "csv":
        click.echo(prizes_csv(result), nl=False)
    elif fmt == "json":
        click.echo(prizes_json(result), nl=False)
    else:
        say(prizes_text(result), nl=False)


@main.command("site")
@click.argument("season_dir", type=SEASON_DIR)
@output_folder(
    "Folder of the site; swapped in once the new site is complete. A folder holding files "
    "the site did not write is refused, never replaced."
)
def site_command(season_dir: Path, output: Path) -> None:
    """Write the season's static website: standings of every division with movement, a page
    per player and per event, prizes, rules in plain words, a chart and downloads (UT-8)."""
    from grandprix.site.build import build_site

    count = build_site(read_season(season_dir), output)
    say(f"wrote {count} pages to {output}")


@main.command("site-index")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
def site_index_command(folder: Path) -> None:
    """Write FOLDER/index.html: a page listing the seasons' sites in FOLDER (each made by
    'grandprix site SEASON_DIR -o FOLDER/NAME'), with a link to each."""
    from grandprix.site.index import write_site_index

    count = write_site_index(folder)
    say(f"wrote {folder / 'index.html'}: {count} season(s)")


@main.command("rules-reference")
def rules_reference_command() -> None:
    """Print the rule-set reference (Markdown), generated from the schema, presets included."""
    from grandprix.rules.reference import reference

    click.echo(reference(), nl=False)

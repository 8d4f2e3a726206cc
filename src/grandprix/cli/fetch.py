"""``grandprix fetch URL SEASON_DIR``: a tournament's results downloaded into a season folder.

What the command says goes to stderr (what it downloaded, the reader's warnings); the
``[[events]]`` table for season.toml goes to stdout, so that ``>> season.toml`` adds it. The
command never edits season.toml itself.
"""

from __future__ import annotations

from pathlib import Path

import click

from grandprix.cli.base import SEASON_DIR, echo_problems, fail, main, say
from grandprix.errors import UsageError


@main.command("fetch")
@click.argument("url")
@click.argument("season_dir", type=SEASON_DIR)
@click.option(
    "--name",
    "file_name",
    default=None,
    metavar="FILE",
    help="The file's name in SEASON_DIR (default: the event's name and the tournament's id). "
    "It must end in the format's suffix: .xlsx, .ndjson or .json.",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0.1, max=3600),
    default=None,
    metavar="SECONDS",
    help="The longest each download may take, from connecting to the answer's last byte "
    "(default: 300). A download not over by then is stopped and nothing is written.",
)
def fetch_command(
    url: str, season_dir: Path, file_name: str | None, deadline: float | None
) -> None:
    """Download a tournament's results into SEASON_DIR and print its entry for season.toml.

    URL is a chess-results.com tournament (https://chess-results.com/tnr123456.aspx: its Final
    Ranking crosstable as .xlsx), a lichess Swiss or arena (https://lichess.org/swiss/ID,
    https://lichess.org/tournament/ID: its results as NDJSON) or a chess.com tournament group
    (https://api.chess.com/pub/tournament/ID/ROUND/GROUP: the group's JSON). The download is
    read before it is kept: a file that does not read is not written, nor is an existing file
    ever replaced. Each download (the tournament's description, its results) must be over
    within --deadline seconds, connecting included; redirects are followed only on the site's
    own host and port, over the same scheme. The [[events]] lines go to stdout (add them to
    season.toml); the rest to stderr. Exit 2 when nothing was written."""
    from grandprix.fetch import Unreadable, fetch

    try:
        got = fetch(url, season_dir, file_name, deadline)
    except Unreadable as exc:
        echo_problems(exc.problems)
        fail(UsageError(str(exc)))
    echo_problems(got.problems)
    for note in got.notes:
        say(f"note: {note}", err=True)
    event = f"'{got.event}'" if got.event else "(the download does not name the event)"
    rounds = f", {got.rounds} round(s)" if got.rounds else ""
    when = f", {got.date}" if got.date else ""
    say(f"downloaded {got.address}", err=True)
    say(f"{event}{when}: {got.section.size} players{rounds}", err=True)
    say(f"wrote {got.path}; add to season.toml:", err=True)
    say(got.season_entry(), nl=False)

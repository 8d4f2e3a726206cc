"""A season with an event in progress, as an arbiter leaves it mid-day: examples/utah-2026 (its
Class Championships played) with its Utah Open being played in two sections made from the
Class Championships' entries (``grandprix export``), paired by the FIDE Dutch engine and
written as the day's TRFs (``pairing.state.tournament_text``).

- Section X (9 players, a half-point bye asked for round 2): round 1 finished (board 1 1-0,
  board 2 a draw, board 3 0-1, board 4 a forfeit won by White; the odd player out gets the
  pairing-allocated bye), round 2 paired with only board 1's result in (0-1).
- Section A: a zero-point bye and a full-point bye announced for round 1, round 1 paired with
  board 1's result in (1-0) and no other.

The sites of the tests read it from ``LIVE`` ('utah-2026-live') under the folder given.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main
from grandprix.model import ResultKind
from grandprix.pairing.engine import pair_next
from grandprix.pairing.state import (
    Tournament,
    announce_bye,
    enter_result,
    read_tournament,
    tournament_text,
)

LIVE = "utah-2026-live"
EVENT = "Utah Open"
ROUND_1_X = {1: "1-0", 2: "½-½", 3: "0-1", 4: "+-"}  # board -> result
ROUND_2_X = {1: "0-1"}
ROUND_1_A = {1: "1-0"}
A_ZERO, A_FULL = 3, 5  # start numbers of section A given a zero- and a full-point bye
TIEBREAKS = "BH/C1,SB"  # the event's own (the season's rules have none)


def _results(tournament: Tournament, results: dict[int, str]) -> Tournament:
    for board, result in results.items():
        tournament = enter_result(tournament, board, result)
    return tournament


def _paired(tournament: Tournament) -> Tournament:
    return pair_next(tournament, lambda: "w")[0]


def _section_x(path: Path) -> None:
    tournament = _results(_paired(read_tournament(path)), ROUND_1_X)
    tournament = _results(_paired(tournament), ROUND_2_X)
    path.write_text(tournament_text(tournament), encoding="utf-8")


def _section_a(path: Path) -> None:
    tournament = read_tournament(path)
    tournament = announce_bye(tournament, A_ZERO, 1, ResultKind.ZERO_BYE)
    tournament = announce_bye(tournament, A_FULL, 1, ResultKind.FULL_BYE)
    tournament = _results(_paired(tournament), ROUND_1_A)
    path.write_text(tournament_text(tournament), encoding="utf-8")


def make_live_season(base: Path, language: str = "en") -> Path:
    """The season folder ``base / LIVE`` (with ``base / 'events'`` beside it, which its
    played event reads), its pages in ``language``."""
    shutil.copytree(ROOT / "examples" / "utah-2026", base / LIVE)
    shutil.copytree(
        ROOT / "examples" / "events" / "class_championships_2026",
        base / "events" / "class_championships_2026",
    )
    folder = base / LIVE
    event = ROOT / "examples" / "events" / "class_championships_2026" / "event.toml"
    made = CliRunner().invoke(main, ["export", str(event), "-o", str(folder / "open")])
    assert made.exit_code == 0, made.output
    _section_x(folder / "open" / "x.trf")
    _section_a(folder / "open" / "a.trf")
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    planned = f'name = "{EVENT}"\ndate = 2026-12-12\nplanned = true\n'
    assert planned in text, "examples/utah-2026 no longer plans the Utah Open"
    live = (
        f'name = "{EVENT}"\ndate = 2026-12-12\nin_progress = true\ntiebreaks = "{TIEBREAKS}"\n\n'
        '[[events.sections]]\nname = "X"\nresults = "open/x.trf"\n\n'
        '[[events.sections]]\nname = "A"\nresults = "open/a.trf"\n'
    )
    text = text.replace(planned, live)
    if language != "en":
        text = f'language = "{language}"\n' + text
    toml.write_text(text, encoding="utf-8")
    return folder

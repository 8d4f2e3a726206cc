"""The FIDE TEC reference program (gacrux) run in-process, as a test oracle only."""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from grandprix.model import ResultKind, Section

FORFEITS = frozenset({ResultKind.FORFEIT_WIN, ResultKind.FORFEIT_LOSS, ResultKind.DOUBLE_FORFEIT})

EDITION_SUFFIX = {"fide-2024": "/V2024", "fide-2026": "/V2026"}


def gacrux_values(
    trf: Path, codes: list[str], edition: str, round_robin: bool
) -> dict[int, dict[str, Fraction | None]]:
    """Start number -> {code: value} as computed by gacrux's tiebreakchecker."""
    from gacrux.tiebreakchecker import tiebreakchecker

    suffix = EDITION_SUFFIX[edition]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        argv = [
            "tiebreakchecker",
            "-i",
            str(trf),
            "-b",
            "utf-8",
            "-p" if round_robin else "-s",
            "-t",
        ]
        argv += ["PTS", *(code + suffix for code in codes), "-d", "T", "-o", str(out)]
        saved = sys.argv
        sys.argv = argv
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                tiebreakchecker().common_main()
        finally:
            sys.argv = saved
        lines = out.read_text().splitlines()
    header = lines[0].split("\t")
    names = ["PTS", *codes]
    result: dict[int, dict[str, Fraction | None]] = {}
    for line in lines[1:]:
        cells = dict(zip(header, line.split("\t"), strict=True))
        start_no = int(cells["StartNo"])
        row: dict[str, Fraction | None] = {}
        for name, column in zip(names, header[2:], strict=True):
            text = cells[column]
            row[name] = None if text in ("-0", "None", "") else Fraction(text)
        result[start_no] = row
    return result


def for_gacrux(section: Section) -> Section:
    """The section as gacrux can read it: team records dropped (it would score a team event) and
    forfeits written without a colour given one (it stops with 'No result for black')."""
    players = []
    for player in section.players:
        rounds = []
        for r in player.rounds:
            if r.kind in FORFEITS and r.colour is None and r.opponent is not None:
                r = replace(r, colour="w" if player.start_no < r.opponent else "b")
            rounds.append(r)
        players.append(replace(player, rounds=tuple(rounds)))
    return replace(section, players=tuple(players), extra_records=())

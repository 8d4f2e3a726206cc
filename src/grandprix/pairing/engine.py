"""The next round paired by FIDE's own pairing engine: gacrux (the FIDE technical commission's
reference program, MIT), which pairs the Dutch system of C.04.3 as in force from 1 February
2026. It is called in this process on the tournament written as TRF-2026 (finished rounds,
exact points, rounds 142, initial colour 152, accelerations 250, forbidden pairs 260); the
players not to pair in the round are marked absent. Its answer is checked against the
absolute criteria (``criteria.violations``) before anyone sees it.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from grandprix.errors import UsageError
from grandprix.pairing.criteria import PairingRefused, violations
from grandprix.pairing.state import (
    Board,
    Pairing,
    Tournament,
    board_order,
    closed,
    tournament_text,
)

SYSTEMS = {"fide-dutch-2026": "FIDE Dutch system (C.04.3, in force from 1 February 2026)"}
DEFAULT_SYSTEM = "fide-dutch-2026"


def engine_version() -> str:
    """The pairing engine and its version, as messages name it."""
    from gacrux.version import version

    return f"gacrux {version()['version']}"


def pair_next(
    tournament: Tournament,
    draw_colour: Callable[[], str],
    engine: Callable[[Tournament, int, set[int]], list[tuple[int, int]]] | None = None,
) -> tuple[Tournament, Pairing]:
    """The tournament with its next round paired, and that pairing. ``draw_colour`` gives the
    initial colour ('w' or 'b') when the first round is paired and none was drawn (C.04.3:
    drawn by lot); ``engine`` pairs (gacrux unless a test gives another: its pairs of start
    numbers, White first, 0 for the pairing-allocated bye). A pairing that breaks an absolute
    criterion raises ``PairingRefused`` and nothing is changed."""
    if tournament.current is not None and not tournament.current.finished:
        missing = [b.number for b in tournament.current.boards if not b.result]
        raise UsageError(
            f"round {tournament.current.number} is not finished: board(s) "
            f"{', '.join(map(str, missing))} have no result; enter them first (or undo the "
            "pairing while no result is in)"
        )
    tournament = closed(tournament)
    number = tournament.next_round
    if number > tournament.plan.rounds:
        raise UsageError(
            f"all {tournament.plan.rounds} rounds are paired; there is no round {number} "
            "(the number of rounds is record 142 or XXR of the TRF)"
        )
    plan = tournament.plan
    if not plan.initial_colour and number == 1:
        plan = replace(plan, initial_colour=draw_colour())
        tournament = replace(tournament, plan=plan)
    unpaired = plan.byes_in(number)
    pairs = (engine or gacrux_pairs)(tournament, number, set(unpaired))
    bye = next((w or b for w, b in pairs if 0 in (w, b)), None)
    games = [(w, b) for w, b in pairs if w and b]
    order = board_order(tournament.section, plan, number, games)
    pairing = Pairing(
        number,
        tuple(Board(i, w, b) for i, (w, b) in enumerate(order, start=1)),
        bye,
        tuple(sorted(unpaired.items())),
    )
    byes = [n for w, b in pairs if 0 in (w, b) for n in (w, b) if n]
    found = violations(tournament, pairing, extra_byes=len(byes) - (bye is not None))
    if found:
        raise PairingRefused(number, found, engine_version() if engine is None else "a test engine")
    return replace(tournament, current=pairing), pairing


def gacrux_pairs(tournament: Tournament, number: int, absent: set[int]) -> list[tuple[int, int]]:
    """Round ``number`` paired by gacrux's Dutch engine: (White, Black) start numbers, Black 0
    for the pairing-allocated bye."""
    from gacrux.gacruxexeptions import GacruxNoLegalPairing
    from gacrux.pairingdutch import pairing_dutch
    from gacrux.trf2json import trf2json

    plan = tournament.plan
    given = replace(tournament, plan=replace(plan, byes={}), current=None)
    text = tournament_text(given)
    reader: Any = trf2json()
    with contextlib.redirect_stdout(io.StringIO()):
        reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    if status["code"] > 400:
        raise UsageError(
            f"{engine_version()} could not read the tournament: {'; '.join(status['error'])}"
        )
    event: Any = reader.get_tournament(1)
    event["pairingSystem"] = ["dutch"]
    event["numRounds"] = plan.rounds
    for competitor in event["competitors"]:
        if competitor["cid"] in absent:
            competitor["present"] = False
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            found = pairing_dutch(event, number, {"experimental": [], "verbose": 0})
            brackets = found.compute_pairing(False, 0)
    except GacruxNoLegalPairing as exc:
        raise UsageError(
            f"round {number} cannot be paired under the absolute criteria ({exc}); C.04.3 "
            "leaves the decision to the chief arbiter: pair it by hand, or change a bye or a "
            "forbidden pair"
        ) from None
    return [(pair["w"], pair["b"]) for bracket in brackets for pair in bracket["pairs"]]

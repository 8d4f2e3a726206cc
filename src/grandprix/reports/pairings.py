"""A round's pairings as a terminal table, CSV or JSON: each board with its players' start
numbers, names, ratings and scores before the round; the pairing-allocated bye and the players
not paired (a bye announced, an absence) after the boards, each with its kind."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

from grandprix.model import Player, ResultKind, Section
from grandprix.pairing.state import Pairing
from grandprix.scores import show
from grandprix.writers.cells import CsvRows, safe_text

if TYPE_CHECKING:
    from rich.table import Table

K = ResultKind
# The kind of each row: a game, or how a player without a board spends the round.
KINDS = {
    K.PAIRING_BYE: "pairing-bye",
    K.HALF_BYE: "half-point-bye",
    K.FULL_BYE: "full-point-bye",
    K.ZERO_BYE: "zero-point-bye",
    K.ABSENT: "absent",
}
CSV_COLUMNS = (
    "board",
    "white",
    "black",
    "kind",
    "result",
    "white_name",
    "white_rating",
    "white_points",
    "black_name",
    "black_rating",
    "black_points",
)


def _rows(section: Section, pairing: Pairing) -> list[tuple[str, Player, Player | None, str, str]]:
    """(board, White or the player without a board, Black, kind, result) in order."""
    before = {p.start_no: p for p in section.players}
    rows: list[tuple[str, Player, Player | None, str, str]] = [
        (str(b.number), before[b.white], before[b.black], "game", b.result) for b in pairing.boards
    ]
    if pairing.bye is not None:
        rows.append(("", before[pairing.bye], None, KINDS[K.PAIRING_BYE], ""))
    rows += [("", before[n], None, KINDS[kind], "") for n, kind in pairing.unpaired]
    return rows


def _points(section: Section, number: int) -> dict[int, str]:
    """Each player's score before round ``number``."""
    return {
        p.start_no: show(sum((r.points for r in p.rounds if r.number < number), start=0))
        for p in section.players
    }


def pairings_csv(section: Section, pairing: Pairing) -> str:
    """``board,white,black,kind,result`` (start numbers; ``black`` empty for a player without
    a board, whose ``kind`` says why: pairing-bye, half-point-bye, full-point-bye,
    zero-point-bye, absent), then each player's name, rating and score before the round."""
    points = _points(section, pairing.number)
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(CSV_COLUMNS)
    for board, white, black, kind, result in _rows(section, pairing):
        writer.writerow(
            [
                board,
                white.start_no,
                black.start_no if black else "",
                kind,
                result,
                safe_text(white.name),
                white.rating or "",
                points[white.start_no],
                safe_text(black.name) if black else "",
                (black.rating or "") if black else "",
                points[black.start_no] if black else "",
            ]
        )
    return out.getvalue()


def pairings_json(section: Section, pairing: Pairing, system: str, engine: str) -> str:
    """The pairing as JSON: the round, the system and engine, the boards and the players
    without a board; scores are decimal strings so that they stay exact."""
    points = _points(section, pairing.number)
    players = {p.start_no: p for p in section.players}

    def who(start_no: int) -> dict[str, Any]:
        p = players[start_no]
        return {
            "start_no": start_no,
            "name": p.name,
            "rating": p.rating,
            "points": points[start_no],
        }

    document = {
        "event": section.name,
        "round": pairing.number,
        "system": system,
        "engine": engine,
        "boards": [
            {
                "board": b.number,
                "white": who(b.white),
                "black": who(b.black),
                "result": b.result or None,
            }
            for b in pairing.boards
        ],
        "without_board": [
            {**who(n), "kind": KINDS[kind]}
            for n, kind in (
                ([(pairing.bye, K.PAIRING_BYE)] if pairing.bye is not None else [])
                + list(pairing.unpaired)
            )
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def pairings_table(section: Section, pairing: Pairing) -> Table:
    """The pairings for the terminal: board, White, score, result, score, Black."""
    from grandprix.writers.table import rich_table

    points = _points(section, pairing.number)

    def name(p: Player) -> str:
        rating = f" ({p.rating})" if p.rating else ""
        return f"{p.start_no}. {p.name}{rating}"

    rows = []
    for board, white, black, kind, result in _rows(section, pairing):
        if black is None:
            rows.append([board, name(white), points[white.start_no], "", "", kind])
            continue
        rows.append(
            [
                board,
                name(white),
                points[white.start_no],
                result or "-",
                points[black.start_no],
                name(black),
            ]
        )
    heads = ["Bd", "White", "Pts", "Result", "Pts", "Black"]
    return rich_table(
        f"{section.name}: round {pairing.number}",
        "",
        heads,
        [True, False, True, False, True, False],
        rows,
    )

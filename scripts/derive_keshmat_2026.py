"""Derive test facts from the Keshmat Chess Circuit 2026 repository (github keshmat/circuit2026).

That repository states no licence, so nothing of it is copied: this script reads a checkout (or a
``git archive`` of it) and writes only facts derived from it into ``tests/data/keshmat-2026``:

* ``<slug>.csv`` per event, in grandprix's standings-CSV format: final rank, starting number
  (``start_rank``), the spec's seed by rating (``rating_seed``, for reference), name, rating, game
  points, rounds taken part in (``played``: a game, a forfeit won or a pairing bye), games over
  the board, rounds with any result, completed all rounds;
* ``events.csv``: one row per event (name, date, category, type, players, rounds);
* ``published.csv``: ``data/standings.json`` flattened, one row per (player, event), joined with
  the published per-event breakdown of ``data/events/<slug>.json``.

Usage: ``python scripts/derive_keshmat_2026.py CHECKOUT [--out DIR]``

Cells of a chess-results "Starting rank crosstable" export, as read here:

* Swiss: ``" 13b1"`` a game (opponent's starting number, colour, result ``1``/``0``/``½``);
  result ``+`` or ``-`` a forfeit won or lost; the number ``-1`` (or ``-½``, ``-0``) a bye with
  that score; the number ``0`` not paired (absent, withdrawn).
* Round robin: ``*`` the player's own cell; ``1``/``0``/``½`` a game; ``+``/``-`` a forfeit.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl

SWISS_CELL = re.compile(r"^\s*(\d+)\s*([wb])\s*([01½+-])\s*$")
BYE_CELL = re.compile(r"^\s*-\s*([01½])\s*$")
TYPES = {
    "rapid": ("rapid", "swiss"),
    "group_a": ("classical", "round-robin group A"),
    "group_b": ("classical", "round-robin group B"),
    "group_c": ("classical", "swiss"),
}
PLAYER_COLUMNS = (
    "rank",
    "start_rank",
    "rating_seed",
    "name",
    "federation",
    "rating",
    "points",
    "played",
    "games",
    "rounds_with_result",
    "completed",
)


@dataclass
class Row:
    """One player of one event, as derived from the export."""

    start_no: int
    name: str
    federation: str
    rating: int
    points: str
    rank: int
    played: int = 0
    took_part: int = 0
    with_result: int = 0
    present_every_round: bool = True
    start_rank: int = 0


@dataclass
class Event:
    """One event: its header facts and its players."""

    slug: str
    name: str
    date: str
    last_update: str
    tournament_id: str
    category: str
    kind: str
    rounds: int
    rows: list[Row]


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _score(value: object) -> str:
    """Game points as a decimal string: 5.5, 4, 0.5."""
    number = float(str(value).replace("½", ".5"))
    return str(int(number)) if number == int(number) else str(number)


def _classify(cell: object, round_robin: bool) -> str:
    """One round cell -> 'game', 'forfeit_win', 'forfeit_loss', 'bye', 'unpaired' or 'self'."""
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        if round_robin:
            return "game"  # 1 or 0 in the matrix
        if cell == 0:
            return "unpaired"
        return "bye"  # -1: a bye scored 1
    text = _text(cell)
    if round_robin:
        return {"*": "self", "+": "forfeit_win", "-": "forfeit_loss", "": "unpaired"}.get(
            text, "game"
        )
    if not text or text == "0":
        return "unpaired"
    if BYE_CELL.match(text):
        return "bye"
    match = SWISS_CELL.match(text)
    if match is None:
        raise ValueError(f"unknown Swiss cell {cell!r}")
    return {"+": "forfeit_win", "-": "forfeit_loss"}.get(match.group(3), "game")


def read_event(path: Path, slug: str, kind: str) -> Event:
    """Read one chess-results starting-rank crosstable export."""
    sheet = openpyxl.load_workbook(path, read_only=True).active
    assert sheet is not None
    data: list[list[Any]] = [list(line) for line in sheet.iter_rows(values_only=True)]
    name = _text(data[1][0])
    date = last_update = tournament_id = ""
    for line in data:
        first = _text(line[0])
        if first.startswith("Date :"):
            date = first.split(":", 1)[1].strip().replace("/", "-")
        elif first.startswith("Last update"):
            day, month, year = first.split()[2].split(".")
            last_update = f"{year}-{month}-{day}"
        elif "tnr" in first and (found := re.search(r"tnr(\d+)", first)):
            tournament_id = found.group(1)
    head_index = next(i for i, line in enumerate(data) if _text(line[0]) == "No.")
    head = [_text(cell) for cell in data[head_index]]
    round_robin = kind.startswith("round-robin")
    if round_robin:
        round_columns = [i for i, h in enumerate(head) if h.isdigit()]
    else:
        round_columns = [i for i, h in enumerate(head) if re.fullmatch(r"\d+\.Rd", h)]
    col = {h: i for i, h in enumerate(head) if h}
    rows: list[Row] = []
    for raw in data[head_index + 1 :]:
        if not isinstance(raw[0], int):
            continue
        player = Row(
            start_no=raw[0],
            name=_text(raw[col["Name"]]),
            federation=_text(raw[col["FED"]]),
            rating=int(raw[col["Rtg"]] or 0),
            points=_score(raw[col["Pts."]]),
            rank=int(raw[col["Rk."]]),
        )
        for index in round_columns:
            kind_of = _classify(raw[index], round_robin)
            if kind_of == "self":
                continue
            player.played += kind_of == "game"
            player.took_part += kind_of in ("game", "forfeit_win", "bye")
            player.with_result += kind_of != "unpaired"
            if kind_of in ("forfeit_loss", "unpaired"):
                player.present_every_round = False
        rows.append(player)
    rounds = len(round_columns) - (1 if round_robin else 0)
    # Seeds by rating, competition ranking ("1224"): equal ratings (all unrated: 0) share the
    # best rank of their group (POINT_SPEC.md, SeedRank tie rule).
    for player in rows:
        player.start_rank = 1 + sum(other.rating > player.rating for other in rows)
    rows.sort(key=lambda r: r.rank)
    return Event(slug, name, date, last_update, tournament_id, "", kind, rounds, rows)


def write_csv(path: Path, header: tuple[str, ...], rows: list[tuple[object, ...]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def derive(checkout: Path, out: Path) -> list[Event]:
    """Write the per-event CSVs, events.csv and published.csv; return the events read."""
    out.mkdir(parents=True, exist_ok=True)
    listing = json.loads((checkout / "crosstables" / "events.json").read_text("utf-8"))
    events: list[Event] = []
    for entry in listing["events"]:
        slug = Path(entry["file"]).stem
        category, kind = TYPES[entry["type"]]
        event = read_event(checkout / "crosstables" / entry["file"], slug, kind)
        event.category = category
        events.append(event)
        write_csv(
            out / f"{slug}.csv",
            PLAYER_COLUMNS,
            [
                (
                    r.rank,
                    r.start_no,
                    r.start_rank,
                    r.name,
                    r.federation,
                    r.rating or "",
                    r.points,
                    r.took_part,
                    r.played,
                    r.with_result,
                    "yes" if r.present_every_round and r.with_result == event.rounds else "no",
                )
                for r in event.rows
            ],
        )
    write_csv(
        out / "events.csv",
        (
            "slug",
            "name",
            "date",
            "last_update",
            "chess_results_id",
            "category",
            "type",
            "players",
            "rounds",
        ),
        [
            (
                e.slug,
                e.name,
                e.date,
                e.last_update,
                e.tournament_id,
                e.category,
                e.kind,
                len(e.rows),
                e.rounds,
            )
            for e in events
        ],
    )
    write_published(checkout, out)
    return events


def write_published(checkout: Path, out: Path) -> None:
    """Flatten data/standings.json, joined with data/events/<slug>.json by (event, final rank)."""
    standings: dict[str, Any] = json.loads((checkout / "data" / "standings.json").read_text())
    breakdown: dict[tuple[str, int], dict[str, Any]] = {}
    for path in sorted((checkout / "data" / "events").glob("*.json")):
        event = json.loads(path.read_text("utf-8"))
        for result in event["results"]:
            breakdown[(event["event_id"], result["final_rank"])] = result
    rows: list[tuple[object, ...]] = []
    for player in standings["standings"]:
        for item in player["events"]:
            result = breakdown[(item["event_id"], item["final_rank"])]
            points = result["circuit_points"]
            if points["total"] != item["points"]:
                raise ValueError(f"standings.json and the event file disagree: {item}")
            rows.append(
                (
                    "overall",
                    player["position"],
                    player["name"],
                    player["federation"],
                    player["total_points"],
                    player["rapid_points"],
                    player["classical_points"],
                    player["events_counted"],
                    player["events_total"],
                    item["event_id"],
                    item["category"],
                    item["final_rank"],
                    result["seed_rank"],
                    result["rounds_played"],
                    result["total_rounds"],
                    "yes" if result["completed"] else "no",
                    "yes" if points["eligible"] else "no",
                    points["percentile_band"] or "",
                    points["placement"],
                    points["performance_bonus"],
                    points["participation"],
                    item["points"],
                    "yes" if item["counted"] else "no",
                )
            )
    write_csv(
        out / "published.csv",
        (
            "table",
            "position",
            "name",
            "federation",
            "total",
            "rapid_total",
            "classical_total",
            "events_counted",
            "events_total",
            "event",
            "category",
            "final_rank",
            "seed_rank",
            "rounds_played",
            "total_rounds",
            "completed",
            "eligible",
            "band",
            "placement",
            "performance_bonus",
            "participation",
            "event_total",
            "counted",
        ),
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout or extracted archive")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "tests" / "data" / "keshmat-2026",
    )
    args = parser.parse_args()
    for event in derive(args.checkout, args.out):
        print(f"{event.slug}: {len(event.rows)} players, {event.rounds} rounds")


if __name__ == "__main__":
    main()

"""Re-create the example events in examples/events from fixed seeds (made-up players).

Run: .venv/bin/python examples/make_examples.py
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from grandprix.model import Section
from grandprix.synthetic import Mix, generate, round_robin
from grandprix.writers.trf import write_trf

FIRST = [
    "Ada",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Femi",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kaito",
    "Lena",
    "Marek",
    "Nadia",
    "Omar",
    "Petra",
    "Quentin",
    "Rosa",
    "Sami",
    "Tove",
    "Ugo",
    "Vera",
    "Wim",
    "Xenia",
    "Yusuf",
    "Zora",
    "Aleš",
    "Björn",
    "Chloé",
    "Đorđe",
]
LAST = [
    "Abbott",
    "Brandt",
    "Castillo",
    "Dufour",
    "Eriksen",
    "Fontana",
    "Gallo",
    "Horvat",
    "Ibarra",
    "Jansen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Novak",
    "Okafor",
    "Pereira",
    "Quinn",
    "Rossi",
    "Sandoval",
    "Tanaka",
    "Ueda",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zanetti",
    "Åberg",
    "Brennan",
    "Costa",
    "Dvořák",
]
HERE = Path(__file__).parent / "events"


def named(section: Section, seed: int, title: str, headers: tuple[tuple[str, str], ...]) -> Section:
    rng = random.Random(seed)
    names = [f"{last}, {first}" for first in FIRST for last in LAST]
    rng.shuffle(names)
    players = tuple(
        replace(p, name=names[i], fide_id=str(900000 + seed * 1000 + i))
        for i, p in enumerate(section.players)
    )
    return replace(section, name=title, players=players, headers=headers)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    mix = Mix(half_bye=0.05, zero_bye=0.02, full_bye=0.01, withdraw=0.01, forfeit=0.03,
              double_forfeit=0.01, short_game=0.01)  # fmt: skip
    swiss = named(
        generate(30, 7, 2026, mix),
        1,
        "Spring Open 2026",
        (("012", "Spring Open 2026"), ("022", "Springfield"), ("042", "2026/03/14"),
         ("052", "2026/03/15"), ("092", "Swiss System"), ("102", "IA Example Arbiter")),
    )  # fmt: skip
    (HERE / "spring_open_2026.trf").write_text(write_trf(swiss), encoding="utf-8")
    rr = named(
        round_robin(8, 7),
        2,
        "Club Championship 2026",
        (("012", "Club Championship 2026"), ("042", "2026/01/10"), ("092", "Round robin")),
    )
    (HERE / "club_championship_2026.trf").write_text(write_trf(rr), encoding="utf-8")


if __name__ == "__main__":
    main()

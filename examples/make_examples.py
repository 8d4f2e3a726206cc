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


CLASS_PRIZES = {  # UCC-6: 1st and 2nd of each class
    **dict.fromkeys(("X", "A", "B"), (100, 50)),
    **dict.fromkeys(("C", "D", "E"), (80, 40)),
    **dict.fromkeys(("F", "G", "H", "J/I"), (60, 30)),
}
SECTIONS: list[tuple[str, list[str], list[int | None]]] = [  # None is an unrated player
    ("X", ["X"], [2150, 2080, 2031, 2010, 2244]),
    ("A", ["A"], [1990, 1950, 1902, 1880, 1860, 1845, 1810, 1801, None]),
    ("B", ["B"], [1790, 1755, 1720, 1700, 1650, 1610]),
    ("C", ["C"], [1590, 1560, 1540, 1500, 1480, 1450, 1430, 1410]),
    ("F-G", ["F", "G"], [990, 940, 870, 760, 700, 640]),  # combined (UCC-4), own prizes (UCC-9)
]


def class_championships() -> None:
    """The example Class Championships event: sections by class, a combined section, prizes."""
    folder = HERE / "class_championships_2026"
    folder.mkdir(exist_ok=True)
    rng = random.Random(2026)
    names = [f"{last}, {first}" for first in FIRST for last in LAST]
    rng.shuffle(names)
    toml = [
        'name = "Utah Class Championships 2026 (example)"',
        "date = 2026-08-22",
        "",
        "[prizes]   # UCC-10: tied players pool and split",
        'ties = "pool"',
    ]
    sections = []
    number = 0
    for section, classes, ratings in SECTIONS:
        rows = []
        for rating in ratings:
            number += 1
            region = "UT" if number % 6 else "ID"  # some non-residents (UCC-11)
            rows.append((names[number], str(7000 + number), rating, region))
        scores = sorted((rng.randint(0, 8) / 2 for _ in rows), reverse=True)
        lines = ["rank,name,id,rating,points,region"]
        for rank, ((name, ident, rating, region), score) in enumerate(
            zip(rows, scores, strict=True), 1
        ):
            lines.append(f'{rank},"{name}",{ident},{rating or ""},{score},{region}')
        (folder / f"section_{section.lower().replace('-', '_')}.csv").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
        sections += [
            "",
            "[[sections]]",
            f'name = "{section}"',
            f'results = "section_{section.lower().replace("-", "_")}.csv"',
            f"classes = {classes!r}".replace("'", '"'),
        ]
        for klass in classes:
            first, second = CLASS_PRIZES[klass]
            toml += [
                "",
                "[[prizes.prize]]   # UCC-6, UCC-7: based on 8 paid entries of the class",
                f'name = "Class {klass} 1st"',
                f'ranking = "{section}"',
                f'us_class = "{klass}"',
                f"amount = {first}",
                "based_on = 8",
                "",
                "[[prizes.prize]]",
                f'name = "Class {klass} 2nd"',
                f'ranking = "{section}"',
                f'us_class = "{klass}"',
                f"amount = {second}",
                "based_on = 8",
            ]
            if klass == "X":
                toml.append("min_players = 4   # UCC-8: only with at least 4 Experts")
        toml += [
            "",
            "[[prizes.prize]]   # UCC-12: a Utah resident with a US Chess rating",
            f'name = "Utah {section} Class Champion"',
            f'ranking = "{section}"',
            'title = "Utah Class Champion"',
            "unrated = false",
            'require = { region = "UT" }',
        ]
    (folder / "event.toml").write_text("\n".join(toml + sections) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
    class_championships()

"""Re-create the example events in examples/events from fixed seeds (made-up players).

Run: .venv/bin/python examples/make_examples.py
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

from grandprix.model import ResultKind, Section
from grandprix.writers.trf import write_trf

# made-up events, shared with the tests
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from synthetic import Mix, generate, round_robin

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
    mix = Mix(
        half_bye=0.05,
        zero_bye=0.02,
        full_bye=0.01,
        withdraw=0.01,
        forfeit=0.03,
        double_forfeit=0.01,
        short_game=0.01,
    )
    swiss = named(
        generate(30, 7, 2026, mix),
        1,
        "Spring Open 2026",
        (
            ("012", "Spring Open 2026"),
            ("022", "Springfield"),
            ("042", "2026/03/14"),
            ("052", "2026/03/15"),
            ("092", "Swiss System"),
            ("102", "IA Example Arbiter"),
        ),
    )
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
# Sections as the director set them after the entries came in: H and J/I had fewer than six
# players each and were combined (UCC-4).
SECTIONS = [
    ("X", ["X"]),
    ("A", ["A"]),
    ("B", ["B"]),
    ("C", ["C"]),
    ("D", ["D"]),
    ("E", ["E"]),
    ("F", ["F"]),
    ("G", ["G"]),
    ("H-J/I", ["H", "J/I"]),
]
TIMES = {  # UCC-5: round times by group of sections
    "X-C": ["09:30", "12:45", "15:00", "17:15"],
    "D-F": ["10:00", "11:45", "14:00", "15:45"],
    "G-J": ["09:00", "10:15", "11:30", "12:45"],
}
CONTROL = {"X-C": ("G/60;+10", "regular"), "D-F": ("G/45;+5", "dual"), "G-J": ("G/30;+5", "dual")}
WEIGHTS = {
    "X": 1,
    "A": 0.9,
    "B": 0.8,
    "C": 0.7,
    "D": 0.6,
    "E": 0.5,
    "F": 0.4,
    "G": 0.3,
    "H-J/I": 0.2,
}
DAY = "2026-08-15"


def group(section: str) -> str:
    return "X-C" if section in "XABC" else "D-F" if section in "DEF" else "G-J"


def entries(rng: random.Random) -> list[dict[str, str]]:
    """About 120 made-up entries spread over the classes, with every special case."""
    names = [f"{last}, {first}" for first in FIRST for last in LAST]
    rng.shuffle(names)
    spread = [
        ("X", 2000, 2300, 8),
        ("A", 1800, 1999, 13),
        ("B", 1600, 1799, 14),
        ("C", 1400, 1599, 16),
        ("D", 1200, 1399, 15),
        ("E", 1000, 1199, 12),
        ("F", 800, 999, 11),
        ("G", 600, 799, 10),
        ("H", 400, 599, 4),
        ("J/I", 100, 399, 3),
    ]
    rows = []
    for _, low, high, count in spread:
        for _ in range(count):
            rows.append({"rating": str(rng.randint(low, high))})
    for grade in ["", "", "", "9", "11", "5", "3", "1", "K", "7", "2", "4", "10", ""]:
        rows.append({"rating": "", "grade": grade})  # unrated: by grade (UCC-2)
    for k, row in enumerate(rows):
        ident = str(7001 + k)
        advance = rng.random() < 0.7
        row.update(
            name=names[k],
            id=ident,
            resident="no" if k % 9 == 4 else "yes",  # non-residents (UCC-11)
            town="Salt Lake City",
            registered_on="2026-08-01" if advance else "",
            paid_on="2026-08-10" if advance else "",
        )
    # Byes (UCC-15): in time; too late; last round after round 2 began; a second one.
    rows[3]["byes"] = "2@2026-08-15T08:00"
    rows[15]["byes"] = "3@2026-08-15T14:40"
    rows[27]["byes"] = "4@2026-08-15T13:00"
    rows[40]["byes"] = "2@2026-08-15T08:00;3@2026-08-15T09:00"
    rows[52]["byes"] = "4@2026-08-15T07:30"
    rows[60]["arrived"] = "2026-08-15T09:55"  # unregistered, late: round-1 bye (UCC-14)
    rows[60]["registered_on"] = rows[60]["paid_on"] = ""
    rows[20]["section"] = "X"  # plays up on a higher unpublished rating (UCC-3)
    rows[20]["unpublished_rating"] = "2012"
    rows[-1]["section"] = "D"  # the director places an unrated adult (UCC-2)
    rows[-1]["reason"] = "strong club player, new to US Chess"
    return rows


REGISTRATION = """# An Australian weekender registered with the ACF (ACF-4 to ACF-7)
name = "Hobart Weekender 2004 (example)"
start = 2004-10-02
end = 2004-10-04
prize_fund = 1800   # class 2 (trophies are not counted)
players = 64
state = "TAS"
capital_city = true
registered_on = 2004-08-20   # after 31 December 2003, and less than three months before
results_sent_on = 2004-11-01   # 28 days after the end
"""


def class_championships() -> None:
    """The 2026 Class Championships: entries -> sections -> byes -> made-up results."""
    from grandprix.events.byes import byes_of
    from grandprix.events.config import read_event_rules
    from grandprix.events.entries import KNOWN, read_entries
    from grandprix.events.sections import place_entries

    folder = HERE / "class_championships_2026"
    (folder / "results").mkdir(parents=True, exist_ok=True)
    rng = random.Random(2026)
    rows = entries(rng)
    columns = list(KNOWN)  # every column entries.csv may have, in its order
    with (folder / "entries.csv").open("w", newline="", encoding="utf-8") as handle:
        import csv

        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({c: row.get(c, "") for c in columns} for row in rows)
    with (folder / "players.csv").open("w", newline="", encoding="utf-8") as handle:
        import csv

        plain = csv.writer(handle, lineterminator="\n")
        plain.writerow(["id", "name", "region", "member"])
        plain.writerows(
            [r["id"], r["name"], "UT" if r["resident"] == "yes" else "ID", "yes"] for r in rows
        )
    toml = [
        'name = "Utah Class Championships 2026 (example)"',
        f"date = {DAY}",
        "rounds = 4   # UCC-5",
        'supplement = "August 2026"',
        'entries = "entries.csv"',
        "",
        "[fees]   # UCC-13",
        "advance = 25",
        "on_site = 40",
        "advance_deadline = 2026-08-14T22:00:00",
        "",
        "[prizes]   # UCC-10: tied players pool and split",
        'ties = "pool"',
    ]
    sections = []
    for section, classes in SECTIONS:
        slug = section.lower().replace("-", "_").replace("/", "")
        times = ", ".join(f"{DAY}T{t}:00" for t in TIMES[group(section)])
        control, kind = CONTROL[group(section)]
        sections += [
            "",
            "[[sections]]",
            f'name = "{section}"',
            "classes = [" + ", ".join(f'"{c}"' for c in classes) + "]",
            f'results = "results/{slug}.trf"',
            f'time_control = "{control}"',
            f'rating_type = "{kind}"',
            f"round_times = [{times}]",
            'tiebreaks = "MM,SOLK,CUM"',
        ]
        for klass in classes:
            first, second = CLASS_PRIZES[klass]
            for place, amount in (("1st", first), ("2nd", second)):
                toml += [
                    "",
                    "[[prizes.prize]]   # UCC-6, UCC-7, UCC-9",
                    f'name = "Class {klass} {place}"',
                    f'ranking = "{section}"',
                    f'us_class = "{klass}"',
                    f"amount = {amount}",
                    "based_on = 8",
                ]
                if klass == "X" and place == "2nd":
                    toml.append("min_players = 4   # UCC-8: only with at least 4 Experts")
        toml += [
            "",
            "[[prizes.prize]]   # UCC-12",
            f'name = "Utah Class Champion {section}"',
            f'ranking = "{section}"',
            'title = "Utah Class Champion"',
            "unrated = false",
            'require = { region = "UT" }',
        ]
    (folder / "event.toml").write_text("\n".join(toml + sections) + "\n", encoding="utf-8")
    event, _, _ = read_event_rules(folder / "event.toml")
    placed, problems = place_entries(event, read_entries(folder / "entries.csv", event.rounds))
    assert not problems, problems
    for section, _ in SECTIONS:
        members = sorted(
            (p for p in placed if p.section == section),
            key=lambda p: (-(p.entry.rating or 0), p.entry.name),
        )
        byes = {
            no: {b.round: ResultKind(b.kind) for b in byes_of(event, p) if b.kind}
            for no, p in enumerate(members, start=1)
        }
        played = generate(len(members), 4, 500 + len(members), Mix(0, 0, 0, 0, 0, 0.02, 0, 0), byes)
        named = tuple(
            replace(pl, name=p.entry.name, fide_id=p.entry.id, rating=p.entry.rating)
            for pl, p in zip(played.players, members, strict=True)
        )
        slug = section.lower().replace("-", "_").replace("/", "")
        result = replace(
            played,
            name=section,
            players=named,
            headers=(
                ("012", f"Utah Class Championships 2026 - {section}"),
                ("042", DAY.replace("-", "/")),
                ("092", "Swiss System"),
            ),
        )
        (folder / "results" / f"{slug}.trf").write_text(write_trf(result), encoding="utf-8")
    (HERE / "hobart_weekender_2004.toml").write_text(REGISTRATION, encoding="utf-8")
    season = HERE.parent / "utah-2026"
    planned = (("Utah Open", "2026-12-12"), ("New Year's Eve Blitz", "2026-12-31"))
    season.mkdir(exist_ok=True)
    lines = [
        'name = "Utah Chess Grand Prix 2026 (example, one event so far)"',
        "start = 2026-01-01",
        "end = 2026-12-31",
        'rules = "utah-2012"',
        "# The event's own folder holds its results; the season may read them from there.",
        'shared_folders = ["../events/class_championships_2026/results"]',
        "",
        "[[events]]",
        'name = "Utah Class Championships"',
        f"date = {DAY}",
    ]
    for section, _ in SECTIONS:  # UCC-16, UT-7: every section earns, at its own rate
        slug = section.lower().replace("-", "_").replace("/", "")
        lines += [
            "",
            "[[events.sections]]",
            f'name = "{section}"',
            f'results = "../events/class_championships_2026/results/{slug}.trf"',
            f"weight = {WEIGHTS[section]}",
        ]
    for name, day in planned:  # still to come: the site shows who can still win (the race)
        lines += ["", "[[events]]", f'name = "{name}"', f"date = {day}", "planned = true"]
    (season / "season.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (season / "players.csv").write_text((folder / "players.csv").read_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
    class_championships()

"""Re-create the example seasons (made-up players) from fixed seeds.

Each season exercises the special cases of its rule book; the comments say which.
Run: .venv/bin/python examples/make_seasons.py
"""

from __future__ import annotations

import csv
import random
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from grandprix.model import Player, ResultKind, Round, Section
from grandprix.scores import show
from grandprix.writers.trf import write_trf

# made-up events, shared with the tests
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from synthetic import Mix, generate, round_robin

HERE = Path(__file__).parent
FIRST = [
    "Aiden",
    "Bella",
    "Caleb",
    "Dana",
    "Eli",
    "Fiona",
    "Gabe",
    "Hana",
    "Ivan",
    "Jade",
    "Kyle",
    "Lara",
    "Milo",
    "Nina",
    "Owen",
    "Pia",
    "Quinn",
    "Ravi",
    "Sara",
    "Theo",
    "Uma",
    "Vik",
    "Wren",
    "Xavi",
    "Yara",
    "Zed",
    "Alma",
    "Boris",
    "Cora",
    "Dmitri",
    "Esme",
    "Finn",
    "Gwen",
    "Hugo",
]
LAST = [
    "Archer",
    "Barnes",
    "Chen",
    "Dalton",
    "Ellis",
    "Ford",
    "Garcia",
    "Hayes",
    "Iverson",
    "Jensen",
    "Kerr",
    "Lopez",
    "Moss",
    "Nguyen",
    "Ortiz",
    "Price",
    "Quill",
    "Reyes",
    "Stone",
    "Tran",
    "Underwood",
    "Vance",
    "Walsh",
    "Young",
    "Zimmer",
    "Abbey",
    "Baird",
    "Cole",
]


def people(seed: int, count: int, first_id: int) -> list[tuple[str, str]]:
    """(id, 'Surname, Given') for ``count`` made-up players."""
    rng = random.Random(seed)
    names = sorted({f"{rng.choice(LAST)}, {rng.choice(FIRST)}" for _ in range(count * 3)})
    rng.shuffle(names)
    return [(str(first_id + i), names[i]) for i in range(count)]


def write_csv(path: Path, rows: list[tuple[str, str, Fraction]], ranks: bool = True) -> None:
    """A standings CSV: rows of (id, name, points), best first; equal points share a rank."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["rank", "name", "id", "points"] if ranks else ["name", "id", "points"])
        for ident, name, points in rows:
            first = next(i for i, r in enumerate(rows, start=1) if r[2] == points)
            last = max(i for i, r in enumerate(rows, start=1) if r[2] == points)
            rank = str(first) if first == last else f"{first}-{last}"
            cells = [name, ident, show(points)]
            writer.writerow([rank, *cells] if ranks else cells)


def swiss(path: Path, players: list[tuple[str, str]], rounds: int, seed: int, title: str) -> None:
    """A generated Swiss with these players (ids in the FIDE id column)."""
    section = generate(len(players), rounds, seed, Mix(withdraw=0.0))
    renamed = tuple(
        replace(p, name=players[i][1], fide_id=players[i][0]) for i, p in enumerate(section.players)
    )
    headers = (("012", title), ("092", "Swiss System"))
    path.write_text(write_trf(replace(section, players=renamed, headers=headers)), encoding="utf-8")


def ladder(path: Path, players: list[tuple[str, str]], title: str) -> None:
    """A round robin in which every player beats everyone listed after them: the list's order."""
    count = len(players)
    rounds: dict[int, list[Round]] = {i: [] for i in range(1, count + 1)}
    numbers = list(range(1, count + 1)) + ([0] if count % 2 else [])
    size = len(numbers)
    for r in range(size - 1):
        turn = [numbers[0], *numbers[1:][-r:], *numbers[1:][:-r]] if r else numbers
        for i in range(size // 2):
            a, b = turn[i], turn[size - 1 - i]
            if 0 in (a, b):
                lone = a or b
                rounds[lone].append(Round(r + 1, ResultKind.ZERO_BYE, Fraction(0)))
                continue
            white, black = (a, b) if (r + i) % 2 else (b, a)
            for me, other, colour in ((white, black, "w"), (black, white, "b")):
                kind = ResultKind.WIN if me < other else ResultKind.LOSS
                rounds[me].append(Round(r + 1, kind, Fraction(int(me < other)), other, colour))
    section = Section(
        name=title,
        players=tuple(
            Player(
                start_no=no,
                name=players[no - 1][1],
                fide_id=players[no - 1][0],
                rounds=tuple(rounds[no]),
                declared_points=sum((x.points for x in rounds[no]), Fraction(0)),
            )
            for no in rounds
        ),
        rounds=size - 1,
        round_robin=True,
        headers=(("012", title), ("092", "Round robin")),
    )
    path.write_text(write_trf(section), encoding="utf-8")


def rating_list(path: Path, rows: list[tuple[str, str, int]]) -> None:
    """A rating list as CSV: id, name, rating."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "name", "rating"])
        writer.writerows(rows)


def players_csv(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def scores(*values: str) -> list[Fraction]:
    return [Fraction(v) for v in values]


def utah() -> None:
    """UT-1 eligibility (non-residents and non-members skipped, D-UT-1), UT-3 table, UT-4/UT-5
    ties (6-8 -> 4.67, 6-7 -> 5, 5-7 -> 6, 7-8 alone -> 0), UT-6 rate 1.5, UT-7 section rates,
    D-UT-2 only the first section when no weights."""
    folder = HERE / "utah-2012"
    folder.mkdir(exist_ok=True)
    everyone = people(2012, 34, 1201)
    region = {ident: "UT" for ident, _ in everyone}
    member = {ident: "yes" for ident, _ in everyone}
    for ident, _ in everyone[:3]:
        region[ident] = "NV"  # non-residents: they play, they earn nothing, others move up
    member[everyone[3][0]] = "no"  # resident, but not a US Chess member
    players_csv(
        folder / "players.csv",
        [
            {"id": i, "name": n, "region": region[i], "member": member[i], "federation": "USA"}
            for i, n in everyone
        ],
    )
    top, rest = everyone[:4], everyone[4:]

    def event(name: str, pts: list[Fraction], field: list[tuple[str, str]]) -> None:
        write_csv(folder / name, [(i, n, p) for (i, n), p in zip(field, pts, strict=True)])

    # January: a non-resident wins; among the eligible, 6th-8th tie: 14/3 each (UT-5).
    event(
        "winter_quick.csv",
        scores("5.5", "5", "4.5", "4", "3.5", "3.5", "3", "3", "3", "2", "1"),
        [top[0], *rest[:10]],
    )
    swiss(folder / "provo_open.trf", [top[1], top[3], *rest[2:16]], 5, 12, "Provo Open 2012")
    swiss(folder / "utah_open.trf", everyone[:20], 6, 13, "Utah Open 2012")
    # Class Championships: every section earns at its own rate (UT-7, UCC-16).
    event("class_x.csv", scores("3.5", "3", "2.5", "2", "1.5", "1", "0.5"), rest[0:7])
    event("class_a.csv", scores("4", "3", "3", "2", "2", "1", "1"), rest[7:14])
    event("class_b.csv", scores("3.5", "3.5", "2.5", "2", "1.5", "1", "0"), rest[14:21])
    # Ogden: two sections listed without weights: only the first (Open) earns (D-UT-2).
    swiss(folder / "ogden_open.trf", rest[0:12], 4, 14, "Ogden Fall Open")
    event("ogden_reserve.csv", scores("4", "3", "2", "1"), rest[20:24])
    # State Championship at 1.5 (UT-6): a tie for 5th-7th, each (8+6+4)/3 = 6 (UT-5).
    state = scores("5", "4.5", "4", "3.5", "3", "3", "3", "2.5", "2", "1")
    event("state_championship.csv", state, [top[2], *rest[1:10]])
    # December: a tie for 6th-7th, each (6+4)/2 = 5 (UT-5).
    event(
        "december_quick.csv",
        scores("5", "4.5", "4", "3.5", "3", "2.5", "2.5", "2", "1"),
        rest[3:12],
    )
    # New Year's Eve: 7th-8th tie below the table: nothing (UT-5).
    event("new_year_blitz.csv", scores("7", "6", "5", "4.5", "4", "3.5", "3", "3", "2"), rest[5:14])
    (folder / "season.toml").write_text(UTAH_TOML, encoding="utf-8")


UTAH_TOML = """# Example season (made-up players) for the utah-2012 preset.
name = "Utah Chess Grand Prix 2012 (example)"
start = 2012-01-01
end = 2012-12-31

[rules]
preset = "utah-2012"

[rules.prizes]   # UT-8: the association posts its own prize structure; this one is made up
ties = "pool"
currency = "$"

[[rules.prizes.prize]]
name = "1st"
amount = 300

[[rules.prizes.prize]]
name = "2nd"
amount = 200

[[rules.prizes.prize]]
name = "3rd"
amount = 100

[[events]]
name = "Salt Lake Winter Quick"
date = 2012-01-21
results = "winter_quick.csv"

[[events]]
name = "Provo Open"
date = 2012-03-17
place = "Provo, Utah"
results = "provo_open.trf"

[[events]]
name = "Utah Open"
date = 2012-05-12
place = "Salt Lake City, Utah"
results = "utah_open.trf"
weight = 1.5   # UT-6

[[events]]
name = "Utah Class Championships"
date = 2012-08-25

[[events.sections]]   # UT-7: every section earns, lower sections at lower rates
name = "Class X"
results = "class_x.csv"
weight = 1

[[events.sections]]
name = "Class A"
results = "class_a.csv"
weight = 0.75

[[events.sections]]
name = "Class B"
results = "class_b.csv"
weight = 0.5

[[events]]
name = "Ogden Fall Swiss"
date = 2012-09-29

[[events.sections]]   # D-UT-2: no weights, so only the first section earns
name = "Open"
results = "ogden_open.trf"

[[events.sections]]
name = "Reserve"
results = "ogden_reserve.csv"

[[events]]
name = "Utah State Championship"
date = 2012-10-20
results = "state_championship.csv"
weight = 1.5   # UT-6

[[events]]
name = "December Quick"
date = 2012-12-08
results = "december_quick.csv"

[[events]]
name = "New Year's Eve Blitz"
date = 2012-12-31
results = "new_year_blitz.csv"
"""


def acf() -> None:
    """ACF-6/13.1 tables by prize fund (classes 1, 2, 3), D-ACF-1 shared ties, ACF-14 best 5
    of up to 7 per division; ACF-11 ratings from a national December list, else the FIDE
    January list; ACF-12 FIDE-only and unrated players; ACF-1 juniors (one born on 1 January
    1986: 18 on the day, not a junior); women; ACF-13.2 a section played as Under 1600; ACF-13.3
    Junior, Women and Unrated points cascading down the sections."""
    folder = HERE / "acf-2004"
    (folder / "lists").mkdir(parents=True, exist_ok=True)
    everyone = people(2004, 24, 3100001)
    rng = random.Random(4)
    states = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "ACT", "NT"]
    national: dict[str, int] = {}
    fide: dict[str, int] = {}
    for k, (ident, _) in enumerate(everyone):
        if k < 6:
            national[ident] = rng.randint(1700, 2300)
        elif k < 14:
            national[ident] = rng.randint(1200, 1999)
        elif k < 16:
            fide[ident] = 2050 + 100 * (k - 14)  # FIDE only, 2000+: Open only (ACF-12)
        elif k < 18:
            fide[ident] = 1750 + 100 * (k - 16)  # FIDE only, under 2000: Under 2000 only
        if k in (0, 7):
            fide[ident] = national[ident] + 40  # on both lists: the national one counts (ACF-11)
    births = {3: "1988-05-02", 8: "1990-11-30", 10: "1986-01-01", 11: "1986-01-02", 19: "1989"}
    players_csv(
        folder / "players.csv",
        [
            {
                "id": i,
                "name": n,
                "fide_id": str(9_100_000 + k) if i in fide else "",
                "region": states[k % 8],
                "sex": "w" if k % 3 == 0 else "m",
                "birth_date": births.get(k, f"{1950 + k}-06-15"),
            }
            for k, (i, n) in enumerate(everyone)
        ],
    )
    names = dict(everyone)
    fide_ids = {i: str(9_100_000 + k) for k, (i, _) in enumerate(everyone)}
    rating_list(
        folder / "lists" / "acf_2003_12.csv", [(i, names[i], r) for i, r in national.items()]
    )
    rating_list(
        folder / "lists" / "fide_2004_01.csv", [(fide_ids[i], names[i], r) for i, r in fide.items()]
    )
    plan = [
        ("canberra_cup.trf", 6, "Canberra Cup"),
        ("sydney_open.csv", 0, "Sydney Open"),
        ("melbourne_classic.trf", 7, "Melbourne Classic"),
        ("brisbane_open.csv", 0, "Brisbane Open"),
        ("adelaide_major.trf", 5, "Adelaide Major"),
        ("hobart_weekender.csv", 0, "Hobart Weekender"),
        ("perth_open.trf", 6, "Perth Open"),
    ]
    core = everyone[:6]  # play every event: best 5 of 7 count
    minor = [p for p in everyone[6:14] if national[p[0]] < 1600]
    for k, (name, rounds, title) in enumerate(plan):
        pool = [p for p in everyone[6:] if name != "sydney_open.csv" or p not in minor]
        field = core + rng.sample(pool, 10)
        rng.shuffle(field)
        if rounds:
            swiss(folder / name, field, rounds, 40 + k, title)
        else:
            # Shared places: 2nd-3rd and 5th-6th tie; (15 + 12) / 2 etc. (D-ACF-1)
            pts = scores(
                "6",
                "5.5",
                "5.5",
                "5",
                "4.5",
                "4.5",
                "4",
                "3.5",
                "3",
                "3",
                "2.5",
                "2",
                "2",
                "1.5",
                "1",
                "0.5",
            )
            write_csv(folder / name, [(i, n, p) for (i, n), p in zip(field, pts, strict=True)])
    write_csv(
        folder / "sydney_under_1600.csv",
        [(i, n, Fraction(len(minor) - k)) for k, (i, n) in enumerate(minor)],
    )
    (folder / "season.toml").write_text(ACF_TOML, encoding="utf-8")


ACF_TOML = """# Example season (made-up players) for the acf-2004 preset.
name = "ACF Grand Prix 2004 (example)"
start = 2004-01-01
end = 2004-12-31
rules = "acf-2004"

[[rating_lists]]   # ACF-11: the ACF list of the December before the Grand Prix year
file = "lists/acf_2003_12.csv"
kind = "national"
date = 2003-12-01

[[rating_lists]]   # ... else the FIDE list of January
file = "lists/fide_2004_01.csv"
kind = "fide-standard"
date = 2004-01-01

[[events]]
name = "Canberra Cup"
date = 2004-03-08
results = "canberra_cup.trf"
prize_fund = 1200   # class 1 (ACF-6): 12 9 6 4 3

[[events]]
name = "Sydney Open"
date = 2004-04-12
prize_fund = 4000   # class 3: 20 15 12 9 6

[[events.sections]]   # only the first section earns Open points
name = "Open"
results = "sydney_open.csv"

[[events.sections]]   # ACF-13.2: played as the Under 1600 division
name = "Under 1600"
results = "sydney_under_1600.csv"

[[events]]
name = "Melbourne Classic"
date = 2004-06-14
results = "melbourne_classic.trf"
prize_fund = 2000   # class 2: 16 12 9 6 4

[[events]]
name = "Brisbane Open"
date = 2004-07-05
results = "brisbane_open.csv"
prize_fund = 2500   # exactly 2500 is class 3

[[events]]
name = "Adelaide Major"
date = 2004-08-16
results = "adelaide_major.trf"
prize_fund = 1499   # just under 1500: class 1

[[events]]
name = "Hobart Weekender"
date = 2004-10-04
results = "hobart_weekender.csv"
prize_fund = 1500   # class 2

[[events]]
name = "Perth Open"
date = 2004-11-29
results = "perth_open.trf"
prize_fund = 3000   # class 3
"""


def lupiae() -> None:
    """LUP-1 table and minimum 1, LUP-2 places by the official order or tie-breaks, LUP-3 best
    ceil(70% of 8) = 6 plus 2 per event, LUP-6 chain: discarded, best, last event."""
    folder = HERE / "lupiae-2012-13"
    (folder / "lists").mkdir(parents=True, exist_ok=True)
    everyone = people(1213, 26, 5001)
    # LUP-5: the band is the one held on the date of the last event; two lists of the FSI
    # rapid ratings, and some players change band between them.
    band = random.Random(5)
    autumn = {i: band.randint(1250, 2050) for i, _ in everyone}
    spring = {i: r + band.choice([-60, -20, 0, 20, 60]) for i, r in autumn.items()}
    spring[everyone[0][0]], autumn[everyone[0][0]] = 1810, 1790  # E in autumn, D in spring
    names = dict(everyone)
    rating_list(
        folder / "lists" / "rapid_2012_09.csv", [(i, names[i], r) for i, r in autumn.items()]
    )
    rating_list(
        folder / "lists" / "rapid_2013_04.csv", [(i, names[i], r) for i, r in spring.items()]
    )
    players_csv(
        folder / "players.csv",
        [
            {
                "id": i,
                "name": n,
                "birth_date": "1998-03-01" if k % 7 == 3 else f"{1960 + k}-01-20",
                "attended": "no" if k == 2 else "yes",  # LUP-7: C missed the ceremony
            }
            for k, (i, n) in enumerate(everyone)
        ],
    )
    crafted = dict(zip(["A", "B", "C", "D", "E", "F"], everyone[:6], strict=True))
    others = everyone[6:]
    # Places of the crafted players in events 1-8 (see the docstring of tests/test_examples.py):
    # A and B equal on points, A ahead on discarded points; C and D equal on points and
    # discarded, D ahead on the best single result; E and F equal on all that, E ahead in the
    # last event.
    places = {
        "A": [1, 2, 1, 2, 3, 3, 10, 12],
        "B": [2, 1, 2, 1, 15, 16, 3, 3],
        "C": [4, 4, 4, 4, 5, 5, 9, 9],
        "D": [6, 6, 6, 7, 1, 7, 8, 10],
        "E": [11, 12, 11, 12, 13, 14, 14, 13],
        "F": [12, 11, 12, 11, 14, 13, 13, 14],
    }
    rng = random.Random(13)
    for k in range(8):
        size = 20
        order: list[tuple[str, str] | None] = [None] * size
        for who, spots in places.items():
            order[spots[k] - 1] = crafted[who]
        fill = rng.sample(others, size - 6)
        order = [p if p is not None else fill.pop() for p in order]
        seated = [p for p in order if p is not None]
        if k < 6:
            pts = [Fraction(size - i, 2) for i in range(size)]  # distinct scores, official order
            write_csv(
                folder / f"prova_{k + 1}.csv",
                [(i, n, p) for (i, n), p in zip(seated, pts, strict=True)],
            )
        else:
            ladder(folder / f"prova_{k + 1}.trf", seated, f"Semilampo Lupiae prova {k + 1}")
    (folder / "season.toml").write_text(LUPIAE_TOML, encoding="utf-8")


LUPIAE_TOML = "\n".join(
    [
        "# Example season (made-up players) for the lupiae-2012-13 preset.",
        'name = "Gran Prix Semilampo Lupiae 2012-13 (esempio)"',
        'language = "it"  # the pages speak Italian, as the series does',
        "start = 2012-09-01",
        "end = 2013-06-30",
        'rules = "lupiae-2012-13"',
        "",
        "[[rating_lists]]",
        'file = "lists/rapid_2012_09.csv"',
        'kind = "national-rapid"',
        "date = 2012-09-01",
        "",
        "[[rating_lists]]   # in force on the date of the last event (LUP-5)",
        'file = "lists/rapid_2013_04.csv"',
        'kind = "national-rapid"',
        "date = 2013-04-01",
        "",
    ]
    + [
        f'[[events]]\nname = "Prova {k}"\ndate = {d}\nresults = "prova_{k}.{ext}"\n'
        for k, d, ext in [
            (1, "2012-09-22", "csv"),
            (2, "2012-10-20", "csv"),
            (3, "2012-11-17", "csv"),
            (4, "2012-12-15", "csv"),
            (5, "2013-01-19", "csv"),
            (6, "2013-02-16", "csv"),
            (7, "2013-03-16", "trf"),
            (8, "2013-04-20", "trf"),
        ]
    ]
)


def circuit() -> None:
    """Keshmat 2026 (keshmat-2026): KW-3 percentile bands in four rapid Swisses and a classical
    open, KW-2 group tables in two round-robin groups of six, KW-4/KW-8 places above the seed by
    rating with its caps, KW-5 every round played (a forfeit lost costs it), KW-6 a player who
    plays fewer than half the rounds (not paired in four of seven) earns nothing and keeps the
    place, KW-7 best three rapid and best three classical (regulars play four rapid events)."""
    folder = HERE / "circuit-2026"
    folder.mkdir(exist_ok=True)
    everyone = people(2026, 40, 2601)
    rng = random.Random(2026)
    rating = {ident: rng.randint(1350, 2350) for ident, _ in everyone}

    def seeded(field: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return sorted(field, key=lambda p: (-rating[p[0]], p[1]))

    def write(path: Path, section: Section, field: list[tuple[str, str]], title: str) -> None:
        field = seeded(field)
        renamed = tuple(
            replace(
                p,
                name=field[i][1],
                fide_id=field[i][0],
                rating=rating[field[i][0]],
                federation="LBN",
            )
            for i, p in enumerate(section.players)
        )
        kind = "Round robin" if section.round_robin else "Swiss System"
        headers = (("012", title), ("092", kind))
        section = replace(section, name=title, players=renamed, headers=headers)
        path.write_text(write_trf(section), encoding="utf-8")

    def rapid(
        name: str,
        field: list[tuple[str, str]],
        seed: int,
        byes: dict[int, dict[int, ResultKind]] | None = None,
    ) -> None:
        section = generate(len(field), 7, seed, Mix(withdraw=0.0, forfeit=0.02), byes)
        write(folder / name, section, field, name.removesuffix(".trf").replace("_", " ").title())

    regulars, others = everyone[:14], everyone[14:]
    # January: the 20th seed is not paired in rounds 1-4 and plays three of seven (KW-6).
    z = ResultKind.ZERO_BYE
    rapid("january_rapid.trf", regulars + others[:10], 261, {20: {r: z for r in range(1, 5)}})
    rapid("february_rapid.trf", regulars + others[6:16], 262)
    rapid("march_rapid.trf", regulars + others[12:20], 263)
    rapid("april_rapid.trf", regulars + others[4:12] + others[20:24], 264)
    group_a, group_b = seeded(everyone[:12])[:6], seeded(everyone[:12])[6:]
    write(folder / "group_a.trf", round_robin(6, 2601), group_a, "Winter Classical Group A")
    write(folder / "group_b.trf", round_robin(6, 2602), group_b, "Winter Classical Group B")
    # The open: forfeits happen (Mix), and a player who loses one misses the 5 points (KW-5).
    section = generate(30, 7, 265, Mix(withdraw=0.0, forfeit=0.05))
    write(folder / "classical_open.trf", section, everyone[6:36], "Spring Classical Open")
    (folder / "season.toml").write_text(CIRCUIT_TOML, encoding="utf-8")


CIRCUIT_TOML = """# Example season (made-up players) for the keshmat-2026 preset.
name = "Keshmat Circuit 2026 (example)"
start = 2026-01-01
end = 2026-12-31
rules = "keshmat-2026"

[[events]]
name = "January Rapid"
date = 2026-01-17
category = "rapid"
results = "january_rapid.trf"
tiebreaks = "BH/C1,BH,SB"   # KW-1: places after the event's tie-breaks

[[events]]
name = "February Rapid"
date = 2026-02-14
category = "rapid"
results = "february_rapid.trf"
tiebreaks = "BH/C1,BH,SB"

[[events]]
name = "Winter Classical Group A"
date = 2026-02-28
category = "classical/group-a"   # the group's own table (KW-2)
results = "group_a.trf"
tiebreaks = "SB,WIN"

[[events]]
name = "Winter Classical Group B"
date = 2026-02-28
category = "classical/group-b"
results = "group_b.trf"
tiebreaks = "SB,WIN"

[[events]]
name = "March Rapid"
date = 2026-03-21
category = "rapid"
results = "march_rapid.trf"
tiebreaks = "BH/C1,BH,SB"

[[events]]
name = "Spring Classical Open"
date = 2026-04-11
category = "classical/open"
results = "classical_open.trf"
tiebreaks = "BH/C1,BH,SB"

[[events]]
name = "April Rapid"
date = 2026-04-25
category = "rapid"
results = "april_rapid.trf"
tiebreaks = "BH/C1,BH,SB"
"""


if __name__ == "__main__":
    utah()
    acf()
    lupiae()
    circuit()

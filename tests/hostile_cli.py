"""Hostile inputs at the command line, the terminal, the site writer and money: cases in the
form of ``hostile.py`` (each run by ``hostile.run_case``: exit code, no traceback, a located
message, nothing read from outside, nothing stored changed but the outputs asked for).

Classes as in ``hostile.py``: 1 numbers (money in any currency), 3 huge inputs (a path of
100,000 characters), 4 silent acceptance (an empty ``require``, a results file without
players), 6 files lost (export over the event's own files or through a link, a site into a
link), 10 the ratings command (another program's database, a damaged store, look-ups that find
nothing), and 11 text that would drive the terminal.
"""

from __future__ import annotations

import random
import sqlite3
import tempfile
from pathlib import Path

from hostile import (
    Case,
    Env,
    Harness,
    Loc,
    Run,
    Setup,
    chain,
    command,
    edit,
    expect_text,
    invoke,
    nothing,
    symlink,
    write,
)

SEASON_TOML = "season.toml"
UTAH_NAME = 'name = "Utah Chess Grand Prix 2012 (example)"'
# TOML escapes: a window title (OSC 0 ended by BEL), a hyperlink (OSC 8 ended by ST), C1's
# CSI, a right-to-left override and an isolate.
TITLE = r"\u001b]0;pwned\u0007"
LINK = r"\u001b]8;;http://evil.example/\u001b\\click\u001b]8;;\u001b\\"
TERMINAL = r"[\x1b\x07\x9b\u202e\u2066]"  # none of these may reach the output
STORE = "{root}/store.sqlite"
LIST_CSV = 'id,name,rating\n100,"Alpha, Ann",2000\n101,"Beta, Bob",1900\n'


def sqlite_of_another_program() -> bytes:
    """The bytes of an SQLite database with a table of its own."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "app.sqlite"
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        db.execute("INSERT INTO invoices VALUES (1, 9.5)")
        db.commit()
        db.close()
        return path.read_bytes()


def store(damage: int | None = None) -> Setup:
    """A store at ``{root}/store.sqlite`` holding a list of 20,000 players, made with the
    command line; with ``damage``, its bytes from that offset on overwritten at random."""

    def run(env: Env) -> None:
        rows = "".join(f'{i},"P, {i}",{1000 + i % 900}\n' for i in range(100, 20_100))
        source = env.lists / "big.csv"
        source.write_text("id,name,rating\n" + rows, encoding="utf-8")
        target = env.root / "store.sqlite"
        result = invoke(
            [
                "ratings",
                "import",
                str(source),
                "--kind",
                "fide-standard",
                "--date",
                "2025-01-01",
                "--store",
                str(target),
            ],
            env.cwd,
        )
        assert result.code == 0, f"test setup: import failed: {result.stderr}"
        if damage is not None:
            data = target.read_bytes()
            start = damage if damage >= 0 else len(data) // 2
            target.write_bytes(data[:start] + random.Random(5).randbytes(len(data) - start))

    return run


def stale_removed(h: Harness) -> None:
    """The killed run's work folder is gone, and the site is there."""
    assert not (h.env.root / ".out.999999999.abcd1234.tmp").exists(), "the stale folder stays"
    expect_text(r"wrote \d+ pages")(h)


def unchanged_link(h: Harness) -> None:
    """The output link is still a link after the refused run."""
    assert (h.env.out).is_symlink(), "the link given as -o was replaced"


CASES: list[Case] = []
add = CASES.append
# fmt: off

# ---- 1. Money in any currency ----------------------------------------------------------------
add(command("prize-5-4-billion-pounds", 1, "utah",
            chain(edit(SEASON_TOML, "amount = 300", "amount = 5400000000"),
                  edit(SEASON_TOML, 'currency = "$"', 'currency = "LBP"')),
            ("prizes", "{season}"), 0, phrase=r"5400000000\.00"))
add(command("prize-fund-5-4-billion", 1, "acf",
            edit(SEASON_TOML, "prize_fund = 1200", "prize_fund = 5400000000"),
            ("check", "{season}"), 0, phrase=r"^0 error"))
add(command("prize-with-cents-kept-exact", 1, "utah",
            edit(SEASON_TOML, "amount = 300", "amount = 999999999999999.99"),
            ("prizes", "{season}", "--format", "csv"), 0, phrase=r",999999999999999\.99,",
            note="a TOML float keeps its digits: as a float it would be 1,000,000,000,000,000"))
add(command("event-fee-5-4-billion", 1, "event", edit("event.toml", "advance = 25",
                                                      "advance = 5400000000"),
            ("fees", "{event}"), 0, phrase="5400000000"))
add(command("register-prize-fund-in-rials", 1, "register",
            edit("event.toml", "prize_fund = 1800", "prize_fund = 2500000000000"),
            ("register", "{event}", "--format", "json"), 0, phrase='"class"'))
add(command("prize-amount-above-1e15", 1, "utah",
            edit(SEASON_TOML, "amount = 300", "amount = 2000000000000000"),
            ("standings", "{season}"), 2,
            Loc(SEASON_TOML, find="amount = 2000000000000000"), r"1,000,000,000,000,000"))

# ---- 3. Huge inputs ------------------------------------------------------------------------
for cid, argv in [
    ("season-path-100000-characters", ("standings", "{root}/" + "a" * 100_000)),
    ("check-path-100000-characters", ("check", "{root}/" + "a/" * 50_000)),
    ("explain-path-300-characters", ("explain", "{root}/" + "a" * 300, "x")),
    ("event-path-100000-characters", ("event", "{root}/" + "c" * 100_000 + ".csv")),
]:
    add(command(cid, 3, "utah", nothing, argv, 2, phrase="too long", max_chars=2000))
add(command("site-output-100000-characters", 3, "acf", nothing,
            ("site", "{season}", "-o", "{root}/" + "b" * 100_000), 2, phrase="too long",
            max_chars=2000))

# ---- 4. Silent acceptance now caught ---------------------------------------------------------
add(command("require-empty-clears-the-presets", 4, "utah",
            edit(SEASON_TOML, "[rules.prizes]", "[rules.eligibility]\nrequire = {}\n\n"
                                                "[rules.prizes]"),
            ("standings", "{season}", "--format", "csv"), 0, phrase="Nguyen, Nina",
            note="Nguyen (NV) is not eligible under the preset's require (UT-1)"))
add(command("prizes-require-empty-clears-the-presets", 4, "lupiae",
            chain(edit("players.csv", "1961-01-20,yes", "1961-01-20,no"),
                  edit(SEASON_TOML, 'rules = "lupiae-2012-13"',
                       '[rules]\npreset = "lupiae-2012-13"\n[rules.prizes]\nrequire = {}')),
            ("prizes", "{season}"), 0, phrase=r"Assoluto 2 +Kerr, Fiona",
            note="LUP-7's require (attended = yes) cleared: Kerr, who did not attend, is paid"))
add(command("event-header-without-players", 4, "utah", write("h.csv", "rank,name,id,points\n"),
            ("event", "{season}/h.csv"), 0, Loc("h.csv", 1), "no players below the header",
            stream="err", warning=True))
add(command("event-header-and-blank-lines-without-players", 4, "utah",
            write("h.csv", "\ufeffrank;name;id;points\r\n\r\n\r\n"),
            ("event", "{season}/h.csv", "--format", "json"), 0, Loc("h.csv", 1),
            "no players below the header on line 1", stream="err", warning=True))

# ---- 6. Files lost ---------------------------------------------------------------------------
add(command("export-force-into-the-events-results", 6, "event", nothing,
            ("export", "{event}", "-o", "{root}/a/b/event/results", "--force"), 2,
            Loc("x.trf"), "a file the event reads"))
add(command("export-force-through-a-symlink", 6, "event",
            chain(write("/root/mine.txt", "my notes\n"), symlink("/root/out/x.trf",
                                                                 "/root/mine.txt")),
            ("export", "{event}", "-o", "{out}", "--force"), 2, Loc("x.trf"), "symbolic link"))
add(command("export-force-into-a-link-to-the-results", 6, "event",
            symlink("/root/out", "/root/a/b/event/results"),
            ("export", "{event}", "-o", "{out}", "--force"), 2, Loc("x.trf"),
            "a file the event reads"))
add(command("site-into-a-symlink", 6, "acf",
            chain(write("/root/real/keep.txt", "mine\n"), symlink("/root/out", "/root/real")),
            ("site", "{season}", "-o", "{out}"), 2, Loc("out"), "symbolic link",
            custom=unchanged_link))
add(command("site-into-a-symlink-to-an-empty-folder", 6, "acf",
            chain(write("/root/real/.keep", ""), symlink("/root/out", "/root/real")),
            ("site", "{season}", "-o", "{out}"), 2, Loc("out"), "symbolic link",
            custom=unchanged_link))

# ---- 10. The ratings command -----------------------------------------------------------------
add(command("import-into-another-programs-database", 10, "lists",
            chain(write("list.csv", LIST_CSV), write("/root/app.sqlite",
                                                     sqlite_of_another_program)),
            ("ratings", "import", "{lists}/list.csv", "--kind", "fide-standard", "--date",
             "2025-01-01", "--store", "{root}/app.sqlite"), 2, Loc("app.sqlite"),
            "another program"))
add(command("remove-from-another-programs-database", 10, "lists",
            write("/root/app.sqlite", sqlite_of_another_program),
            ("ratings", "remove", "--kind", "fide-standard", "--date", "2025-01-01",
             "--store", "{root}/app.sqlite"), 2, Loc("app.sqlite"), "another program"))
for cid, argv in [
    ("show", ("show", "19000", "--kind", "fide-standard", "--on", "2025-02-01")),
    ("lists", ("lists",)),
    ("remove", ("remove", "--kind", "fide-standard", "--date", "2025-01-01")),
]:
    add(command(f"damaged-store-{cid}", 10, "lists", store(damage=-1),
                ("ratings", *argv, "--store", STORE), 2, Loc("store.sqlite"),
                r"damaged|cannot be used"))
add(command("random-bytes-store-show", 10, "lists",
            write("/root/store.sqlite", random.Random(9).randbytes(60_000)),
            ("ratings", "show", "100", "--kind", "fide-standard", "--on", "2025-02-01",
             "--store", STORE), 2, Loc("store.sqlite"), "damaged"))
add(command("show-player-not-on-the-list", 10, "lists", store(),
            ("ratings", "show", "99", "--kind", "fide-standard", "--on", "2025-02-01",
             "--store", STORE), 1, phrase="99: no rating on the fide-standard list",
            stdout_empty=True))
add(command("show-no-list-in-force", 10, "lists", store(),
            ("ratings", "show", "100", "--kind", "fide-standard", "--on", "2024-02-01",
             "--store", STORE), 2, Loc("store.sqlite"), "no fide-standard list in force"))
add(command("remove-a-list-not-there", 10, "lists", store(),
            ("ratings", "remove", "--kind", "fide-rapid", "--date", "2025-01-01",
             "--store", STORE), 2, Loc("store.sqlite"), "no fide-rapid list dated"))
add(command("store-in-a-missing-folder", 10, "lists", write("list.csv", LIST_CSV),
            ("ratings", "import", "{lists}/list.csv", "--kind", "fide-standard", "--date",
             "2025-01-01", "--store", "{root}/nowhere/store.sqlite"), 2, Loc("store.sqlite"),
            "does not exist"))

# ---- 11. Text that would drive the terminal ---------------------------------------------------
HOSTILE_SEASON = chain(
    edit(SEASON_TOML, UTAH_NAME, f'name = "Utah {TITLE} {LINK} \\u009b2J \\u202eevil\\u2066"'),
    edit(SEASON_TOML, 'name = "Provo Open"', f'name = "Provo {TITLE}Open"'),
)
for cid, argv, shown in [
    ("standings", ("standings", "{season}"), r"\\x1b\]0;pwned\\x07"),
    ("explain", ("explain", "{season}", "1214"), r"Provo \\x1b\]0;pwned\\x07Open"),
    ("prizes", ("prizes", "{season}"), r"\\x1b\]0;pwned\\x07"),
    ("players", ("players", "{season}"), r"^28 players"),
    ("check", ("check", "{season}"), r"event name 'Provo \\u001b\]0;pwned\\u0007Open' holds"),
]:
    add(command(f"terminal-escapes-in-{cid}", 11, "utah", HOSTILE_SEASON, argv, 0,
                phrase=shown, phrase_absent=TERMINAL))
add(command("terminal-escapes-in-an-error", 11, "utah",
            edit(SEASON_TOML, 'preset = "utah-2012"', f'preset = "utah{TITLE}"'),
            ("standings", "{season}"), 2, Loc(SEASON_TOML, find="preset = "),
            r"\\x1b\]0;pwned", phrase_absent=TERMINAL))
add(command("terminal-escapes-in-an-event-name", 11, "event",
            edit("event.toml", 'name = "Utah Class Championships 2026 (example)"',
                 f'name = "Class {TITLE}{LINK}"'),
            ("prizes", "--event", "{event}"), 0, phrase=r"\\x1b\]8;;http://evil",
            phrase_absent=TERMINAL))
add(command("markup-in-a-results-name", 11, "utah",
            write("h.csv", 'rank,name,id,points\n1,"[link=http://evil.example/]Ann[/link], A",'
                           "1,3\n"),
            ("event", "{season}/h.csv"), 0, phrase=r"\[link=http://evil\.example/\]Ann",
            phrase_absent=TERMINAL))
# fmt: on


def _check_json_keeps_the_name(h: Harness) -> None:
    result = h.run(Run(("standings", "{season}", "--format", "json"), 0))
    assert "\\u001b]0;pwned\\u0007" in result.stdout, result.stdout[:300]


add(
    Case(
        "terminal-escapes-kept-in-json",
        11,
        "utah",
        HOSTILE_SEASON,
        (),
        custom=_check_json_keeps_the_name,
        note="JSON keeps the exact strings (escaped as JSON escapes them)",
    )
)
add(
    command(
        "stale-work-folder-cleaned",
        6,
        "acf",
        write("/root/.out.999999999.abcd1234.tmp/new/index.html", "half a site\n"),
        ("site", "{season}", "-o", "{out}"),
        0,
        outputs=("{out}", "{root}/.out.999999999.abcd1234.tmp"),
        custom=stale_removed,
        note="pid 999,999,999 is no process's: its work folder is stale and removed",
    )
)

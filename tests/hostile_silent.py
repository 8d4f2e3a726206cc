"""Hostile-input cases of inputs that once changed the standings without a word: a results file
listed again under another name (a copy, a hard link, a spelling of its name), an id that
players.csv names otherwise, ids spelt as spreadsheets write them, aliases.csv decisions that
contradict through a chain of names, one person twice in one event, and names holding letters
of another script or characters that hide. Each gives a located error or warning, or the
standings the mistake-free season gives. The harness and its helpers are ``hostile.py``'s."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from hostile import (
    SEASON_TOML,
    STANDINGS_CSV,
    WQ,
    Case,
    Env,
    Loc,
    Run,
    Setup,
    append,
    bad_season,
    chain,
    command,
    copy_in,
    edit,
    equivalent,
    transform,
    write,
)

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
DQ = "december_quick.csv"
DQ_RESULTS = f'results = "{DQ}"'  # line 83 of season.toml
BLITZ_RESULTS = 'results = "new_year_blitz.csv"'
WALSH = '"Walsh, Milo",1214'


def hard_link(rel: str, target: str) -> Setup:
    """Make ``target`` (home-relative) a second name of the file ``rel`` (a hard link)."""

    def run(env: Env) -> None:
        os.link(env.path(rel), env.path(target))

    return run


def rename_everywhere(old: str, new: str) -> Setup:
    """Write ``new`` for ``old`` in every file of the home folder that holds it (``new`` as
    long as ``old``, so that a TRF's columns stay where they are)."""
    assert len(old) == len(new), "test setup: a TRF's columns would move"

    def run(env: Env) -> None:
        for path in sorted(env.home.iterdir()):
            if path.is_file():
                data = path.read_bytes()
                if old.encode() in data:
                    path.write_bytes(data.replace(old.encode(), new.encode()))

    return run


def ids(rel: str, spell: str) -> Setup:
    """Every id of a utah results CSV (12xx) written as ``spell`` makes it ('{}.0': Excel)."""

    def fn(data: bytes) -> bytes:
        text = data.decode("utf-8")
        row_id = re.compile(r",(12\d\d)(,|$)", re.MULTILINE)
        spelt = row_id.sub(lambda m: f",{spell.format(m[1])}{m[2]}", text)
        return spelt.encode("utf-8")

    return transform(rel, fn)


def fullwidth(text: str) -> str:
    return "".join(chr(ord(ch) - ord("0") + ord("０")) for ch in text)


def warned(
    id: str,
    cls: int,
    base: str,
    setup: Setup,
    loc: Loc | Sequence[Loc],
    phrase: str,
    forbidden: tuple[str, ...] = (),
    note: str = "",
) -> Case:
    """A season read with a located warning saying ``phrase``: ``check`` exits 0 with it on
    stdout, ``standings`` computes with it on stderr; ``forbidden`` never shows in ``check``'s
    messages (the standings' table shows names as the terminal's writer makes them)."""
    locs = (loc,) if isinstance(loc, Loc) else tuple(loc)
    runs = (
        Run(("check", "{season}"), 0, locs, "out", phrase, warning=True, forbidden=forbidden),
        Run(("standings", "{season}"), 0, locs, "err", phrase, warning=True),
    )
    return Case(id, cls, base, setup, runs, note=note)


CASES: list[Case] = []
add = CASES.append

# fmt: off

# ---- 4. Silent acceptance now caught ---------------------------------------------------------
SAME_FILE = rf"is the same file as '{DQ}' of event 'December Quick' \(line 83\).*count twice"
add(bad_season("results-file-hard-link-listed-again", 4, "utah",
               chain(hard_link(DQ, "linked.csv"),
                     edit(SEASON_TOML, BLITZ_RESULTS, 'results = "linked.csv"')),
               Loc(SEASON_TOML, find='results = "linked.csv"'), SAME_FILE))
add(bad_season("results-file-case-variant-listed-again", 4, "utah",
               chain(hard_link(DQ, "DECEMBER_QUICK.CSV"),
                     edit(SEASON_TOML, BLITZ_RESULTS, 'results = "DECEMBER_QUICK.CSV"')),
               Loc(SEASON_TOML, find='results = "DECEMBER_QUICK.CSV"'), SAME_FILE,
               note="a case-insensitive file system shows one file under both spellings: here "
               "a hard link makes it so"))
add(warned("results-file-copy-for-another-event", 4, "utah",
           chain(copy_in(DQ, "quick_copy.csv"),
                 edit(SEASON_TOML, BLITZ_RESULTS, 'results = "quick_copy.csv"')),
           Loc(SEASON_TOML, find='results = "quick_copy.csv"'),
           rf"same contents as '{DQ}' of event 'December Quick' \(line 83\), byte for byte",
           note="two events may truly end alike: a warning, and both count"))
add(bad_season("section-file-copy-in-its-own-event", 4, "utah",
               chain(copy_in("class_a.csv", "class_b_copy.csv"),
                     edit(SEASON_TOML, 'results = "class_b.csv"', 'results = "class_b_copy.csv"')),
               Loc(SEASON_TOML, find='results = "class_b_copy.csv"'),
               r"same contents as 'class_a\.csv' of event 'Utah Class Championships'",
               max_file_lines=2))
add(warned("players-csv-names-the-id-otherwise", 4, "utah",
           edit("players.csv", '1214,"Walsh, Milo"', '1214,"Zed, Zoe"'),
           Loc(WQ, find="Walsh, Milo"),
           r"id '1214' is 'Walsh, Milo' here but 'Zed, Zoe' in \S*players\.csv:15 .*"
           r"show 'Zed, Zoe'"))
add(equivalent("players-csv-names-the-id-otherwise-its-name-shown", 4, "utah",
               edit("players.csv", '1214,"Walsh, Milo"', '1214,"Zedd, Zoeya"'),
               reference=rename_everywhere("Walsh, Milo", "Zedd, Zoeya"), must_show="Zedd, Zoeya",
               note="the id decides who it is; the standings show players.csv's name"))
add(command("players-csv-names-the-id-alike", 4, "utah",
            edit("players.csv", '1214,"Walsh, Milo"', '1214,"MILO walsh"'),
            ("check", "{season}"), 0, phrase=r"0 error\(s\), 0 warning\(s\)"))
ALIAS_CHAIN = ('name,other,decision\n"Bard, Alma","Baird, A.",same\n'
               '"Baird, A.","Baird, Alma",same\n')
BARD = edit(WQ, '"Baird, Alma",1205', '"Bard, Alma",')
add(bad_season("aliases-different-against-a-chain-of-same", 4, "utah",
               chain(BARD, write("aliases.csv",
                                 ALIAS_CHAIN + '"Bard, Alma","Baird, Alma",different\n')),
               Loc("aliases.csv", 4), r"'different' here.*line 2 .*; line 3 .*remove"))
add(equivalent("aliases-chain-of-same-joins-every-name", 4, "utah",
               chain(BARD, write("aliases.csv", ALIAS_CHAIN)), must_show="Baird, Alma",
               note="'Bard' same 'Baird, A.' same 'Baird, Alma': Bard is player 1205"))
add(bad_season("name-without-id-beside-itself-with-id", 4, "utah",
               append(WQ, '12,"Walsh, Milo",,0.5\n'),
               Loc(WQ, 13), r"\(no id\) here and 'Walsh, Milo' \(id 1214\) on line 12"))
add(bad_season("one-id-spelt-two-ways-in-one-event", 4, "utah",
               edit(DQ, '"Cole, Jade",1216', '"Cole, Jade",1214.0'),
               Loc(DQ, find="Cole, Jade"), "twice"))
add(warned("cyrillic-letter-in-a-latin-name", 4, "utah",
           edit(DQ, WALSH, '"W\u0430lsh, Milo",1214'),
           Loc(DQ, find="Milo"), r"U\+0430 .*reads as 'Walsh, Milo' \(as at \S*winter_quick"))
add(warned("greek-capital-in-a-latin-name-without-id", 4, "utah",
           edit(DQ, '"Abbey, Aiden",1208', '"\u0391bbey, Aiden",'),
           Loc(DQ, find="bbey, Aiden"), r"U\+0391 \(GREEK CAPITAL LETTER ALPHA\).*'Abbey, Aiden'"))
add(warned("right-to-left-override-in-a-results-csv-name", 4, "utah",
           edit(DQ, WALSH, f'"Walsh, {RLO}Milo",1214'),
           Loc(DQ, find="Milo"), r"U\+202E \(RIGHT-TO-LEFT OVERRIDE\)", forbidden=(RLO,)))
add(warned("right-to-left-override-in-a-trf-name", 4, "utah",
           edit("provo_open.trf", "Vance, Xavi  ", f"Vance, {RLO}Xavi "),
           Loc("provo_open.trf", find="Vance"), r"U\+202E", forbidden=(RLO,),
           note="one character for one: the TRF's columns stay"))
add(warned("zero-width-space-in-players-csv", 4, "utah",
           edit("players.csv", '"Walsh, Milo"', '"Walsh,\u200b Milo"'),
           Loc("players.csv", 15), r"U\+200B \(ZERO WIDTH SPACE\)", forbidden=("\u200b",)))
add(warned("left-to-right-isolate-in-aliases-csv", 4, "utah",
           chain(BARD, write("aliases.csv",
                             'name,other,decision\n"Bard, Alma\u2066","Baird, Alma",same\n')),
           Loc("aliases.csv", 2), r"U\+2066", forbidden=("\u2066",)))

# ---- 7. Encodings and dialects: ids as spreadsheets write them ------------------------------
add(equivalent("results-ids-as-excel-writes-them", 7, "utah", ids(WQ, "{}.0"),
               compare_stderr=True, must_show="Walsh, Milo"))
add(equivalent("results-ids-with-leading-zeros", 7, "utah", ids(DQ, "00{}"),
               compare_stderr=True, must_show="Walsh, Milo"))
add(equivalent("results-ids-in-fullwidth-digits", 7, "utah",
               transform("new_year_blitz.csv",
                         lambda d: re.sub(r",(12\d\d),", lambda m: f",{fullwidth(m[1])},",
                                          d.decode()).encode()),
               compare_stderr=True, must_show="Walsh, Milo"))
add(equivalent("players-csv-ids-as-excel-writes-them", 7, "utah",
               transform("players.csv",
                         lambda d: re.sub(rb"^(12\d\d),", rb"\1.0,", d, flags=re.M)),
               compare_stderr=True, must_show="Walsh, Milo"))
add(equivalent("acf-results-ids-with-leading-zeros", 7, "acf",
               edit("brisbane_open.csv", '"Ellis, Hugo",3100011', '"Ellis, Hugo",003100011.0'),
               compare_stderr=True, must_show="Ellis, Hugo"))
add(bad_season("players-csv-one-id-in-two-spellings", 7, "utah",
               edit("players.csv", '1202,"Vance, Xavi"', '1201.0,"Vance, Xavi"'),
               Loc("players.csv", 3), "twice"))
add(command("letters-in-an-id-kept-as-they-are", 7, "utah",
            chain(rename_everywhere(WALSH, '"Walsh, Milo",U012'),
                  edit("players.csv", '1214,"Walsh, Milo"', 'U012,"Walsh, Milo"')),
            STANDINGS_CSV, 0, phrase=r"\n,\d+,U012,\"Walsh, Milo\",",
            note="the CSV events' rows by the id U012, the TRF events' by 1214"))

# fmt: on

"""Hostile cases of the results readers: a header naming a column twice, a rank column that
contradicts the points, a TRF rating spilling out of its columns on either side, a JSON key
given twice (lichess and chess.com: the json module keeps the last without a word); an event
name on two lines. Run by ``test_hostile_readers.py`` with ``hostile.run_case``."""

from __future__ import annotations

from hostile import SEASON_TOML, WQ, Case, Loc, bad_season, edit, toml_at, warn_season, write
from hostile_bounds import ARENA, CHESSCOM_GROUP, GROUP, as_results, lichess_head

VANCE = "Vance, Xavi                       2346 "  # columns 15-53 of provo_open.trf's line 4


def points_twice() -> bytes:
    """lichess results whose first line gives 'points' twice: 2.5, then 0."""
    return lichess_head().replace(b'"points":2.5,', b'"points":2.5,"points":0,', 1)


def username_twice() -> bytes:
    """A chess.com group whose first game's white side gives 'username' twice."""
    data = CHESSCOM_GROUP.read_bytes()
    white = data.index(b'"username"', data.index(b'"white"'))
    return data[:white] + b'"username":"mrtn",' + data[white:]


CASES: list[Case] = [
    bad_season(
        "csv-points-twice",
        2,
        "utah",
        edit(WQ, "rank,name,id,points", "rank,name,id,points,score"),
        Loc(WQ, 1),
        "both read as 'points'",
        note="which of the two is meant cannot be told: refused, not the first taken",
    ),
    bad_season(
        "csv-points-column-repeated",
        2,
        "utah",
        edit(WQ, "rank,name,id,points", "points,name,id,points"),
        Loc(WQ, 1),
        "both read as 'points'",
    ),
    warn_season(
        "csv-ranks-all-1-with-falling-points",
        2,
        "utah",
        edit(WQ, '2,"Baird, Alma"', '1,"Baird, Alma"'),
        Loc(WQ, 3),
        "shares its place with",
        note="the rank column still gives the places; the warning names the row",
    ),
    warn_season(
        "csv-better-rank-fewer-points",
        2,
        "utah",
        edit(WQ, '1,"Nguyen, Nina",1201,5.5', '1,"Nguyen, Nina",1201,3.5'),
        Loc(WQ, 3),
        "is below rank",
    ),
    bad_season(
        "trf-rating-99999-spills",
        3,
        "utah",
        edit("provo_open.trf", VANCE, "Vance, Xavi                       99999"),
        Loc("provo_open.trf", 4),
        "at most 4 digits",
    ),
    bad_season(
        "trf-rating-99999-spills-into-column-48",
        4,
        "utah",
        edit("provo_open.trf", VANCE, "Vance, Xavi                      99999 "),
        Loc("provo_open.trf", 4),
        r"rating '99999' in columns 48-52 starts in column 48, which is blank in TRF: .*'9999' "
        r"would be read; write the rating in columns 49-52",
        note="read from columns 49-52 alone it was 9999, without a word",
    ),
    bad_season(
        "trf-rating-one-column-early",
        4,
        "utah",
        edit("provo_open.trf", VANCE, "Vance, Xavi                      2346  "),
        Loc("provo_open.trf", 4),
        r"rating '2346' in columns 48-51 starts in column 48.*'346' would be read",
    ),
    bad_season(
        "lichess-points-given-twice",
        4,
        "utah",
        as_results(ARENA, write(ARENA, points_twice)),
        Loc(ARENA, 1),
        r"key 'points' is given twice in one object \('2\.5', then '0'\): which the site meant "
        r"cannot be told; download the file again",
        note="the json module keeps the last: 0 points, without a word",
    ),
    bad_season(
        "chesscom-username-given-twice",
        4,
        "utah",
        as_results(GROUP, write(GROUP, username_twice)),
        Loc(GROUP, 1),
        r"key 'username' is given twice in one object \(the text 'mrtn', then the text ",
    ),
    warn_season(
        "toml-event-name-with-a-line-break",
        1,
        "utah",
        edit(SEASON_TOML, 'name = "Salt Lake Winter Quick"', 'name = "Salt Lake\\nWinter Quick"'),
        toml_at("Salt Lake\\nWinter"),
        "breaks the line",
        note="a name on two lines would fake a line of the terminal's output",
    ),
]

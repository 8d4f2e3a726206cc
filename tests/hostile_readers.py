"""Hostile cases of the results readers: a header naming a column twice, a rank column that
contradicts the points, a TRF rating spilling into the next column; an event name on two
lines. Run by
``test_hostile_readers.py`` with ``hostile.run_case``."""

from __future__ import annotations

from hostile import SEASON_TOML, WQ, Case, Loc, bad_season, edit, toml_at, warn_season

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
        edit(
            "provo_open.trf",
            "Vance, Xavi                       2346 ",
            "Vance, Xavi                       99999",
        ),
        Loc("provo_open.trf", 4),
        "at most 4 digits",
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

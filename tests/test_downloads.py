"""The downloads of every example season's site, as a program or a spreadsheet reads them:
season.json passes the site's own season.schema.json (JSON Schema 2020-12, checked by the
jsonschema library, formats included) and a broken document does not; a player's counted rows
of results.csv add up to their total in standings.csv, the bonus for events played (LUP-3) a row
of its own; and the downloads page's column dictionary names every column of the CSV files."""

from __future__ import annotations

import copy
import csv
import io
import json
import shutil
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import ROOT
from grandprix.reports.document import SCHEMA
from grandprix.reports.exports import column_dictionary, export_json
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.season.standings import division_standings
from grandprix.site.build import build_site

EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "season.toml").exists())
LISTED = "utah-2012-listed"  # utah-2012 listing the players in no standings (not_eligible, note)
SITES = [*EXAMPLES, LISTED]
Rows = list[dict[str, str]]


def test_the_examples_are_the_seasons_these_tests_cover() -> None:
    assert set(EXAMPLES) >= {"utah-2012", "acf-2004", "lupiae-2012-13", "circuit-2026"}


def season_folder(name: str, tmp_path: Path) -> Path:
    if name != LISTED:
        return ROOT / "examples" / name
    folder = Path(shutil.copytree(ROOT / "examples" / "utah-2012", tmp_path / name))
    with (folder / "season.toml").open("a", encoding="utf-8") as toml:
        toml.write('\n[rules.standings]\nineligible = "listed"\n')
    return folder


@pytest.fixture(scope="module", params=SITES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Season, Path]:
    """An example season and the folder of its site, written as ``grandprix site`` writes it."""
    tmp_path = tmp_path_factory.mktemp("downloads")
    season, problems = load_season(season_folder(request.param, tmp_path))
    assert season is not None, problems
    build_site(season, tmp_path / "site")
    return season, tmp_path / "site"


def csv_of(path: Path) -> Rows:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


# season.json and season.schema.json


def validator() -> Draft202012Validator:
    Draft202012Validator.check_schema(SCHEMA)
    return Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_season_json_of_every_example_site_passes_the_schema_beside_it(
    site: tuple[Season, Path],
) -> None:
    season, folder = site
    schema = json.loads((folder / "season.schema.json").read_text(encoding="utf-8"))
    assert schema == SCHEMA and schema["$schema"].endswith("/draft/2020-12/schema")
    document = json.loads((folder / "season.json").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(document)]
    assert errors == []
    lines = [line for d in document["divisions"] for line in d["standings"]]
    assert lines and all(line["results"] for line in lines)
    if season.rules.standings.ineligible == "listed":
        assert document["not_eligible"]


def utah_document() -> dict[str, Any]:
    season, problems = load_season(ROOT / "examples" / "utah-2012")
    assert season is not None, problems
    document: dict[str, Any] = json.loads(export_json(season, division_standings(season)))
    return document


def first_line(document: dict[str, Any]) -> dict[str, Any]:
    line: dict[str, Any] = document["divisions"][0]["standings"][0]
    return line


def first_result(document: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = first_line(document)["results"][0]
    return result


BREAKS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    # what is broken: how, and the keyword that must fail
    "points as a float": (lambda d: first_line(d).update(points=72.5), "type"),
    "points with a decimal comma": (lambda d: first_line(d).update(points="72,50"), "pattern"),
    "points with a backslash": (lambda d: first_line(d).update(points="72\\.50"), "pattern"),
    "points with an exponent": (lambda d: first_line(d).update(points="7e1"), "pattern"),
    "a rank in words": (lambda d: first_line(d).update(rank="first"), "pattern"),
    "a place with a space": (lambda d: first_result(d).update(place="6 - 8"), "pattern"),
    "a score as a fraction": (lambda d: first_result(d).update(score="13/2"), "pattern"),
    "no results": (lambda d: first_line(d).pop("results"), "required"),
    "a result without points": (lambda d: first_result(d).pop("points"), "required"),
    "counted as text": (lambda d: first_result(d).update(counted="yes"), "type"),
    "no such date": (lambda d: first_result(d).update(date="2012-02-30"), "format"),
    "negative events": (lambda d: first_line(d).update(events=-1), "minimum"),
    "no divisions": (lambda d: d.pop("divisions"), "required"),
}


def test_the_utah_document_is_valid_before_it_is_broken() -> None:
    assert list(validator().iter_errors(utah_document())) == []


@pytest.mark.parametrize("broken", BREAKS)
def test_a_broken_document_fails_the_schema(broken: str) -> None:
    document = copy.deepcopy(utah_document())
    change, keyword = BREAKS[broken]
    change(document)
    errors = list(validator().iter_errors(document))
    assert [e.validator for e in errors] == [keyword], [e.message for e in errors]


def test_the_schema_matches_decimals_not_a_backslash() -> None:
    """The patterns are regular expressions of a decimal point ('\\.' in the expression), so
    '72.00' passes and '72\\.00' or '72x00' does not."""
    points = SCHEMA["properties"]["divisions"]["items"]["properties"]["standings"]["items"]
    pattern = Draft202012Validator(points["properties"]["points"])
    assert all(pattern.is_valid(v) for v in ("72.00", "-1.5", "0", "140"))
    assert not any(pattern.is_valid(v) for v in ("72\\.00", "72x00", "72.", ".5", "", "1e3"))


# results.csv adds up to standings.csv


def exact_rows(season: Season) -> list[tuple[Fraction, bool]]:
    """The exact points behind each row of results.csv and whether it counts, in its order:
    every line's results, then its bonus for events played when it has one."""
    rows: list[tuple[Fraction, bool]] = []
    for _, lines in division_standings(season):
        for line in lines:
            rows += [(award.points, counted) for award, counted in line.results()]
            rows += [(line.bonus, True)] if line.bonus else []
            exact = sum((a.points for a in line.counted), Fraction(0)) + line.bonus
            assert exact == line.total, line.name  # the engine's own sum
    return rows


def test_every_players_counted_results_add_up_to_the_total(site: tuple[Season, Path]) -> None:
    """Summing a player's counted rows of results.csv gives their points in standings.csv.
    Each row shows its own exact points rounded to the shown decimals, and the exact points of
    the counted rows and the bonus add up to the exact total (``exact_rows``). A player whose
    counted rows are all whole numbers of the shown decimals gets the total exactly; one with a
    row that is not (Utah's three-way tie for 6th-8th: 14/3 shown as 4.67) can miss it by the
    rows' rounding, at most half a unit of the last decimal a row (Utah's and ACF's players
    have one such row at most, so their shown sums equal the totals all the same)."""
    season, folder = site
    decimals = season.rules.standings.decimals
    standings, results = csv_of(folder / "standings.csv"), csv_of(folder / "results.csv")
    exact = exact_rows(season)
    assert len(results) == len(exact)
    sums: dict[tuple[str, str, str], Decimal] = defaultdict(Decimal)
    counts: dict[tuple[str, str, str], int] = defaultdict(int)
    inexact: set[tuple[str, str, str]] = set()
    for row, (points, counted) in zip(results, exact, strict=True):
        assert row["points"] == show(points, decimals), row
        assert row["counted"] == ("yes" if counted else "no"), row
        key = (row["division"], row["player_id"], row["name"])
        if counted:
            sums[key] += Decimal(row["points"])
            counts[key] += 1
            if (points * 10**decimals).denominator != 1:
                inexact.add(key)
    unit = Decimal(1).scaleb(-decimals)
    keys = [(line["division"], line["player_id"], line["name"]) for line in standings]
    assert set(keys) >= set(sums) and len(set(keys)) == len(keys)
    for key, line in zip(keys, standings, strict=True):
        total, summed = Decimal(line["points"]), sums.get(key, Decimal(0))
        assert key in inexact or summed == total, (key, summed, total)
        assert abs(summed - total) <= unit / 2 * counts[key], (key, summed, total)


def test_lupiae_bonus_for_events_played_is_a_counted_row_of_results_csv(
    site: tuple[Season, Path],
) -> None:
    """LUP-3: 2 points for every event played, counted or not; in results.csv a row of its own
    for each player, after their results, without a date, section, place or score."""
    season, folder = site
    results = csv_of(folder / "results.csv")
    bonuses = [row for row in results if row["event"].startswith("Bonus for ")]
    standings = csv_of(folder / "standings.csv")
    if not season.rules.counting.bonus_per_event:
        assert bonuses == []
        return
    assert season.rules.counting.bonus_per_event == 2
    events = {(r["division"], r["player_id"]): int(r["events"]) for r in standings}
    assert len(bonuses) == len(standings) and all(row["counted"] == "yes" for row in bonuses)
    for row in bonuses:
        played = events[(row["division"], row["player_id"])]
        assert row["event"] == f"Bonus for {played} events played (2 points each)"
        assert row["points"] == f"{2 * played}.00"
        assert row["date"] == row["section"] == row["place"] == row["score"] == ""


# the column dictionary of the downloads page


def test_the_column_dictionary_names_every_column_of_the_csv_files_in_order(
    site: tuple[Season, Path],
) -> None:
    season, folder = site
    dictionary = dict(column_dictionary(season))
    for caption, columns in dictionary.items():
        file = caption.split()[0]
        with (folder / file).open(encoding="utf-8") as csv_file:
            header = next(csv.reader(csv_file))
        assert [name for name, _ in columns] == header, file
        assert all(meaning.endswith(".") and len(meaning) > 15 for _, meaning in columns)
    assert [caption.split()[0] for caption in dictionary] == ["standings.csv", "results.csv"]
    said = " ".join(meaning for columns in dictionary.values() for _, meaning in columns)
    decimals = season.rules.standings.decimals
    assert ("whole numbers" if decimals == 0 else f"with {decimals} decimal") in said
    assert ("bonus row" in said) == bool(season.rules.counting.bonus_per_event)

"""The site's words for the rules of real series, on the pages: the rules page of
the keshmat-2026 example and of seasons on fide-circuit-2025 and nwchess-gp says each feature
in words with the season's numbers; a player's sentence adds up to the award's points."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from conftest import ROOT
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Award, Season
from grandprix.site.parts import Link
from grandprix.site.views import SiteViews
from grandprix.site.words.common import SEASON_TIEBREAKS
from grandprix.site.words.season import result_sentence, tie_note, total_sentence
from seasons import load, write_season

TOP8 = [2700, 2680, 2660, 2650, 2640, 2630, 2620, 2620]  # TAR 2650: k = 1.5


def field(scores: list[str], ratings: list[int]) -> str:
    rows = [f"{i},P{i},{r},{s}" for i, (s, r) in enumerate(zip(scores, ratings, strict=True), 1)]
    return "rank,name,rating,points\n" + "\n".join(rows) + "\n"


def fide(tmp_path: Path) -> Season:
    """A 20-player Swiss (P1 alone on 8, P2 and P3 tied on 7) and a round robin of 10."""
    swiss = ["8", "7", "7", "6.5", "6", "5.5", "5", "4.5", "4", "3.5"] + ["3"] * 10
    robin = ["7", "6.5", "6", "5", "4.5", "4", "3.5", "3", "2", "1.5"]
    toml = (
        'name = "Circuit"\nrules = "fide-circuit-2025"\n\n'
        '[[events]]\nname = "Open"\ndate = 2025-01-28\ncategory = "standard/small"\n'
        'results = "open.csv"\n\n'
        '[[events]]\nname = "Masters"\ndate = 2025-02-28\n'
        'category = "standard/small/round-robin"\nresults = "masters.csv"\n'
    )
    files = {
        "open.csv": field(swiss, [*TOP8, *[2400] * 12]),
        "masters.csv": field(robin, [*TOP8, 2600, 2600]),
    }
    return load(write_season(tmp_path / "fc", toml, files))


def northwest(tmp_path: Path) -> Season:
    toml = (
        'name = "NW"\nrules = "nwchess-gp"\n\n[[events]]\nname = "Open"\ndate = 2025-03-01\n'
        'results = "open.csv"\nprize_fund = 3000\nbased_on = true\n\n'
        '[[events]]\nname = "Quads"\ndate = 2025-04-01\nresults = "q.csv"\nprize_fund = 600\n'
    )
    files = {"open.csv": "name,points\nAnn,3.5\nBob,4\nCy,2\n", "q.csv": "name,points\nAnn,3\n"}
    return load(write_season(tmp_path / "nw", toml, files))


def page_text(season: Season) -> str:
    page = SiteViews(season).rules()
    out = []
    for block in page.blocks:
        out += [block.heading, *block.paragraphs]
        out += [" | ".join(str(c) for c in row) for t in block.tables for row in t.rows]
    return "\n".join(out)


def text(sentence: tuple[str | Link, ...]) -> str:
    return "".join(c if isinstance(c, str) else f"[{c.text}]" for c in sentence)


def award_of(season: Season, player: str, event: str) -> Award:
    views = SiteViews(season)
    return next(
        a
        for _, lines in views.tables
        for ln in lines
        for a in ln.awards
        if ln.name == player and a.event_name == event
    )


def test_circuit_example_rules_page_says_bands_groups_bonuses_limits_and_rounds() -> None:
    season, problems = load_season(ROOT / "examples" / "circuit-2026")
    assert season is not None and problems == []
    said = page_text(season)
    assert "Points in rapid events" in said and "Points in classical group a events" in said
    assert "Each event gives points by the share of the field a player finishes in (KW-3):" in said
    assert "10% of the field | 50 | 3rd" in said  # January Rapid, 24 players: ceil(2.4) = 3
    assert "January Rapid had 24 players: the top 10% is 2.40 places, rounded up to 3" in said
    assert "1st | 125" in said and "1st | 110" in said  # KW-2 group tables
    assert (
        "earns 2 more points for each place gained, at most 25 and at most half of the points "
        "of their place, rounded down (KW-4)" in said
    )
    assert "earns 2 more points for each place gained, at most 20 (KW-4)" in said
    assert "The seed is the player's rank by rating in the section" in said
    assert "A player who plays every round earns 5 more points" in said
    assert "At most 3 results of rapid events and 3 results of classical events" in said
    assert "only after playing at least half of its rounds" in said and "(KW-6, D-KW-3)" in said


def test_circuit_example_player_sentences_add_up_and_cite_kw_rules() -> None:
    season, _ = load_season(ROOT / "examples" / "circuit-2026")
    assert season is not None
    views = SiteViews(season)
    seen = 0
    for _, lines in views.tables:
        for line in lines:
            for a in line.awards:
                said = text(result_sentence(a, season.rules, 0, "../"))
                for reason, value in a.valuation.bonuses:
                    seen += 1
                    assert f" + {show(value)} for {reason}" in said
                    assert ("[KW-4]" if "seed" in reason else "[KW-5]") in said
                if a.valuation.bonuses:
                    assert f" = {show(a.points, 0)}." in said
                    assert a.points == a.base + a.extra
                assert "minimum" not in said
    assert seen > 20


def test_circuit_example_event_page_uses_the_category_points_and_rounds_needed() -> None:
    season, _ = load_season(ROOT / "examples" / "circuit-2026")
    assert season is not None
    views = SiteViews(season)
    january = views.event(next(e.index for e in season.events if e.name == "January Rapid"))
    assert january.facts[0].startswith(
        "Points by place in this field of 24 players: 1st 70, 2nd 57, 3rd 50, 4th-5th 43"
    )
    notes = [c.note for s in january.sections for r in s.rows for c in r.points]
    assert any(
        re.fullmatch(r"played \d of 7 rounds; points need at least half of them", n) for n in notes
    )
    group = views.event(next(e.index for e in season.events if e.name.endswith("Group B")))
    assert "Points for 1st, 2nd, ... places: 110, 90, 75, 62, 48, 37." in group.facts


def test_fide_circuit_rules_page_outright_split_top_half_paid_places_factor_limits(
    tmp_path: Path,
) -> None:
    said = page_text(fide(tmp_path))
    assert "earns 11 instead of 10 (FC-2)" in said
    assert (
        "the one 1st on tie-break gets half of 10 plus half of 9 (the average of 10 and 8), "
        "which is 9.5; the other gets half of 8 plus half of 9, which is 8.5" in said
    )
    assert (
        "Only the top half of the field earns these points: half of the number of players, "
        "rounded down (in Open, with 20 players: the top 8) (FC-3)." in said
    )
    assert (
        "the top 3 with fewer than 10 players, the top 4 from 10 players and the top 5 from 13 "
        "players (in Masters, with 10 players: the top 4)" in said
    )
    assert (
        "In Open, the 8 highest ratings average 2650, so the factor is (2650 - 2500) / 100" in said
    )
    assert "Only a player's seven best results count" in said
    assert "At most 5 results of standard small events" in said and "(FC-5)" in said


def test_fide_circuit_split_tie_and_factor_sentence_adds_up(tmp_path: Path) -> None:
    """P2 and P3 tie for 2nd-3rd on 7; P2 is 2nd on tie-break: 8/2 + 7.5/2 = 7.75, x 1.5."""
    season = fide(tmp_path)
    a = award_of(season, "P2", "Open")
    said = text(result_sentence(a, season.rules, 2, "../"))
    assert said.startswith(
        "Tied 2nd-3rd with 1 other: half of 8 (2nd place on tie-break) plus half of 7.5 "
        "(the average of 8 and 7) = 7.75 x 1.5 for the average rating of its 8 "
        "highest-rated players"
    )
    assert said.endswith("= 11.63. ([FC-4], [FC-1])") and a.points == Fraction(93, 8)
    assert "minimum" not in said
    alone = text(result_sentence(award_of(season, "P1", "Open"), season.rules, 2, "../"))
    assert alone.startswith("1st place alone, worth 11 instead of 10 x 1.5")
    assert alone.endswith("([FC-2], [FC-1])")


def test_nwchess_rules_page_and_sentence_class_multiplier_and_based_on(tmp_path: Path) -> None:
    season = northwest(tmp_path)
    said = page_text(season)
    assert "multiplied by the multiplier of the event's class" in said
    assert "there are seven classes:" in said and "Class x3 | 1000 to under 2000 | 3" in said
    assert "counts at half of its amount when the event's class is chosen (NW-2, D-NW-1)" in said
    assert "Open advertised 3000, which counts as 1500: class x3." in said
    a = award_of(season, "Bob", "Open")
    sentence = text(result_sentence(a, season.rules, 1, "../"))
    assert sentence == (
        "1st place: a score of 4 x 3 for a prize fund of 1500 (50% of a based-on fund), "
        "class x3 = 12.0. ([NW-1], [NW-2])"
    )


def test_per_event_season_tiebreak_has_words(tmp_path: Path) -> None:
    """keshmat-2024-25 orders equal totals by total per counted result: no KeyError."""
    assert "per-event" in SEASON_TIEBREAKS
    rows = "rank,name,points\n1,A,4\n2,B,3\n3,C,2\n"
    toml = 'name = "K"\nrules = "keshmat-2024-25"\n\n' + "".join(
        f'[[events]]\nname = "E{i}"\ndate = 2025-0{i}-01\nresults = "e{i}.csv"\n\n'
        for i in (1, 2, 3)
    )
    season = load(write_season(tmp_path / "kc", toml, {f"e{i}.csv": rows for i in (1, 2, 3)}))
    said = page_text(season)
    assert "their total divided by the number of results counted (more is better)" in said
    assert "as many as the most events any player has played so far, less one (KC-2)" in said
    assert "So far the most is 3, so the best 2 count" in said
    views = SiteViews(season)
    line = views.tables[0][1][0]
    summary = text(total_sentence(line, season.rules.counting, 3, season.rules, 1, "../", 3))
    assert summary.startswith(
        "The best 2 of 3 results count (the most events anyone has played, 3, less 1): "
    )
    assert tie_note(line, line, "per-event", 1, 0).endswith("4.0 to 4.0.")

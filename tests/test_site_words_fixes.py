"""Two sentences of the site, each read on the pages of an example season built in English,
Italian and Spanish.

A result whose places score nothing says so and stops: it is not multiplied by the event's
weight (UT-6) or the section's rate (UT-7) and summed to 0.00 (utah-2012, whose Utah Open and
State Championship count 1.5 times and whose Class B section counts half).

The rules page of lupiae-2012-13 shows, for each rule ID, the first sentence of its entry in
``rules/rule-books.md``: the LUP lines that other lines and sentences cite (D-LUP-2 "LUP-6's
first criterion", D-LUP-1 "the 70% of LUP-3", the minimum of 1 point of LUP-1) hold what they
are cited for.
"""

from __future__ import annotations

import re
import shutil
from itertools import pairwise
from pathlib import Path

import pytest

from conftest import ROOT
from grandprix.rules.books import definitions, meaning
from grandprix.site.build import build_site
from html_tree import Node, parse
from seasons import load

LANGUAGES = ("en", "it", "es")


def built(season: str, code: str, out: Path) -> Path:
    """The example ``season`` with its pages in ``code``: the folder of its site."""
    folder = out / "season"
    shutil.copytree(ROOT / "examples" / season, folder)
    toml = (folder / "season.toml").read_text(encoding="utf-8")
    toml = re.sub(r"(?m)^language = .*\n", "", toml)
    (folder / "season.toml").write_text(f'language = "{code}"\n{toml}', encoding="utf-8")
    build_site(load(folder), out / "site")
    return out / "site"


@pytest.fixture(scope="module", params=LANGUAGES)
def utah(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    code: str = request.param
    return built("utah-2012", code, tmp_path_factory.mktemp(f"utah-{code}"))


@pytest.fixture(scope="module", params=LANGUAGES)
def lupiae(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    code: str = request.param
    return built("lupiae-2012-13", code, tmp_path_factory.mktemp(f"lupiae-{code}"))


def language(site: Path) -> str:
    return next(parse(site / "index.html").iter("html")).attrs["lang"]


def why(page: Path) -> list[str]:
    """The sentences under a player's results: how each result earned its points."""
    return [p.text() for p in parse(page).iter("p") if p.has_class("why")]


# Result sentences: places worth nothing, in a season whose events and sections have weights.

# What a place worth nothing says, in each language: a tie on such places, and one place.
NOTHING = {
    "en": ("these places score no points", "which scores no points"),
    "it": ("questi piazzamenti non danno punti", "che non dà punti"),
    "es": ("estos puestos no dan puntos", "que no da puntos"),
}

# Before: '... these places score no points x 1.5 for this event = 0.00. (D-UT-1, UT-6)'.
ZIMMER_UTAH_STATE = {  # players/1210.html, Zimmer, Dana, at the State Championship (x 1.5)
    "en": "Tied 9th-12th with 3 others among the Grand Prix players (12th-15th in the event: "
    "players who are not eligible are skipped): these places score no points. (D-UT-1)",
    "it": "9º-12º a pari merito con altri 3 giocatori tra i partecipanti al Grand Prix (12º-15º "
    "nel torneo, senza contare i giocatori che non hanno diritto ai punti): questi piazzamenti "
    "non danno punti. (D-UT-1)",
    "es": "Empatado con otros 3 jugadores en los puestos 9.º-12.º entre los jugadores del Grand "
    "Prix (12.º-15.º en el torneo: se omite a los jugadores que no cumplen los requisitos): "
    "estos puestos no dan puntos. (D-UT-1)",
}
# Before: '7th place among ..., which scores no points x 1.5 for this event = 0.00. (...)'.
ELLIS_UTAH_OPEN = {  # players/1212.html, Ellis, Aiden, at the Utah Open (x 1.5)
    "en": "7th place among the Grand Prix players (8th in the event: players who are not "
    "eligible are skipped), which scores no points. (D-UT-1)",
    "it": "7º posto tra i partecipanti al Grand Prix (8º nel torneo, senza contare i giocatori "
    "che non hanno diritto ai punti), che non dà punti. (D-UT-1)",
    "es": "7.º puesto entre los jugadores del Grand Prix (8.º en el torneo: se omite a los "
    "jugadores que no cumplen los requisitos), que no da puntos. (D-UT-1)",
}
# Before: '7th place, which scores no points x 0.5 for this section = 0.00. (UT-7)'.
BARNES_CLASS_B = {  # players/1225.html, Barnes, Cora, in Class B (x 0.5)
    "en": "7th place, which scores no points.",
    "it": "7º posto, che non dà punti.",
    "es": "7.º puesto, que no da puntos.",
}
# A place worth points is multiplied as before.
ZIMMER_UTAH_OPEN = {  # players/1210.html, at the Utah Open (x 1.5)
    "en": "so the average of 10, 8 and 6 = 8.00 x 1.5 for this event = 12.00. (D-UT-1, UT-4, UT-6)",
    "it": "quindi la media di 10, 8 e 6 = 8,00 x 1,5 per questo torneo = 12,00. "
    "(D-UT-1, UT-4, UT-6)",
    "es": "así que recibe la media de 10, 8 y 6 = 8,00 x 1,5 por este torneo = 12,00. "
    "(D-UT-1, UT-4, UT-6)",
}


def test_a_tie_on_places_worth_nothing_at_a_weighted_event_says_so_and_stops(utah: Path) -> None:
    code = language(utah)
    said = why(utah / "players" / "1210.html")
    assert ZIMMER_UTAH_STATE[code] in said
    assert not [s for s in said if f"{NOTHING[code][0]} x " in s], said


def test_a_place_worth_nothing_at_a_weighted_event_says_so_and_stops(utah: Path) -> None:
    code = language(utah)
    said = why(utah / "players" / "1212.html")
    assert ELLIS_UTAH_OPEN[code] in said
    assert not [s for s in said if f"{NOTHING[code][1]} x " in s], said


def test_a_place_worth_nothing_in_a_section_at_half_rate_says_so_and_stops(utah: Path) -> None:
    code = language(utah)
    said = why(utah / "players" / "1225.html")
    assert BARNES_CLASS_B[code] in said
    assert not [s for s in said if "0.00" in s or "0,00" in s], said


def test_no_result_sentence_of_the_season_multiplies_nothing(utah: Path) -> None:
    """On every player page: a result worth nothing has no multiplier and no '= 0.00'."""
    code = language(utah)
    nothing = [
        s
        for page in sorted((utah / "players").glob("*.html"))
        for s in why(page)
        if any(words in s for words in NOTHING[code])
    ]
    assert len(nothing) > 10  # the example has many places worth nothing, at every weight
    assert not [s for s in nothing if " x " in s or " = " in s], nothing


def test_a_place_worth_points_at_a_weighted_event_is_still_multiplied(utah: Path) -> None:
    code = language(utah)
    said = why(utah / "players" / "1210.html")
    assert [s for s in said if s.endswith(ZIMMER_UTAH_OPEN[code])], said


# The rules page of lupiae-2012-13: the criterion D-LUP-2 cites is on LUP-6's line.

LUP6 = {
    "en": "Final prizes cannot be split: players level in the final standings are separated by "
    "their dropped scores first, then by their single highest score, and finally by their "
    "place in the last event.",
    "it": "I premi finali sono indivisibili: in caso di parità nella classifica finale si tiene "
    "conto prima dei punteggi scartati, poi del miglior risultato singolo e infine del "
    "piazzamento nell'ultimo torneo.",
    "es": "Los premios finales no se pueden repartir: los empates en la clasificación final se "
    "deshacen primero por las puntuaciones descartadas, después por el mejor resultado "
    "individual y, por último, por el puesto en el último torneo.",
}
# The line LUP-6 had: only that prizes cannot be split, none of the criteria.
LUP6_BEFORE = {
    "en": "Final prizes cannot be split.",
    "it": "I premi finali non sono divisibili.",
    "es": "Los premios finales no se pueden repartir.",
}
D_LUP2_CITES = {
    "en": "(LUP-6's first criterion)",
    "it": "(primo criterio di LUP-6)",
    "es": "(primer criterio de LUP-6)",
}
# What the D-LUP-2 line calls the first criterion, as the LUP-6 line says it.
FIRST_CRITERION = {
    "en": "separated by their dropped scores first",
    "it": "si tiene conto prima dei punteggi scartati",
    "es": "se deshacen primero por las puntuaciones descartadas",
}
LUP3_SEVENTY = {  # D-LUP-1: 'The 70% of LUP-3 ...'
    "en": "as many as 70% of the Grand Prix's events rounded up",
    "it": "in un numero di tornei pari al 70% di quelli del Grand Prix, arrotondato per eccesso",
    "es": "en un número de torneos igual al 70% de los del Grand Prix, redondeado al alza",
}
LUP1_MINIMUM = {  # a result raised to the minimum of 1 cites LUP-1
    "en": "and at least 1 point for every other player.",
    "it": "e almeno 1 punto a ogni altro partecipante.",
    "es": "y al menos 1 punto para cada uno de los demás participantes.",
}


def rule_lines(site: Path) -> dict[str, str]:
    """Each rule ID of the rules page with the line that explains it (the paragraph after its
    heading)."""
    found: dict[str, str] = {}
    for node in parse(site / "rules.html").iter():
        elements = [c for c in node.children if isinstance(c, Node)]
        for heading, line in pairwise(elements):
            anchor = heading.attrs.get("id", "")
            if heading.tag == "h3" and anchor.startswith("rule-") and line.tag == "p":
                found[anchor.removeprefix("rule-")] = line.text()
    return found


def test_d_lup2_cites_lup6_first_criterion_and_the_lup6_line_holds_it(lupiae: Path) -> None:
    code = language(lupiae)
    lines = rule_lines(lupiae)
    assert D_LUP2_CITES[code] in lines["D-LUP-2"]
    assert lines["LUP-6"] == LUP6[code]
    assert FIRST_CRITERION[code] in lines["LUP-6"]
    assert LUP6_BEFORE[code] not in lines.values()


def test_the_lup3_line_holds_the_70_percent_d_lup1_cites(lupiae: Path) -> None:
    code = language(lupiae)
    lines = rule_lines(lupiae)
    assert "70%" in lines["D-LUP-1"] and "LUP-3" in lines["D-LUP-1"]
    assert LUP3_SEVENTY[code] in lines["LUP-3"]


def test_the_lup1_line_holds_the_minimum_point_a_result_is_raised_to(lupiae: Path) -> None:
    code = language(lupiae)
    lines = rule_lines(lupiae)
    assert lines["LUP-1"].endswith(LUP1_MINIMUM[code])


@pytest.mark.parametrize("rule_id", ["LUP-1", "LUP-3", "LUP-6"])
def test_the_cited_lup_rules_are_shown_whole(rule_id: str) -> None:
    """The rules page shows an entry's first sentence: for these entries it is the whole
    entry, so nothing they are cited for is left off the page."""
    assert meaning(rule_id) == definitions()[rule_id]

"""The pages of an event in progress (``site/round_view.py``), read back from the built site:
the calendar links the event and says where it stands, the event's page lists each section's
rounds, and each round paired has a page with its boards (White and Black with their rating
and points before the round, the result or a dash), the players without a game and why, and
the standings after it with the points scored so far, provisional while a result is missing;
in English, Italian and Spanish. The season is ``live_season``'s: the Utah Open in progress
(section X: round 1 finished, round 2 with one result in; section A: round 1 with one result
in)."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import pytest

from grandprix.model import ResultKind
from grandprix.pairing.state import Pairing, Tournament, round_pairing
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.site.build import build_site
from html_tree import Node, parse
from live_season import (
    A_FULL,
    A_ZERO,
    EVENT,
    ROUND_1_A,
    ROUND_1_X,
    ROUND_2_X,
    TIEBREAKS,
    make_live_season,
)

K = ResultKind
EVENT_PAGE = "events/002-utah-open.html"
ROUND_PAGES = {  # (section, round) -> page
    ("X", 1): "events/002-utah-open-x-round-1.html",
    ("X", 2): "events/002-utah-open-x-round-2.html",
    ("A", 1): "events/002-utah-open-a-round-1.html",
}
HALF = Fraction(1, 2)
# What a board's result and a round without a game score, counted here by hand.
ONE, NIL = Fraction(1), Fraction(0)
GAME = {
    "1-0": (ONE, NIL),
    "0-1": (NIL, ONE),
    "½-½": (HALF, HALF),
    "+-": (ONE, NIL),
    "-+": (NIL, ONE),
}
NO_GAME = {K.PAIRING_BYE: ONE, K.FULL_BYE: ONE, K.HALF_BYE: HALF, K.ZERO_BYE: NIL, K.ABSENT: NIL}
NOT_IN = "–"


@dataclass
class Live:
    season: Season
    site: Path

    def tournament(self, section: str) -> Tournament:
        event = next(e for e in self.season.events if e.name == EVENT)
        return dict(event.under_way)[section]

    def pairing(self, section: str, number: int) -> Pairing:
        t = self.tournament(section)
        if t.current is not None and t.current.number == number:
            return t.current
        return round_pairing(t.section, t.plan, number)

    def names(self, section: str) -> dict[int, str]:
        return {p.start_no: p.name for p in self.tournament(section).section.players}

    def ratings(self, section: str) -> dict[int, int | None]:
        return {p.start_no: p.rating for p in self.tournament(section).section.players}

    def points_after(self, section: str, number: int) -> dict[str, Fraction]:
        """Each player's points after round ``number`` (0: before the first), from the boards'
        results entered and the rounds without a game."""
        names = self.names(section)
        points = dict.fromkeys(names.values(), Fraction(0))
        for n in range(1, number + 1):
            pairing = self.pairing(section, n)
            for b in pairing.boards:
                if b.result:
                    white, black = GAME[b.result]
                    points[names[b.white]] += white
                    points[names[b.black]] += black
            if pairing.bye is not None:
                points[names[pairing.bye]] += 1
            for start_no, kind in pairing.unpaired:
                points[names[start_no]] += NO_GAME[kind]
        return points

    def page(self, path: str) -> Node:
        return parse(self.site / path)

    @cached_property
    def pages(self) -> dict[str, Node]:
        return {path: self.page(path) for path in ROUND_PAGES.values()}


def build(base: Path, language: str = "en") -> Live:
    season, problems = load_season(make_live_season(base, language))
    assert season is not None, [str(p) for p in problems]
    build_site(season, base / "site")
    return Live(season, base / "site")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Live:
    return build(tmp_path_factory.mktemp("live"))


def table_of(page: Node, cls: str) -> Node:
    return next(t for t in page.iter("table") if t.has_class(cls))


def cells(row: Node) -> list[Node]:
    return [c for c in row.children if isinstance(c, Node) and c.tag in ("td", "th")]


def result(cell: Node) -> str:
    """A result as the eye reads it (the words for a screen reader left out)."""
    hidden = [n for n in cell.iter("span") if n.attrs.get("aria-hidden") == "true"]
    return hidden[0].text() if hidden else cell.text()


def boards(page: Node) -> list[tuple[str, str, str, str, str, str]]:
    """The pairings table's rows: board, White's name and details, result, Black's."""
    found = []
    for row in next(table_of(page, "pairings").iter("tbody")).iter("tr"):
        board, white, outcome, black = cells(row)
        found.append(
            (
                board.text(),
                next(white.iter("bdi")).text(),
                next(n for n in white.iter("span") if n.has_class("note")).text(),
                result(outcome),
                next(black.iter("bdi")).text(),
                next(n for n in black.iter("span") if n.has_class("note")).text(),
            )
        )
    return found


def standings(page: Node) -> list[tuple[str, str, str]]:
    """The standings table's rows: place, name, score."""
    table = table_of(page, "event")
    return [
        (row_cells[0].text(), row_cells[1].text(), row_cells[2].text())
        for row in next(table.iter("tbody")).iter("tr")
        if (row_cells := cells(row))
    ]


def heading(page: Node, anchor: str) -> str:
    return next(h for h in page.iter("h2") if h.attrs.get("id") == anchor).text()


def shown(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def words(value: Fraction) -> str:
    return f"{shown(value)} point" + ("" if value == 1 else "s")


# -- the calendar and the event's page -----------------------------------------------------------


def test_the_calendar_links_an_event_in_progress_and_says_where_it_stands(live: Live) -> None:
    listed = next(li for li in live.page("events.html").iter("li") if li.text().startswith(EVENT))
    link = next(listed.iter("a"))
    assert link.attrs["href"] == EVENT_PAGE
    assert listed.text() == f"{EVENT} · 2026-12-12, being played: round 2 of 4 under way"
    blitz = next(
        li for li in live.page("events.html").iter("li") if "Blitz" in li.text()
    )  # a planned event stays as it was: no link
    assert blitz.text() == "New Year's Eve Blitz · 2026-12-31, planned"
    assert not list(blitz.iter("a"))


def test_the_event_page_lists_each_sections_rounds_linking_each_round_paired(live: Live) -> None:
    page = live.page(EVENT_PAGE)
    assert next(page.iter("h1")).text() == EVENT
    assert [h.text() for h in page.iter("h2")] == ["X", "A"]
    items = [li.text() for li in page.iter("li") if li.text().startswith("Round ")]
    assert items == [
        "Round 1 · finished",
        "Round 2 · being played: 1 of 4 results in",
        "Round 3 · not paired yet",
        "Round 4 · not paired yet",
        "Round 1 · being played: 1 of 5 results in",
        "Round 2 · not paired yet",
        "Round 3 · not paired yet",
        "Round 4 · not paired yet",
    ]
    links = {a.attrs["href"] for a in page.iter("a")}
    assert {f"../{p}".removeprefix("../events/") for p in ROUND_PAGES.values()} <= links


# -- a round's pairings -------------------------------------------------------------------------


@pytest.mark.parametrize(("section", "number"), list(ROUND_PAGES))
def test_each_board_shows_white_and_black_with_rating_and_points_before_the_round(
    live: Live, section: str, number: int
) -> None:
    names, ratings = live.names(section), live.ratings(section)
    before = live.points_after(section, number - 1)
    expected = [
        (
            str(b.number),
            names[b.white],
            f"{ratings[b.white]} · {words(before[names[b.white]])}",
            b.result or NOT_IN,
            names[b.black],
            f"{ratings[b.black]} · {words(before[names[b.black]])}",
        )
        for b in live.pairing(section, number).boards
    ]
    assert boards(live.pages[ROUND_PAGES[section, number]]) == expected


def test_the_results_entered_show_and_the_missing_ones_a_dash(live: Live) -> None:
    finished = boards(live.pages[ROUND_PAGES["X", 1]])
    assert [b[3] for b in finished] == [ROUND_1_X[n] for n in range(1, len(finished) + 1)]
    under_way = boards(live.pages[ROUND_PAGES["X", 2]])
    assert [b[3] for b in under_way] == [ROUND_2_X.get(n, NOT_IN) for n in range(1, 5)]
    a = boards(live.pages[ROUND_PAGES["A", 1]])
    assert [b[3] for b in a] == [ROUND_1_A.get(n, NOT_IN) for n in range(1, len(a) + 1)]
    # the dash is for the eye; a screen reader hears that the result is not in
    row = list(
        next(table_of(live.pages[ROUND_PAGES["X", 2]], "pairings").iter("tbody")).iter("tr")
    )[1]
    assert [s.text() for s in cells(row)[2].iter("span")] == [NOT_IN, "not in yet"]


def test_a_forfeit_is_explained_under_the_boards(live: Live) -> None:
    def legends(path: str) -> list[tuple[str, str]]:
        lists = [dl for dl in live.pages[path].iter("dl") if dl.has_class("legend")]
        return [
            (dt.text(), dd.text())
            for dl in lists
            for dt, dd in zip(dl.iter("dt"), dl.iter("dd"), strict=True)
        ]

    assert legends(ROUND_PAGES["X", 1]) == [("+-", "White won by forfeit: the game was not played")]
    assert legends(ROUND_PAGES["X", 2]) == []  # no forfeit in it


def without_game(page: Node) -> list[str]:
    listed = next(u for u in page.iter("ul") if u.has_class("unpaired"))
    return [li.text() for li in listed.iter("li")]


def test_the_pairing_allocated_bye_and_the_byes_asked_for_are_named(live: Live) -> None:
    x, a = live.names("X"), live.names("A")
    bye = live.pairing("X", 1).bye
    assert bye is not None
    assert without_game(live.pages[ROUND_PAGES["X", 1]]) == [
        f"{x[bye]}: pairing-allocated bye {live.ratings('X')[bye]} · 0 points"
    ]
    asked = dict(live.pairing("X", 2).unpaired)
    assert list(asked.values()) == [K.HALF_BYE]  # the 240 record of the entries
    (half,) = asked
    assert without_game(live.pages[ROUND_PAGES["X", 2]]) == [
        f"{x[half]}: half-point bye {live.ratings('X')[half]} · 0.5 points"
    ]
    assert without_game(live.pages[ROUND_PAGES["A", 1]]) == [
        f"{a[A_ZERO]}: zero-point bye {live.ratings('A')[A_ZERO]} · 0 points",
        f"{a[A_FULL]}: full-point bye {live.ratings('A')[A_FULL]} · 0 points",
    ]


# -- the standings after a round ----------------------------------------------------------------


@pytest.mark.parametrize(("section", "number"), list(ROUND_PAGES))
def test_the_standings_after_each_round_hold_the_points_scored_so_far(
    live: Live, section: str, number: int
) -> None:
    """Every player once, with the points of the results entered (a board without its result
    scores nothing yet), best first."""
    rows = standings(live.pages[ROUND_PAGES[section, number]])
    expected = live.points_after(section, number)
    assert {name: score for _place, name, score in rows} == {
        name: shown(points) for name, points in expected.items()
    }
    scores = [Fraction(score) for _place, _name, score in rows]
    assert scores == sorted(scores, reverse=True)


def test_the_standings_after_round_2_of_x(live: Live) -> None:
    """By hand: Abbott won round 1 and board 1 of round 2 (2); a draw in round 1 and the
    half-point bye make 1; the player of the pairing-allocated bye has 1 (round 2 not in)."""
    rows = {
        name: (place, score) for place, name, score in standings(live.pages[ROUND_PAGES["X", 2]])
    }
    x = live.names("X")
    assert rows["Abbott, Greta"] == ("1", "2")
    (half,) = dict(live.pairing("X", 2).unpaired)
    assert rows[x[half]][1] == "1"
    bye = live.pairing("X", 1).bye
    assert bye is not None and rows[x[bye]][1] == "1"


def test_the_standings_show_the_events_tiebreaks_and_explain_them(live: Live) -> None:
    page = live.pages[ROUND_PAGES["X", 2]]
    table = table_of(page, "event")
    heads = [th.text() for th in next(table.iter("thead")).iter("th")]
    assert heads == ["Place", "Player", "Score", "Rating", *TIEBREAKS.split(",")]
    terms = [dt.text() for dl in page.iter("dl") if dl.has_class("terms") for dt in dl.iter("dt")]
    assert terms == TIEBREAKS.split(",")


def test_the_standings_are_provisional_while_a_result_of_the_round_is_missing(
    live: Live,
) -> None:
    finished = live.pages[ROUND_PAGES["X", 1]]
    assert heading(finished, "standings") == "Standings after round 1"
    assert not [p for p in finished.iter("p") if p.has_class("provisional")]
    for (section, number), missing in {("X", 2): 3, ("A", 1): 4}.items():
        page = live.pages[ROUND_PAGES[section, number]]
        assert heading(page, "standings") == f"Standings after round {number} (provisional)"
        (said,) = [p.text() for p in page.iter("p") if p.has_class("provisional")]
        assert said.startswith(f"Provisional: {missing} results of round {number} are not in")


def test_each_round_links_the_rounds_before_and_after_it(live: Live) -> None:
    def pager(path: str) -> list[tuple[str, str]]:
        navs = [n for n in live.pages[path].iter("nav") if n.has_class("pager")]
        return [(a.text(), a.attrs["href"]) for nav in navs for a in nav.iter("a")]

    x1, x2 = ROUND_PAGES["X", 1], ROUND_PAGES["X", 2]
    assert pager(x1) == [("Round 2", x2.removeprefix("events/"))]
    assert pager(x2) == [("Round 1", x1.removeprefix("events/"))]
    assert pager(ROUND_PAGES["A", 1]) == []  # round 2 of A is not paired yet
    crumbs = next(n for n in live.pages[x2].iter("nav") if n.has_class("crumbs"))
    assert [a.attrs["href"] for a in crumbs.iter("a")][-1] == EVENT_PAGE.removeprefix("events/")


def test_a_player_of_the_standings_is_linked_to_their_page(live: Live) -> None:
    """The names link to the players' pages where the season has one (the players of its
    played event)."""
    page = live.pages[ROUND_PAGES["X", 2]]
    links = [a.attrs["href"] for a in page.iter("a") if a.attrs["href"].startswith("../players/")]
    assert links
    assert all((live.site / "events" / href).resolve().exists() for href in links)


# -- languages, escaping, and the seasons without an event in progress --------------------------


LANGUAGES = {
    "it": (
        "Utah Open, X: turno 2",
        "Abbinamenti",
        "Classifica dopo il turno 2 (provvisoria)",
        "Utah Open · 12 dic 2026, in corso: si gioca il turno 2 di 4",
        "bye da mezzo punto",
        "0,5 punti",
        "Turno 1",
    ),
    "es": (
        "Utah Open, X: ronda 2",
        "Emparejamientos",
        "Clasificación tras la ronda 2 (provisional)",
        "Utah Open · 12 dic 2026, en marcha: se está jugando la ronda 2 de 4",
        "bye de medio punto",
        "0,5 puntos",
        "Ronda 1",
    ),
}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_pages_speak_the_seasons_language(tmp_path: Path, language: str) -> None:
    title, pairings, after, calendar, half, points, previous = LANGUAGES[language]
    live = build(tmp_path, language)
    page = live.page(ROUND_PAGES["X", 2])
    assert next(page.iter("html")).attrs["lang"] == language
    assert next(page.iter("h1")).text() == title
    assert heading(page, "pairings") == pairings
    assert heading(page, "standings") == after
    assert any(half in item for item in without_game(page))
    assert any(points in b[2] or points in b[5] for b in boards(page))
    navs = [n for n in page.iter("nav") if n.has_class("pager")]
    assert [a.text() for nav in navs for a in nav.iter("a")] == [previous]
    assert calendar in [li.text() for li in live.page("events.html").iter("li")]


def test_names_from_the_trf_are_escaped(tmp_path: Path) -> None:
    xss = "<img src=x onerror=alert(1)>"
    folder = make_live_season(tmp_path)
    trf = folder / "open" / "x.trf"
    lines = trf.read_text(encoding="utf-8").splitlines()
    lines = [
        ln[:14] + xss.ljust(33) + ln[47:] if ln.startswith("001    1 ") else ln for ln in lines
    ]
    trf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    build_site(season, tmp_path / "site")
    for path in ROUND_PAGES.values():
        html = (tmp_path / "site" / path).read_text(encoding="utf-8")
        assert xss not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in (
        tmp_path / "site" / ROUND_PAGES["X", 1]
    ).read_text(encoding="utf-8")


def test_an_event_planned_again_has_no_pages_of_rounds(tmp_path: Path) -> None:
    """The same season with the Utah Open only planned: the calendar says so, and the site has
    no page of it."""
    folder = make_live_season(tmp_path)
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8").replace("in_progress = true", "planned = true")
    text = re.sub(r'\[\[events\.sections\]\]\nname = "[XA]"\nresults = "open/.\.trf"\n', "", text)
    toml.write_text(text, encoding="utf-8")
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    build_site(season, tmp_path / "site")
    assert sorted(p.name for p in (tmp_path / "site" / "events").iterdir()) == [
        "001-utah-class-championships.html",
        "after-001.html",
    ]
    listed = [li.text() for li in parse(tmp_path / "site" / "events.html").iter("li")]
    assert f"{EVENT} · 2026-12-12, planned" in listed
    shutil.rmtree(tmp_path / "site")


def test_an_event_in_progress_with_an_unknown_tiebreak_is_an_error_at_its_line(
    tmp_path: Path,
) -> None:
    """The tie-breaks an event in progress names are checked as a played event's are: its
    standings after each round are placed with them."""
    folder = make_live_season(tmp_path)
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    assert f'tiebreaks = "{TIEBREAKS}"' in text
    toml.write_text(text.replace(f'tiebreaks = "{TIEBREAKS}"', 'tiebreaks = "BH,XYZ"'), "utf-8")
    _season, problems = load_season(folder)
    found = [p for p in problems if "XYZ" in p.message]
    assert len(found) == 1, [str(p) for p in problems]
    line = text.splitlines().index(f'tiebreaks = "{TIEBREAKS}"') + 1
    assert found[0].location.line == line and EVENT in found[0].message

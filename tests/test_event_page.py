"""An event's page as chess players read it: the crosstable of a section read with its rounds
(checked against the results file's own rounds), each tie-break column named and explained, and
the players' title, federation and rating where the results give them.

The pages are the files ``build_site`` writes for the example seasons, read back with Python's
HTML parser: what a reader sees, not the records behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import pytest

from builders import build
from conftest import ROOT
from grandprix.model import Player, ResultKind, Round, Scoring, Section
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Season, SeasonEvent
from grandprix.site.build import build_site
from grandprix.site.event_view import crosstable_of
from grandprix.site.pages import EventRow
from html_tree import Node, cells, parse

K = ResultKind
SEASONS = ["utah-2012", "utah-2026", "circuit-2026", "acf-2004", "lupiae-2012-13"]
PAGE_LIMIT = 200_000  # bytes of an event page of an example season


# -- the pages, read back -----------------------------------------------------------------------


def heads(table: Node) -> list[str]:
    return [th.text() for th in next(table.iter("thead")).iter("th")]


def body_rows(table: Node) -> list[list[str]]:
    return [[c.text() for c in cells(tr)] for tr in next(table.iter("tbody")).iter("tr")]


def table_of(part: Node, css: str) -> Node | None:
    return next((t for t in part.iter("table") if t.has_class(css)), None)


# -- the example seasons' sites -----------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    season: Season
    out: Path

    def section_part(self, event: SeasonEvent, section: str) -> Node:
        """The ``<section>`` of an event's page showing the section called ``section``."""
        for page in sorted((self.out / "events").glob("*.html")):
            tree = parse(page)
            if next(tree.iter("h1")).text() != event.name:
                continue
            for part in tree.iter("section"):
                if next(part.iter("h2")).text() == section:
                    return part
        raise AssertionError(f"no page shows {event.name!r}, section {section!r}")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Site]:
    built = {}
    for name in SEASONS:
        season, problems = load_season(ROOT / "examples" / name)
        assert season is not None, [str(p) for p in problems]
        out = tmp_path_factory.mktemp("sites") / name
        build_site(season, out)
        built[name] = Site(season, out)
    return built


def crosstable_sections(season: Season) -> list[tuple[SeasonEvent, str, Section]]:
    return [
        (e, s.name, s.section)
        for e in season.events
        if not e.planned
        for s in e.sections
        if s.section.has_crosstable and any(p.rounds for p in s.section.players)
    ]


# -- the crosstable against the results file's rounds -------------------------------------------

# A round as a crosstable prints it, written here from the TRF's own letters (FIDE C.04 Annex 2).
GAME_RESULT = {"1": "1", "=": "½", "0": "0", "W": "1", "D": "½", "L": "0"}
FORFEIT = {"+": "+", "-": "-", "--": "--"}


def half_points(value: Fraction) -> str:
    whole = int(value)
    return ("" if whole == 0 and value != 0 else str(whole)) + ("½" if value - whole else "")


def expected_cell(r: Round, number_of: dict[int, int]) -> str:
    """What the cell of round ``r`` must say: the opponent's No. in the table (the start number
    mapped through ``number_of``), the colour and the result."""
    code = r.kind.value
    if code in GAME_RESULT:
        return f"{number_of[r.opponent or 0]}{r.colour or ' '}{GAME_RESULT[code]}"
    if code in FORFEIT:
        opponent = str(number_of[r.opponent]) if r.opponent is not None else ""
        return f"{opponent}{r.colour or ''}{FORFEIT[code]}"
    if code == "U":
        return f"PAB {half_points(r.points)}"
    if code in ("F", "H", "Z"):
        return f"bye {half_points(r.points)}"
    return "–"


@pytest.mark.parametrize("name", ["utah-2012", "utah-2026"])
def test_every_crosstable_cell_is_the_opponent_colour_and_result_the_file_gives(
    sites: dict[str, Site], name: str
) -> None:
    """For every section read from a TRF, the crosstable has a row per player and a column per
    round; a player's cell of round r names the opponent of the file's round r by the row
    number that opponent has in this table, with the file's colour and result."""
    site = sites[name]
    sections = crosstable_sections(site.season)
    assert len(sections) >= 3
    checked = 0
    for event, section_name, section in sections:
        table = table_of(site.section_part(event, section_name), "cross")
        assert table is not None, f"{event.name}, {section_name}: no crosstable"
        head = heads(table)
        rounds = max(section.rounds, *(len(p.rounds) for p in section.players))
        assert [h for h in head if h.startswith("Rd ")] == [f"Rd {r}" for r in range(1, rounds + 1)]
        first = head.index("Rd 1")
        rows = body_rows(table)
        assert len(rows) == len(section.players)
        number_on_page = {row[head.index("Player")]: int(row[0]) for row in rows}
        assert sorted(number_on_page.values()) == list(range(1, len(rows) + 1))
        by_name = {p.name: p for p in section.players}
        assert len(by_name) == len(section.players)  # names tell the players apart here
        number_of = {p.start_no: number_on_page[p.name] for p in section.players}
        for row in rows:
            player = by_name[row[head.index("Player")]]
            shown = row[first : first + rounds]
            wanted = ["–"] * rounds
            for r in player.rounds:
                wanted[r.number - 1] = expected_cell(r, number_of)
            assert shown == wanted, f"{event.name}, {player.name}"
            assert row[head.index("Score")] == show(player.points)
            checked += 1
    assert checked > 40


def test_provo_open_crosstable_reads_as_the_trf_says(sites: dict[str, Site]) -> None:
    """Provo Open (provo_open.trf): Barnes, Hugo (start no. 5) won round 1 by forfeit against
    Young, Owen (14) with White, took a half-point bye in round 2, beat Price, Esme (11) with
    Black, took a zero-point bye, drew Vance, Xavi (1) with White; Quill, Vik (3) had the
    pairing-allocated bye in round 4."""
    site = sites["utah-2012"]
    event = next(e for e in site.season.events if e.name == "Provo Open")
    table = table_of(site.section_part(event, "Provo Open"), "cross")
    assert table is not None
    head = heads(table)
    rows = {row[head.index("Player")]: row for row in body_rows(table)}
    no = {name: row[0] for name, row in rows.items()}
    hugo = rows["Barnes, Hugo"][head.index("Rd 1") : head.index("Rd 5") + 1]
    assert hugo == [
        f"{no['Young, Owen']}w+",
        "bye ½",
        f"{no['Price, Esme']}b1",
        "bye 0",
        f"{no['Vance, Xavi']}w½",
    ]
    assert rows["Young, Owen"][head.index("Rd 1")] == f"{no['Barnes, Hugo']}b-"
    assert rows["Quill, Vik"][head.index("Rd 4")] == "PAB 1"
    assert rows["Barnes, Hugo"][head.index("Rating")] == "2659"
    assert rows["Barnes, Hugo"][head.index("Fed")] == "ZZZ"


def test_a_crosstable_is_a_table_a_screen_reader_can_walk(sites: dict[str, Site]) -> None:
    """A caption; every heading cell has a scope and some text; each row is headed by the
    player's name; the table sits in a labelled region that takes the keyboard's focus, so a
    table wider than the screen can be scrolled without a mouse."""
    site = sites["utah-2012"]
    event = next(e for e in site.season.events if e.name == "Utah Open")
    part = site.section_part(event, event.sections[0].name)
    table = table_of(part, "cross")
    assert table is not None
    assert next(table.iter("caption")).text()
    for th in table.iter("th"):
        assert th.attrs.get("scope") in ("col", "row") and th.text(), th
    for tr in next(table.iter("tbody")).iter("tr"):
        assert [c.attrs.get("scope") for c in cells(tr) if c.tag == "th"] == ["row"]
    region = next(d for d in part.iter("div") if table in list(d.iter("table")))
    assert region.has_class("scroll") and region.attrs.get("tabindex") == "0"
    label = region.attrs["aria-labelledby"]
    assert any(h.attrs.get("id") == label and h.text() for h in part.iter("h3"))
    legend = [
        dt.text() for dt in next(d for d in part.iter("dl") if d.has_class("legend")).iter("dt")
    ]
    assert "12w1" in legend


def test_a_standings_list_section_has_no_crosstable(sites: dict[str, Site]) -> None:
    """Salt Lake Winter Quick is a standings CSV (rank, name, id, points): no rounds to show,
    so no crosstable and no rating column; its placings table is there."""
    site = sites["utah-2012"]
    event = next(e for e in site.season.events if e.name == "Salt Lake Winter Quick")
    assert not event.sections[0].section.has_crosstable
    part = site.section_part(event, event.sections[0].name)
    assert table_of(part, "cross") is None
    assert not any("Crosstable" in h.text() for h in part.iter("h3"))
    placings = table_of(part, "event")
    assert placings is not None
    assert heads(placings)[:3] == ["Place", "Player", "Score"]
    assert "Rating" not in heads(placings)


# -- ratings, federation, title -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["utah-2012", "circuit-2026"])
def test_the_placings_show_each_players_rating_and_federation_from_the_file(
    sites: dict[str, Site], name: str
) -> None:
    site = sites[name]
    checked = 0
    for event, section_name, section in crosstable_sections(site.season):
        placings = table_of(site.section_part(event, section_name), "event")
        assert placings is not None
        head = heads(placings)
        by_name = {p.name: p for p in section.players}
        for row in body_rows(placings):
            player = by_name[row[head.index("Player")]]
            assert row[head.index("Rating")] == (
                "" if player.rating is None else str(player.rating)
            )
            assert row[head.index("Fed")] == player.federation
            checked += 1
        assert "Title" not in head  # no title in these files: no empty column
    assert checked > 40


def test_titles_show_when_the_file_gives_them() -> None:
    """A section with one titled player gets a title column in its crosstable, empty for the
    others."""
    section = build(1, {"A": ["B w 1"], "B": ["A b 0"]}, ratings={"A": 2500, "B": 2400})
    players = (replace(section.players[0], title="GM"), section.players[1])
    titled = Section(section.name, players, section.rounds)
    cross = crosstable_of(titled, [0, 1], rows_for(titled))
    assert cross.titles and cross.ratings and not cross.federations
    assert [(r.title, r.rating) for r in cross.rows] == [("GM", "2500"), ("", "2400")]


# -- each kind of round ---------------------------------------------------------------------------


def rows_for(section: Section) -> list[EventRow]:
    return [
        EventRow(str(i), p.name, "", show(p.points), (), ())
        for i, p in enumerate(section.players, 1)
    ]


def section_of(rounds: dict[str, list[tuple[ResultKind, str, str]]], size: int) -> Section:
    """Players named A, B, C, ... (start numbers 1, 2, 3, ...); each given player's rounds as
    (kind, opponent's name or '', colour or ''), the others with none."""
    names = [chr(ord("A") + i) for i in range(size)]
    scoring = Scoring()
    players = tuple(
        Player(
            n,
            name,
            tuple(
                Round(
                    r,
                    kind,
                    scoring.points(kind),
                    names.index(opp) + 1 if opp else None,
                    colour or None,
                )
                for r, (kind, opp, colour) in enumerate(rounds.get(name, []), 1)
            ),
        )
        for n, name in enumerate(names, 1)
    )
    return Section("test", players, max(len(r) for r in rounds.values()))


def test_each_kind_of_round_has_its_notation_and_its_legend() -> None:
    """A game with White or Black (1, ½, 0; a game of less than one move the same), forfeits
    (+, -), a double forfeit (--), the pairing-allocated bye (PAB), requested byes with their
    points, and a round without a pairing or after withdrawing (–); a game whose colour the
    file does not give keeps its number apart from its result with a space. Here the final
    order is the start order, so No. is the start number."""
    section = section_of(
        {
            "A": [
                (K.WIN, "C", "w"),
                (K.DRAW, "D", "b"),
                (K.FORFEIT_WIN, "E", "w"),
                (K.FORFEIT_LOSS, "F", "b"),
                (K.PAIRING_BYE, "", ""),
                (K.HALF_BYE, "", ""),
                (K.ABSENT, "", ""),
                (K.WITHDRAWN, "", ""),
            ],
            "B": [
                (K.WIN_UNRATED, "G", "b"),
                (K.DRAW_UNRATED, "H", "w"),
                (K.LOSS_UNRATED, "C", "b"),
                (K.ZERO_BYE, "", ""),
                (K.FULL_BYE, "", ""),
                (K.DOUBLE_FORFEIT, "D", "w"),
                (K.LOSS, "E", "b"),
                (K.DRAW, "F", ""),
            ],
        },
        8,
    )
    cross = crosstable_of(section, range(8), rows_for(section))
    a, b = cross.rows[0], cross.rows[1]
    assert a.rounds == ("3w1", "4b½", "5w+", "6b-", "PAB 1", "bye ½", "–", "–")
    assert b.rounds == ("7b1", "8w½", "3b0", "bye 0", "bye 1", "4w--", "5b0", "6 ½")
    assert cross.rows[2].rounds == ("–",) * 8  # no rounds given: never paired
    marks = [mark for mark, _ in cross.legend]
    assert marks == ["12w1", "12b+", "12w--", "PAB 1", "bye ½", "–"]
    assert cross.rounds == 8 and not (cross.titles or cross.federations or cross.ratings)


def test_cells_name_opponents_by_their_number_in_the_final_order() -> None:
    """The cells name opponents by their number in the table, the final order, not by start
    number: the same round reads differently when the order changes."""
    section = build(1, {"A": ["B w 1"], "B": ["A b 0"]})
    first = crosstable_of(section, [0, 1], rows_for(section))
    turned = crosstable_of(section, [1, 0], list(reversed(rows_for(section))))
    assert [r.rounds for r in first.rows] == [("2w1",), ("1b0",)]
    assert [(r.name, r.rounds) for r in turned.rows] == [("B", ("2b0",)), ("A", ("1w1",))]


# -- tie-breaks in words ------------------------------------------------------------------------


def test_each_tiebreak_column_is_named_and_explained_under_its_table(
    sites: dict[str, Site],
) -> None:
    """circuit-2026 places its events by BH/C1, BH, SB and by SB, WIN: each column's heading is
    an ``<abbr>`` whose title is the full name, and a definition list under the table gives
    each code with its name and a sentence, readable on a phone (no tooltip needed)."""
    site = sites["circuit-2026"]
    seen: set[str] = set()
    for event in site.season.events:
        for s in event.sections:
            part = site.section_part(event, s.name)
            placings = table_of(part, "event")
            assert placings is not None
            abbrs = {
                a.text(): a.attrs.get("title", "")
                for a in next(placings.iter("thead")).iter("abbr")
            }
            codes = [c.strip() for c in (event.tiebreaks or "").split(",") if c.strip()]
            assert codes, event.name
            terms = next(d for d in part.iter("dl") if d.has_class("terms"))
            defined = dict(
                zip(
                    [dt.text() for dt in terms.iter("dt")],
                    [dd.text() for dd in terms.iter("dd")],
                    strict=True,
                )
            )
            assert list(defined) == codes
            for code in codes:
                assert abbrs[code] and abbrs[code] != code
                assert defined[code].startswith(abbrs[code][:1].upper() + abbrs[code][1:])
                assert len(defined[code]) > len(abbrs[code]) + 20  # a sentence, not the name
                seen.add(code)
    assert seen == {"BH/C1", "BH", "SB", "WIN"}
    part = site.section_part(site.season.events[0], site.season.events[0].sections[0].name)
    said = next(d for d in part.iter("dl") if d.has_class("terms")).text()
    assert "Buchholz less the lowest 1." in said and "left out" in said
    assert "Sonneborn-Berger." in said and "plus half the scores" in said


# -- size ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SEASONS)
def test_every_event_page_of_the_examples_stays_small(sites: dict[str, Site], name: str) -> None:
    pages = sorted((sites[name].out / "events").glob("*.html"))
    largest = max(pages, key=lambda p: p.stat().st_size)
    assert largest.stat().st_size < PAGE_LIMIT, largest.name


def test_an_event_page_has_a_breadcrumb_and_links_to_the_events_before_and_after(
    sites: dict[str, Site],
) -> None:
    """Each event page: Standings > Events > the event; and the previous and next event played,
    in the calendar's order (none before the first, none after the last)."""
    from grandprix.site.views import SiteViews

    site = sites["utah-2012"]
    views = SiteViews(site.season)
    order = sorted(views.events)
    for at, index in enumerate(order):
        page = views.event(index)
        before = page.previous.href if page.previous else None
        after = page.next.href if page.next else None
        assert before == (views.event_files[order[at - 1]] if at else None)
        assert after == (views.event_files[order[at + 1]] if at + 1 < len(order) else None)
    html = (site.out / "events" / views.event_files[order[1]]).read_text()
    assert 'aria-label="Breadcrumb"' in html and 'href="../events.html">Events</a>' in html
    assert "Previous event: <a" in html and "Next event: <a" in html

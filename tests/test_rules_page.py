"""The rules page in plain words (site/words/rules.py), for each example season: no settings
syntax or key names, counts that agree with the lists they introduce, the preset's points
tables, a worked example whose numbers are the engine's, and an anchor and a meaning for every
rule ID the rule set cites."""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from conftest import ROOT
from grandprix.rules.books import meaning
from grandprix.rules.load import PRESETS
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.site.build import environment
from grandprix.site.pages import ListPage
from grandprix.site.parts import Block, Code, Table
from grandprix.site.views import SiteViews
from grandprix.site.words.common import NUMBER_WORDS, ordinal, rule_anchor, rule_href
from grandprix.site.words.example import example_result
from grandprix.site.words.rules import page_rule_ids

SEASONS = ["utah-2012", "acf-2004", "lupiae-2012-13", "utah-2026", "circuit-2026"]
# Settings syntax and key names a reader must never meet.
LEAKS = (
    "[[",
    "`",
    "season.toml",
    "require",
    " = ",
    "==",
    "last-event",
    "season-start",
    "discarded",
)
LEAK_PATTERNS = (r"\w_\w", r"\btrue\b", r"\bfalse\b", r"\bNone\b")
COUNTED = re.compile(rf"\b(?P<n>{'|'.join(NUMBER_WORDS)}|\d+) (?P<noun>[a-z]+s)\b", re.IGNORECASE)


@cache
def season_of(name: str) -> Season:
    season, problems = load_season(ROOT / "examples" / name)
    assert season is not None, [str(p) for p in problems]
    return season


@cache
def views_of(name: str) -> SiteViews:
    return SiteViews(season_of(name))


def page_of(name: str) -> ListPage:
    return views_of(name).rules()


def cells(table: Table) -> list[str]:
    return [
        *table.head,
        table.caption,
        *(
            c if isinstance(c, str) else c.code if isinstance(c, Code) else c.text
            for r in table.rows
            for c in r
        ),
    ]


def texts(page: ListPage) -> list[str]:
    """Every piece of text of the page: intro, headings, paragraphs, entries, table cells."""
    out = [page.title, page.intro]
    for b in page.blocks:
        out += [b.heading, *b.paragraphs, *(e.text for e in b.entries)]
        out += [cell for t in b.tables for cell in cells(t)]
    return out


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [v for k, v in attrs if k == "id" and v]

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def rendered(name: str) -> _Text:
    """The rules page as the site writes it (list.html), read back as text and anchors."""
    env = environment()  # the site's own: autoescaping, the templates' words through gettext
    page = page_of(name)
    html = env.get_template("list.html").render(
        root="", season_name=season_of(name).name, decimals=2, **vars_of(page)
    )
    parser = _Text()
    parser.feed(html)
    return parser


def vars_of(page: ListPage) -> dict[str, Any]:
    return {"path": page.path, "title": page.title, "intro": page.intro, "blocks": page.blocks}


def leaks(text: str) -> list[str]:
    found = [leak for leak in LEAKS if leak in text]
    return found + [p for p in LEAK_PATTERNS if re.search(p, text)]


def counts_before_a_colon(paragraph: str) -> list[tuple[int, str]]:
    """'The season has six divisions, each with its own standings:' -> [(6, 'divisions')]:
    the counts of the last sentence of a paragraph that introduces a list."""
    last = re.split(r"(?<=[.;])\s+", paragraph)[-1]
    found = []
    for m in COUNTED.finditer(last):
        word = m["n"].lower()
        n = NUMBER_WORDS.index(word) if word in NUMBER_WORDS else int(word)
        found.append((n, m["noun"]))
    return found


def test_the_count_finder_finds_the_mistake_the_old_page_made() -> None:
    assert counts_before_a_colon("Points by tournament class in seven divisions:") == [
        (7, "divisions")
    ]
    assert counts_before_a_colon("Best 5 results. The season has 19 prizes, given on:") == [
        (19, "prizes")
    ]


@pytest.mark.parametrize("name", SEASONS)
def test_no_settings_syntax_or_key_names_on_the_page(name: str) -> None:
    page = page_of(name)
    bad = {text: leaks(text) for text in texts(page) if leaks(text)}
    assert not bad, bad
    shown = " ".join(rendered(name).parts)
    assert not leaks(shown), leaks(shown)


@pytest.mark.parametrize("name", SEASONS)
def test_every_count_before_a_list_is_the_length_of_that_list(name: str) -> None:
    """A paragraph that ends with a colon is the last of its block, the block's first table is
    the list it introduces, and every count in its last sentence is that table's length; the
    divisions and prizes introduced are the rule set's."""
    rules = season_of(name).rules
    introduced = 0
    for block in page_of(name).blocks:
        for i, paragraph in enumerate(block.paragraphs):
            if not paragraph.endswith(":"):
                continue
            assert i == len(block.paragraphs) - 1 and block.tables, paragraph
            rows = len(block.tables[0].rows)
            for n, noun in counts_before_a_colon(paragraph):
                introduced += 1
                assert n == rows, f"{paragraph!r} introduces {rows} {noun}"
                expected = {"divisions": len(rules.divisions), "prizes": len(rules.prizes.prize)}
                assert n == expected.get(noun, n), paragraph
    assert introduced >= {"circuit-2026": 0}.get(name, 1 if name.startswith("utah") else 2)


@pytest.mark.parametrize("name", [n for n in SEASONS if n != "circuit-2026"])  # one table
def test_the_points_table_on_the_page_is_the_presets(name: str) -> None:
    season = season_of(name)
    preset = tomllib.loads((PRESETS / f"{season.rules.name}.toml").read_text(encoding="utf-8"))
    points = preset["points"]
    wanted = {f"Class {c['name']}": c["table"] for c in points.get("classes", [])}
    wanted = wanted or {"Points": points["table"]}
    block = next(b for b in page_of(name).blocks if b.anchor == "points")
    table = next(t for t in block.tables if t.head[0] == "Place")
    assert list(table.head[1:]) == list(wanted)
    by_place = [r for r in table.rows if re.fullmatch(r"\d+(st|nd|rd|th)", str(r[0]))]
    assert [r[0] for r in by_place] == [ordinal(n) for n in range(1, len(by_place) + 1)]
    for column, values in enumerate(wanted.values(), 1):
        assert [Fraction(str(r[column])) for r in by_place] == [Fraction(v) for v in values]
    below = [r for r in table.rows if r not in by_place]
    least = [(f"{ordinal(len(by_place) + 1)} and below", "1")]
    assert below == (least if name.startswith("lup") else [])


def example_of(name: str) -> tuple[str, str]:
    block = next(b for b in page_of(name).blocks if b.anchor == "example")
    return block.heading, " ".join(block.paragraphs)


@pytest.mark.parametrize("name", SEASONS)
def test_the_worked_example_shows_the_engines_numbers_for_that_result(name: str) -> None:
    """The example is a real counted result of a real player; its points, the table values
    shared, the rates, the counted results and the total are the engine's, they agree with the
    player's own page, and the page shows no number the engine did not give."""
    season = season_of(name)
    views = views_of(name)
    found = example_result(views.tables)
    assert found is not None
    division, line, award = found
    assert award in line.counted and award.points > 0
    decimals = season.rules.standings.decimals
    _, text = example_of(name)

    def pts(value: Fraction) -> str:
        return show(value, decimals)

    mean = sum(award.values, Fraction(0)) / len(award.values)
    assert award.base == max(mean, season.rules.points.minimum)
    weights = award.event_weight * award.section_weight
    assert award.points == award.base * award.factor * weights + award.extra
    reasons = [*award.valuation.factors, *award.valuation.bonuses]
    for reason, value in reasons:  # multipliers and bonuses, with the reasons the engine gives
        assert show(value) in text and reason in text
    assert line.total == sum((a.points for a in line.counted), Fraction(0)) + line.bonus
    for number in [pts(award.points), pts(line.total), pts(mean), show(award.score)]:
        assert number in text
    assert f"the average of {', '.join(show(v) for v in award.values[:-1])}" in text or (
        len(award.values) == 1 and f"worth {show(award.values[0])} points" in text
    )
    for weight in (award.event_weight, award.section_weight):
        assert weight == 1 or f"{show(weight)} times" in text
    best_first = sorted(line.counted, key=lambda a: -a.points)
    assert len(line.counted) == 1 or " + ".join(pts(a.points) for a in best_first) in text
    part = next(
        p for p in views.player(line.player).parts if p.division == (division or "Standings")
    )
    result = next(r for r in part.results if r.date == award.date.isoformat())
    assert result.points == pts(award.points) and result.counted
    assert part.total == pts(line.total)
    engine = {
        *(show(v) for v in award.values),
        pts(award.base),
        pts(mean),
        pts(award.points),
        show(award.event_weight),
        show(award.section_weight),
        show(award.score),
        pts(line.total),
        pts(line.total - line.bonus),
        *(pts(a.points) for a in line.awards),
        pts(line.bonus),
        show(season.rules.counting.bonus_per_event),
        str(award.first),
        str(award.last),
        str(len(line.counted)),
        str(len(line.awards)),
        str(line.events),
        award.table_name,
        *re.findall(r"\d+", award.overall),
        *re.findall(r"\d+", line.rank),
        str(award.date.day),
        str(award.date.year),
        *re.findall(r"\d+", award.event_name),
        *re.findall(r"\d+", award.section),
        *(show(value) for _, value in reasons),
        *(n for reason, _ in reasons for n in re.findall(r"\d+(?:\.\d+)?", reason)),
    }
    shown = re.findall(r"\d+(?:\.\d+)?", re.sub(r"\b(\d+)(st|nd|rd|th)\b", r"\1", text))
    assert set(shown) <= engine, set(shown) - engine


def test_the_utah_example_works_through_a_shared_place_and_a_skipped_player() -> None:
    """utah-2012: the leader tied 2nd-6th among eligible players at the Provo Open (2nd-7th
    among all), the average of 15, 12, 10, 8 and 6."""
    heading, text = example_of("utah-2012")
    assert heading == "An example from this season"
    assert "tied with four other players for 2nd to 6th place (2nd-7th among all players" in text
    assert "the average of 15, 12, 10, 8 and 6, which is 10.20" in text


@pytest.mark.parametrize("name", SEASONS)
def test_every_rule_id_cited_has_an_anchor_and_its_meaning(name: str) -> None:
    rules = season_of(name).rules
    blocks: dict[str, Block] = {b.anchor: b for b in page_of(name).blocks if b.anchor}
    anchors = [b.anchor for b in page_of(name).blocks if b.anchor]
    assert len(anchors) == len(set(anchors))
    ids = page_rule_ids(rules)
    assert set(rules.cites) <= set(ids)
    assert any(i.startswith("D-") for i in ids)
    html_ids = set(rendered(name).ids)
    for rule_id in ids:
        block = blocks[rule_anchor(rule_id)]
        assert block.heading == rule_id
        assert block.paragraphs == (meaning(rule_id),)
        assert rule_anchor(rule_id) in html_ids
    assert rule_href("UT-5") == "rules.html#rule-UT-5"


def test_rule_ids_a_rule_set_cites_without_a_definition_still_get_an_anchor() -> None:
    rules = season_of("utah-2012").rules.model_copy(update={"cites": ["UT-3", "CLUB-7"]})
    assert page_rule_ids(rules) == ["UT-3", "D-UT-1", "D-UT-2", "D-UT-3", "CLUB-7"]


@pytest.mark.parametrize("name", SEASONS)
def test_rule_ids_are_parts_of_one_heading_and_name_only_the_seasons_own_book(name: str) -> None:
    """The rule IDs' headings are level 3 under the level-2 'Rule IDs'; no meaning on a season's
    rules page names a rule of another book by its ID."""
    page = page_of(name)
    headings = [(b.heading, b.level) for b in page.blocks if b.heading]
    at = headings.index(("Rule IDs", 2))
    assert all(level == 3 for _, level in headings[at + 1 :]) and len(headings) > at + 1
    books = {i.removeprefix("D-").split("-")[0] for i in page_rule_ids(season_of(name).rules)}
    for block in page.blocks[at + 1 :]:
        others = [
            m
            for m in re.findall(r"\b(?:D-)?([A-Z]{2,4})-\d", " ".join(block.paragraphs))
            if m not in books
        ]
        assert not others, (block.heading, block.paragraphs)


def test_the_tiebreaks_that_place_players_are_said_with_what_they_measure() -> None:
    """Lupiae places players by Buchholz, then Sonneborn-Berger: the rules page names both and
    says what each measures."""
    said = " ".join(p for b in page_of("lupiae-2012-13").blocks for p in b.paragraphs)
    assert "Buchholz: the sum of the scores of the player's opponents" in said
    assert "Sonneborn-Berger: the scores of the opponents the player beat" in said


def test_a_division_that_limits_by_rating_list_narrow_says_so_where_it_says_who_belongs() -> None:
    """acf-2004: Open is 'everyone' but for the limits by rating list (ACF-12), and its row says
    so, so that the page does not contradict itself; Junior and Women, which every limit
    allows, do not."""
    [table] = [t for b in page_of("acf-2004").blocks for t in b.tables if t.caption == "Divisions"]
    who = {str(row[0]): str(row[1]) for row in table.rows}
    assert who["Open"] == "Everyone, but for the limits by rating list below"
    assert "limits" not in who["Junior"] and "limits" not in who["Women"]

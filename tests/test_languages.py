"""The languages of the pages: every word marked for translation is translated in every
catalog, with the same placeholders; numbers, dates and places as each language writes them;
season.toml's `language` checked where it is written."""

from __future__ import annotations

import datetime
import re
import shutil
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from grandprix.language import (
    ENGLISH,
    LANGUAGES,
    _,
    catalog_path,
    count,
    decimal,
    long_date,
    money,
    ngettext,
    ordinal,
    short_date,
    speaking,
)
from grandprix.season.config import load_season
from grandprix.serve.seasons import SeasonSource
from grandprix.site.build import build_site
from html_tree import Node, parse
from seasons import event, load, season_toml, standings_csv, write_season

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "grandprix"
# As babel.cfg says (``make messages`` reads it): the source, the templates, the rule books.
METHODS = [
    ("src/grandprix/**.py", "python"),
    ("src/grandprix/site/templates/**.html", "jinja2"),
    ("src/grandprix/rules/rule-books.md", "grandprix-rule-books"),
]
OTHERS = [code for code in LANGUAGES if code != ENGLISH]
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sd]")

Key = tuple[str | None, str | tuple[str, str]]  # (context, message or singular and plural)


@cache
def extracted() -> dict[Key, str]:
    """Every message the pages may show, as Babel extracts it, with where it was found."""
    found: dict[Key, str] = {}
    for name, line, message, _comments, context in extract_from_dir(
        str(ROOT),
        METHODS,
        keywords={**DEFAULT_KEYWORDS, "Phrase": None},  # as make messages: -k Phrase
        options_map={"**.html": {"extensions": "jinja2.ext.i18n"}},
    ):
        key: Key = (context, message if isinstance(message, str) else (message[0], message[1]))
        found.setdefault(key, f"{name}:{line}")
    return found


@cache
def catalog(code: str) -> Catalog:
    with (PACKAGE / catalog_path(code)).open("rb") as po:
        return read_po(po, locale=code)


def test_the_pages_have_words_to_translate() -> None:
    """The extraction finds the source's marked words, the templates' and the rule books'."""
    places = set(extracted().values())
    assert any(p.startswith("src/grandprix/site/templates/") for p in places)
    assert any(
        p.startswith("src/grandprix/site/") and p.endswith(".py", 0, p.index(":")) for p in places
    )
    assert any(p.startswith("src/grandprix/rules/rule-books.md") for p in places)


def untranslated(code: str) -> Iterator[str]:
    """Each extracted message the catalog of ``code`` lacks, leaves empty or only fuzzy, or
    translates with other placeholders than the English (the one form for n = 1 of a plural may
    say the number in words: 'con otro jugador' for 'with {n} other')."""
    cat = catalog(code)
    for (context, message), where in extracted().items():
        msgid = message if isinstance(message, str) else message[0]
        entry = cat.get(msgid, context)
        if entry is None or entry.fuzzy:
            yield f"{where}: {message!r} is not in the {code} catalog (make messages)"
            continue
        forms = (
            tuple(entry.string)
            if isinstance(entry.string, (tuple, list))
            else (str(entry.string or ""),)
        )
        if not all(forms):
            yield f"{where}: {message!r} has no {code} translation"
            continue
        english = set(
            PLACEHOLDER.findall(" ".join(message if isinstance(message, tuple) else (message,)))
        )
        one = isinstance(message, tuple) and cat.plural_expr.startswith("(n == 1 ?")
        for n, form in enumerate(forms):
            said = set(PLACEHOLDER.findall(form))
            if said != english and not (one and n == 0 and said == english - {"{n}"}):
                yield f"{where}: {message!r} in {code} has placeholders other than {english}"


@pytest.mark.parametrize("code", OTHERS)
def test_every_word_of_the_pages_is_translated(code: str) -> None:
    missing = list(untranslated(code))
    assert not missing, f"{len(missing)} untranslated:\n" + "\n".join(missing[:40])


@pytest.mark.parametrize("code", OTHERS)
def test_the_catalog_holds_no_word_the_pages_no_longer_use(code: str) -> None:
    used = {m if isinstance(m, str) else m[0] for _c, m in extracted()}
    stale = [
        m.id
        for m in catalog(code)
        if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in used
    ]
    assert not stale, f"words no longer used (make messages): {stale[:10]}"


def test_a_missing_translation_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: a catalog without one of the words is reported."""
    code = OTHERS[0]
    some = next(iter(extracted()))
    msgid = some[1] if isinstance(some[1], str) else some[1][0]
    thinner = catalog(code)
    kept = thinner.get(msgid, some[0])
    assert kept is not None
    thinner.delete(msgid, some[0])
    try:
        assert any(repr(some[1]) in line for line in untranslated(code))
    finally:
        thinner[msgid] = kept


def test_numbers_dates_and_places_as_each_language_writes_them() -> None:
    day = datetime.date(2013, 3, 4)
    assert (decimal("1234.50"), count(12345), ordinal(1), ordinal(12), ordinal(22)) == (
        "1234.50",
        "12,345",
        "1st",
        "12th",
        "22nd",
    )
    assert (long_date(day), short_date(day)) == ("4 March 2013", "2013-03-04")
    assert money("$", "250.00") == "$250.00"
    with speaking("it"):
        assert (decimal("1234.50"), count(12345), ordinal(1)) == ("1234,50", "12.345", "1º")
        assert money("€", "250.00") == "250,00\u00a0€"
        assert long_date(day) == "4 marzo 2013"
    with speaking("es"):
        assert (decimal("-3.5"), ordinal(3), long_date(day)) == (
            "-3,5",
            "3.º",
            "4 de marzo de 2013",
        )
    assert decimal("3.5") == "3.5"  # English again after the block


def test_words_and_plurals_come_from_the_catalog() -> None:
    with speaking("it"):
        assert _("Standings") == "Classifica"
        one, many = "%(num)s player found", "%(num)s players found"  # the search box's words
        assert ngettext(one, many, 1) == "%(num)s giocatore trovato"
        assert ngettext(one, many, 2) == "%(num)s giocatori trovati"
    assert _("Standings") == "Standings"


def test_an_unknown_language_is_refused_where_it_is_written(tmp_path: Path) -> None:
    toml = 'language = "klingon"\n' + season_toml('rules = "utah-2012"', event("E", "e.csv"))
    files = {"e.csv": standings_csv([("A", "1"), ("B", "0")])}
    season, problems = load_season(write_season(tmp_path, toml, files))
    said = " ".join(str(p) for p in problems)
    assert season is None
    assert "season.toml" in said and "language" in said and "'it' (Italiano)" in said
    assert "klingon" in said


# The example seasons' sites in another language: nothing left in English.

ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|of|points|place|places|event|events|player|players|standings|rules|"
    r"prizes|downloads|round|rounds|tied|counted|dropped|division|season)\b",
    re.IGNORECASE,
)


FILE_NAME = re.compile(r"[\w.-]+\.(?:csv|xlsx|json|html|toml)\b")
QUOTED = re.compile(r"'[^']*'")


def visible_text(path: Path) -> Iterator[str]:
    """The texts a reader sees or hears on a page: its text (scripts, styles and names shown as
    code left out) and the labels of its elements."""
    tree = parse(path)

    def walk(node: Node) -> Iterator[str]:
        for name in ("aria-label", "title", "alt", "placeholder"):
            if node.attrs.get(name):
                yield node.attrs[name]
        if node.tag in ("script", "style", "code"):
            return
        for child in node.children:
            if isinstance(child, str):
                if child.strip():
                    yield " ".join(child.split())
            else:
                yield from walk(child)

    yield from walk(tree)


def site_in(code: str, source: Path, out: Path) -> Path:
    """The season in ``source`` copied with its pages in ``code``, and its site built."""
    folder = out / "season"
    shutil.copytree(source, folder)
    shutil.copytree(source.parent / "events", out / "events")  # utah-2026's shared folder
    toml = (folder / "season.toml").read_text(encoding="utf-8")
    toml = re.sub(r"(?m)^language = .*\n", "", toml)
    (folder / "season.toml").write_text(f'language = "{code}"\n{toml}', encoding="utf-8")
    build_site(load(folder), out / "site")
    return out / "site"


def english_left(site: Path, data: tuple[str, ...] = ()) -> list[str]:
    """Each text of the site's pages with an English word, by page; file names, values quoted
    as the files write them ('yes') and the texts ``data`` (the season's name, as written) are
    not words of the pages."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for text in visible_text(page):
            for name in data:
                text = text.replace(name, "")
            if ENGLISH_WORDS.search(QUOTED.sub("", FILE_NAME.sub("", text))):
                found.append(f"{page.relative_to(site)}: {text[:120]!r}")
    return found


@pytest.mark.parametrize(
    ("code", "season"), [("it", "lupiae-2012-13"), ("es", "utah-2026"), ("it", "acf-2004")]
)
def test_a_site_in_another_language_has_no_english_left(
    code: str, season: str, tmp_path: Path
) -> None:
    site = site_in(code, ROOT / "examples" / season, tmp_path)
    assert parse(site / "index.html").iter("html").__next__().attrs["lang"] == code
    left = english_left(site, (load(tmp_path / "season").name,))
    assert not left, f"{len(left)} texts in English:\n" + "\n".join(left[:40])


def test_the_english_words_test_finds_english(tmp_path: Path) -> None:
    """The test above can fail: an English site is full of English words."""
    build_site(load(ROOT / "examples" / "acf-2004"), tmp_path / "site")
    assert len(english_left(tmp_path / "site")) > 100


def test_the_server_speaks_the_season_language_and_downloads_stay_english(
    tmp_path: Path,
) -> None:
    """grandprix serve renders a season's pages in its language in whichever thread asks; its
    downloads are the same English files as the static site's."""
    folder = tmp_path / "season"
    shutil.copytree(ROOT / "examples" / "acf-2004", folder)
    toml = folder / "season.toml"
    toml.write_text('language = "es"\n' + toml.read_text(encoding="utf-8"), encoding="utf-8")
    loaded = SeasonSource(folder, check_seconds=0).refresh(force=True)
    pages: dict[str, bytes | None] = {}
    worker = threading.Thread(target=lambda: pages.update(home=loaded.page("index.html")))
    worker.start()
    worker.join()
    home = (pages["home"] or b"").decode()
    assert '<html lang="es"' in home and "Clasificación" in home
    standings = (loaded.export("standings.csv") or b"").decode()
    english = ROOT / "examples" / "acf-2004"
    site = tmp_path / "english"
    build_site(load(english), site)
    assert standings == (site / "standings.csv").read_text(encoding="utf-8")

"""The parts of a page that repeat hundreds of thousands of times in a large season, as HTML
made in Python: an event table's rows and a player's results; and a sentence of
``words/season.py`` as HTML.

In a template each value of a row costs an attribute look-up, a call of markupsafe's ``escape``
and a ``Markup`` made around it; at 10,000 events (about 400,000 event rows and as many
results) that was most of the rendering time. Here a row is one f-string whose values are
escaped exactly as the templates escape them (``escape``), so a page is byte for byte what the
loop in the template wrote. The templates call these functions where the loop was
(``event.html``, ``player.html``); the rest of each page stays in its template.
"""

from __future__ import annotations

import functools

from markupsafe import Markup

from grandprix.language import N_, _
from grandprix.site.pages import EventSection, PlayerPart
from grandprix.site.parts import Link
from grandprix.site.words.season import Sentence
from grandprix.writers.terminal import shown_text

# The player's details an event table may show, by the label ``EventSection.details`` gives
# (shown through ``_``; a label not here is shown as it is).
DETAIL_LABELS = {
    "Title": N_("Title"),
    "Fed": N_("Fed"),
    "Rating": N_("Rating"),
    "Event rating": N_("Event rating"),
}


def escape(value: object) -> str:
    """``value`` as markupsafe's ``escape`` (autoescaping) shows it: ``&<>'"`` replaced by the
    same entities, text that is already HTML (``__html__``) kept. A plain ``str`` is returned,
    not a ``Markup``: the row it goes into is made safe once, whole."""
    if type(value) is str:
        text = value
    else:
        html = getattr(value, "__html__", None)
        if html is not None:
            return str(html())
        text = str(value)
    return (
        text.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def visible(html: str) -> str:
    """A page as made, with every control character and bidirectional control that its input
    strings brought (a name, an event's name) written as its escape (``writers.terminal``):
    the page's own text has none but its line feeds and tabs, which stay. With each name in its
    own ``<bdi>``, nothing a file says can turn the text around it."""
    return shown_text(html)


@functools.lru_cache(maxsize=65536)
def words_html(sentence: Sentence) -> Markup:
    """A sentence of ``words/season.py`` as HTML: its text escaped, its rule IDs as footnote links.
    Remembered: players share most sentences (one per place and table value); finding one
    again takes about 0.6 us, writing it 4 us."""
    return Markup(
        "".join(
            f'<sup><a href="{escape(part.href)}">{escape(part.text)}</a></sup>'
            if isinstance(part, Link)
            else escape(part)
            for part in sentence
        )
    )


def event_rows(section: EventSection) -> Markup:
    """The rows of an event section's table (``<tbody>``), each followed by a line break."""
    shown = [_(DETAIL_LABELS.get(label, label)) for label in section.details]
    codes = [
        f' data-label="{escape(code)}">' for code in shown + [t.code for t in section.tiebreaks]
    ]
    labels = [f' data-label="{escape(name)}"' for name in section.divisions]
    score = f' data-label="{escape(_("Score"))}"'
    out = []
    for row in section.rows:
        href = escape(row.href)
        if href:
            who = f'<a href="{href}"><bdi>{escape(row.name)}</bdi></a>'
            out.append(f'<tr data-player="{href}">')
        else:
            who = f"<bdi>{escape(row.name)}</bdi>"
            out.append("<tr>")
        out.append(
            f'<td class="place">{escape(row.place)}</td><td class="who">{who}</td>'
            f'<td class="num"{score}>{escape(row.score)}</td>'
        )
        for code, value in zip(codes, row.cells, strict=True):
            out.append(f'<td class="num wide"{code}{escape(value)}</td>')
        for label, cell in zip(labels, row.points, strict=True):
            points = escape(cell.points)
            head = f'{label} data-division="{escape(cell.division)}" data-points="{points}">'
            if cell.member:
                note = f'<span class="note">{escape(cell.note)}</span>' if cell.note else ""
                out.append(f'<td class="num"{head}{points}{note}</td>')
            else:
                out.append(
                    f'<td class="num absent"{head}<span aria-hidden="true">–</span>'
                    f'<span class="sr">{escape(cell.note)}</span></td>'
                )
        out.append("</tr>\n")
    return Markup("".join(out))


def results(part: PlayerPart) -> Markup:
    """A player's results in one division (the items of ``<ol class="results">``), each
    followed by a line break."""
    division = escape(part.key)
    said = {True: escape(_("counted")), False: escape(_("dropped"))}
    # "{points} points" as the language says it: the words before and after the number
    before, _points, after = (escape(w) for w in _("{points} points").partition("{points}"))
    out = []
    for r in part.results:
        status = "counted" if r.counted else "dropped"
        mark = "✓" if r.counted else "✗"
        href, points = escape(r.href), escape(r.points)
        out.append(
            f'<li class="{status}" data-event="{href}" data-section="{escape(r.section)}">'
            f'<p class="head"><span class="mark" aria-hidden="true">{mark}</span> '
            f'<a href="{href}"><bdi>{escape(r.event)}</bdi></a> '
            f'<span class="when">{escape(r.date)}</span> '
            f'<strong data-division="{division}" data-points="{points}">'
            f"{before}{points}{after}</strong> "
            f'<span class="status">{said[r.counted]}</span></p>\n'
            f'<p class="why">{words_html(r.sentence)}</p></li>\n'
        )
    return Markup("".join(out))

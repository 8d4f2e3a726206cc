"""SVG charts made here (no external service): the leaders' running totals and a player's rank
after each event.

Sized for a phone first: the drawing is 400 units wide and shown at most 32rem wide, so its
14-unit text is at least 12 CSS pixels on a 390-pixel screen. Lines differ by colour, by dash
pattern and by the marker at their end, which the legend repeats.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from grandprix.language import _, decimal, ordinal

WIDTH = 400
FONT = 14
COLOURS = ("#0b4f8a", "#a4161a", "#0a6b2e", "#6a3d9a", "#8a4b08")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "4 4")


def marker(k: int, x: float, y: float, colour: str) -> str:
    """The k-th marker shape (circle, square, triangle, diamond, cross) centred on x, y."""
    shape = k % 5
    if shape == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}"/>'
    if shape == 1:
        return f'<rect x="{x - 5:.1f}" y="{y - 5:.1f}" width="10" height="10" fill="{colour}"/>'
    if shape == 2:
        corners = f"{x:.1f},{y - 6:.1f} {x - 6:.1f},{y + 5:.1f} {x + 6:.1f},{y + 5:.1f}"
    elif shape == 3:
        corners = f"{x:.1f},{y - 6:.1f} {x - 6:.1f},{y:.1f} {x:.1f},{y + 6:.1f} {x + 6:.1f},{y:.1f}"
    else:
        return (
            f'<path d="M{x - 5:.1f} {y - 5:.1f}L{x + 5:.1f} {y + 5:.1f}M{x - 5:.1f} {y + 5:.1f}'
            f'L{x + 5:.1f} {y - 5:.1f}" stroke="{colour}" stroke-width="3"/>'
        )
    return f'<polygon points="{corners}" fill="{colour}"/>'


def _frame(ident: str, title: str, height: int) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{ident}" class="chart">',
        f'<title id="{ident}">{escape(title)}</title>',
    ]


def _text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{FONT}" '
        f'fill="#1a1a1a">{escape(text)}</text>'
    )


def leaders_chart(
    events: list[str], series: list[tuple[str, list[Fraction]]], title: str, ident: str
) -> str:
    """Lines of running totals with a legend, each from 0 at the season's start to its total
    after each event (after one event, a line from the start to it); all text escaped."""
    plot, left, right, top = 220, 44, 12, 12
    most = max((max(values, default=Fraction(0)) for _, values in series), default=Fraction(1))
    most = max(most, Fraction(1))
    count = max(len(events), 1)
    bottom = top + plot

    def x(i: int) -> float:
        """Where the total after event ``i`` stands (0: the season's start, at the axis)."""
        return left + (WIDTH - left - right) * ((i + 1) / count)

    heights: dict[int, float] = {}  # a running total is one object from event to event

    def y(v: Fraction) -> float:
        """``float(top + plot * (1 - v / most))`` in whole numbers: one division, rounded as
        ``Fraction``'s float is (10,000 points a line in a large season)."""
        found = heights.get(id(v))
        if found is None:
            n, d = v.numerator * most.denominator, v.denominator * most.numerator
            found = heights[id(v)] = ((top + plot) * d - plot * n) / d
        return found

    height = bottom + 48 + 24 * len(series)
    parts = _frame(ident, title, height)
    parts += [
        f'<line x1="{left}" y1="{bottom}" x2="{WIDTH - right}" y2="{bottom}" stroke="#4a4a4a"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#4a4a4a"/>',
        _text(left - 6, top + 10, f"{float(most):.0f}", "end"),
        _text(left - 6, bottom, "0", "end"),
        _text(left, bottom + 20, _("start")),
        _text(WIDTH - right, bottom + 20, _("after {n}").format(n=len(events)), "end"),
    ]
    for k, (name, values) in enumerate(series):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        points = " ".join(
            [f"{left:.1f},{bottom:.1f}", *(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))]
        )
        pattern = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{pattern} '
            f'points="{points}"/>'
        )
        if values:
            parts.append(marker(k, x(len(values) - 1), y(values[-1]), colour))
        ly = bottom + 44 + 24 * k
        parts.append(marker(k, left + 6, ly - 5, colour))
        last = values[-1] if values else Fraction(0)
        parts.append(_text(left + 20, ly, f"{name}: {decimal(f'{float(last):.2f}')}"))
    parts.append("</svg>")
    return "\n".join(parts)


def rank_chart(labels: list[str], ranks: list[int | None], ident: str, earlier: int = 0) -> str:
    """A player's rank after each event day of ``labels`` (1 at the top); None where not yet
    ranked; ``earlier``: the event days before the first of them, which the chart leaves out
    (its title says so). One day alone stands at the right, under its label."""
    known = [r for r in ranks if r is not None]
    if not known:
        return ""
    plot, left, right, top = 100, 44, 12, 12
    worst = max(max(known), 2)
    bottom = top + plot
    count = max(len(labels), 1)

    def x(i: int) -> float:
        return left + (WIDTH - left - right) * ((i + (count == 1)) / max(count - 1, 1))

    def y(rank: int) -> float:
        return top + plot * (rank - 1) / (worst - 1)

    if earlier:
        title = _("Rank after each of the last {n} event days: now {rank}").format(
            n=len(labels), rank=known[-1]
        )
    else:
        title = _("Rank after each event: now {rank}").format(rank=known[-1])
    parts = _frame(ident, title, bottom + 28)
    parts += [
        f'<line x1="{left}" y1="{bottom}" x2="{WIDTH - right}" y2="{bottom}" stroke="#4a4a4a"/>',
        _text(left - 6, top + 5, ordinal(1), "end"),
        _text(left - 6, bottom, str(worst), "end"),
        _text(left, bottom + 20, labels[0] if len(labels) > 1 else ""),
        _text(WIDTH - right, bottom + 20, labels[-1] if labels else "", "end"),
    ]
    points = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ranks) if r is not None)
    parts.append(
        f'<polyline fill="none" stroke="{COLOURS[0]}" stroke-width="2.5" points="{points}"/>'
    )
    last = max(i for i, r in enumerate(ranks) if r is not None)
    parts.append(marker(0, x(last), y(known[-1]), COLOURS[0]))
    parts.append("</svg>")
    return "\n".join(parts)

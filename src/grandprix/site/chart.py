"""An SVG line chart of the leaders' points across the season, made here (no external service)."""

from __future__ import annotations

from fractions import Fraction
from html import escape

COLOURS = ("#0b4f8a", "#a4161a", "#0a6b2e", "#6a3d9a", "#b15928")


def leaders_chart(events: list[str], series: list[tuple[str, list[Fraction]]]) -> str:
    """Lines of running totals (one point per event) with a legend; all text escaped."""
    width, height, left, bottom, top, right = 640, 320, 48, 40, 16, 16
    most = max((max(values, default=Fraction(0)) for _, values in series), default=Fraction(1))
    most = max(most, Fraction(1))
    count = max(len(events), 1)

    def x(i: int) -> float:
        return left + (width - left - right) * (i / max(count - 1, 1))

    def y(v: Fraction) -> float:
        return float(top + (height - top - bottom) * (1 - v / most))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + 20 * len(series)}"'
        ' role="img" aria-labelledby="chart-title">',
        '<title id="chart-title">Points of the leaders after each event</title>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" '
        'stroke="#4a4a4a"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#4a4a4a"/>',
        f'<text x="{left - 6}" y="{top + 4}" text-anchor="end" font-size="11">'
        f"{float(most):.0f}</text>",
        f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end" font-size="11">0</text>',
        f'<text x="{left}" y="{height - 12}" font-size="11">{escape(events[0] if events else "")}'
        "</text>",
        f'<text x="{width - right}" y="{height - 12}" text-anchor="end" font-size="11">'
        f"{escape(events[-1] if events else '')}</text>",
    ]
    for k, (name, values) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{points}"/>'
        )
        ly = height + 20 * k + 4
        parts.append(f'<rect x="{left}" y="{ly}" width="14" height="4" fill="{colour}"/>')
        last = values[-1] if values else Fraction(0)
        parts.append(
            f'<text x="{left + 20}" y="{ly + 6}" font-size="13">{escape(name)}: '
            f"{float(last):.2f}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)

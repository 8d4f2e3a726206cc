"""The terminal's standings table written line by line (``writers.table``) is rich's table to
the character, styles included, on random tables; one that does not fit is left to rich."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from grandprix.writers import table

HEADS = ("Rank", "Name", "Points", "Events")
RIGHT = (True, False, True, True)
# Names as results files have them: accents, combining marks, wide (CJK) letters, spaces (no
# rich markup: brackets and colons are left to rich).
NAMES = st.text(
    st.sampled_from([*"abcXYZ ,.-'éÖßøñ", "\u0301", "李", "ｱ", "Σ"]), min_size=0, max_size=30
)
ROWS = st.lists(
    st.tuples(
        st.sampled_from(["1", "2-3", "10", "123-456", ""]),
        NAMES,
        st.sampled_from(["0.00", "12.50", "1234.75", "-3"]),
        st.sampled_from(["0", "7", "12"]),
    ),
    max_size=25,
)


def rich_text(
    title: str, caption: str, rows: list[tuple[str, ...]], width: int, styled: bool
) -> str:
    made = Table(title=title, caption=caption)
    for head, right in zip(HEADS, RIGHT, strict=True):
        made.add_column(head, justify="right" if right else "left")
    for row in rows:
        made.add_row(*row)
    out = io.StringIO()
    console = Console(
        file=out, width=width, force_terminal=styled, color_system="standard" if styled else None
    )
    console.print(made)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(title=NAMES, caption=NAMES, rows=ROWS, width=st.integers(20, 120), styled=st.booleans())
def test_the_table_is_riches_to_the_character(
    title: str, caption: str, rows: list[tuple[str, ...]], width: int, styled: bool
) -> None:
    written = table.lines(title, caption, HEADS, RIGHT, rows, width, styled)
    if written is None:  # rich wraps it: wider than the console, or text with space at an end
        widths = [max([cell_len(h)] + [cell_len(r[c]) for r in rows]) for c, h in enumerate(HEADS)]
        total = sum(widths) + 13
        edged = any(t != t.strip() for t in (title, caption, *(c for r in rows for c in r)))
        assert total > width or cell_len(title) > total or cell_len(caption) > total or edged
        return
    assert "".join(f"{line}\n" for line in written) == rich_text(
        title, caption, rows, width, styled
    )


def test_a_table_wider_than_the_console_is_left_to_rich() -> None:
    rows = [("1", "A name much longer than the console is wide, it goes on", "1.00", "1")]
    assert table.lines("T", "c", HEADS, RIGHT, rows, 40) is None
    assert table.lines("T", "c", HEADS, RIGHT, rows, 100) is not None
    assert table.lines("T" * 90, "c", HEADS, RIGHT, rows, 100) is None  # its title too

"""Text from input files made safe for a terminal or a page: every character that a terminal
or a browser would obey rather than show is written as its escape (``\\x1b``, ``\\u202e``), so
what a file says shows as text and can never set the window's title, make a hyperlink, move the
cursor, clear the screen or turn the direction of the line around it.

Those characters are the C0 controls (U+0000-U+001F, tab and line feed included: an input
string is one line), DEL and the C1 controls (U+007F-U+009F, CSI among them), and the
bidirectional overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069). ``shown`` is
for one input string (a table's cell, a name in a message); ``shown_text`` is for a text the
program laid out itself, whose line ends and tabs are its own and stay.

Only what goes to a terminal or a page passes here (the site's pages and the server's, through
``site.fast_html.visible``): CSV and JSON outputs keep the exact strings.
"""

from __future__ import annotations

import re

_OTHERS = "\x7f-\x9f\u202a-\u202e\u2066-\u2069"  # DEL, C1, the bidirectional controls
_ANY = re.compile(f"[\x00-\x1f{_OTHERS}]")
_BUT_LAYOUT = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # tab and line feed kept


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """One input string as a terminal shows it: every control character (tab and line feed
    too) and every bidirectional override written as its escape; anything else as it is."""
    return _ANY.sub(_escape, text) if _ANY.search(text) else text


def shown_text(text: str) -> str:
    """A text laid out by the program (lines, tab-separated columns) with input strings in it:
    as ``shown``, but its line feeds and tabs kept."""
    return _BUT_LAYOUT.sub(_escape, text) if _BUT_LAYOUT.search(text) else text

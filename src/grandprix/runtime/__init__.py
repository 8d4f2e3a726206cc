"""How the process runs its work, apart from what the work is: the cyclic garbage collector's
one switch, and what is made before a fork.

The season's records make no reference cycles, and a full collection walks every live record
again (a third of a preview's time on a 300-event season, seconds as a 10,000-event season
loads) and frees nothing. Work that makes many records pauses the collector with
``paused_collection``: holders may overlap (the server's threads), and the collector runs again
when the last one ends, if it ran before the first began; a process about to end pauses it for
good first (``pause_for_good``: a batch command run by ``cli.run``, whose records are never
freed).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

_LOCK = threading.Lock()
_HOLDERS = [0]
_WAS_ON = [True]


@contextmanager
def paused_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while the block runs (and while any other block
    holding it runs); what garbage is made meanwhile is collected when the last one ends."""
    with _LOCK:
        if not _HOLDERS[0]:
            _WAS_ON[0] = gc.isenabled()
        _HOLDERS[0] += 1
        gc.disable()
    try:
        yield
    finally:
        with _LOCK:
            _HOLDERS[0] -= 1
            if not _HOLDERS[0] and _WAS_ON[0]:
                gc.enable()


def pause_for_good() -> None:
    """The process ends as soon as its work is done: the collector paused, and not restored
    by the ``paused_collection`` blocks that begin after this."""
    with _LOCK:
        gc.disable()


def made_before_fork(value: object) -> None:
    """Make every ``functools.cached_property`` of ``value`` (of its class and the classes it
    comes from) now: a process forked afterwards finds them made and does not make them again."""
    for kind in type(value).__mro__:
        for name, member in vars(kind).items():
            if isinstance(member, cached_property):
                getattr(value, name)

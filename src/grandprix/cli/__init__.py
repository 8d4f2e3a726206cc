"""The ``grandprix`` command line. Only this package turns errors into messages and exit codes.

Each module adds its commands to the one group, ``main``: ``event`` (one event's placings),
``season`` (standings, explain, check, players, prizes, site, rules-reference), ``ratings``
(the rating store), ``entries`` (the event side of an ``event.toml``) and ``serve`` (the
site and workspace on this machine).
"""

from grandprix.cli import entries, event, ratings, season, serve
from grandprix.cli.base import main, run

__all__ = ["entries", "event", "main", "ratings", "run", "season", "serve"]

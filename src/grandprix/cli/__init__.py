"""The ``grandprix`` command line. Only this package turns errors into messages and exit codes.

Each module adds its commands to the one group, ``main``: ``placings`` (``grandprix event``: one
results file's placings and tie-breaks), ``season`` (standings, explain, check, players, prizes,
site, rules-reference), ``ratings`` (the rating store), ``entries`` (the event side of an
``event.toml``), ``serve`` (the site and workspace on this machine), ``fetch`` (a
tournament's results downloaded into a season folder) and ``pairing`` (``pair`` and
``round``: Swiss rounds paired, results entered, an event's day).
"""

from grandprix.cli import entries, fetch, pairing, placings, ratings, season, serve
from grandprix.cli.base import main, run

__all__ = ["entries", "fetch", "main", "pairing", "placings", "ratings", "run", "season", "serve"]

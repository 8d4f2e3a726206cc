"""``python -m grandprix.cli``: the same as the ``grandprix`` command."""

from grandprix.cli import run

run()

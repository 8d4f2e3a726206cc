"""The package's exceptions. The library raises; only the command line turns them into exits."""

from __future__ import annotations

from collections.abc import Sequence

from grandprix.model import Problem, Severity


class GrandprixError(Exception):
    """Base class of every error grandprix raises on purpose."""


class InputError(GrandprixError):
    """An input file has problems; every one of them is listed."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(GrandprixError):
    """A request that cannot be carried out as asked (unknown tie-break code, bad option)."""


class WriteError(UsageError, OSError):
    """An output could not be written (permissions, a full disk); what was stored before is
    as it was. Also an ``OSError``, for callers that handle those."""


def errors_only(problems: Sequence[Problem]) -> list[Problem]:
    """The problems that stop the work (warnings are reported but do not)."""
    return [p for p in problems if p.severity is Severity.ERROR]

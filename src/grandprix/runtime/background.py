"""Work done in the background: a job done by a forked process while this one goes on (the site's
exports and pages, the results files read ahead), with what it returns or raises brought back,
and its death reported.
"""

from __future__ import annotations

import multiprocessing
import pickle
import sys
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess

from grandprix.errors import GrandprixError


class ChildFailed(Exception):
    """A forked process stopped without saying why (killed, out of memory)."""


def can_fork() -> bool:
    """Whether a job may be given to a forked process: fork exists, and no other thread runs.
    The server builds a site from a worker thread, and a child forked beside other threads can
    wait for ever on a lock one of them held at the fork."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _travels(error: BaseException, what: str) -> BaseException:
    """``error``, or one that comes back whole through a pipe: some exceptions pickle but cannot
    be rebuilt. One of grandprix's keeps its kind (an error of the user's files or folders, not
    a bug) as a ``GrandprixError`` with its message; ``what``: the job ("writing the pages")."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        if isinstance(error, GrandprixError):
            return GrandprixError(f"{what} failed: {error}")
        return RuntimeError(f"{what} failed: {error!r}")
    return error


class Child:
    """A forked process doing one job while this one goes on (``what``: the job, as "writing
    the pages"). It ends with ``os._exit`` (multiprocessing's), so it never runs this process's
    clean-up; what the job returns, or the error it raises, comes back through a pipe
    (``result``), and a child that dies without a word (killed, out of memory) is a
    ``ChildFailed`` that says what it was doing. Only where ``can_fork``."""

    def __init__(self, job: Callable[[], object], what: str) -> None:
        context = multiprocessing.get_context("fork")
        self.what = what
        self.receive, send = context.Pipe(duplex=False)

        def child() -> None:
            try:
                send.send(job())
            except BaseException as error:  # handed to the parent, which raises it
                send.send(_travels(error, what))

        self.process: BaseProcess | None = context.Process(target=child, name="grandprix-child")
        for stream in (sys.stdout, sys.stderr):  # the child flushes its copy as it ends
            stream.flush()
        self.process.start()
        send.close()

    def result(self) -> object:
        """What the job returned; raises what it raised."""
        assert self.process is not None
        try:
            result = self.receive.recv()
        except EOFError:
            result = None
        self.process.join()
        code, self.process = self.process.exitcode, None
        self.receive.close()
        if result is None:
            how = f"killed by signal {-code}" if code and code < 0 else f"exit code {code}"
            raise ChildFailed(
                f"the process {self.what} stopped before it finished ({how}; out of memory?)"
            )
        if isinstance(result, BaseException):
            raise result
        return result

    def cancel(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.join()
            self.process = None
            self.receive.close()

"""Who may do what on a server with accounts: roles, passwords, sessions, login
throttling, and the access every route declares.

Roles: a **coordinator** does everything; a **director** adds and corrects the results of the
events given to them (``grandprix users assign``) and sees their previews, nothing else of the
workspace; a **reader** reads the season's pages (which are open to anyone unless the server is
``--private``). A server whose store has no accounts is a local workspace: it
listens on this machine only and its one user, ``local``, is a coordinator.

Every route's endpoint carries its access (``allow``): ``OPEN`` (the login page, the style
sheet), ``READ`` (the season's pages), ``DIRECTOR`` (uploads of results), ``COORDINATOR``
(everything else); ``create_app`` refuses a route without one and checks it before the
endpoint runs (``guarded``), so a new route cannot be left open by mistake.

Passwords are hashed with Argon2id (argon2-cffi, RFC 9106's parameters). A session is a random
token in an HttpOnly, SameSite=Lax cookie (Secure, and named ``__Host-...``, behind HTTPS); the
store keeps only its SHA-256. A login always starts a new session (the browser's earlier one,
if any, is ended: no session fixation). Sessions end after ``IDLE`` without use or ``LONGEST``
in all. Logins are throttled: after ``TRIES_PER_NAME`` failures for one name, or
``TRIES_PER_ADDRESS`` from one address, within ``WINDOW``, the next attempt is refused (429)
without looking at the password.
"""

from __future__ import annotations

import functools
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from grandprix.errors import UsageError
from grandprix.serve.security import error_page
from grandprix.serve.store import Failures, Store, User

OPEN, READ, DIRECTOR, COORDINATOR = "open", "read", "director", "coordinator"
ACCESS = (OPEN, READ, DIRECTOR, COORDINATOR)
RANK = {"reader": 1, "director": 2, "coordinator": 3}
NEEDED = {READ: 1, DIRECTOR: 2, COORDINATOR: 3}
WHO = {
    READ: "the pages of this server are for its users; log in with an account of it.",
    DIRECTOR: "only directors and coordinators may do this.",
    COORDINATOR: "only a coordinator may do this (a director adds and corrects the results of "
    "their own events).",
}
LOCAL = User(0, "local", "coordinator")  # the one user of a server without accounts
SESSION_COOKIE = "grandprix_session"
PRIVATE = "private, no-store"  # the Cache-Control of what only its user may see
MIN_PASSWORD = 10


@dataclass(frozen=True)
class Policy:
    """Session lifetimes and login throttling, in seconds and tries."""

    idle: float = 2 * 3600
    longest: float = 12 * 3600
    window: float = 15 * 60
    tries_per_name: int = 5
    tries_per_address: int = 30
    secure: bool = False  # behind HTTPS: Secure cookies named __Host-...
    slowest: float = 60.0  # seconds: the longest wait between two tries of one account

    def wait(self, failed: Failures) -> float:
        """Seconds before the next login attempt may be checked, after the ``failed`` ones:
        - from an address with ``tries_per_name`` failures for the name, or
          ``tries_per_address`` for any names, until the window has passed the first: that
          address only is held back, never the account for others;
        - for the account from anywhere, past ``tries_per_name`` failures, a wait after the
          last one that doubles with each further failure up to ``slowest`` seconds: guesses
          spread over many addresses slow down, and its user still gets in after a short
          wait, whoever else guesses."""
        if failed.by_pair >= self.tries_per_name or failed.by_address >= self.tries_per_address:
            return failed.first_by_pair + self.window - failed.now
        beyond = failed.by_name - self.tries_per_name
        if beyond < 0:
            return 0.0
        slowed = min(2.0**beyond, self.slowest)
        return failed.last_by_name + slowed - failed.now

    @property
    def cookie(self) -> str:
        return f"__Host-{SESSION_COOKIE}" if self.secure else SESSION_COOKIE


_HASHER = PasswordHasher()
_DUMMY = _HASHER.hash(secrets.token_hex(16))  # verified against when the name is unknown


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise UsageError(f"a password has at least {MIN_PASSWORD} characters")
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored`` (an unknown user is checked
    against a dummy hash, so the time taken does not tell whether a name exists)."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def allow(access: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the access of an endpoint (``create_app`` checks it on every request)."""
    if access not in ACCESS:
        raise ValueError(f"access {access!r}: one of {ACCESS}")

    def mark(endpoint: Callable[..., Any]) -> Callable[..., Any]:
        endpoint.access = access  # type: ignore[attr-defined]
        return endpoint

    return mark


def may(user: User | None, access: str, private: bool) -> bool:
    """Whether ``user`` (None: not logged in) may use a route of ``access``."""
    if access == OPEN or (access == READ and not private):
        return True
    return user is not None and RANK.get(user.role, 0) >= NEEDED[access]


def user_of(request: Request) -> User | None:
    """The request's user, as ``guarded`` found it (``LOCAL`` on a server without accounts)."""
    found: User | None = request.scope.get("state", {}).get("user")
    return found


Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(endpoint: Endpoint, access: str) -> Endpoint:
    """``endpoint`` behind its access: the session's user found (or ``LOCAL`` without
    accounts), then a visitor not logged in is sent to the login page (a form is refused,
    401) and a user without the role is refused (403)."""

    @functools.wraps(endpoint)
    async def checked(request: Request) -> Response:
        state = request.app.state
        user = await _session_user(request) if state.accounts else LOCAL
        request.scope.setdefault("state", {})["user"] = user
        answer = await _answer(request, endpoint, access, user)
        if access not in (OPEN, READ) or state.private or user not in (None, LOCAL):
            answer.headers["cache-control"] = PRIVATE  # no shared cache may keep it
        return answer

    checked.access = access  # type: ignore[attr-defined]
    return checked


async def _answer(request: Request, endpoint: Endpoint, access: str, user: User | None) -> Response:
    if may(user, access, request.app.state.private):
        return await endpoint(request)
    if user is None:
        if request.method == "GET":
            back = quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
            return RedirectResponse(f"/login?next={back}", status_code=303)
        return error_page(
            401,
            "Log in first",
            "Your session has ended: log in again, then send the form again.",
        )
    return error_page(403, "Not allowed", f"{user.name} is a {user.role}: {WHO[access]}")


async def _session_user(request: Request) -> User | None:
    state = request.app.state
    policy: Policy = state.policy
    token = request.cookies.get(policy.cookie, "")
    if not token or len(token) > 100:
        return None
    store: Store = state.store
    return await run_in_threadpool(store.session_user, token, policy.idle, policy.longest)


class Throttled(Exception):
    """Too many failed logins lately: ``seconds`` to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    @property
    def said(self) -> str:
        """The wait in words: seconds, or minutes from two."""
        if self.seconds < 120:
            return f"{self.seconds} second{'s' if self.seconds != 1 else ''}"
        return f"{math.ceil(self.seconds / 60)} minutes"


def log_in(
    store: Store, policy: Policy, name: str, password: str, address: str, earlier: str | None
) -> tuple[User, str] | None:
    """A new session token for ``name`` if the password is right (None if not); ``Throttled``
    after too many failures. ``earlier``: the browser's session token before, ended."""
    plain = name.replace("\x00", "\ufffd")[:100]  # what a database can hold; no user has it
    left = store.attempt(plain, address[:100], policy.window, policy.wait)
    if left > 0:
        raise Throttled(max(1, math.ceil(left)))
    found = store.user(plain) if plain == name else None
    if not verify_password(found[1] if found else None, password) or found is None:
        return None  # the attempt stays noted as a failure
    user = found[0]
    token = secrets.token_urlsafe(32)
    store.new_session(user, token, earlier)
    store.forget_failures(name, policy.window)
    store.end_expired(policy.idle, policy.longest)
    return user, token

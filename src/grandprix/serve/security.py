"""What keeps the local server safe even on 127.0.0.1: the ``Guard`` middleware (Host check
against DNS rebinding, a request-body limit enforced while reading, security headers, the CSRF
cookie), CSRF tokens for every form (``Csrf``, ``csrf_protected``) and ``safe_name`` for the
names of uploaded files.

CSRF: each browser gets a random nonce in an HttpOnly, SameSite=Strict cookie; its forms carry
the token HMAC-SHA256(server secret, nonce and session token), checked with
``hmac.compare_digest``. Another site
can neither read the cookie nor compute the token, and a token made under another server's
secret (an earlier run of the server) is refused.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from markupsafe import Markup, escape
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_COOKIE = "grandprix_csrf"
CSRF_FIELD = "csrf_token"  # the hidden field of every form
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
HOST = re.compile(r"(?P<name>127\.0\.0\.1|localhost|\[::1\])(?::(?P<port>\d{1,5}))?")
HEADERS = {
    # The site's only scripts are files of its own (search.js, players.js); no inline script,
    # no inline style, nothing fetched from another site, no framing.
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    # the season folder may change between two requests; a page only its user may see says
    # "private, no-store" itself (``accounts.guarded``)
    "cache-control": "no-cache",
}
NAME_LIMIT = 120  # characters of an uploaded file's name, extension included
NAME_BYTES = 200  # and its bytes in UTF-8 (a file system takes 255, with the temporary name)
RESERVED = frozenset(  # Windows device names, refused with any extension (con.csv)
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)


class UnsafeName(ValueError):
    """An uploaded file's name that cannot be a plain file name inside the season folder."""


def safe_name(name: str) -> str:
    """``name`` as a plain file name inside the season folder (``Open 2026.trf`` stays as it
    is), or ``UnsafeName`` saying why not: a path (``/``, ``\\``, ``..``, an absolute or drive
    path), NUL or another control character, a hidden or empty name, a reserved device name
    (``con.csv``), a name without an extension, or one longer than ``NAME_LIMIT`` characters or
    ``NAME_BYTES`` bytes."""
    plain = unicodedata.normalize("NFC", name).strip()
    if not plain:
        raise UnsafeName("the file has no name")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in plain):
        raise UnsafeName(f"{plain!r}: a file name may not hold control characters")
    if "/" in plain or "\\" in plain or ":" in plain:
        raise UnsafeName(f"{plain!r}: give a file name, not a path (no '/', '\\' or ':')")
    if plain in (".", "..") or plain.startswith("."):
        raise UnsafeName(f"{plain!r}: a file name may not start with '.'")
    if len(plain) > NAME_LIMIT or len(plain.encode("utf-8")) > NAME_BYTES:
        raise UnsafeName(
            f"{plain[:40]!r}...: a file name has at most {NAME_LIMIT} characters "
            f"({NAME_BYTES} bytes in UTF-8: 60 of most Chinese, Japanese or "
            "Korean characters); shorten it"
        )
    stem, dot, extension = plain.rpartition(".")
    if not dot or not stem.strip() or not extension or not extension.isalnum():
        raise UnsafeName(f"{plain!r}: a file name needs an extension (.trf, .csv, .xlsx, ...)")
    if stem.split(".")[0].strip().lower() in RESERVED or plain.endswith((" ", ".")):
        raise UnsafeName(f"{plain!r}: a name that Windows reserves; rename the file")
    return plain


class Csrf:
    """Tokens of the forms of one server: HMAC-SHA256 of the browser's cookie nonce and its
    session (none before a login) under the server's secret (random for each run unless one
    is given). A token works only with the cookie and the session it was made for: a session
    ended, or begun by another login, makes the forms of its pages void."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret if secret is not None else secrets.token_bytes(32)

    def token(self, nonce: str, session: str = "") -> str:
        said = nonce.encode() + b"\0" + hashlib.sha256(session.encode()).digest()
        return hmac.new(self.secret, said, hashlib.sha256).hexdigest()

    def valid(self, nonce: str | None, token: object, session: str = "") -> bool:
        """Whether ``token`` (a form field's value) is the token of the cookie's ``nonce`` and
        the browser's ``session`` token."""
        if not nonce or not isinstance(token, str):
            return False
        return hmac.compare_digest(self.token(nonce, session).encode(), token.encode())


def csrf_nonce(request: Request) -> str:
    """The browser's nonce: its cookie's, or the one ``Guard`` sets with this response."""
    nonce = request.scope.get("state", {}).get("csrf_nonce")
    return str(nonce) if nonce else ""


def session_token(request: Request) -> str:
    """The browser's session token, as its cookie says ('' without one)."""
    policy = getattr(request.app.state, "policy", None)
    return request.cookies.get(policy.cookie, "") if policy is not None else ""


def csrf_field(request: Request, csrf: Csrf) -> Markup:
    """The hidden input every form carries (templates: ``{{ csrf_field }}``)."""
    token = csrf.token(csrf_nonce(request), session_token(request))
    return Markup(f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(token)}">')


def error_page(status: int, title: str, text: str) -> HTMLResponse:
    """A plain page for a refused request, its text escaped."""
    body = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/style.css">\n<link rel="stylesheet" href="/workspace.css">\n'
        f'</head>\n<body>\n<main id="main">\n<h1>{escape(title)}</h1>\n'
        f"<p>{escape(text)}</p>\n"
        '<p><a href="/">The start page</a></p>\n'
        "</main>\n</body>\n</html>\n"
    )
    return HTMLResponse(body, status_code=status)


def csrf_cookie(secure: bool) -> str:
    """The CSRF cookie's name: behind HTTPS a ``__Host-`` cookie, which a sibling sub-domain
    or a plain-HTTP page cannot set."""
    return f"__Host-{CSRF_COOKIE}" if secure else CSRF_COOKIE


def same_origin(request: Request) -> bool:
    """Whether a form comes from this server's own pages, as far as the browser says: its
    ``Origin`` (when sent, and not opaque) names this host, and ``Sec-Fetch-Site`` (when
    sent) is same-origin or none. A CSRF nonce planted by a sibling sub-domain or another
    server on this machine is of no use from their pages then."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc.lower() == request.headers.get("host", "").lower()


Handler = Callable[[Request, FormData], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]


def csrf_protected(handler: Handler) -> Endpoint:
    """The decorator of every POST endpoint: the form is read (files up to the server's upload
    limit) and its token checked before the handler sees it; a missing or wrong token is a 403
    page. The handler is called as ``handler(request, form)``. ``create_app`` refuses a POST
    route whose endpoint is not wrapped by it."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        csrf: Csrf = request.app.state.csrf
        limit: int = request.app.state.max_upload
        if not same_origin(request):
            elsewhere = "This form was sent from a page of another site: open this server's own"
            return error_page(403, "Form refused", f"{elsewhere} page and send it from there.")
        cookie = csrf_cookie(getattr(request.app.state, "secure", False))
        async with request.form(max_part_size=limit) as form:
            session = session_token(request)
            if not csrf.valid(request.cookies.get(cookie), form.get(CSRF_FIELD), session):
                return error_page(
                    403,
                    "Form refused",
                    "This form was not sent from a page of this server, or the server has "
                    "restarted since the page was opened: go back, reload the page and send "
                    "the form again.",
                )
            return await handler(request, form)

    endpoint.csrf_protected = True  # type: ignore[attr-defined]
    return endpoint


class TooLarge(Exception):
    """The request's body went beyond the upload limit while it was read."""


class Guard:
    """The ASGI middleware in front of every request: a ``Host`` other than 127.0.0.1,
    localhost, [::1] or one of ``hosts`` (the names a server with accounts is reached by,
    through its reverse proxy), with any port, is refused (400: DNS rebinding); a body beyond
    ``max_upload`` bytes is refused (413) from its Content-Length before anything is read, or
    as soon as the bytes read pass it; every response gets the security headers, and a browser
    without the CSRF cookie gets one."""

    def __init__(
        self, app: ASGIApp, max_upload: int, hosts: tuple[str, ...] = (), secure: bool = False
    ) -> None:
        self.app = app
        self.max_upload = max_upload
        self.cookie = csrf_cookie(secure)
        self.secure = "; Secure" if secure else ""
        names = "|".join(re.escape(h.lower()) for h in hosts)
        self.host = re.compile(
            HOST.pattern if not names else HOST.pattern.replace("(?P<name>", f"(?P<name>{names}|")
        )
        self.names = ", ".join([*LOCAL_HOSTS, *hosts])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.host.fullmatch(host.lower()):
            await _send(
                error_page(
                    400,
                    "Unknown host",
                    (
                        f"This server answers only to {self.names}, not to {host!r}: "
                        "open it by one of those names."
                    ),
                ),
                scope,
                receive,
                send,
            )
            return
        length = headers.get("content-length", "")
        if length and (not length.isdigit() or int(length) > self.max_upload):
            await _send(self._too_large(), scope, receive, send)
            return
        nonce = SimpleCookie(headers.get("cookie", "")).get(self.cookie)
        new = None if nonce and re.fullmatch(r"[\w-]{20,100}", nonce.value) else _nonce()
        scope.setdefault("state", {})["csrf_nonce"] = new or (nonce.value if nonce else "")
        started = False
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.max_upload:
                    raise TooLarge
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                said = {k.lower() for k, _ in message.get("headers", [])}
                extra = [
                    (k.encode(), v.encode()) for k, v in HEADERS.items() if k.encode() not in said
                ]
                if new:
                    cookie = f"{self.cookie}={new}; Path=/; HttpOnly; SameSite=Strict{self.secure}"
                    extra.append((b"set-cookie", cookie.encode()))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except TooLarge:
            if started:
                raise
            await self._too_large()(scope, receive, guarded)

    def _too_large(self) -> HTMLResponse:
        return error_page(
            413,
            "Too large",
            (
                f"The request is larger than this server accepts ({self.max_upload:,} bytes): "
                "send a smaller file."
            ),
        )


def _nonce() -> str:
    return secrets.token_urlsafe(32)


async def _send(response: Response, scope: Scope, receive: Receive, send: Send) -> None:
    headers = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
    response.raw_headers.extend(headers)
    await response(scope, receive, send)

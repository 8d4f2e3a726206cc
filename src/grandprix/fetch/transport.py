"""One download: the exchange with a site (its name looked up, the connection, the request, the
answer's headers and body) within one deadline that the socket keeps, redirects followed only
on the site's own host and port over the same scheme, the body read up to a size limit.

The deadline is the whole download's, not each wait's. Before every receive and every send the
socket's timeout is set to the time the download has left (``Deadline.wait``, never more than
``TIMEOUT``, the longest silence taken from a site), so that a site sending a byte every few
seconds, or its headers a line at a time, is cut at the deadline as surely as one that says
nothing. The TLS handshake runs under the same timeout (the ssl module times a handshake as a
whole). The name's look-up, which no socket times, runs in a thread of its own that the download
stops waiting for, and leaves behind, when the time is up.

A proxy the environment names (``https_proxy``, ``http_proxy``, ``no_proxy``, as the standard
library reads them) is reached the same way and asked to ``CONNECT`` to the site.

``channel`` makes the connection; the tests put a local server in its place.
"""

from __future__ import annotations

import base64
import http.client
import socket
import ssl
import string
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import SplitResult, quote, unquote, urljoin, urlsplit

from grandprix import __version__
from grandprix.fetch.sources import FetchError, shown

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

USER_AGENT: Final = f"grandprix/{__version__} (chess Grand Prix results import; Python)"
TIMEOUT: Final = 20.0  # seconds: the longest silence taken from a site, within the deadline
REDIRECTS: Final = 5  # redirects followed in one download
CHUNK: Final = 64 * 1024
_PORTS: Final = {"http": 80, "https": 443}
_REDIRECT_CODES: Final = frozenset({301, 302, 303, 307, 308})


class Deadline:
    """The moment a download must be over: ``seconds`` after it began."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def wait(self) -> float:
        """The longest the next wait may take: the time left, at most ``TIMEOUT``;
        ``TimeoutError`` once the deadline has passed."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the deadline of {self.seconds:g} seconds has passed")
        return min(left, TIMEOUT)

    def passed(self) -> bool:
        return time.monotonic() >= self.end - 0.01  # a timer's last hundredth counts as up


# Where a connection is made: scheme, host, port, deadline -> a socket ready for HTTP.
Channel = Callable[[str, str, int, Deadline], socket.socket]


class _Socket(socket.socket):
    """A socket each of whose receives and sends waits no longer than its download has left."""

    deadline: Deadline

    def recv_into(self, buffer: WriteableBuffer, nbytes: int = 0, flags: int = 0) -> int:
        self.settimeout(self.deadline.wait())
        return super().recv_into(buffer, nbytes, flags)

    def sendall(self, data: ReadableBuffer, flags: int = 0) -> None:
        self.settimeout(self.deadline.wait())
        super().sendall(data, flags)


class _SecureSocket(ssl.SSLSocket):
    """The same over TLS (its ``sendall`` sends through ``send``)."""

    deadline: Deadline

    def recv_into(self, buffer: WriteableBuffer, nbytes: int | None = None, flags: int = 0) -> int:
        self.settimeout(self.deadline.wait())
        return super().recv_into(buffer, nbytes, flags)

    def send(self, data: ReadableBuffer, flags: int = 0) -> int:
        self.settimeout(self.deadline.wait())
        return super().send(data, flags)


def channel(scheme: str, host: str, port: int, deadline: Deadline) -> socket.socket:
    """A connection to ``host:port`` ready for HTTP, through the environment's proxy if it names
    one, over TLS for ``https``; every wait within ``deadline``."""
    proxy = _proxy(scheme, host)
    if proxy is None:
        sock = _connected(host, port, deadline)
    else:
        sock = _connected(proxy[0], proxy[1], deadline)
    try:
        if proxy is not None:
            _tunnel(sock, proxy, host, port)
        return _secure(sock, host, deadline) if scheme == "https" else sock
    except BaseException:
        sock.close()
        raise


def _addresses(host: str, port: int, deadline: Deadline) -> list[tuple[Any, ...]]:
    """The addresses of ``host``, looked up in a thread that is left behind when the time is up
    first (``getaddrinfo`` takes no timeout)."""
    found: list[tuple[Any, ...]] = []
    failed: list[Exception] = []

    def look_up() -> None:
        try:
            found.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            failed.append(exc)

    thread = threading.Thread(target=look_up, name=f"look-up of {host[:60]}", daemon=True)
    thread.start()
    thread.join(deadline.wait())
    if thread.is_alive():
        raise TimeoutError(f"the look-up of {host} took too long")
    if failed:
        raise failed[0]
    return found


def _connected(host: str, port: int, deadline: Deadline) -> _Socket:
    """A connection to ``host``, its addresses tried in turn within the deadline."""
    failure: OSError = OSError(f"{host} has no address")
    for family, kind, protocol, _, address in _addresses(host, port, deadline):
        sock = _Socket(family, kind, protocol)
        sock.deadline = deadline
        try:
            sock.settimeout(deadline.wait())
            sock.connect(address)
        except OSError as exc:
            sock.close()
            failure = exc
            continue
        return sock
    raise failure


def _proxy(scheme: str, host: str) -> tuple[str, int, str] | None:
    """The proxy the environment names for ``scheme`` and ``host``: its host, its port and the
    ``Proxy-Authorization`` it needs (''); None for none."""
    named = urllib.request.getproxies().get(scheme)
    if not named or bool(urllib.request.proxy_bypass(host)):
        return None
    try:
        parts = urlsplit(named if "://" in named else f"http://{named}")
        port = parts.port or 80
    except ValueError:
        parts, port = urlsplit(""), 0
    if parts.scheme != "http" or not parts.hostname or not port:
        raise OSError(f"the proxy {shown(named)} is not an address http://HOST:PORT")
    authorization = ""
    if parts.username is not None:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    return parts.hostname, port, authorization


def _tunnel(sock: _Socket, proxy: tuple[str, int, str], host: str, port: int) -> None:
    """``sock``, connected to a proxy, made a way to ``host:port`` (HTTP ``CONNECT``)."""
    where = _authority(host, port, "")
    lines = [f"CONNECT {where} HTTP/1.1", f"Host: {where}", f"User-Agent: {USER_AGENT}"]
    if proxy[2]:
        lines.append(f"Proxy-Authorization: {proxy[2]}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
    reply = http.client.HTTPResponse(sock, method="CONNECT")
    try:
        reply.begin()
    finally:
        reply.close()  # its reader only: the socket goes on to the site
    if reply.status != 200:
        raise OSError(
            f"the proxy {proxy[0]}:{proxy[1]} would not connect to {where} "
            f"(HTTP {reply.status} {reply.reason[:80]})"
        )


def _secure(sock: _Socket, host: str, deadline: Deadline) -> _SecureSocket:
    """``sock`` over TLS, the site's certificate checked against ``host``."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    context.sslsocket_class = _SecureSocket
    sock.settimeout(deadline.wait())  # the handshake's, as a whole
    secure = context.wrap_socket(sock, server_hostname=host)
    if not isinstance(secure, _SecureSocket):  # the context's class, as set above
        raise TypeError(f"{type(secure).__name__} is not a socket of a deadline")
    secure.deadline = deadline
    return secure


def download(
    address: str,
    limit: int,
    deadline: Deadline,
    allowed: Callable[[str], bool],
    through: Channel,
) -> bytes:
    """The body at ``address``: at most ``limit`` bytes (one more is an error, a
    ``Content-Length`` over it refused before reading), the whole exchange within ``deadline``,
    connections made by ``through``; a redirect followed only on the same scheme and port, to
    the same host or another of the site's (``allowed`` says which). ``FetchError`` saying what
    failed."""
    try:
        here = address
        for _ in range(REDIRECTS + 1):
            with _answer(here, deadline, through) as response:
                location = response.getheader("Location")
                if response.status in _REDIRECT_CODES and location:
                    here = _redirect(address, here, location, allowed)
                    continue
                if not 200 <= response.status < 300:
                    raise FetchError(_http_error(address, response.status, response.reason))
                length = (response.getheader("Content-Length") or "").strip()
                if length.isdigit() and (len(length) > 18 or int(length) > limit):
                    raise FetchError(_too_big(address, limit, length))
                return _bounded(response, address, limit)
        raise FetchError(
            f"{address}: the site redirects the download more than {REDIRECTS} times; nothing "
            "was written; check the address in a browser"
        )
    except TimeoutError:
        late = _late(address, deadline) if deadline.passed() else _silent(address)
        raise FetchError(late) from None
    except http.client.IncompleteRead:
        raise FetchError(
            f"{address}: the connection closed before the whole file came; try again"
        ) from None
    except (http.client.HTTPException, OSError, ValueError) as exc:
        raise FetchError(_connection_error(address, exc)) from None


@contextmanager
def _answer(
    address: str, deadline: Deadline, through: Channel
) -> Iterator[http.client.HTTPResponse]:
    """The answer to a GET of ``address``, its status and headers read."""
    parts = urlsplit(address)
    host, port = parts.hostname or "", _port(parts)
    connection = http.client.HTTPConnection(host, port)
    connection.sock = through(parts.scheme, host, port, deadline)
    try:
        headers = {
            "Host": _authority(host, port, parts.scheme),
            "User-Agent": USER_AGENT,
            "Accept-Encoding": "identity",
            "Connection": "close",
        }
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers=headers)
        response = connection.getresponse()
        try:
            yield response
        finally:
            response.close()
    finally:
        connection.close()


def _port(parts: SplitResult) -> int:
    """An address's port, said or its scheme's (``ValueError`` for one that is not a port)."""
    return parts.port or _PORTS.get(parts.scheme, 0)


def _authority(host: str, port: int, scheme: str) -> str:
    """``host:port`` as a request names it (the port left out when it is the scheme's)."""
    name = f"[{host}]" if ":" in host else host
    return name if _PORTS.get(scheme) == port else f"{name}:{port}"


def _redirect(address: str, here: str, location: str, allowed: Callable[[str], bool]) -> str:
    """The address a redirect from ``here`` leads to: on the same scheme and port, and on the
    same host or another of the site's (``allowed``); ``FetchError`` for any other."""
    try:
        there = quote(urljoin(here, location.strip()), encoding="latin-1", safe=string.punctuation)
        old, new = urlsplit(here), urlsplit(there)
        ports = _port(old), _port(new)
    except ValueError:
        raise FetchError(
            f"{address}: the site sends the download to {shown(location)}, which is not a web "
            "address; nothing was written"
        ) from None
    if new.hostname != old.hostname and not allowed(new.hostname or ""):
        what = "another site"
    elif new.scheme != old.scheme:
        what = f"{new.scheme or 'no'}:// in place of {old.scheme}://"
    elif ports[0] != ports[1]:
        what = f"port {ports[1]} in place of {ports[0]}"
    else:
        return there
    raise FetchError(
        f"{address}: the site sends the download to {shown(there)}, {what}; a download follows "
        "redirects only on the site's own host and port, over the same scheme: nothing was "
        "downloaded (download the file in a browser and list it in season.toml)"
    )


def _bounded(response: http.client.HTTPResponse, address: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the response (one more is an error)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read(min(CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise FetchError(_too_big(address, limit, ""))
    return b"".join(chunks)


def _too_big(address: str, limit: int, length: str) -> str:
    size = f"{int(length):,} bytes" if 0 < len(length) <= 18 else f"more than {limit:,} bytes"
    return (
        f"{address}: the answer is {size}; one tournament's results are far smaller (at most "
        f"{limit:,} bytes are taken): nothing was written; check the address"
    )


def _http_error(address: str, code: int, reason: str) -> str:
    why = {
        404: "not found: check the tournament's address (open it in a browser)",
        410: "gone: the site no longer serves this tournament",
        403: "refused: the site does not let this tournament be downloaded (a private one?)",
        429: "too many requests: wait a few minutes, then try again",
    }.get(code, "the site could not answer; try again later" if code >= 500 else reason[:80])
    return f"{address}: HTTP {code}, {why}; nothing was written"


def _connection_error(address: str, reason: object) -> str:
    if isinstance(reason, socket.gaierror):
        why = "the site's name could not be looked up (no network, or no DNS?)"
    elif isinstance(reason, ConnectionRefusedError):
        why = "the connection was refused (no network, or the site is down?)"
    elif isinstance(reason, ssl.SSLError):
        why = f"the secure connection failed ({reason})"
    else:
        why = f"the connection failed ({str(reason)[:200]})"
    return f"{address}: {why}; nothing was written"


def _late(address: str, deadline: Deadline) -> str:
    seconds = f"{deadline.seconds:g} second{'' if deadline.seconds == 1 else 's'}"
    return (
        f"{address}: the download was not over within its deadline of {seconds} (connecting, "
        "the answer's headers and its body, all together) and was stopped; nothing was "
        "written; the site is slow or the connection poor: try again later, or give a longer "
        "--deadline"
    )


def _silent(address: str) -> str:
    return (
        f"{address}: the site did not answer within {TIMEOUT:g} seconds; try again later; "
        "nothing was written"
    )

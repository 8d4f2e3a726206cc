"""``grandprix serve``: the season's site and workspace, until Ctrl+C; ``grandprix users``: the
accounts of a server shared by a federation."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

import click

from grandprix.cli.base import SEASON_DIR, main, say
from grandprix.errors import UsageError

LOCAL = ("127.0.0.1", "localhost", "::1")
DATABASE = click.option(
    "--database",
    default=None,
    metavar="URL",
    help="The server's database: postgresql://USER@HOST/DB, or sqlite:///FILE; by default "
    "the SQLite file .grandprix-server.sqlite3 in the folder served.",
)


def _store(folder: Path, database: str | None):  # type: ignore[no-untyped-def]
    from grandprix.serve.database import database_url
    from grandprix.serve.store import Store

    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    return Store(database_url(database, folder))


@main.command("serve")
@click.argument("season_dir", type=SEASON_DIR, required=False)
@click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Serve every season under this folder (each sub-folder holding a season.toml).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: 127.0.0.1, localhost or ::1 (this machine only) unless the "
    "server has accounts (grandprix users add).",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@DATABASE
@click.option(
    "--allowed-host",
    "hosts",
    multiple=True,
    metavar="NAME",
    help="A name the server is reached by (through a reverse proxy), besides "
    "127.0.0.1 and localhost; repeat for several.",
)
@click.option(
    "--https",
    is_flag=True,
    help="Behind a reverse proxy serving HTTPS: session cookies are Secure.",
)
@click.option(
    "--trusted-proxy",
    "proxies",
    multiple=True,
    metavar="ADDRESS",
    help="The address of a reverse proxy whose X-Forwarded-For says who the client is (for "
    "the throttling of logins by address); repeat for several. Without it, only a proxy on "
    "this machine (127.0.0.1, ::1) is believed, and only with --https or --allowed-host.",
)
@click.option("--private", is_flag=True, help="The season's pages too need a login (any role).")
def serve_command(
    season_dir: Path | None,
    root: Path | None,
    host: str,
    port: int,
    database: str | None,
    hosts: tuple[str, ...],
    https: bool,
    proxies: tuple[str, ...],
    private: bool,
) -> None:
    """Serve the season's website and workspace from the season folder: files edited there by
    hand show within a second or two, changes made in the workspace at once. Stop with Ctrl+C."""
    from grandprix.season.config import SEASON_FILE
    from grandprix.serve.accounts import Policy
    from grandprix.serve.app import create_app
    from grandprix.serve.database import STORE_FILE, shown_url
    from grandprix.serve.seasons import season_key, seasons_under

    if (season_dir is None) == (root is None):
        raise UsageError("give a SEASON_DIR or --root DIR (one of them)")
    if root is not None:
        if not root.is_dir():
            raise UsageError(f"{root}: no such folder")
        seasons = seasons_under(root)  # none yet: start one at /new
    else:
        assert season_dir is not None
        if not (season_dir / SEASON_FILE).is_file():
            raise UsageError(f"{season_dir}: no {SEASON_FILE} there (is this a season folder?)")
        seasons = {season_key(season_dir): season_dir}
    folder = root or season_dir
    assert folder is not None
    if host not in LOCAL and not database and not (folder / STORE_FILE).exists():
        accounts = False  # refused below, without making a database first
    else:
        store = _store(folder, database)
        accounts = store.has_users()
    if host not in LOCAL and not accounts:
        raise UsageError(
            f"--host {host}: a server reached from other machines needs accounts; add a "
            f"coordinator first (grandprix users add {folder} NAME --role coordinator), or "
            f"serve on {', '.join(LOCAL)}"
        )
    if (private or hosts) and not accounts:
        raise UsageError("--private and --allowed-host need accounts (grandprix users add)")
    _port_free(host, port)
    import uvicorn

    app = create_app(
        seasons,
        root=str(root or ""),
        store=store,
        private=private,
        policy=Policy(secure=https),
        hosts=hosts,
    )
    shown = f"[{host}]" if ":" in host else host
    say(f"serving {len(seasons)} season(s) at http://{shown}:{port}/ (Ctrl+C stops)")
    say(
        f"  database: {shown_url(store.url)}; "
        + ("accounts: log in at /login" if accounts else "no accounts: this machine only")
    )
    for key in seasons:
        say(f"  http://{shown}:{port}/s/{key}/  workspace: /s/{key}/workspace")
    proxied, trusted = proxy_options(https, hosts, proxies)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        proxy_headers=proxied,
        forwarded_allow_ips=trusted,
    )


def _port_free(host: str, port: int) -> None:
    """Refuse, before saying anything is served, a port another program holds."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UsageError(
                f"--port {port}: cannot listen on {host}:{port} ({exc.strerror}): another "
                "program (another grandprix serve?) holds it; stop it, or choose another port "
                "with --port"
            ) from exc


def proxy_options(
    https: bool, hosts: tuple[str, ...], proxies: tuple[str, ...] = ()
) -> tuple[bool, str]:
    """uvicorn's options on the client's address (``proxy_headers``, ``forwarded_allow_ips``):
    taken from X-Forwarded-For only from the reverse proxies named (--trusted-proxy), or, when
    none is, from a reverse proxy on this machine (one said by --https or --allowed-host);
    otherwise from the connection itself (a program could say any address, and escape the
    throttling of logins by address). A proxy on another machine left unnamed makes every
    client one address: one client's failed logins would then hold back everyone's."""
    for address in proxies:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError as exc:
            raise UsageError(
                f"--trusted-proxy {address!r}: not an IP address or network (e.g. 10.0.0.5 or "
                "10.0.0.0/24)"
            ) from exc
    if proxies:
        return True, ",".join(proxies)
    proxied = https or bool(hosts)
    return proxied, "127.0.0.1,::1" if proxied else ""


serve_command.long_running = True  # type: ignore[attr-defined]


@main.group("users")
def users_group() -> None:
    """The accounts of a server (grandprix serve): coordinators, directors and readers, kept
    in the server's database (the folder served, or --database)."""


FOLDER = click.argument("folder", type=SEASON_DIR)


@users_group.command("add")
@FOLDER
@click.argument("name")
@click.option("--role", type=click.Choice(["coordinator", "director", "reader"]), required=True)
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password from the first line of standard input.",
)
@DATABASE
def users_add(
    folder: Path, name: str, role: str, password_stdin: bool, database: str | None
) -> None:
    """Add an account; its password is asked for (twice) unless --password-stdin."""
    from grandprix.serve.accounts import hash_password

    password = _password(password_stdin)
    store = _store(folder, database)
    user = store.add_user(name, role, hash_password(password))
    say(f"added {user.name} ({user.role})")


@users_group.command("password")
@FOLDER
@click.argument("name")
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password from the first line of standard input.",
)
@DATABASE
def users_password(folder: Path, name: str, password_stdin: bool, database: str | None) -> None:
    """Set a new password (the account's sessions end)."""
    from grandprix.serve.accounts import hash_password

    password = _password(password_stdin)
    _store(folder, database).set_password(name, hash_password(password))
    say(f"new password for {name}; their sessions have ended")


@users_group.command("remove")
@FOLDER
@click.argument("name")
@DATABASE
def users_remove(folder: Path, name: str, database: str | None) -> None:
    """Remove an account, its sessions and its events (the audit trail keeps its name)."""
    _store(folder, database).remove_user(name)
    say(f"removed {name}")


@users_group.command("list")
@FOLDER
@DATABASE
def users_list(folder: Path, database: str | None) -> None:
    """The accounts, and the events given to each director."""
    store = _store(folder, database)
    given: dict[str, list[str]] = {}
    for name, season, event in store.assignments():
        given.setdefault(name, []).append(f"{season}: {event}")
    for user in store.users():
        say(f"{user.name}\t{user.role}\t{'; '.join(given.get(user.name, []))}")


@users_group.command("assign")
@FOLDER
@click.argument("name")
@click.option("--season", "season", required=True, help="The season's key (its folder's name).")
@click.option(
    "--event",
    "events",
    multiple=True,
    required=True,
    help="The event's name, as season.toml has it (or will); repeat for several.",
)
@click.option("--remove", is_flag=True, help="Take the events back.")
@DATABASE
def users_assign(
    folder: Path,
    name: str,
    season: str,
    events: tuple[str, ...],
    remove: bool,
    database: str | None,
) -> None:
    """Give a director events of a season: they may add and correct those events' results."""
    from grandprix.serve.seasons import KEY

    if not KEY.fullmatch(season):
        raise UsageError(f"--season {season[:40]!r}: the key of a season is its folder's name")
    served = _served(folder)
    if season not in served:
        known = ", ".join(sorted(served)) or "none yet"
        raise UsageError(
            f"--season {season}: {folder} serves no season of that key (it "
            f"serves: {known}); give the key of one of them"
        )
    planned = _event_names(served[season])
    if not remove:
        for event in events:
            if event not in planned:
                say(
                    f"note: '{event}' is not in {served[season] / 'season.toml'} yet: the "
                    "director's upload of its results will add it"
                )
    store = _store(folder, database)
    for event in events:
        (store.unassign if remove else store.assign)(name, season, event)
    say(f"{name}: {'took back' if remove else 'given'} {len(events)} event(s) of {season}")


def _served(folder: Path) -> dict[str, Path]:
    """The seasons a server of ``folder`` serves, by key: the season itself, or those under
    it (``--root``)."""
    from grandprix.season.config import SEASON_FILE
    from grandprix.serve.seasons import season_key, seasons_under

    if (folder / SEASON_FILE).is_file():
        return {season_key(folder): folder}
    return seasons_under(folder) if folder.is_dir() else {}


def _event_names(season: Path) -> set[str]:
    """The names of the events season.toml lists (none when it cannot be read)."""
    from grandprix.serve.changes import results_files

    try:
        return set(results_files(season))
    except UsageError:
        return set()


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    password: str = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    return password

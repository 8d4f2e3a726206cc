"""``grandprix serve``: the season's site and workspace on this machine, until Ctrl+C."""

from __future__ import annotations

from pathlib import Path

import click

from grandprix.cli.base import SEASON_DIR, main
from grandprix.errors import UsageError

LOCAL = ("127.0.0.1", "localhost", "::1")


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
    help="Address to listen on: 127.0.0.1, localhost or ::1 (this machine only).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")  # fmt: skip
def serve_command(season_dir: Path | None, root: Path | None, host: str, port: int) -> None:
    """Serve the season's website and workspace on this machine: every page is read from the
    season folder on request, so files edited meanwhile show at once. Stop with Ctrl+C."""
    from grandprix.season.config import SEASON_FILE
    from grandprix.serve.app import create_app
    from grandprix.serve.seasons import season_key, seasons_under

    if host not in LOCAL:
        raise UsageError(
            f"--host {host}: accounts are needed to serve beyond this machine (issue 2.6); "
            f"serve on {', '.join(LOCAL)}"
        )
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
    import uvicorn

    app = create_app(seasons, root=str(root or ""))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"serving {len(seasons)} season(s) at http://{shown}:{port}/ (Ctrl+C stops)")
    for key in seasons:
        click.echo(f"  http://{shown}:{port}/s/{key}/  workspace: /s/{key}/workspace")
    uvicorn.run(app, host=host, port=port, log_level="warning")


serve_command.long_running = True  # type: ignore[attr-defined]

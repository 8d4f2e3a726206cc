"""Tiny seasons written as an arbiter would: season.toml text and standings as score lists."""

from __future__ import annotations

from pathlib import Path

from grandprix.season.config import load_season
from grandprix.season.model import Line, Season
from grandprix.season.standings import standings


def standings_csv(rows: list[tuple[str, str]], rank: bool = False) -> str:
    """A standings CSV from (name, points) rows; ids are the names."""
    head = "rank,name,id,points\n" if rank else "name,id,points\n"
    body = "".join(
        (f"{i},{n},{n},{p}\n" if rank else f"{n},{n},{p}\n") for i, (n, p) in enumerate(rows, 1)
    )
    return head + body


def write_season(folder: Path, toml: str, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "season.toml").write_text(toml, encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def event(name: str, results: str, date: str = "2012-06-01", extra: str = "") -> str:
    return f'[[events]]\nname = "{name}"\ndate = {date}\nresults = "{results}"\n{extra}\n'


def season_toml(rules: str, *events: str) -> str:
    head = f'name = "Test season"\nstart = 2012-01-01\nend = 2012-12-31\n{rules}\n\n'
    return head + "\n".join(events)


def load(folder: Path) -> Season:
    season, problems = load_season(folder)
    assert season is not None, [str(p) for p in problems]
    return season


def points(folder: Path) -> dict[str, str]:
    """Player name -> total shown with 2 decimals."""
    from grandprix.scores import show

    return {line.name: show(line.total, 2) for line in standings(load(folder))}


def lines(folder: Path) -> list[Line]:
    return standings(load(folder))


def edit(path: Path, old: str, new: str) -> None:
    """``old`` (which must be there) replaced by ``new``, once, in the file at ``path``."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

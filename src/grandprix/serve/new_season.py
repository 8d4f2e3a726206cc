"""A new season folder, made whole: its season.toml (a preset's rules or another season's, no
events yet) checked by season.toml's own schema, written with its journal into a hidden folder
beside it, renamed into place and settled (``journal``); and the hidden folders of new seasons
that killed processes left unfinished, deleted."""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path

import tomlkit
from pydantic import ValidationError
from tomlkit.items import Table

from grandprix.errors import UsageError
from grandprix.language import ENGLISH
from grandprix.model import Location
from grandprix.rules.load import validation_problems
from grandprix.runtime.files import sync_folder, write_whole
from grandprix.season.config import SEASON_FILE
from grandprix.season.season_file import SeasonFile
from grandprix.serve import changes, journal
from grandprix.serve.store import Store
from grandprix.serve.workspace import left_behind, locked, recover


def start_season(
    root: Path,
    folder_name: str,
    name: str,
    *,
    preset: str | None = None,
    like: Path | None = None,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    language: str | None = None,
    approval: bool = False,
    entry: journal.Entry | None = None,
    store: Store | None = None,
) -> Path:
    """A new season folder under ``root`` with its season.toml: its name, first and last
    days, the language of its pages and whether directors' uploads wait for approval, the rules
    of a preset or those of the season in ``like`` (its rules file copied when it has one), and
    no events (``events = []``: a season that reads without errors, its pages and forms
    working), checked by season.toml's own schema before anything is written. It is made whole
    in a hidden folder beside it, with the journal of its ``entry``, and renamed into place; the
    entry then goes to ``store``'s audit trail (``journal``)."""
    target = root / folder_name
    if target.exists():
        raise UsageError(f"{target}: a folder of that name exists already; choose another name")
    document = tomlkit.document()
    document["name"] = name
    if start:
        document["start"] = start
    if end:
        document["end"] = end
    if language and language != ENGLISH:  # English, the default, goes without saying
        document["language"] = language
    if approval:
        document["approval"] = True
    files: dict[str, bytes] = {}
    if preset is not None:
        document["rules"] = preset
    elif like is not None:
        rules = changes.season_document(like).get("rules")
        if isinstance(rules, Table) and isinstance(rules.get("file"), str):
            source = like / str(rules["file"])
            files[str(rules["file"])] = source.read_bytes()
        document["rules"] = rules
    else:
        raise UsageError("a new season needs a preset or a season whose rules it takes")
    document["events"] = tomlkit.array()  # none yet: the workspace adds them
    try:
        days = SeasonFile.model_validate(document.unwrap()).days_problem()
    except ValidationError as exc:
        said = validation_problems(exc, SeasonFile, lambda _: Location(SEASON_FILE))
        raise UsageError("; ".join(problem.message for problem in said)) from exc
    if days:
        raise UsageError(days)
    files[SEASON_FILE] = changes.dumped(document)
    made = root / f"{NEW_PREFIX}{folder_name}-{os.getpid()}-{os.urandom(4).hex()}"
    made.mkdir(parents=True)
    try:
        intent = journal.Intent(os.urandom(16).hex(), files, dict.fromkeys(files), entry)
        journal.write_intent(made, target, intent, store)
        for file_name, data in files.items():
            write_whole(made / file_name, data)
        journal.step("season made")
        os.rename(made, target)  # refused if the name was taken meanwhile
        sync_folder(root)  # the rename itself on the disk
    except BaseException:
        shutil.rmtree(made, ignore_errors=True)
        raise
    journal.step("season in place")
    with locked(target):
        recover(target, store)  # the entry settled, the journal removed
    return target


NEW_PREFIX = ".grandprix-new-"  # a season folder being made, then its name and the process's


def clean_new_seasons(root: Path) -> int:
    """Delete the folders of new seasons that processes which are gone left unfinished under
    ``root``; how many."""
    gone = 0
    for path in root.glob(f"{NEW_PREFIX}*"):
        pid = path.name.rsplit("-", 2)[-2]
        if left_behind(path, pid):
            shutil.rmtree(path, ignore_errors=True)
            gone += 1
    return gone

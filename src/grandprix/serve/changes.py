"""Changes to a season folder, as the workspace's forms make them: a ``Change`` is the new
contents of some of the folder's files (a results file, ``season.toml`` edited with tomlkit so
that its comments and layout stay, a row of ``aliases.csv``), made from the folder's
``version``. Previewing and accepting a change is ``workspace``'s job."""

from __future__ import annotations

import datetime
import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, Float, Table, Trivia

from grandprix.errors import InputError, UsageError
from grandprix.rules.fields import MONEY_LIMIT
from grandprix.season.config import ALIASES_FILE, SEASON_FILE, read_season_toml
from grandprix.serve.journal import replaced_bytes
from grandprix.serve.seasons import folder_version


@dataclass(frozen=True)
class Change:
    """New contents of some files of a season folder (names relative to it), in words, and
    the folder's version they were made from (read before the files they change): a change
    made from files that changed since is refused, never written over them."""

    files: dict[str, bytes]
    what: str
    base: str = ""
    before: dict[str, str | None] = field(default_factory=dict)  # name -> digest (None: none)


def digest(data: bytes | None) -> str | None:
    """The SHA-256 of a file's bytes (None for no file)."""
    return None if data is None else hashlib.sha256(data).hexdigest()


def contents(folder: Path, *names: str) -> dict[str, str | None]:
    """The digest of each file as it is now (None: none there, or a link): what a change is
    made from, compared again when it is accepted."""
    return {name: digest(data) for name, data in replaced_bytes(folder, list(names)).items()}


# Changes


def event_change(
    folder: Path,
    name: str,
    date: datetime.date,
    filename: str,
    data: bytes,
    *,
    category: str = "",
    prize_fund: str = "",
    weight: str = "",
    place: str = "",
) -> Change:
    """A new event of the season: its results file and its ``[[events]]`` entry, with its
    category and prize fund when given (rules that choose tables by either need them)."""
    base = folder_version(folder)
    seen = contents(folder, SEASON_FILE, filename)
    if not name.strip() or any(not c.isprintable() for c in name):
        raise UsageError(
            f"{name[:60]!r} cannot be an event's name: write it on one line, "
            "without control characters"
        )
    _not_reserved(folder, filename)
    if (folder / filename).exists():
        raise UsageError(
            f"{filename}: the season folder already has a file of that name; rename the upload "
            "(a file already there is never replaced)"
        )
    entry = tomlkit.table()
    entry["name"] = name
    entry["date"] = date
    if category:
        entry["category"] = category
    if prize_fund:
        entry["prize_fund"] = _amount(prize_fund)
    if weight:
        entry["weight"] = _rate(weight)
    if place:
        if len(place) > 200 or any(not c.isprintable() for c in place):
            raise UsageError(
                f"{place[:60]!r} cannot be where an event is played: one line of "
                "at most 200 characters"
            )
        entry["place"] = place
    entry["results"] = filename
    path = folder / SEASON_FILE
    listed = _settings(folder).get("events")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{SEASON_FILE}: cannot read it ({_reason(exc)})") from exc
    tables = isinstance(listed, list) and listed and all(isinstance(e, dict) for e in listed)
    calendar = listed if isinstance(listed, list) else []
    planned = any(
        isinstance(e, dict) and e.get("name") == name and e.get("planned") for e in calendar
    )
    if planned:  # in the calendar already: its entry gets the results, its values stay
        document = season_document(folder)
        when: object = date
        for known in document.get("events") or []:
            if known.get("name") == name and known.get("planned"):
                del known["planned"]
                known["results"] = filename  # the coordinator's date, category and prize fund
                if "date" not in known:  # stay: a director's upload never changes them
                    known["date"] = date
                when = known.get("date", date)
                break
        return Change(
            {filename: data, SEASON_FILE: dumped(document)},
            f"results of the planned event '{name}' ({when}): {filename}",
            base,
            seen,
        )
    if tables and "[[events]]" in text:  # written as [[events]] tables, not inline
        # Appended as text: the file's own lines stay as they are, and a large season.toml
        # is not parsed again by tomlkit (the preview reads the result).
        added = tomlkit.document()
        added["events"] = tomlkit.aot()
        added["events"].append(entry)
        text = text if text.endswith("\n") else text + "\n"
        at = after_last_event(text)  # with the other events, not after the prizes
        lead = "" if text[:at].endswith("\n\n") else "\n"  # one blank line before it
        block = lead + tomlkit.dumps(added) + ("\n" if at < len(text) else "")
        return Change(
            {filename: data, SEASON_FILE: (text[:at] + block + text[at:]).encode()},
            f"add event '{name}' of {date} with results {filename}",
            base,
            seen,
        )
    document = season_document(folder)
    events = document.get("events")
    if events is None or (isinstance(events, Array) and not events):
        if events is not None:  # 'events = []', as a season starts (start_season)
            del document["events"]
        events = tomlkit.aot()
        document["events"] = events
    if isinstance(events, Array):  # events = [{...}, ...], written inline: kept inline
        inline = tomlkit.inline_table()
        inline.update(entry)
        events.append(inline)
    elif isinstance(events, AoT):
        events.append(entry)
    else:
        raise UsageError(f"{SEASON_FILE}: 'events' is not a list of events")
    return Change(
        {filename: data, SEASON_FILE: dumped(document)},
        f"add event '{name}' of {date} with results {filename}",
        base,
        seen,
    )


_HEADER = re.compile(r"\s*\[\[?\s*([A-Za-z0-9_.\s\"'-]+?)\s*\]\]?\s*(#.*)?$")


def after_last_event(text: str) -> int:
    """Where a new ``[[events]]`` table goes in season.toml's text: after the last event's
    table and its sections, before the next table of another kind (the rules' prizes, say);
    the end of the text when the events come last."""
    offset, end, inside = 0, len(text), False
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header is not None:
            name = header.group(1).replace(" ", "")
            is_event = name == "events" or name.startswith("events.")
            if inside and not is_event:
                end = offset
            inside = is_event
            if is_event:
                end = len(text)
        offset += len(line)
    return end


def season_read_files(folder: Path) -> set[str]:
    """The names (case folded) of the files the season reads by name besides its results:
    season.toml, aliases.csv, its players file, its rules file, its rating lists and store.
    An upload may never take one of them (a results file named aliases.csv would also be read
    as the coordinator's decisions on names)."""
    names = {SEASON_FILE, ALIASES_FILE, "players.csv"}
    try:
        said = read_season_toml(folder)
    except InputError:
        said = {}
    rules = said.get("rules")
    named = [
        said.get("players"),
        said.get("ratings_store"),
        rules if isinstance(rules, str) and rules.endswith(".toml") else None,
        rules.get("file") if isinstance(rules, dict) else None,
    ]
    lists = said.get("rating_lists")
    named += (
        [e.get("file") for e in lists if isinstance(e, dict)] if isinstance(lists, list) else []
    )
    names.update(n for n in named if isinstance(n, str))
    return {Path(n).as_posix().casefold() for n in names}


def _not_reserved(folder: Path, filename: str) -> None:
    if filename.casefold() in season_read_files(folder):
        raise UsageError(
            f"{filename}: the season reads a file of that name for something else (its "
            "settings, players, names or ratings); give the results file another name"
        )


def needs_approval(folder: Path) -> bool:
    """Whether the season says directors' uploads wait for a coordinator (``approval``)."""
    try:
        said = read_season_toml(folder)
    except InputError:
        return True  # unreadable: nothing a director sends is written unseen
    return said.get("approval") is True


def with_results(folder: Path) -> set[str]:
    """The events of season.toml that have results (not those only planned)."""
    return {name for name, found in results_files(folder).items() if found}


def results_files(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Each event of season.toml with its results files: event name -> [(section, file)]
    (section '' for a one-section event); planned events have none."""
    listed = _settings(folder)
    out: dict[str, list[tuple[str, str]]] = {}
    for entry in listed.get("events", []) if isinstance(listed.get("events"), list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        found = [("", entry["results"])] if isinstance(entry.get("results"), str) else []
        found += [
            (str(s.get("name", "")), s["results"])
            for s in entry.get("sections", [])
            if isinstance(s, dict) and isinstance(s.get("results"), str)
        ]
        out[entry["name"]] = found
    return out


def in_progress(folder: Path) -> list[tuple[str, list[tuple[str, str]]]]:
    """The events of season.toml being played (``in_progress``), in its order, each with its
    sections' results files: [(event, [(section, file)])] (section '' for one section)."""
    listed = _settings(folder)
    events = listed.get("events")
    files = results_files(folder)
    return [
        (entry["name"], files.get(entry["name"], []))
        for entry in (events if isinstance(events, list) else [])
        if isinstance(entry, dict)
        and entry.get("in_progress") is True
        and isinstance(entry.get("name"), str)
    ]


def results_change(
    folder: Path, event: str, filename: str, data: bytes, *, section: str = ""
) -> Change:
    """Corrected results of an event already in the season: under the name of the file they
    replace (its earlier bytes go to the server's store, never lost), or under a new name that
    the event's entry then gives (the earlier file stays in the folder)."""
    base = folder_version(folder)
    seen = contents(folder, SEASON_FILE, filename)
    files = results_files(folder).get(event)
    if not files:
        raise UsageError(f"the season has no event '{event[:60]}' with results to correct")
    chosen = [f for s, f in files if s == section]
    if not chosen:
        names = ", ".join(repr(s) for s, _ in files)
        raise UsageError(f"event '{event[:60]}' has no section '{section[:60]}' (it has {names})")
    current = chosen[0]
    _not_reserved(folder, filename)
    what = f"correct the results of '{event}'" + (f" ({section})" if section else "")
    if filename == current:
        return Change({filename: data}, f"{what}: {filename} replaced", base, seen)
    if (folder / filename).exists():
        raise UsageError(
            f"{filename}: the season folder already has another file of that name; upload the "
            f"results as {current} (which they replace) or under a new name"
        )
    document = season_document(folder)
    for entry in document.get("events", []):
        if entry.get("name") != event:
            continue
        if not section:
            entry["results"] = filename
        for part in entry.get("sections", []):
            if part.get("name") == section:
                part["results"] = filename
    return Change(
        {filename: data, SEASON_FILE: dumped(document)},
        f"{what}: now {filename} (instead of {current}, which stays in the folder)",
        base,
        seen,
    )


def _rate(text: str) -> int | Float:
    """An event's rate as the form gives it ('1.5', '2'), as a TOML number written as typed."""
    try:
        rate = Decimal(text.replace(",", ".").strip())
    except InvalidOperation:
        rate = Decimal(-1)
    if not rate.is_finite() or not 0 < rate <= 1000:
        raise UsageError(
            f"rate '{text[:20]}' is not a rate: write a number such as 1.5 (more "
            "than 0, at most 1000)"
        )
    if rate == rate.to_integral_value():
        return int(rate)
    return Float(float(rate), Trivia(), format(rate, "f"))


def _amount(text: str) -> int | Float:
    """A prize fund as the form gives it ('1500', '1,500', '750.50'), as a TOML number written
    as typed (a float would keep only 15 to 17 digits of 5,400,000,000,000.05)."""
    try:
        amount = Decimal(text.replace(",", "").strip())
    except InvalidOperation:
        amount = Decimal(-1)
    if not amount.is_finite() or amount < 0:
        raise UsageError(f"prize fund '{text[:20]}' is not an amount: write it as 1500 or 750.50")
    if amount > MONEY_LIMIT:
        raise UsageError(
            f"prize fund '{text[:20]}' is more than {MONEY_LIMIT:,}, the most an "
            "amount of money may be in any currency"
        )
    if amount == amount.to_integral_value():
        return int(amount)
    written = format(amount, "f")
    return Float(float(amount), Trivia(), written)


def rules_change(folder: Path, changes: dict[str, Any]) -> Change:
    """Rule-set keys changed in ``season.toml``: dotted keys (``points.table``) set in its
    ``[rules]`` table, which is made from ``rules = "preset"`` when needed."""
    base = folder_version(folder)
    seen = contents(folder, SEASON_FILE)
    document = season_document(folder)
    rules = document.get("rules")
    if isinstance(rules, str):
        table = tomlkit.table()
        table["preset"] = rules
        del document["rules"]
        document["rules"] = table
        rules = table
    if not isinstance(rules, Table):
        raise UsageError(f"{SEASON_FILE}: 'rules' is neither a preset name nor a table")
    for dotted, value in changes.items():
        parts = dotted.split(".")
        here: Any = rules
        for part in parts[:-1]:
            if part not in here:
                here[part] = tomlkit.table()
            here = here[part]
            if not isinstance(here, Table):
                raise UsageError(f"rules key '{dotted}': '{part}' is not a table")
        here[parts[-1]] = _tables(value)
    shown = ", ".join(f"{k} = {_shown(v)}" for k, v in changes.items())
    return Change({SEASON_FILE: dumped(document)}, f"change the rules: {shown}", base, seen)


def _tables(value: Any) -> Any:
    """A list of inline tables as [[...]] tables, as season.toml writes them."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        written = tomlkit.aot()
        for item in value:
            table = tomlkit.table()
            table.update(item)
            written.append(table)
        return written
    return value


def alias_change(folder: Path, name: str, other: str, same: bool) -> Change:
    """The coordinator's decision on two similar names, one row of ``aliases.csv``."""
    base = folder_version(folder)
    seen = contents(folder, ALIASES_FILE)
    for text in (name, other):
        if not text.strip() or any(c in text for c in '\n\r"'):
            raise UsageError(f"'{text[:60]}' is not a name aliases.csv can hold")
    path = folder / ALIASES_FILE
    before = path.read_bytes() if path.exists() else b"name,other,decision\n"
    if before and not before.endswith(b"\n"):
        before += b"\n"
    row = f"{_cell(name)},{_cell(other)},{'same' if same else 'different'}\n".encode()
    word = "the same person" if same else "two people"
    return Change({ALIASES_FILE: before + row}, f"'{name}' and '{other}' are {word}", base, seen)


def toml_value(text: str) -> Any:
    """A value typed in a form, read as TOML writes it (``4``, ``1.5``, ``"14/3"``, ``true``,
    ``[21, 15, 12]``, ``"rapid"``); a bare word is read as a string."""
    try:
        return tomlkit.parse(f"value = {text}")["value"]
    except tomlkit.exceptions.ParseError:
        if text.strip() and "\n" not in text and '"' not in text:
            return text.strip()
        raise UsageError(
            f"'{text[:60]}' is not a value (write e.g. 4, 1.5, true or [21, 15])"
        ) from None


def _cell(text: str) -> str:
    return f'"{text}"' if "," in text else text


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


def dumped(document: tomlkit.TOMLDocument) -> bytes:
    """season.toml as tomlkit writes it, ending with a newline (a table tomlkit adds last, as
    ``rules_change`` does, ends without one)."""
    text = tomlkit.dumps(document)
    return (text if not text or text.endswith("\n") else text + "\n").encode()


def _settings(folder: Path) -> dict[str, Any]:
    """season.toml as the season reads it, for a change that needs it (its events): a file
    that cannot be read is a ``UsageError`` naming where it is wrong."""
    try:
        return read_season_toml(folder)
    except InputError as exc:
        raise UsageError(f"{exc}; correct it first") from exc


def _reason(exc: OSError | UnicodeDecodeError) -> str:
    """Why a file could not be read, without the server's path of it (shown to directors)."""
    return (exc.strerror or "") if isinstance(exc, OSError) else str(exc)


def season_document(folder: Path) -> tomlkit.TOMLDocument:
    path = folder / SEASON_FILE
    try:
        return tomlkit.parse(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{SEASON_FILE}: cannot read it ({_reason(exc)})") from exc
    except tomlkit.exceptions.ParseError as exc:
        raise UsageError(f"{SEASON_FILE}: not valid TOML ({exc}); correct it first") from exc

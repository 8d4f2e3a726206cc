"""The static standings website (UT-8): home, players, events, prizes, rules, downloads.

Every page is rendered with autoescaping, so any text from an input file shows as text. Nothing
is fetched from another site. The site is written to a new folder that then replaces the old one,
so a failed build leaves the previous site as it was.

Publishing never loses a file: one run at a time writes a folder (a lock beside it), a folder is
replaced only when it holds nothing but what the earlier run wrote (listed in its marker file),
and the run's own work folder, unique to the run, is the only other folder it creates or removes.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import re
import shutil
import sys
import tempfile
import unicodedata
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from fractions import Fraction
from multiprocessing.process import BaseProcess
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from grandprix.errors import GrandprixError, UsageError, WriteError
from grandprix.numbers import show
from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting
from grandprix.season.divisions import division_counting
from grandprix.season.identity import Directory
from grandprix.season.model import Award, Line, Season, SeasonEvent
from grandprix.season.points import event_placings
from grandprix.season.report import explain
from grandprix.season.standings import (
    division_standings,
    player_line,
    rerank,
    season_directory,
)
from grandprix.site.chart import leaders_chart
from grandprix.site.exports import write_text_exports, write_xlsx
from grandprix.site.rules_text import rules_in_words

HERE = Path(__file__).parent
Tables = list[tuple[str, list[Line]]]


SLUG_LIMIT = 80  # a page's file name stays far below the 255 bytes a file system allows


def slug(text: str) -> str:
    """Lower-case ASCII letters, digits and hyphens, at most ``SLUG_LIMIT`` characters."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:SLUG_LIMIT].rstrip("-") or "x"


@dataclass
class Pages:
    """File names of the players and events, assigned once."""

    players: dict[str, str]
    events: dict[int, str]


MARK = ".grandprix-site"  # in every site written, listing what the run wrote
MARK_HEAD = "written by grandprix site; the next run replaces these files and no others"
EARLIER_SITE = {  # what a site held before its marker listed it
    MARK, "index.html", "events.html", "prizes.html", "rules.html", "downloads.html",
    "style.css", "standings.csv", "results.csv", "season.json", "season.schema.json",
    "season.xlsx", "players/", "events/",
}  # fmt: skip
LOCK_TEXT = b"grandprix site: a run is writing the folder beside this file\n"


def build_site(season: Season, out: Path) -> int:
    """Write the site into ``out`` (replacing it whole); return the number of pages.

    ``out`` must be new, empty, or a site written before holding only what that run wrote:
    any other folder is refused, since replacing it would delete what it holds. One run at a
    time writes ``out``; a failure to write (permissions, a full disk) is a ``WriteError``
    that names the path, and leaves the earlier site as it was."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with _locked(out):
            _check_folder(out)
            return _build(season, out)
    except GrandprixError:
        raise
    except OSError as exc:
        where = exc.filename if exc.filename else out
        why = exc.strerror.lower() if exc.strerror else str(exc)
        hint = " (check that you may write there)" if isinstance(exc, PermissionError) else ""
        raise WriteError(
            f"{where}: {why}; the site was not written and {out} is as it was{hint}"
        ) from exc


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold the lock of ``out`` (the file ``.NAME.lock`` beside it, removed afterwards) or
    refuse: two runs writing one folder at once would leave half a site."""
    if sys.platform == "win32":  # no flock: runs are not kept apart there
        yield
        return
    import fcntl

    path = out.parent / f".{out.name}.lock"
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UsageError(
                f"{out}: another 'grandprix site' is writing this folder now (it holds {path}); "
                "let it finish, then run again"
            ) from None
        try:
            if os.fstat(fd).st_ino == os.stat(path).st_ino:
                break  # the file at the path, not one the last holder removed meanwhile
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        if os.fstat(fd).st_size == 0:
            os.write(fd, LOCK_TEXT)
        yield
    finally:
        # Removed while still held, and only a lock file grandprix wrote; one left behind (a
        # folder that became read-only) does no harm, and must not hide the run's own error.
        with suppress(OSError):
            if os.pread(fd, len(LOCK_TEXT) + 1, 0) == LOCK_TEXT:
                path.unlink()
        os.close(fd)


def _check_folder(out: Path) -> None:
    """Refuse a folder that is not an earlier site, or that holds what the site did not write.

    Refusing is the simplest and safest choice: carrying the other files into the new site
    would mean guessing what the user wants there, and deleting them would lose them."""
    if not out.exists():
        return
    if not out.is_dir() or (any(out.iterdir()) and not (out / MARK).exists()):
        raise UsageError(
            f"{out}: not a site grandprix wrote, and it is not empty; the site replaces its "
            "folder whole, so give a new or empty folder (or the folder of an earlier site)"
        )
    if not (out / MARK).exists():
        return
    others = _not_written(out)
    if others:
        shown = ", ".join(others[:10]) + (f" and {len(others) - 10} more" if others[10:] else "")
        raise UsageError(
            f"{out}: holds {shown}, which the earlier site did not write; the new site replaces "
            f"the folder whole, so move them out of {out} first (or write the site to a new "
            "folder)"
        )


def _not_written(site: Path) -> list[str]:
    """What the earlier site in ``site`` holds that it did not write, by relative path."""
    listed = set((site / MARK).read_text(encoding="utf-8").splitlines()[1:])

    def ours(rel: str) -> bool:
        if listed:
            return rel in listed
        return rel in EARLIER_SITE or re.fullmatch(r"(players|events)/[^/]+\.html", rel) is not None

    others = []
    for top, folders, files in os.walk(site):
        here = Path(top).relative_to(site)
        for name in sorted(folders):
            rel = (here / name).as_posix()
            if os.path.islink(site / rel) or not ours(rel + "/"):
                others.append(rel)
                folders.remove(name)  # not looked into: it is not ours as a whole
        others += [(here / n).as_posix() for n in files if not ours((here / n).as_posix())]
    return sorted(others)


def _listing(folder: Path) -> list[str]:
    """Every folder (with a final '/') and file under ``folder``, by relative path."""
    found = []
    for top, folders, files in os.walk(folder):
        here = Path(top).relative_to(folder)
        found += [(here / n).as_posix() + "/" for n in folders]
        found += [(here / n).as_posix() for n in files]
    return sorted(found)


def _build(season: Season, out: Path) -> int:
    """The site written into a folder of this run's own beside ``out``, then swapped in."""
    tables = division_standings(season)
    played = [e for e in season.events if not e.planned]
    before = _previous(season, tables, played)
    pages = _pages(tables, played)
    # A name no other folder has: the run touches no folder beside ``out`` it did not make.
    work = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp"))
    try:
        count = _write(season, work / "new", tables, played, before, pages)
        _check_folder(out)  # again: files may have been put there while the site was written
        _swap(work, out)
    finally:
        if out.exists() or not (work / "old").exists():  # never the earlier site, not put back
            shutil.rmtree(work, ignore_errors=True)
    return count


def _write(
    season: Season,
    staging: Path,
    tables: Tables,
    played: list[SeasonEvent],
    before: dict[str, dict[PlayerKey, int]],
    pages: Pages,
) -> int:
    """Every page and export written into ``staging``, the marker last; the number of pages."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    common = {"season_name": season.name, "decimals": season.rules.standings.decimals}
    (staging / "players").mkdir(parents=True)
    (staging / "events").mkdir()
    shutil.copy(HERE / "style.css", staging / "style.css")
    count = 0

    def write(path: str, template: str, **values: object) -> None:
        nonlocal count
        root = "../" if "/" in path else ""
        html = env.get_template(template).render(root=root, **common, **values)
        (staging / path).write_text(html, encoding="utf-8")
        count += 1

    exports: Exports | None = None
    try:
        exports = Exports(staging, season, tables)  # the XLSX, by another process meanwhile
        write("index.html", "index.html", **_home(season, tables, before, pages, played))
        for key, values in _player_pages(season, tables, pages).items():
            write(f"players/{pages.players[key]}", "player.html", **values)
        awards = _awards_by_event(tables)
        directory = season_directory(season)
        for event in played:
            write(f"events/{pages.events[event.index]}", "event.html",
                  **_event_page(season, event, awards, pages, directory))  # fmt: skip
        write("events.html", "list.html", **_events_index(played, pages))
        write("prizes.html", "list.html", **_prizes_page(season))
        words = [{"heading": h, "paragraphs": ps} for h, ps in rules_in_words(season.rules)]
        write(
            "rules.html", "list.html", title="Rules", intro=season.rules.description, blocks=words
        )
        files = write_text_exports(staging, season, tables) + exports.finish()
        intro = "The standings and every result, to reuse. season.schema.json describes the JSON."
        entries = [{"text": f, "href": f} for f in files]
        write("downloads.html", "list.html", title="Downloads", intro=intro,
              blocks=[{"entries": entries}])  # fmt: skip
    except BaseException:
        if exports is not None:
            exports.cancel()
        raise
    listing = "\n".join([MARK_HEAD, *_listing(staging), MARK])
    (staging / MARK).write_text(listing + "\n", encoding="utf-8")
    return count


class Exports:
    """The XLSX export, written by a forked process while this one renders the pages (it takes
    longer than all the pages of a large season). Inline where fork is missing."""

    def __init__(self, folder: Path, season: Season, tables: Tables) -> None:
        self.process: BaseProcess | None = None
        self.files: list[str] = []
        if "fork" not in multiprocessing.get_all_start_methods():
            self.files = write_xlsx(folder, season, tables)
            return
        context = multiprocessing.get_context("fork")
        self.receive, send = context.Pipe(duplex=False)

        def child() -> None:
            try:
                send.send(write_xlsx(folder, season, tables))
            except BaseException as error:  # handed to the parent, which raises it
                try:
                    pickle.loads(pickle.dumps(error))  # some exceptions do not come back whole
                except Exception:
                    error = RuntimeError(f"writing season.xlsx failed: {error!r}")
                send.send(error)

        self.process = context.Process(target=child, name="grandprix-exports")
        self.process.start()
        send.close()

    def finish(self) -> list[str]:
        """The files written; raises what the writing raised."""
        if self.process is None:
            return self.files
        try:
            result = self.receive.recv()
        except EOFError:
            result = RuntimeError("the process writing the exports stopped without a word")
        self.process.join()
        self.process = None
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, list)
        return result

    def cancel(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.join()
            self.process = None


def _swap(work: Path, out: Path) -> None:
    """Publish ``work/new`` as ``out`` by rename; the earlier site, moved to ``work/old`` for
    the moment, is put back if the new one cannot take its place."""
    if out.exists():
        out.rename(work / "old")
    try:
        (work / "new").rename(out)
    except OSError:
        if (work / "old").exists():
            (work / "old").rename(out)
        raise


def _pages(tables: Tables, played: list[SeasonEvent]) -> Pages:
    players: dict[str, str] = {}
    used: set[str] = set()
    for _, lines in tables:
        for line in lines:
            if line.player in players:
                continue
            base = slug(line.player.split(":", 1)[-1])
            name, n = base, 1
            while name in used:
                n += 1
                name = f"{base}-{n}"
            used.add(name)
            players[line.player] = f"{name}.html"
    events = {e.index: f"{e.index + 1:03d}-{slug(e.name)}.html" for e in played}
    return Pages(players, events)


def _previous(
    season: Season, tables: Tables, played: list[SeasonEvent]
) -> dict[str, dict[PlayerKey, int]]:
    """Ranks before the last event date, by division, for the movement column."""
    if len(played) < 2:
        return {}
    last = played[-1].date
    earlier = [e for e in played if e.date < last]
    if not earlier:
        return {}
    as_of = max(e.date for e in earlier)
    last_event = max(e.index for e in earlier if e.date <= as_of)
    out = {}
    for name, lines in tables:
        counting = _counting(season, name)
        ranked = rerank(lines, season.rules, len(season.events), counting, as_of, last_event)
        out[name] = {line.player: line.rank_first for line in ranked}
    return out


def _counting(season: Season, division: str) -> Counting:
    """How the table of ``division`` ('' without divisions) counts a player's results."""
    rules = season.rules
    found = next((d for d in rules.divisions if d.name == division), None)
    if found is None or found.award == "filter":  # a filter keeps the overall totals
        return rules.counting
    return division_counting(found, rules)


def _move(before: dict[PlayerKey, int] | None, line: Line) -> tuple[str, str, str]:
    if before is None:
        return "", "", "no earlier standings"
    if line.player not in before:
        return "new", "", "new in the standings"
    change = before[line.player] - line.rank_first
    if change > 0:
        return f"▲{change}", "up", f"up {change}"
    if change < 0:
        return f"▼{-change}", "down", f"down {-change}"
    return "=", "", "no change"


def _home(
    season: Season,
    tables: Tables,
    before: dict[str, dict[PlayerKey, int]],
    pages: Pages,
    played: list[SeasonEvent],
) -> dict[str, object]:
    decimals = season.rules.standings.decimals
    shown = []
    for name, lines in tables:
        rows = []
        for line in lines:
            move, move_class, label = _move(before.get(name) if before else None, line)
            rows.append({"rank": line.rank, "name": line.name,
                         "href": f"players/{pages.players[line.player]}",
                         "points": show(line.total, decimals), "events": line.events,
                         "move": move, "move_class": move_class, "move_label": label})  # fmt: skip
        title = name or "Standings"
        shown.append({"title": title, "anchor": slug(title), "rows": rows})
    return {
        "title": f"{season.name}: standings",
        "tables": shown,
        "played": len(played),
        "calendar": len(season.events),
        "last_event": f"{played[-1].name} ({played[-1].date})" if played else "none yet",
        "chart": _chart(season, tables, played),
    }


def _chart(season: Season, tables: Tables, played: list[SeasonEvent]) -> str:
    """Running totals of the first table's top five after each event."""
    if not tables:
        return leaders_chart([e.name for e in played], [])
    name, lines = tables[0]
    series = [(line.name, running_totals(season, name, line, played)) for line in lines[:5]]
    return leaders_chart([e.name for e in played], series)


def running_totals(
    season: Season, division: str, line: Line, played: list[SeasonEvent]
) -> list[Fraction]:
    """The line's total after each event played, counted as its table counts them."""
    counting = _counting(season, division)
    scale = math.lcm(
        counting.bonus_per_event.denominator, *{a.points.denominator for a in line.awards}
    )
    by_event: dict[int, list[tuple[int, Award]]] = defaultdict(list)
    for award in line.awards:
        units = award.points.numerator * (scale // award.points.denominator)
        by_event[award.event].append((units, award))
    so_far: list[tuple[int, Award]] = []
    totals = []
    for event in played:
        so_far.extend(by_event.get(event.index, []))
        if not so_far:
            totals.append(Fraction(0))
            continue
        sub, _ = player_line(line.player, so_far, counting, len(season.events), scale)
        totals.append(sub.total)
    return totals


def _player_pages(season: Season, tables: Tables, pages: Pages) -> dict[str, dict[str, object]]:
    decimals = season.rules.standings.decimals
    out: dict[str, dict[str, object]] = {}
    for division, lines in tables:
        for line in lines:
            entry = out.setdefault(
                line.player, {"title": line.name, "name": line.name, "parts": []}
            )
            awards = [
                {"date": a.date.isoformat(), "event": a.event_name if a.section == a.event_name
                 else f"{a.event_name}, {a.section}",
                 "href": f"../events/{pages.events[a.event]}", "place": a.place,
                 "score": show(a.score), "points": show(a.points, decimals),
                 "counted": "counted" if a in line.counted else "dropped"}
                for a in sorted(line.awards, key=lambda a: (a.date, a.event_name))
            ]  # fmt: skip
            parts = entry["parts"]
            assert isinstance(parts, list)
            parts.append(
                {
                    "division": division or "Standings",
                    "rank": line.rank,
                    "total": show(line.total, decimals),
                    "bonus": show(line.bonus, decimals),
                    "awards": awards,
                    "explanation": explain(season, line, division),
                }
            )
    return out


def _awards_by_event(tables: Tables) -> dict[tuple[int, str, str], Award]:
    """The overall (first table's) award of every player in every event section."""
    if not tables:
        return {}
    return {(a.event, a.section, a.player): a for line in tables[0][1] for a in line.awards}


def _event_page(
    season: Season,
    event: SeasonEvent,
    awards: dict[tuple[int, str, str], Award],
    pages: Pages,
    directory: Directory,
) -> dict[str, object]:
    rules = season.rules
    decimals = rules.standings.decimals
    sections = []
    for s in event.sections:
        results = s.section
        standing = event_placings(results, event, rules)
        rows = []
        for row in standing.rows:
            key = directory.entrant(row.player).key
            award = awards.get((event.index, s.name, key))
            rows.append({"place": row.place, "name": row.player.name,
                         "href": f"../players/{pages.players[key]}" if key in pages.players else "",
                         "score": show(row.points), "cells": [show(v) for v in row.values],
                         "points": show(award.points, decimals) if award else ""})  # fmt: skip
        sections.append({"name": s.name, "codes": [sp.code for sp in standing.specs], "rows": rows})
    return {"title": event.name, "date": event.date.isoformat(), "weight": show(event.weight),
            "sections": sections}  # fmt: skip


def _events_index(played: list[SeasonEvent], pages: Pages) -> dict[str, object]:
    items = [
        {"text": e.name, "href": f"events/{pages.events[e.index]}", "note": e.date.isoformat()}
        for e in played
    ]
    return {"title": "Events", "blocks": [{"entries": items}]}


def _prizes_page(season: Season) -> dict[str, object]:
    if not season.rules.prizes.prize:
        return {"title": "Prizes", "intro": "These rules list no season prizes.", "blocks": []}
    from grandprix.prizes.season import season_prizes

    result = season_prizes(season)
    rows = [
        [w.prize, w.name, show(w.amount, 2) if w.amount is not None else (w.title or ""), w.reason]
        for w in result.won
    ]
    missed = [{"text": f"{m.prize}: {m.reason}"} for m in result.missed]
    return {
        "title": "Prizes",
        "intro": "On the standings as they are now; final when the season ends.",
        "blocks": [
            {"table": {"caption": "Season prizes and why each went where it did",
                       "head": ["Prize", "Player", "Value", "Why"], "rows": rows}},
            {"heading": "Not awarded", "entries": missed} if missed else {},
        ],
    }  # fmt: skip

"""``grandprix pair FILE``: the next round of a tournament paired from its results file; and
``grandprix round EVENT.toml ...``: an event's day, section by section (pair, enter results,
standings after each round, byes, withdrawals, undo)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import click

from grandprix.cli.base import EVENT_FILE, format_option, main, say, stop_on_errors
from grandprix.errors import UsageError

if TYPE_CHECKING:
    from grandprix.events.day import Day
    from grandprix.model import ResultKind, Section
    from grandprix.pairing.state import Pairing, Tournament

_COLOURS = {"white": "w", "black": "b"}
_BYE_KINDS = {"half": "H", "full": "F", "zero": "Z"}


def _draw(choice: str | None) -> str:
    """The initial colour: given, or drawn by lot (C.04.3: the colour of the first player in
    round 1 is drawn by lot)."""
    return _COLOURS[choice] if choice else secrets.choice("wb")


def _emit(section: Section, pairing: Pairing, fmt: str) -> None:
    from grandprix.pairing.engine import DEFAULT_SYSTEM, engine_version
    from grandprix.reports.pairings import pairings_csv, pairings_json, pairings_table

    if fmt == "csv":
        click.echo(pairings_csv(section, pairing), nl=False)
    elif fmt == "json":
        click.echo(pairings_json(section, pairing, DEFAULT_SYSTEM, engine_version()), nl=False)
    else:
        from rich.console import Console

        Console().print(pairings_table(section, pairing))


@main.command("pair")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@format_option(
    "Output format (trf: the whole file with the new round).", ("table", "csv", "json", "trf")
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the TRF with the new round's pairings to this file (written whole; it may be "
    "FILE itself).",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, 199),
    default=None,
    help="The number of rounds, when the file does not say it (TRF record 142 or XXR).",
)
@click.option(
    "--initial-colour",
    type=click.Choice(list(_COLOURS)),
    default=None,
    help="The colour of the first player in round 1, when the file has none (record 152); "
    "drawn by lot otherwise, and written in the TRF.",
)
@click.option(
    "--bye",
    "byes",
    multiple=True,
    metavar="NO:KIND",
    help="A bye asked for the round to pair: start number and half, full or zero (e.g. "
    "'12:half'); zero is an absence. Repeat for more.",
)
@click.option(
    "--forbid",
    multiple=True,
    metavar="NO,NO[,NO...]",
    help="Players who must not meet (one family, one club): their start numbers. Repeat for "
    "more groups.",
)
@click.option(
    "--accelerate",
    type=click.Choice(["baku"]),
    default=None,
    help="Baku acceleration (FIDE C.04.7), when the file has no records 250 yet.",
)
@click.option(
    "--input-format",
    default=None,
    help="Format of FILE when it is not a TRF (any crosstable format of 'grandprix event').",
)
def pair_command(
    file: Path,
    fmt: str,
    output: Path | None,
    rounds: int | None,
    initial_colour: str | None,
    byes: tuple[str, ...],
    forbid: tuple[str, ...],
    accelerate: str | None,
    input_format: str | None,
) -> None:
    """Pair the next round of the tournament in FILE (a TRF-16 with the XXR, XXC extension
    records or a TRF-2026 with records 142, 152, 240, 250 and 260; or a crosstable of another
    format) under the FIDE Dutch system of 2026, with FIDE's engine. The pairing is checked
    against the absolute criteria before it is shown or written."""
    from grandprix.pairing.engine import pair_next
    from grandprix.pairing.state import announce_bye, closed, tournament_text

    tournament = _read(file, input_format, rounds)
    if tournament.current is not None and not tournament.current.finished:
        raise UsageError(
            f"{file}: round {tournament.current.number} is paired and its results are not all "
            "in; enter them before pairing the next round"
        )
    try:
        tournament = closed(_with_options(tournament, forbid, accelerate))
        for text in byes:
            start_no, kind = _bye(text)
            try:
                tournament = announce_bye(tournament, start_no, tournament.next_round, kind)
            except UsageError as exc:
                raise UsageError(f"--bye {text!r}: {exc}") from None
        paired, pairing = pair_next(tournament, lambda: _draw(initial_colour))
    except UsageError as exc:
        raise UsageError(f"{file}: {exc}") from None
    if output is not None:
        from grandprix.runtime.files import write_whole

        write_whole(output, tournament_text(paired).encode("utf-8"))
    if fmt == "trf":
        click.echo(tournament_text(paired), nl=False)
    else:
        _emit(paired.section, pairing, fmt)
    if output is not None:
        say(f"wrote {output}", err=True)


def _read(file: Path, input_format: str | None, rounds: int | None) -> Tournament:
    """The tournament in FILE: a TRF read with its pairing records, another crosstable read
    by its reader (its number of rounds from ``rounds``)."""
    from dataclasses import replace

    from grandprix.pairing.records import Plan
    from grandprix.pairing.state import Tournament, read_tournament
    from grandprix.readers import FORMATS, detect_format, load_section
    from grandprix.runtime.files import read_bytes

    data = read_bytes(file)
    fmt = input_format or detect_format(file, data)
    if fmt not in FORMATS:
        raise UsageError(f"unknown input format {fmt!r} (expected one of {', '.join(FORMATS)})")
    if fmt == "trf":
        tournament = read_tournament(file, data)
        if rounds is not None:
            tournament = replace(tournament, plan=replace(tournament.plan, rounds=rounds))
        return tournament
    section, problems = load_section(file, fmt)
    stop_on_errors(problems)
    assert section is not None
    if not section.has_crosstable:
        raise UsageError(
            f"{file}: a standings list without rounds; pairing needs each player's rounds (a "
            "crosstable)"
        )
    if rounds is None:
        raise UsageError(
            f"{file}: give the number of rounds with --rounds (the file does not say it)"
        )
    return Tournament(section, Plan(rounds=rounds))


def _bye(text: str) -> tuple[int, ResultKind]:
    from grandprix.pairing.records import BYE_KINDS

    number, _, kind = text.partition(":")
    code = _BYE_KINDS.get(kind.strip().lower())
    if not number.strip().isdecimal() or code is None:
        raise UsageError(f"--bye {text!r}: write a start number and half, full or zero ('12:half')")
    return int(number), BYE_KINDS[code]


def _with_options(
    tournament: Tournament, forbid: tuple[str, ...], accelerate: str | None
) -> Tournament:
    from dataclasses import replace

    from grandprix.pairing.baku import baku
    from grandprix.pairing.records import Forbidden

    plan = tournament.plan
    players = tournament.section.players
    groups = []
    for text in forbid:
        words = [w.strip() for w in text.split(",")]
        if len(words) < 2 or not all(w.isdecimal() for w in words):
            raise UsageError(f"--forbid {text!r}: write two start numbers or more, e.g. '3,9'")
        strangers = [w for w in words if not any(p.start_no == int(w) for p in players)]
        if strangers:
            raise UsageError(
                f"--forbid {text!r}: no player {strangers[0]} in the tournament (start numbers "
                f"1 to {len(players)})"
            )
        groups.append(Forbidden(1, plan.rounds, tuple(int(w) for w in words)))
    if groups:
        plan = replace(plan, forbidden=plan.forbidden + tuple(groups))
    if accelerate == "baku" and not plan.accelerations:
        win = tournament.section.scoring.win
        plan = replace(plan, accelerations=baku(len(players), plan.rounds, win))
    return replace(tournament, plan=plan)


@main.group("round")
@click.argument("event_file", type=EVENT_FILE)
@click.pass_context
def round_group(ctx: click.Context, event_file: Path) -> None:
    """Run an event's day from its EVENT.toml, section by section: pair a round, enter its
    results board by board, see the standings after it. Each section's tournament is kept in
    its results TRF (the section's 'results'), written whole after every change: once the last
    round is in, the file is the results file a season reads."""
    ctx.obj = event_file


_SECTION = click.option(
    "--section", default=None, help="The section (needed when the event has several)."
)


def _day(event_file: Path, section: str | None) -> Day:
    from grandprix.cli.entries import entries_of
    from grandprix.events.byes import byes_of
    from grandprix.events.day import open_day, section_of

    event, placed, _ = entries_of(event_file)
    chosen = section_of(event, section, event_file)
    byes = {p.entry.id or p.entry.name: byes_of(event, p) for p in placed}
    day = open_day(event_file, event, chosen, placed, byes)
    for note in day.notes:
        say(f"note: {note}", err=True)
    return day


def _save(day: Day, tournament: Tournament) -> None:
    from grandprix.events.day import save

    save(day, tournament)


@round_group.command("pair")
@_SECTION
@format_option("Output format.", ("table", "csv", "json"))
@click.option(
    "--initial-colour",
    type=click.Choice(list(_COLOURS)),
    default=None,
    help="The colour of the first player in round 1 (drawn by lot when not given).",
)
@click.pass_obj
def round_pair(event_file: Path, section: str | None, fmt: str, initial_colour: str | None) -> None:
    """Pair the section's next round (FIDE Dutch 2026), check it, write it, show it."""
    from grandprix.pairing.engine import pair_next

    day = _day(event_file, section)
    paired, pairing = pair_next(day.tournament, lambda: _draw(initial_colour))
    _save(day, paired)
    _emit(paired.section, pairing, fmt)


@round_group.command("pairings")
@_SECTION
@click.option("--round", "number", type=click.IntRange(1, 199), default=None, help="A past round.")
@format_option("Output format.", ("table", "csv", "json"))
@click.pass_obj
def round_pairings(event_file: Path, section: str | None, number: int | None, fmt: str) -> None:
    """The pairings of the current round (or of round --round), with the results in so far."""
    from grandprix.pairing.state import round_pairing

    t = _day(event_file, section).tournament
    if number is None or (t.current is not None and number == t.current.number):
        if t.current is None:
            raise UsageError("no round is paired and unfinished: give --round to see a past round")
        _emit(t.section, t.current, fmt)
        return
    if number > t.finished_rounds:
        raise UsageError(f"round {number} is not paired yet")
    _emit(t.section, round_pairing(t.section, t.plan, number), fmt)


@round_group.command("result", context_settings={"ignore_unknown_options": True})
@_SECTION
@click.argument("board", type=click.IntRange(1, 9999))
@click.argument("result")
@click.option(
    "--round",
    "number",
    type=click.IntRange(1, 199),
    default=None,
    help="Correct a board of this finished round (its later rounds are not paired again).",
)
@click.pass_obj
def round_result(
    event_file: Path, section: str | None, board: int, result: str, number: int | None
) -> None:
    """Enter BOARD's RESULT: 1-0, 0-1, 1/2-1/2 (or ½-½, =), +- or -+ (a forfeit), 0f-0f (a
    double forfeit; also '-- --', since a lone -- ends the options)."""
    from grandprix.pairing.state import enter_result

    day = _day(event_file, section)
    changed = enter_result(day.tournament, board, result, number)
    _save(day, changed)
    current = changed.current
    if number is not None and (current is None or number != current.number):
        say(
            f"round {number}, board {board}: corrected to {result}. Later rounds keep their "
            "pairings (a pairing made and played is never made again)"
        )
        return
    assert current is not None
    missing = [b.number for b in current.boards if not b.result]
    found = next(b for b in current.boards if b.number == board)
    say(f"round {current.number}, board {board}: {found.white} - {found.black} {found.result}")
    if missing:
        say(f"{len(missing)} result(s) still to enter: board(s) {', '.join(map(str, missing))}")
    else:
        say(f"round {current.number} is complete")


@round_group.command("undo")
@_SECTION
@click.pass_obj
def round_undo(event_file: Path, section: str | None) -> None:
    """Take back the current round's pairing, while none of its results is in."""
    from grandprix.pairing.state import undo_pairing

    day = _day(event_file, section)
    undone = undo_pairing(day.tournament)
    _save(day, undone)
    say(f"the pairing of round {undone.next_round} is undone")


@round_group.command("bye")
@_SECTION
@click.argument("player")
@click.argument("number", metavar="ROUND", type=click.IntRange(1, 199))
@click.option(
    "--kind",
    type=click.Choice(["half", "zero", "full", "none"]),
    default="half",
    show_default=True,
    help="The bye's points; 'zero' is an absence, 'none' takes a bye back.",
)
@click.pass_obj
def round_bye(event_file: Path, section: str | None, player: str, number: int, kind: str) -> None:
    """Give PLAYER (a start number, id or name) a bye in ROUND, not paired yet."""
    from grandprix.model import ResultKind
    from grandprix.pairing.records import BYE_KINDS
    from grandprix.pairing.state import announce_bye

    day = _day(event_file, section)
    start_no = _player(day.tournament, player)
    chosen = ResultKind.ABSENT if kind == "none" else BYE_KINDS[_BYE_KINDS[kind]]
    _save(day, announce_bye(day.tournament, start_no, number, chosen))
    say(
        f"player {start_no}: {kind} bye in round {number}"
        if kind != "none"
        else f"player {start_no}: no bye in round {number}"
    )


@round_group.command("withdraw")
@_SECTION
@click.argument("player")
@click.option(
    "--from",
    "first",
    type=click.IntRange(1, 199),
    default=None,
    help="The first round missed (default: the next to pair).",
)
@click.pass_obj
def round_withdraw(event_file: Path, section: str | None, player: str, first: int | None) -> None:
    """PLAYER (a start number, id or name) leaves the event: absent from the next round (or
    --from) to the last, never paired again."""
    from grandprix.pairing.state import withdraw

    day = _day(event_file, section)
    start_no = _player(day.tournament, player)
    changed = withdraw(day.tournament, start_no, first)
    _save(day, changed)
    say(f"player {start_no} withdrawn from round {first or day.tournament.next_round}")


@round_group.command("standings")
@_SECTION
@click.option(
    "--round",
    "number",
    type=click.IntRange(1, 199),
    default=None,
    help="After this round (default: the results in so far).",
)
@format_option("Output format.")
@click.pass_obj
def round_standings(event_file: Path, section: str | None, number: int | None, fmt: str) -> None:
    """The standings after a round, with the section's tie-breaks (event.toml)."""
    from grandprix.cli.placings import emit
    from grandprix.placings import place
    from grandprix.tiebreaks import Rules, parse

    day = _day(event_file, section)
    t = day.tournament
    played = t.finished_rounds + (1 if t.current is not None else 0)
    number = played if number is None else number
    if not 0 < number <= played:
        raise UsageError(f"round {number} has no results yet (rounds 1 to {played} have)")
    rules = Rules(day.section.tiebreak_rules)
    specs = parse(day.section.tiebreaks, rules) if day.section.tiebreaks else []
    current = t.current
    if current is not None and number == current.number and not current.finished:
        waiting = [str(b.number) for b in current.boards if not b.result]
        say(
            f"provisional: round {number}'s board(s) {', '.join(waiting)} have no result yet "
            "(counted as not played)",
            err=True,
        )
    emit(place(t.after(number), specs, rules), fmt, [])


def _player(tournament: Tournament, text: str) -> int:
    """A player named by start number, id or name."""
    from grandprix.players import name_key

    players = tournament.section.players
    if text.isdecimal() and any(p.start_no == int(text) for p in players):
        return int(text)
    found = [p for p in players if p.fide_id == text or name_key(p.name) == name_key(text)]
    if len(found) != 1:
        raise UsageError(
            f"no one player is {text!r}: give the start number (see 'round ... pairings')"
        )
    return found[0].start_no

"""The season's standings as CSV (the CLI's ``--format csv`` and the site's standings.csv), as
the parts of a terminal table, and a player's points explained in text.

Points are exact inside and shown with the rule set's decimals (D-UT-3: 14/3 -> 4.67); totals are
sums of exact values, rounded only when shown.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from fractions import Fraction

from grandprix.scores import show
from grandprix.season.model import Award, Line, Season, Tables, Unplaced
from grandprix.writers.cells import CsvRows, safe_text

COLUMNS = ("division", "rank", "player_id", "name", "points", "events")


def standings_columns(left_out: Sequence[Unplaced] = ()) -> list[str]:
    """The header of the standings CSV: ``COLUMNS``, and ``note`` when players in no standings
    follow the lines."""
    return [*COLUMNS, "note"] if left_out else list(COLUMNS)


def standings_rows(
    tables: Tables, decimals: int, left_out: Sequence[Unplaced] = ()
) -> list[list[str]]:
    """The rows of the standings CSV (``standings_columns``): every line of every table, its
    division first ('' in a season without divisions), so that every season's file has the
    same columns; then the players in no standings (``left_out``) with no division, no rank, 0
    points and a last column saying why (a spreadsheet sums the points column all the same).
    Division, id, name and reason as safe spreadsheet text (``safe_text``)."""
    note = [""] if left_out else []
    rows = [
        [
            safe_text(division),
            line.rank,
            safe_text(line.player.id),
            safe_text(line.name),
            show(line.total, decimals),
            str(line.events),
            *note,
        ]
        for division, lines in tables
        for line in lines
    ]
    zero = show(Fraction(0), decimals)
    rows += [
        [
            "",
            "",
            safe_text(u.player.id),
            safe_text(u.name),
            zero,
            str(u.events),
            safe_text(u.reason),
        ]
        for u in left_out
    ]
    return rows


def standings_csv(tables: Tables, decimals: int, left_out: Sequence[Unplaced] = ()) -> str:
    """The standings CSV: ``standings_columns`` and then ``standings_rows``."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(standings_columns(left_out))
    writer.writerows(standings_rows(tables, decimals, left_out))
    return out.getvalue()


UNPLACED_HEADS = ("Name", "Events", "Why no points")


def unplaced_parts(
    season: Season, left_out: Sequence[Unplaced]
) -> tuple[str, str, list[tuple[str, str, str]]]:
    """The title, caption and rows (``UNPLACED_HEADS``) of the players in no standings."""
    rows = [(u.name, str(u.events), u.reason) for u in left_out]
    return f"{season.name}: not in the standings", "0 points", rows


HEADS = ("Rank", "Name", "Points", "Events")
RIGHT = (True, False, True, True)  # the columns of numbers


def table_parts(
    season: Season, division: str, lines: list[Line]
) -> tuple[str, str, list[tuple[str, str, str, str]]]:
    """The title, caption and rows (``HEADS``) of a division's standings in the terminal."""
    decimals = season.rules.standings.decimals
    title = f"{season.name}: {division}" if division else season.name
    rows = [(ln.rank, ln.name, show(ln.total, decimals), str(ln.events)) for ln in lines]
    return title, f"rules: {season.rules.name}", rows


def explain(season: Season, line: Line, division: str = "") -> str:
    """Every result of a player: place, tie, table value, multipliers, counted or dropped,
    bonus, adding up to the total."""
    decimals = season.rules.standings.decimals
    rules = season.rules
    where = f"{season.name}, {division}" if division else season.name
    out = [f"{line.name} ({line.player}): rank {line.rank} in {where}", ""]
    results = sorted(line.results(), key=lambda r: (r[0].date, r[0].event_name, r[0].section))
    for award, counts in results:
        status = "counted" if counts else "dropped"
        table = f" (class {award.table_name} table)" if award.table_name else ""
        section = "" if award.section == award.event_name else f", {award.section}"
        out.append(f"{award.date}  {award.event_name}{section}{table}")
        out.append(f"    place {award.place}, score {show(award.score)}")
        if award.overall:
            out.append(
                f"    ({award.overall} among all players; those not eligible are skipped)"
                + rules.cite("D-UT-1")
            )
        for note in award.notes:
            out.append(f"    {note}")
        terms = term_sum(award, decimals)
        if terms:
            out.append(f"    {terms}")
        factor = f" x {show(award.factor)}" if award.factor != 1 else ""
        bonus = f" + {show(award.extra, decimals)}" if award.extra else ""
        weights = f"x event {show(award.event_weight)} x section {show(award.section_weight)}"
        out.append(
            f"    {show(award.base, decimals)}{factor} {weights}{bonus} = "
            f"{show(award.points, decimals)}  [{status}]"
        )
    counted = sum((a.points for a in line.counted), Fraction(0))
    out.append("")
    kept, played = len(line.counted), len(line.awards)
    rule = {"best": rules.cite("ACF-14"), "percent": rules.cite("LUP-3")}.get(
        rules.counting.mode, ""
    )
    out.append(
        f"the best {kept} of {played} results count{rule}"
        if line.dropped
        else f"all {played} results count"
    )
    out.append(f"counted results: {show(counted, decimals)}")
    rounded = ", rounded half up" if rules.counting.round == "half-up" else ""
    if rules.counting.total == "mean" and kept:  # KEN-3
        out.append(
            f"their mean: {show(counted, decimals)} / {kept}{rounded}{rules.cite('KEN-3')} = "
            f"{show(line.total - line.bonus, decimals)}"
        )
    elif rounded:
        out.append(f"rounded half up: {show(line.total - line.bonus, decimals)}")
    if rules.counting.bonus_per_event:
        out.append(
            f"bonus: {show(rules.counting.bonus_per_event)} x {line.events} events played = "
            f"{show(line.bonus, decimals)}{rules.cite('LUP-3')}"
        )
    out.append(f"total: {show(line.total, decimals)}")
    return "\n".join(out) + "\n"


def term_sum(award: Award, decimals: int) -> str:
    """The weighted terms of an award's points (``points.terms``) as the engine valued them,
    each with its value, and their sum, as a player's page says them: '2.00 for the score +
    9.00 for place 2 = 11.00' (a place not tied is in no note: only this line says it). Read
    from the valuation's own record (``Valuation.terms``), never worked out again; '' for
    points that are not a sum of terms. The minimum (LUP-1) and the terms added after the
    multipliers (``weighted = false``) are said by the notes and the bonus."""
    terms = award.valuation.terms
    if not terms:
        return ""
    said = "".join(
        f"{' - ' if value < 0 else ' + ' if k else ''}{show(abs(value), decimals)} for {words}"
        for k, (words, value) in enumerate(terms)
    )
    if len(terms) == 1:
        return said
    total = sum((value for _, value in terms), Fraction(0))
    return f"{said} = {show(total, decimals)}"

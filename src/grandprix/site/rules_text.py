"""The rule set in plain words, for the rules page."""

from __future__ import annotations

from grandprix.numbers import show
from grandprix.rules.schema import Conditions, Prize, RuleSet


def _who(c: Conditions) -> str:
    parts = []
    if c.rating_at_least is not None and c.rating_below is not None:
        parts.append(f"rated {c.rating_at_least} to {c.rating_below - 1}")
    elif c.rating_below is not None:
        parts.append(f"rated under {c.rating_below}")
    elif c.rating_at_least is not None:
        parts.append(f"rated {c.rating_at_least} or more")
    if c.unrated is True:
        parts.append("unrated")
    if c.unrated is False:
        parts.append("with a rating")
    if c.age_below is not None:
        parts.append(f"under {c.age_below}")
    if c.sex:
        parts.append("women" if c.sex.lower() in ("w", "f") else "men")
    if c.us_class:
        parts.append(f"of US Chess class {c.us_class}")
    parts += [f"{k} {v if isinstance(v, str) else ' or '.join(v)}" for k, v in c.require.items()]
    return ", ".join(parts) or "everyone"


def _prize_in_words(p: Prize) -> str:
    value = show(p.amount, 2) if p.amount is not None else f"the title {p.title}"
    ranking = f"the {p.ranking} standings" if p.ranking else "the overall standings"
    text = f"{p.name}: {value}, to the best player of {ranking} without a better prize"
    who = _who(p)
    if who != "everyone":
        text += f" (only players {who})"
    if p.each:
        text += f"; one for each {p.each}"
    if p.min_players:
        text += f"; paid only if at least {p.min_players} such players take part"
    if p.based_on:
        text += f"; the amount assumes {p.based_on} such players and shrinks in proportion"
    return text + "."


def rules_in_words(rules: RuleSet) -> list[tuple[str, list[str]]]:
    """Headed paragraphs describing the rule set."""
    points = rules.points
    out: list[tuple[str, list[str]]] = []
    said = []
    if points.from_score:
        said.append(f"Each event awards its score times {show(points.score_factor)}.")
    elif points.classes:
        for c in points.classes:
            table = ", ".join(show(v) for v in c.table)
            said.append(
                f"Events with a prize fund of {show(c.min_prize_fund)} or more (class {c.name}) "
                f"award {table} points from 1st place down."
            )
    else:
        said.append("Points from 1st place down: " + ", ".join(show(v) for v in points.table) + ".")
    if points.ties == "share":
        said.append("Players on equal scores share the points of the places they occupy.")
    elif points.ties == "full":
        said.append("Players on equal scores each get the points of the best place they share.")
    else:
        said.append("Places are never shared: the event's tie-breaks decide.")
    if points.overflow is not None:
        said.append(
            f"When a tie includes the last paid place, each place below it counts "
            f"{show(points.overflow)}."
        )
    if points.minimum:
        said.append(f"Every participant earns at least {show(points.minimum)}.")
    out.append(("Points in each event", said))
    counting = rules.counting
    counted = {
        "all": ["Every result counts."],
        "best": [f"The best {counting.best} results count."],
        "percent": [
            f"The best results in {show(counting.percent)}% of the season's events (rounded "
            "up) count."
        ],
    }[counting.mode]
    if counting.bonus_per_event:
        counted.append(f"Every event played adds {show(counting.bonus_per_event)} points.")
    if rules.standings.tiebreaks:
        counted.append("Equal totals are decided by: " + ", ".join(rules.standings.tiebreaks) + ".")
    out.append(("The season total", counted))
    if rules.eligibility.require:
        out.append(
            (
                "Who scores",
                [
                    f"Players {_who(Conditions(require=rules.eligibility.require))} score; "
                    + (
                        "the others are skipped and those below move up."
                        if rules.eligibility.ineligible_players == "skip"
                        else "the others keep their place and its points go to nobody."
                    )
                ],
            )
        )
    if rules.divisions:
        out.append(("Divisions", [f"{d.name}: {_who(d)}." for d in rules.divisions]))
    if rules.prizes.prize:
        out.append(
            (
                "Prizes",
                [_prize_in_words(p) for p in rules.prizes.prize],
            )
        )
    if rules.choices:
        out.append(("Where the rule book is silent", list(rules.choices)))
    if rules.cites:
        out.append(("Rules applied", [", ".join(rules.cites)]))
    return out

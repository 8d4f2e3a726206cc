"""FIDE TRF-16 writer: a section written so that ``read_trf`` gives the same records back.

Player records use the TRF-16 columns (trf.md §1.3-1.5); the number of rounds goes in ``XXR``
and, when the scoring is not 1 / ½ / 0, in ``XXS`` (and in the TRF-2026 record ``162`` when that
record can express it).
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import Player, ResultKind, Round, Scoring, Section
from grandprix.scores import show, show_points

K = ResultKind
_CODE = {
    K.WIN: "1",
    K.DRAW: "=",
    K.LOSS: "0",
    K.WIN_UNRATED: "W",
    K.DRAW_UNRATED: "D",
    K.LOSS_UNRATED: "L",
    K.FORFEIT_WIN: "+",
    K.FORFEIT_LOSS: "-",
    K.DOUBLE_FORFEIT: "-",
    K.PAIRING_BYE: "U",
    K.FULL_BYE: "F",
    K.HALF_BYE: "H",
    K.ZERO_BYE: "Z",
    K.ABSENT: " ",
    K.WITHDRAWN: " ",
}


def write_trf(section: Section) -> str:
    """The section as TRF-16 text with LF line ends."""
    lines = [f"{code} {value}".rstrip() for code, value in section.headers]
    if not any(code == "012" for code, _ in section.headers):
        lines.insert(0, f"012 {section.name}")
    lines.append(f"XXR {section.rounds}")
    lines.extend(_scoring_records(section.scoring))
    lines.extend(_player_line(p) for p in section.players)
    lines.extend(section.extra_records)
    return "\n".join(lines) + "\n"


def _scoring_records(scoring: Scoring) -> list[str]:
    if scoring.is_default:
        return []
    s = scoring
    pairs = [
        ("WW", s.win),
        ("BW", s.win),
        ("WD", s.draw),
        ("BD", s.draw),
        ("WL", s.loss),
        ("BL", s.loss),
        ("ZPB", s.zero_bye),
        ("HPB", s.half_bye),
        ("FPB", s.full_bye),
        ("PAB", s.pairing_bye),
        ("FW", s.forfeit_win),
        ("FL", s.forfeit_loss),
    ]
    records = ["XXS " + " ".join(f"{k}={show(v)}" for k, v in pairs)]
    if (
        s.forfeit_win == s.win == s.full_bye
        and s.half_bye == s.draw
        and s.zero_bye == s.forfeit_loss
    ):
        items = [
            ("W", s.win),
            ("D", s.draw),
            ("L", s.loss),
            ("A", s.zero_bye),
            ("P", s.pairing_bye),
        ]
        # Code at column 6, points at 7-10, the next pair 9 columns on (trf.md §3.2).
        records.append(("162  " + "".join(f"{k}{_points_field(v)}    " for k, v in items)).rstrip())
    return records


def _points_field(value: Fraction) -> str:
    return f"{show_points(value):>4}"


def _player_line(p: Player) -> str:
    rating = str(p.rating) if p.rating else ""
    # The field holds a FIDE id: an id of another kind (lichess:NAME, which a lichess TRF's
    # reading gives from its name field) is not written there.
    fide_id = p.fide_id if p.fide_id.isdecimal() else ""
    points = show_points(p.declared_points) if p.declared_points is not None else ""
    head = (
        f"001 {p.start_no:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} {rating:>4} "
        f"{p.federation[:3]:<3} {fide_id[:11]:>11} {p.birth_date[:10]:<10} {points:>4} "
        f"{p.declared_rank[:4]:>4}"
    )
    rounds = list(p.rounds)
    while rounds and rounds[-1].kind is K.WITHDRAWN:
        rounds.pop()
    return (head + "".join(_block(r) for r in rounds)).rstrip()


def _block(r: Round) -> str:
    opponent = f"{r.opponent:>4}" if r.opponent is not None else "0000"
    colour = r.colour or "-"
    return f"  {opponent} {colour} {_CODE[r.kind]}"

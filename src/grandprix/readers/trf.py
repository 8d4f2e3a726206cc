"""FIDE Tournament Report File reader: TRF-16, TRF(x) extensions and TRF-2026 header records.

Column positions follow FIDE C.04 Annex 2 (see shared/specs/trf.md): the ``001`` player record,
round blocks of ten columns from column 92, header records ``012``..``222``, ``XXR``/``142`` for
the number of rounds and ``XXS``/``BB?``/``162`` for the scoring system.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from grandprix.model import Location, Problem, ResultKind, Scoring, Section, Severity
from grandprix.readers.bounds import Bound, MiB, within
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo, assemble
from grandprix.readers.text import decode, excerpt
from grandprix.scores import is_rating, parse_score

K = ResultKind

CODES: dict[str, ResultKind] = {
    "1": K.WIN,
    "=": K.DRAW,
    "0": K.LOSS,
    "W": K.WIN_UNRATED,
    "D": K.DRAW_UNRATED,
    "L": K.LOSS_UNRATED,
    "+": K.FORFEIT_WIN,
    "-": K.FORFEIT_LOSS,
    "H": K.HALF_BYE,
    "F": K.FULL_BYE,
    "U": K.PAIRING_BYE,
    "Z": K.ZERO_BYE,
    "A": K.ABSENT,
    " ": K.ABSENT,
}
EXPECTED_CODES = "1 0 = + - W D L H F U Z"
MAX_ROUNDS = 199  # far beyond any event; bounds the work a damaged file can ask for
MAX_LINE = 91 + 10 * MAX_ROUNDS + 100  # a player record and room for trailing notes
BOUND = Bound(
    64 * MiB,
    "a TRF file",
    f"9,999 players of {MAX_ROUNDS} rounds take 22 MB",
    "Export the tournament from the pairing program again",
    lines=100_000,  # a player record each, and a national rating record (TRF-2026)
)
_BYES = frozenset({K.HALF_BYE, K.FULL_BYE, K.PAIRING_BYE, K.ZERO_BYE, K.ABSENT})
_NEEDS_OPPONENT = frozenset({K.WIN, K.DRAW, K.LOSS, K.WIN_UNRATED, K.DRAW_UNRATED, K.LOSS_UNRATED})
# Header records rewritten by the writer from the section itself.
REGENERATED = frozenset({"XXR", "142", "XXS", "162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"})
_HEADER = re.compile(r"^(\d\d2|XX[A-Z]|BB[A-Z])$")
_DATE_FORMS = (
    re.compile(r"^(?P<y>\d{4})[/.-](?P<m>\d{1,2})[/.-](?P<d>\d{1,2})$"),
    re.compile(r"^(?P<d>\d{1,2})[/.-](?P<m>\d{1,2})[/.-](?P<y>\d{4})$"),
    re.compile(r"^(?P<mon>[A-Za-z]{3}) (?P<d>\d{1,2}), (?P<y>\d{4})$"),  # lichess: Oct 3, 2026
)
_MONTHS = {
    name: k
    for k, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
# lichess writes a Swiss's address where the city goes (022) and each player's lichess user id
# in the name field, without a FIDE id: the user id is then the player's id (lichess:NAME), as
# the lichess results reader gives it.
_LICHESS = "https://lichess.org/"


def recognise(suffix: str, head: bytes) -> bool:
    """A TRF file: a line opens with a player (``001``) or tournament-name (``012``) record."""
    return head.startswith((b"001 ", b"012 ")) or b"\n001 " in head or b"\n012 " in head


def read_trf(path: str | Path, data: bytes | None = None) -> tuple[Section | None, list[Problem]]:
    """Read a TRF file (within ``BOUND``: its size checked before it is opened, its lines
    counted before they are made); return the section (None if it has no player) and every
    problem found."""
    name = str(path)
    refused: list[Problem] = []
    data = within(path, data, BOUND, refused)
    if data is None:
        return None, refused
    lines, problems = decode(data, name)
    info = SectionInfo(name=Path(name).stem, source=name)
    headers: list[tuple[str, str]] = []
    extras: list[str] = []
    players: list[RawPlayer] = []
    scoring_records: list[tuple[str, str, Location]] = []
    for number, line in enumerate(lines, start=1):
        where = Location(name, number)
        code = line[:3]
        if not line.strip() or code == "###":
            continue
        if len(line) > MAX_LINE:
            problems.append(
                Problem(
                    where,
                    f"line is {len(line):,} characters long; a TRF line holds at most {MAX_LINE:,} "
                    f"({MAX_ROUNDS} rounds): is this a TRF file? It starts {excerpt(line)}",
                )
            )
            continue
        if code == "001":
            player = _read_player(line, where, problems)
            if player is not None:
                players.append(player)
        elif code in ("XXR", "142"):
            _read_rounds(line, where, info, problems)
        elif code in ("XXS", "162") or code.startswith("BB"):
            scoring_records.append((code, line, where))
        elif _HEADER.match(code):
            headers.append((code, line[4:].rstrip()))
        else:
            extras.append(line.rstrip())
    info.scoring = _read_scoring(scoring_records, problems)
    info.headers = tuple(headers)
    info.extra_records = tuple(extras)
    head = dict(headers)
    if head.get("012", "").strip():
        info.name = head["012"].strip()
    info.date = _iso_date(head.get("042", ""))
    if head.get("022", "").strip().startswith(_LICHESS):
        for player in players:
            if not player.fide_id and player.name.strip():
                player.fide_id = f"lichess:{player.name.strip().lower()}"
    kind = head.get("092", "").lower() + " " + head.get("192", "").lower()
    if "swiss" in kind:
        info.round_robin = False
    elif re.search(r"robin|berger|\brr\b|all.play.all", kind):
        info.round_robin = True
    if not players:
        problems.append(
            Problem(
                Location(name, 1),
                "no player records (lines starting with 001): the event has no results yet",
                Severity.WARNING,
            )
        )
    return assemble(info, players, problems), problems


def _iso_date(text: str) -> str:
    text = text.strip()
    for form in _DATE_FORMS:
        match = form.match(text)
        if match:
            groups = match.groupdict()
            month = _MONTHS.get(groups["mon"].lower(), 0) if groups.get("mon") else int(groups["m"])
            if month:
                return f"{int(match['y']):04d}-{month:02d}-{int(match['d']):02d}"
    return ""


def _read_rounds(line: str, where: Location, info: SectionInfo, problems: list[Problem]) -> None:
    text = line[3:].strip()
    if text.isascii() and text.isdecimal() and 0 < int(text) <= MAX_ROUNDS:
        info.rounds = int(text)
        info.rounds_location = where.at(5)
    else:
        problems.append(
            Problem(
                where.at(5),
                f"number of rounds {excerpt(text)} is not a whole number from 1 to {MAX_ROUNDS} "
                f"(write e.g. '{line[:3]} 9')",
            )
        )


def _field(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive), stripped."""
    return line[first - 1 : last].strip()


def _read_player(line: str, where: Location, problems: list[Problem]) -> RawPlayer | None:
    start = _field(line, 5, 8)
    if len(line.rstrip()) < 84:
        problems.append(
            Problem(
                where.at(len(line.rstrip()) + 1),
                f"truncated line: a player record needs at least 84 columns (through the points "
                f"in columns 81-84) but this one has {len(line.rstrip())}",
            )
        )
        if start.isdecimal() and int(start) > 0:
            return RawPlayer(int(start), _field(line, 15, 47), where, damaged=True)
        return None
    if not start.isdecimal() or int(start) == 0:
        problems.append(
            Problem(where.at(5), f"start number '{start}' in columns 5-8 is not a number 1-9999")
        )
        return None
    player = RawPlayer(start_no=int(start), name=_field(line, 15, 47), location=where)
    player.sex = _field(line, 10, 10).lower()
    player.title = _field(line, 11, 13)
    player.federation = _field(line, 54, 56)
    player.fide_id = _field(line, 58, 68).lstrip("0")
    player.birth_date = _field(line, 70, 79)
    rating = _field(line, 49, 52)
    spill = _rating_spill(line)
    if spill is not None:
        problems.append(Problem(where.at(48), spill))
    elif rating.isdecimal() and line[52:53].isdecimal():  # column 53 is a blank separator
        problems.append(
            Problem(
                where.at(53),
                f"rating '{_field(line, 49, 53)}' runs past columns 49-52 into "
                "column 53, which is blank in TRF: a rating has at most 4 digits; write it "
                "in columns 49-52 (the fields after it then stay in their columns)",
            )
        )
    elif rating and not is_rating(rating):
        problems.append(
            Problem(where.at(49), f"rating '{rating}' in columns 49-52 is not a number")
        )
    elif rating and int(rating) > 0:
        player.rating = int(rating)
    points = _field(line, 81, 84)
    if points:
        player.declared_points = parse_score(points)
        player.points_location = where.at(81)
        if player.declared_points is None:
            problems.append(
                Problem(
                    where.at(81),
                    f"points '{points}' in columns 81-84 are not a number (write e.g. '4.5')",
                )
            )
    player.declared_rank = _field(line, 86, 89)
    _read_round_blocks(line, where, player, problems)
    return player


def _rating_spill(line: str) -> str | None:
    """Why a rating that starts in column 48, a blank separator (C.04 Annex 2: the name in
    columns 15-47, the rating in 49-52), is refused: a number written a column too early (a
    5-digit '99999' right-aligned to column 52, or '2346' in columns 48-51) would be read from
    its columns 49-52 alone as another rating ('9999', '346'); None when column 48 and column
    49 are not both digits."""
    if not (line[47:48].isdecimal() and line[48:49].isdecimal()):
        return None
    run = re.match(r"\d+", line[47:])
    digits = run[0] if run else line[47:49]
    return (
        f"rating '{digits}' in columns 48-{47 + len(digits)} starts in column 48, which is "
        f"blank in TRF: a rating has at most 4 digits, in columns 49-52, and "
        f"'{_field(line, 49, 52)}' would be read; write the rating in columns 49-52 (the "
        "name ends by column 47)"
    )


def _read_round_blocks(
    line: str, where: Location, player: RawPlayer, problems: list[Problem]
) -> None:
    text = line.rstrip()
    for number, start in enumerate(range(91, len(text), 10), start=1):  # column 92 + 10k
        block = text[start : start + 8].ljust(8)
        col = start + 1  # 1-based column of the block
        rnd = _read_block(block, number, where.at(col), problems)
        player.rounds.append(
            rnd or RawRound(number, K.ABSENT, None, None, where.at(col), damaged=True)
        )


def _read_block(
    block: str, number: int, where: Location, problems: list[Problem]
) -> RawRound | None:
    """One round block 'nnnn c r'; None (after reporting why) when it cannot be read."""
    col = where.column
    if block[4] != " " or block[6] != " ":
        problems.append(
            Problem(
                where.at(col),
                f"misaligned round {number}: columns {col}-{col + 7} read '{block}' "
                "(expected 'nnnn c r': opponent, colour, result; a wrong file encoding "
                "can shift columns)",
            )
        )
        return None
    opp_text, colour, code = block[:4].strip(), block[5], block[7]
    kind = CODES.get(code.upper())
    if kind is None:
        problems.append(
            Problem(
                where.at(col + 7),
                f"unknown result code '{code}' in round {number} "
                f"(expected one of {EXPECTED_CODES})",
            )
        )
        return None
    if opp_text and not opp_text.isdecimal():
        problems.append(
            Problem(where.at(col), f"opponent '{opp_text}' in round {number} is not a number")
        )
        return None
    opponent = int(opp_text) if opp_text and int(opp_text) > 0 else None
    if colour.lower() not in ("w", "b", "-", " "):
        problems.append(
            Problem(
                where.at(col + 5),
                f"colour '{colour}' in round {number} (expected w, b or -)",
            )
        )
        return None
    return _round(number, kind, opponent, colour, code, where.at(col), problems)


def _round(
    number: int,
    kind: ResultKind,
    opponent: int | None,
    colour: str,
    code: str,
    where: Location,
    problems: list[Problem],
) -> RawRound | None:
    side = colour.lower() if colour.lower() in ("w", "b") else None
    if kind in _NEEDS_OPPONENT and opponent is None:
        problems.append(
            Problem(
                where,
                f"result '{code}' in round {number} needs an opponent in columns "
                f"{where.column}-{where.column + 3}",
            )
        )
        return None
    if kind is K.FORFEIT_LOSS and opponent is None:
        kind = K.ABSENT  # '0000 - -': not paired
    if kind in _BYES and opponent is not None:
        if kind is K.ABSENT:
            problems.append(
                Problem(
                    where.at(where.column + 7),
                    f"no result code in round {number} against opponent {opponent} "
                    f"(truncated line? expected one of {EXPECTED_CODES})",
                )
            )
            return None
        problems.append(
            Problem(
                where,
                f"bye '{code}' in round {number} lists opponent {opponent}; a bye has "
                "opponent 0000",
                Severity.WARNING,
            )
        )
        opponent = None
    return RawRound(number, kind, opponent, side, where, blank=code == " ")


_XXS_KEYS: dict[str, tuple[str, ...]] = {
    "WW": ("win",),
    "BW": ("win",),
    "WD": ("draw",),
    "BD": ("draw",),
    "WL": ("loss",),
    "BL": ("loss",),
    "ZPB": ("zero_bye",),
    "HPB": ("half_bye",),
    "FPB": ("full_bye",),
    "PAB": ("pairing_bye",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss",),
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
}
_162_KEYS: dict[str, tuple[str, ...]] = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss"),
    "P": ("pairing_bye",),
    "X": (),
}
_BB_KEYS: dict[str, tuple[str, ...]] = {
    "BBW": ("win", "forfeit_win", "full_bye"),
    "BBD": ("draw", "half_bye"),
    "BBL": ("loss",),
    "BBZ": ("zero_bye",),
    "BBF": ("forfeit_loss",),
    "BBU": ("pairing_bye",),
}


def _read_scoring(records: list[tuple[str, str, Location]], problems: list[Problem]) -> Scoring:
    """The scoring system; TRF-2026 record 162 wins over XXS and BB? (trf.md §3.4)."""
    values: dict[str, Fraction] = {}
    pab_set = False
    ordered = sorted(records, key=lambda r: r[0] == "162")
    for code, line, where in ordered:
        for key, value, column in _scoring_pairs(code, line):
            table = _162_KEYS if code == "162" else _BB_KEYS if code.startswith("BB") else _XXS_KEYS
            lookup = code if code.startswith("BB") else key.upper()
            fields = table.get(lookup)
            points = parse_score(value)
            if fields is None or points is None:
                problems.append(
                    Problem(
                        where.at(column),
                        f"scoring '{key}={value}' in {code} is not understood (expected e.g. "
                        + ("'162  W 1.0'" if code == "162" else "'XXS W=3 D=1'")
                        + ")",
                    )
                )
                continue
            for name in fields:
                values[name] = points
            pab_set = pab_set or "pairing_bye" in fields
    if "win" in values and not pab_set:
        values["pairing_bye"] = values["win"]
    return Scoring(**values)


def _scoring_pairs(code: str, line: str) -> list[tuple[str, str, int]]:
    if code.startswith("BB"):
        return [(code, line[3:].strip(), 5)]
    if code == "162":
        pairs = []
        for col in range(6, len(line) + 1, 9):
            key = line[col - 1 : col].strip()
            if key:
                pairs.append((key, line[col : col + 4].strip(), col))
        return pairs
    pairs = []
    for match in re.finditer(r"(\S+?)=(\S+)", line[3:]):
        pairs.append((match.group(1), match.group(2), match.start() + 4))
    return pairs

"""TRF reading: header records, result codes, encodings, blank codes, withdrawals, scoring."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import FIXTURES, shared
from grandprix.model import ResultKind, Scoring, Severity
from grandprix.readers.trf import read_trf

K = ResultKind
HEADER = "012 Codes\nXXR 2\n"


def line(no: int, points: str, *blocks: str, name: str = "") -> str:
    label = name or f"Player {no}"
    head = f"001 {no:>4} m    {label:<33} 2000 ZZZ {no:>11} 1990/01/01 {points:>4} {no:>4}"
    return head + "".join(f"  {b}" for b in blocks)


def read(text: str) -> tuple[object, list[str]]:
    section, problems = read_trf("t.trf", text.encode())
    return section, [str(p) for p in problems]


@pytest.mark.parametrize(
    ("codes", "kinds"),
    [
        (("1", "0"), (K.WIN, K.LOSS)),
        (("=", "="), (K.DRAW, K.DRAW)),
        (("W", "L"), (K.WIN_UNRATED, K.LOSS_UNRATED)),
        (("d", "d"), (K.DRAW_UNRATED, K.DRAW_UNRATED)),
        (("+", "-"), (K.FORFEIT_WIN, K.FORFEIT_LOSS)),
        (("-", "-"), (K.DOUBLE_FORFEIT, K.DOUBLE_FORFEIT)),
    ],
)
def test_every_game_result_code_has_its_kind(codes: tuple[str, str], kinds: tuple[K, K]) -> None:
    scoring = Scoring()
    points = [scoring.points(k) for k in kinds]
    text = "012 Codes\nXXR 1\n" + "\n".join(
        [
            line(1, f"{float(points[0]):.1f}", f"   2 w {codes[0]}"),
            line(2, f"{float(points[1]):.1f}", f"   1 b {codes[1]}"),
        ]
    )
    section, problems = read_trf("t.trf", text.encode())
    assert problems == [] and section is not None
    assert [p.rounds[0].kind for p in section.players] == list(kinds)


@pytest.mark.parametrize(
    ("code", "kind", "points"),
    [
        ("H", K.HALF_BYE, "0.5"),
        ("F", K.FULL_BYE, "1.0"),
        ("U", K.PAIRING_BYE, "1.0"),
        ("Z", K.ZERO_BYE, "0.0"),
        ("h", K.HALF_BYE, "0.5"),
    ],
)
def test_every_bye_code_has_its_kind(code: str, kind: K, points: str) -> None:
    section, problems = read("012 Byes\nXXR 1\n" + line(1, points, f"0000 - {code}"))
    assert problems == []
    assert section.players[0].rounds[0].kind is kind  # type: ignore[attr-defined]


def test_number_of_rounds_from_xxr_or_142_and_missing_rounds_are_withdrawals() -> None:
    for record in ("XXR 3", "142 3"):
        text = f"012 W\n{record}\n" + "\n".join(
            [
                line(1, "1.0", "   2 w 1"),
                line(2, "0.0", "   1 b 0"),
                line(3, "1.5", "   4 w =", "   4 b =", "   4 w ="),
                line(4, "1.5", "   3 b =", "   3 w =", "   3 b ="),
            ]
        )
        section, problems = read_trf("t.trf", text.encode())
        assert problems == [] and section is not None
        assert section.rounds == 3
        assert [r.kind for r in section.players[0].rounds] == [K.WIN, K.WITHDRAWN, K.WITHDRAWN]


def test_more_rounds_declared_than_played_is_a_warning_and_standings_after_the_last() -> None:
    text = "012 W\nXXR 5\n" + "\n".join([line(1, "1.0", "   2 w 1"), line(2, "0.0", "   1 b 0")])
    section, problems = read_trf("t.trf", text.encode())
    assert section is not None and section.rounds == 1
    assert [p.severity for p in problems] == [Severity.WARNING]


def test_latin1_with_crlf_and_utf8_with_bom_read_the_same_names() -> None:
    latin, p1 = read_trf(FIXTURES / "latin1_crlf.trf")
    utf8, p2 = read_trf(FIXTURES / "utf8_bom.trf")
    assert p1 == [] and p2 == [] and latin is not None and utf8 is not None
    assert latin.players[0].name == "Ardèn, Mila" and latin.players[2].name == "Çole, Anika"
    assert latin == utf8


def test_real_latin1_file_of_the_irish_junior_championship() -> None:
    section, problems = read_trf(shared("icu-irish-2011", "irish_junior_champs_2011.trf"))
    assert section is not None
    assert not [p for p in problems if p.severity is Severity.ERROR]
    names = {p.name for p in section.players}
    assert any(not n.isascii() for n in names)


def test_blank_codes_take_their_value_from_the_declared_total() -> None:
    # Irish Juniors 2011: player 31's blank round 5 is a full point; player 4's round 1 a half.
    section, problems = read_trf(shared("icu-irish-2011", "irish_junior_champs_2011.trf"))
    assert section is not None
    p31, p4 = section.player(31), section.player(4)
    assert (p31.rounds[4].kind, p31.rounds[4].inferred) == (K.FULL_BYE, True)
    assert p31.points == p31.declared_points
    assert p4.rounds[0].kind is K.HALF_BYE
    warned = [p for p in problems if "player 31" in p.message]
    assert warned and warned[0].severity is Severity.WARNING


def test_blank_codes_worth_nothing_stay_absent() -> None:
    section, _ = read_trf(shared("icu-irish-2011", "bunratty_masters_2011.trf"))
    assert section is not None
    p24 = section.player(24)
    blanks = [r for r in p24.rounds if r.kind is K.ABSENT]
    assert len(blanks) == 4 and p24.points == p24.declared_points


def test_withdrawn_players_of_a_real_event() -> None:
    section, problems = read_trf(shared("sklangen-trf", "karl_mala_gedenkturnier_2005.trf"))
    assert section is not None and not problems
    p13 = section.player(13)
    assert p13.rounds[0].kind is K.FORFEIT_LOSS
    assert all(r.kind is K.WITHDRAWN for r in p13.rounds[1:])


def test_scoring_from_xxs_three_one_zero() -> None:
    text = "012 Football\nXXR 2\nXXS W=3 D=1\n" + "\n".join(
        [line(1, "4.0", "   2 w 1", "   2 b ="), line(2, "1.0", "   1 b 0", "   1 w =")]
    )
    section, problems = read_trf("t.trf", text.encode())
    assert problems == [] and section is not None
    assert section.scoring.win == 3 and section.scoring.draw == 1
    assert section.scoring.pairing_bye == 3
    assert [p.points for p in section.players] == [4, 1]


def test_scoring_from_trf2026_record_162_wins_over_xxs() -> None:
    record = "162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0"
    text = f"012 Mixed\nXXR 1\nXXS W=2\n{record}\n" + "\n".join(
        [line(1, "3.0", "   2 w 1"), line(2, "0.0", "   1 b 0"), line(3, "1.0", "0000 - U")]
    )
    section, problems = read_trf("t.trf", text.encode())
    assert problems == [] and section is not None
    assert section.scoring.win == 3 and section.scoring.pairing_bye == 1


def test_bbp_scoring_records() -> None:
    text = "012 B\nXXR 1\nBBW 2.0\nBBD 1.0\n" + "\n".join(
        [line(1, "1.0", "   2 w ="), line(2, "1.0", "   1 b =")]
    )
    section, problems = read_trf("t.trf", text.encode())
    assert problems == [] and section is not None
    assert section.scoring.win == 2 and section.scoring.draw == 1


def test_header_records_and_comments_are_kept_apart() -> None:
    text = "### exported\n012 Name Here\n042 2026/03/14\n092 Swiss\nXXR 1\n" + line(
        1, "0.0", "0000 - Z"
    )
    section, problems = read_trf("t.trf", text.encode())
    assert problems == [] and section is not None
    assert section.name == "Name Here" and section.date == "2026-03-14"
    assert ("092", "Swiss") in section.headers and section.round_robin is False


def test_round_robin_is_detected_from_the_pairings() -> None:
    section, _ = read_trf(shared("fide-c07-held-exercises", "held_round_robin.trf"))
    assert section is not None and section.round_robin
    swiss, _ = read_trf(shared("fide-c07-held-exercises", "held_swiss_5.trf"))
    assert swiss is not None and not swiss.round_robin


def test_a_forfeit_written_without_colour_keeps_its_opponent() -> None:
    section, _ = read_trf(shared("sklangen-trf", "karl_mala_gedenkturnier_2005.trf"))
    assert section is not None
    first = section.player(153).rounds[0]
    assert (first.kind, first.opponent, first.colour) == (K.FORFEIT_WIN, 13, None)


def test_points_are_exact_fractions() -> None:
    section, _ = read_trf(FIXTURES / "small_swiss.trf")
    assert section is not None
    assert all(isinstance(r.points, Fraction) for p in section.players for r in p.rounds)

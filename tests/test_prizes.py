"""Prize allocation: the worked examples of shared/specs/prizes.md and the rules by ID."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.players import PlayerKey
from grandprix.prizes.allocate import Offer, Ranked, Won, allocate
from grandprix.prizes.offers import based_on_fraction, offers
from grandprix.rules.schema import Prize

F = Fraction


def field(*spans: tuple[str, int, int]) -> list[Ranked]:
    return [Ranked(PlayerKey(key), key, first, last) for key, first, last in spans]


def run(
    prizes: list[Prize],
    ranking: list[Ranked],
    allowed: dict[str, set[str]] | None = None,
    ties: str = "pool",
    attributes: dict[str, dict[str, str]] | None = None,
) -> list[Won]:
    """Allocate; ``allowed`` maps a prize name to who may win it (default: everyone)."""
    allowed = allowed or {}

    def eligible(prize: Prize, key: str) -> bool:
        return key in allowed.get(prize.name, {key})

    offered = [Offer(i, p, p.amount) for i, p in enumerate(prizes)]
    won, _ = allocate(
        offered,
        {"": ranking},
        eligible,
        ties,
        lambda k, n: (attributes or {}).get(k, {}).get(n, ""),
    )
    return won


def paid(won: list[Won]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for w in won:
        out[w.key] = out.get(w.key, F(0)) + (w.amount or F(0))
    return out


def money(name: str, amount: int, **conditions: object) -> Prize:
    return Prize(name=name, amount=amount, **conditions)


def test_us_chess_worked_example_of_section_1_5() -> None:
    prizes = [
        money("1st", 500),
        money("2nd", 300),
        money("3rd", 200),
        money("U1800", 150, rating_below=1800),
    ]
    ranking = field(("A", 1, 1), ("B", 2, 3), ("C", 2, 3), ("D", 4, 5), ("E", 4, 5))
    won = run(prizes, ranking, {"U1800": {"B", "D", "E"}})
    assert paid(won) == {"A": 500, "B": 250, "C": 250, "D": 75, "E": 75}


def test_ucc10_us_chess_32b3_exception_of_the_us_national_open() -> None:
    """14 tie for 9th-22nd; places 9-17 pay $100, U2400 $1000, U2300 $500 (westernchess)."""
    places = [money(f"{n}th", 100) for n in range(9, 18)]
    prizes = [
        *places,
        money("U2400", 1000, rating_below=2400),
        money("U2300", 500, rating_below=2300),
    ]
    players = [f"P{i:02d}" for i in range(14)]
    ranking = field(*[(p, 9, 22) for p in players])
    u2400 = set(players[:5])  # four U2400 players and the U2300 one, who is also under 2400
    allowed = {"U2400": u2400, "U2300": {players[4]}}
    got = paid(run(prizes, ranking, allowed))
    assert got[players[4]] == 500  # takes his class prize alone
    assert [got[p] for p in players[:4]] == [250] * 4  # split U2400, nothing of the places
    assert [got[p] for p in players[5:]] == [100] * 9  # split places 9-17
    assert sum(got.values()) == 900 + 1000 + 500


def test_hort_system_vega_example() -> None:
    prizes = [money("1st", 10000), money("2nd", 8000), money("3rd", 6000), money("4th", 4000)]
    ranking = field(("A", 1, 4), ("B", 1, 4), ("C", 1, 4), ("D", 1, 4))
    got = paid(run(prizes, ranking, ties="hort"))
    assert got == {"A": 8500, "B": 7500, "C": 6500, "D": 5500}


def test_hort_system_wikipedia_example() -> None:
    amounts = [100, 80, 60, 40, 20, 10]
    prizes = [money(f"{i + 1}.", a) for i, a in enumerate(amounts)]
    ranking = field(("A", 1, 2), ("B", 1, 2), ("C", 3, 3), ("D", 4, 6), ("E", 4, 6), ("F", 4, 6))
    got = paid(run(prizes, ranking, ties="hort"))
    assert got == {"A": 95, "B": 85, "C": 60, "D": F(95, 3), "E": F(65, 3), "F": F(50, 3)}
    assert sum(got.values()) == sum(amounts)


def test_us_chess_based_on_funds_tim_just() -> None:
    assert F(2000) * based_on_fraction(F(2000), 75, 125) == 1200  # 60%
    assert F(1000) * based_on_fraction(F(1000), 20, 50) == 500  # never below half above $500
    assert F(450) * based_on_fraction(F(450), 10, 30) == 150  # $500 or less: proportional
    assert based_on_fraction(F(1000), 80, 50) == 1  # never more than advertised


def test_acf10_one_prize_the_most_valuable_and_the_other_passes_down() -> None:
    prizes = [
        money("Open 1st", 300),
        money("Open 2nd", 200),
        money("U2000 1st", 250, rating_below=2000),
    ]
    ranking = field(("A", 1, 1), ("B", 2, 2), ("C", 3, 3), ("D", 4, 4))
    won = run(prizes, ranking, {"U2000 1st": {"B", "D"}}, ties="tiebreak")
    by_prize = {w.prize: w.key for w in won}
    # B could take Open 2nd ($200) or U2000 1st ($250): the most valuable; Open 2nd passes to C.
    assert by_prize == {"Open 1st": "A", "U2000 1st": "B", "Open 2nd": "C"}


def test_lup_e3_equal_values_follow_the_list_order() -> None:
    prizes = [money("3rd overall", 50), money("1st band E", 50, rating_below=1800)]
    ranking = field(("A", 1, 1), ("B", 2, 2))
    won = run(prizes, ranking, {"1st band E": {"A", "B"}}, ties="tiebreak")
    assert {w.prize: w.key for w in won} == {"3rd overall": "A", "1st band E": "B"}


def test_lup6_indivisible_prizes_go_by_the_tie_break_order() -> None:
    prizes = [money("1st", 300), money("2nd", 200)]
    ranking = field(("A", 1, 2), ("B", 1, 2))  # still tied after the chain: list order
    won = run(prizes, ranking, ties="tiebreak")
    assert paid(won) == {"A": 300, "B": 200}
    assert "tie-break order" in won[0].reason


def test_acf8_state_prize_to_the_best_of_each_state_without_a_prize() -> None:
    prizes = [money("Open 1st", 300), Prize(name="State", amount=F(50), each="region")]
    ranking = field(("A", 1, 1), ("B", 2, 2), ("C", 3, 3), ("D", 4, 4), ("E", 5, 5))
    regions = {"A": "VIC", "B": "VIC", "C": "NSW", "D": "NSW", "E": "TAS"}
    attributes = {k: {"region": v} for k, v in regions.items()}
    won = run(prizes, ranking, ties="tiebreak", attributes=attributes)
    states = {w.key for w in won if w.prize == "State"}
    assert states == {"C", "E"}  # Victoria has a prize winner (A)


def test_ucc12_titles_are_apart_from_money_and_by_tie_break() -> None:
    prizes = [money("1st", 100), Prize(name="Champion", title="Utah Class Champion")]
    ranking = field(("A", 1, 2), ("B", 1, 2), ("C", 3, 3))
    won = run(prizes, ranking, {"Champion": {"B", "C"}})
    assert {(w.prize, w.key) for w in won if w.title} == {("Champion", "B")}
    assert paid(won) == {"A": 50, "B": 50}  # B shares the money and also takes the title


def test_ucc8_lup_e3_min_players_and_ucc7_reduction() -> None:
    prizes = [
        money("X 1st", 100, based_on=8),
        money("X 2nd", 50, min_players=4),
    ]
    ranking = field(("A", 1, 1), ("B", 2, 2), ("C", 3, 3))
    offered, dropped = offers(prizes, {"": ranking}, lambda p, k: True)
    assert [o.amount for o in offered] == [F(100) * F(3, 8)]  # 3 entries of 8 (D-UCC-1)
    assert "only 3 eligible players" in dropped[0].reason


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.integers(0, 6), min_size=1, max_size=14),
    amounts=st.lists(st.integers(0, 500), min_size=1, max_size=8),
    classes=st.lists(st.sampled_from("ABC"), min_size=14, max_size=14),
    ties=st.sampled_from(["pool", "hort", "tiebreak"]),
    seed=st.randoms(),
)
def test_properties_fund_never_exceeded_one_prize_each_order_free(
    scores: list[int], amounts: list[int], classes: list[str], ties: str, seed: object
) -> None:
    players = [f"P{i:02d}" for i in range(len(scores))]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], players[i]))
    ranking = []
    for i in order:
        same = [j for j in order if scores[j] == scores[i]]
        first = order.index(same[0]) + 1
        ranking.append(Ranked(PlayerKey(players[i]), players[i], first, first + len(same) - 1))
    prizes = [money(f"place {i + 1}", a) for i, a in enumerate(sorted(amounts, reverse=True))]
    prizes.append(money("class A", 120, us_class="A"))
    allowed = {"class A": {p for p, c in zip(players, classes, strict=False) if c == "A"}}
    won = run(prizes, ranking, allowed, ties=ties)
    total = sum(w.amount or F(0) for w in won)
    assert total <= sum(amounts) + 120
    assert len({w.key for w in won}) == len(won) or ties == "hort"
    assert all((w.amount or 0) >= 0 for w in won)
    reordered = list(ranking)
    seed.shuffle(reordered)  # type: ignore[attr-defined]
    reordered.sort(key=lambda s: (s.first, players.index(s.key)))
    assert paid(run(prizes, reordered, allowed, ties=ties)) == paid(won)

"""TRF-16 writer: read, write and read again gives the same records."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, FIXTURES, real_files, shared
from grandprix.model import Scoring
from grandprix.readers.trf import read_trf
from grandprix.writers.trf import write_trf
from synthetic import Mix, generate, round_robin


def round_trip(path: Path) -> None:
    first, _problems = read_trf(path)
    assert first is not None
    again, problems_again = read_trf("again.trf", write_trf(first).encode())
    assert [p for p in problems_again if p.severity.value == "error"] == []
    assert again == first


@pytest.mark.parametrize("path", real_files("**/*.trf"))
def test_every_real_trf_round_trips(path: str) -> None:
    round_trip(shared(path))


@pytest.mark.parametrize(
    "path", [*sorted(EXAMPLES.glob("*.trf")), FIXTURES / "latin1_crlf.trf"], ids=lambda p: p.name
)
def test_example_and_fixture_files_round_trip(path: Path) -> None:
    round_trip(path)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 30),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 10_000),
)
def test_generated_events_round_trip(players: int, rounds: int, seed: int) -> None:
    section = generate(players, rounds, seed, Mix(withdraw=0.05, forfeit=0.1, absent=0.05))
    again, problems = read_trf("g.trf", write_trf(section).encode())
    assert [p for p in problems if p.severity.value == "error"] == []
    assert again is not None
    assert [p.rounds for p in again.players] == [p.rounds for p in section.players]
    assert again.rounds == section.rounds


def test_a_round_robin_round_trips_and_stays_a_round_robin() -> None:
    section = round_robin(7, 3, Mix(forfeit=0.1, withdraw=0.2))
    again, problems = read_trf("rr.trf", write_trf(section).encode())
    assert problems == [] and again is not None
    assert again.round_robin and again.players == section.players


def test_non_default_scoring_is_written_and_read_back() -> None:
    from dataclasses import replace
    from fractions import Fraction

    three, one = Fraction(3), Fraction(1)
    scoring = Scoring(
        win=three, draw=one, forfeit_win=three, full_bye=three, half_bye=one, pairing_bye=three
    )
    base = generate(10, 5, 4)
    players = tuple(
        replace(
            p,
            rounds=tuple(replace(r, points=scoring.points(r.kind)) for r in p.rounds),
            declared_points=sum((scoring.points(r.kind) for r in p.rounds), Fraction(0)),
        )
        for p in base.players
    )
    section = replace(base, players=players, scoring=scoring)
    text = write_trf(section)
    assert "XXS " in text and "\n162  W 3.0    D 1.0" in text
    again, problems = read_trf("s.trf", text.encode())
    assert [p for p in problems if p.severity.value == "error"] == []
    assert again is not None and again.scoring == scoring and again.players == section.players

"""Players across events: ids, normalised names, birth years, aliases, near matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import shared
from grandprix.cli import main
from grandprix.model import Player
from grandprix.players import name_key, normalise
from grandprix.season.people import near_matches, people
from seasons import event, load, season_toml, write_season

KESHMAT = ["july", "august", "december", "january", "february", "march", "april", "may"]
DATES = [
    "2024-07-31",
    "2024-08-28",
    "2024-12-28",
    "2025-01-25",
    "2025-02-22",
    "2025-03-23",
    "2025-04-30",
    "2025-05-31",
]


def test_names_match_without_accents_case_spaces_or_order() -> None:
    assert normalise("  Dvořák,  Marek ") == "dvorak, marek"
    assert name_key("Arkadan, Adib") == name_key("ADIB  arkadan") == name_key("Arkadan Adib")
    assert name_key("Müller, Jörg") == name_key("Muller Jorg")


def two_events(tmp_path: Path, first: str, second: str) -> Path:
    """A season of two ACF events whose results are the two standings CSV texts."""
    return write_season(
        tmp_path,
        season_toml(
            'rules = "acf-2004"',
            event("A", "a.csv", extra="prize_fund = 1"),
            event("B", "b.csv", date="2012-07-01", extra="prize_fund = 1"),
        ),
        {"a.csv": first, "b.csv": second},
    )


def test_same_name_different_birth_years_are_two_people(tmp_path: Path) -> None:
    one = "rank,name,points,birth_date\n1,Smith John,3,1970\n2,Other,2,1980\n"
    two = "rank,name,points,birth_date\n1,John Smith,3,2001\n2,Other,2,1980\n"
    folder = two_events(tmp_path, one, two)
    found = {p.key for p in people(load(folder))}
    assert {"name:john smith|1970", "name:john smith|2001", "name:other"} <= found


def test_an_id_seen_elsewhere_gives_the_name_its_id(tmp_path: Path) -> None:
    with_id = "rank,name,id,points\n1,Kerr Fiona,5002,3\n"
    without = "rank,name,points\n1,Fiona KERR,3\n"
    folder = two_events(tmp_path, with_id, without)
    found = people(load(folder))
    assert [(p.key, len(p.events)) for p in found] == [("id:5002", 2)]


def keshmat(tmp_path: Path, aliases: str = "") -> Path:
    folder = shared("keshmat-circuit-2024-25", "crosstables", "july.xlsx").parent
    events = [
        f'[[events]]\nname = "{m.title()}"\ndate = {d}\nresults = "{folder / m}.xlsx"\n'
        for m, d in zip(KESHMAT, DATES, strict=True)
    ]
    # The circuit's own rule: the sum of game points over the best 7 of the 8 events.
    rules = '[rules]\npreset = "acf-2004"\ndivisions = []\n[rules.points]\nclasses = []\n'
    rules += "from_score = true\n[rules.counting]\nbest = 7"
    files = {"aliases.csv": aliases} if aliases else {}
    # The exports stay where they are: the season names their folder as a shared folder.
    shared_folder = f"shared_folders = ['{folder}']\n"
    return write_season(
        tmp_path,
        season_toml(rules, *events).replace(
            "start = 2012-01-01\nend = 2012-12-31\n", shared_folder
        ),
        files,
    )


def test_keshmat_season_every_player_matched_and_near_matches_listed(tmp_path: Path) -> None:
    season = load(keshmat(tmp_path))
    found = people(season)
    assert len(found) == 260
    matches = near_matches(season, found)
    uncertain = {(m.first.name, m.second.name) for m in matches if m.uncertain}
    assert uncertain == {
        ("Hadad Peter", "Haddad Peter"),
        ("Bechaalany Anthony", "Bechelany Anthony"),
    }
    apart = {(m.first.name, m.second.name) for m in matches if not m.uncertain}
    assert ("El Jawich Louay", "El Jawich Qusay") in apart  # both played in July


def test_keshmat_aliases_record_the_decisions(tmp_path: Path) -> None:
    aliases = (
        "name,other,decision\n"
        "Haddad Peter,Hadad Peter,same\n"
        "Bechelany Anthony,Bechaalany Anthony,same\n"
        "Saadeddine Lana,Saadeddine Lea,different\n"
    )
    season = load(keshmat(tmp_path, aliases))
    found = people(season)
    assert len(found) == 258
    peter = next(p for p in found if "Peter" in p.name and "ad" in p.name)
    assert len(peter.events) == 7 and set(peter.spellings) == {"Hadad Peter", "Haddad Peter"}
    matches = near_matches(season, found)
    assert not [m for m in matches if m.uncertain]
    assert any(m.verdict == "different (aliases.csv)" for m in matches)


def test_players_command_review(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["players", str(keshmat(tmp_path)), "--review"])
    assert result.exit_code == 0
    assert "260 players" in result.stdout
    assert "2 uncertain match(es)" in result.stdout
    assert "      Hadad Peter,Haddad Peter,same\n" in result.stdout


def test_check_warns_of_similar_names_until_aliases_decide(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(keshmat(tmp_path / "a"))])
    assert result.exit_code == 0
    assert "aliases.csv: warning: 2 pair(s) of similar names are undecided" in result.stdout
    decided = "name,other,decision\nHadad Peter,Haddad Peter,same\n"
    decided += "Bechaalany Anthony,Bechelany Anthony,same\n"
    result = CliRunner().invoke(main, ["check", str(keshmat(tmp_path / "b", decided))])
    assert result.exit_code == 0 and "pair(s) of similar names" not in result.stdout


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_players_command_formats(tmp_path: Path, fmt: str) -> None:
    result = CliRunner().invoke(main, ["players", str(keshmat(tmp_path)), "--format", fmt])
    assert result.exit_code == 0 and "Arkadan Adib" in result.stdout


def test_a_bad_aliases_file_is_located(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path,
        season_toml('rules = "utah-2012"', event("A", "a.csv")),
        {"a.csv": "name,points\nA,1\n", "aliases.csv": "name,other,decision\nA,B,maybe\n"},
    )
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 1
    assert "aliases.csv:2:1: expected 'name,other,same' or 'name,other,different'" in result.stdout


def test_player_record_used_by_the_matcher() -> None:
    assert Player(start_no=1, name="x", fide_id="7").id == "7"


def test_entrants_of_a_section_are_each_row_found_afresh() -> None:
    """``Directory.entrants`` (an id alone decides the entrant once players.csv names and
    qualifies its player; every other row by its own columns) gives each row what a directory
    that has seen nothing gives it: players.csv without a name or without a required value,
    players not listed, rows without ids, the same id under other names and columns."""
    import tomllib

    from grandprix.conditions import meets
    from grandprix.model import Section
    from grandprix.players import ListedPlayer
    from grandprix.rules.load import PRESETS
    from grandprix.rules.schema import RuleSet
    from grandprix.season.identity import Directory, Entrant

    rules = RuleSet.model_validate(tomllib.loads((PRESETS / "utah-2012.toml").read_text()))
    listed = (
        ListedPlayer("1", "Ann Able", (("region", "UT"), ("member", "yes"))),
        ListedPlayer("2", "", (("region", "UT"), ("member", "yes"))),  # no name
        ListedPlayer("3", "Cy Cole", (("region", ""), ("member", "yes"))),  # no region
        ListedPlayer("4", "Di Dunn", (("region", "NV"), ("member", "yes"))),
        ListedPlayer("", "Ed Eyre", (("region", "UT"), ("member", "yes"))),  # no id
    )
    rows = [
        ("1", "Ann Able", ()),
        ("1", "Able, Ann", ()),
        ("2", "Bo Best", ()),
        ("2", "Bea Best", ()),
        ("3", "Cy Cole", (("region", "UT"),)),
        ("3", "Cy Cole", (("region", "NV"),)),
        ("4", "Di Dunn", (("region", "UT"),)),
        ("", "Ed Eyre", ()),
        ("", "Eyre, Ed", ()),
        ("9", "Flo Fox", (("region", "UT"),)),
        ("9", "Flo Fox", ()),
    ]
    players = tuple(
        Player(start_no=n, name=name, fide_id=ident, extra=extra)
        for n, (ident, name, extra) in enumerate(rows, start=1)
    )
    section = Section("Open", players, has_crosstable=False)

    def afresh(player: Player) -> Entrant:
        """The general rule: ``key`` of the player, eligible by its attributes (UT-1)."""
        key, name, attributes = Directory(listed, rules).key(player)
        return Entrant(key, name, meets(lambda n: attributes.get(n, ""), rules.eligibility.require))

    directory = Directory(listed, rules)
    for _ in range(2):  # the second time from what the first remembered
        found = directory.entrants(section)
        assert found == [afresh(p) for p in players]
        assert found == [Directory(listed, rules).entrant(p) for p in players]
    assert [e.eligible for e in found[:4]] == [True, True, True, True]
    assert found[1].name == "Ann Able" and found[2].name == "Bo Best"
    assert not found[6].eligible and not found[10].eligible
    assert directory._by_id_only.keys() == {"1", "4"}
    assert directory._by_row == {"2", "3"}  # listed without a name, without a region


def test_a_season_has_one_directory_while_it_lives() -> None:
    """``Season.directory`` is the same directory for one season read (the standings, the
    divisions, the prizes and the site ask it about the same players), another for the same
    folder read again; it lives with its season: no table outside it keeps one."""
    import gc
    import weakref

    folder = Path(__file__).parent.parent / "examples" / "utah-2012"
    season, again = load(folder), load(folder)
    first = season.directory
    assert season.directory is first
    assert again.directory is not first
    assert again.directory.sameness() == first.sameness()
    gone = weakref.ref(first)
    del season, first
    gc.collect()
    assert gone() is None

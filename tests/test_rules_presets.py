"""Presets validate, cite their rule IDs, and the reference documentation is generated."""

from __future__ import annotations

import tomllib

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from conftest import ROOT
from grandprix.cli import main
from grandprix.rules.event_points import Points
from grandprix.rules.load import PRESETS, preset_names
from grandprix.rules.reference import reference
from grandprix.rules.schema import Counting, Eligibility, RuleSet, Standings

SEEDS = ROOT.parent / "shared" / "seeds" / "README.md"


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004", "lupiae-2012-13"])
def test_preset_validates_cites_rules_and_states_its_choices(name: str) -> None:
    assert name in preset_names()
    rules = RuleSet.model_validate(tomllib.loads((PRESETS / f"{name}.toml").read_text()))
    assert rules.name == name and rules.cites and rules.choices
    if SEEDS.exists():
        text = SEEDS.read_text(encoding="utf-8")
        assert all(f"- {rule} " in text for rule in rules.cites), rules.cites


def test_utah_preset_eligibility_is_region_ut_and_member_yes() -> None:
    rules = RuleSet.model_validate(tomllib.loads((PRESETS / "utah-2012.toml").read_text()))
    assert rules.eligibility.require == {"region": "UT", "member": "yes"}
    assert rules.eligibility.ineligible_players == "skip"


def test_every_schema_field_is_documented() -> None:
    text = reference()
    models: list[type[BaseModel]] = [RuleSet, Points, Counting, Eligibility, Standings]
    for model in models:
        for name, field in model.model_fields.items():
            assert field.description, f"{model.__name__}.{name} has no description"
            assert f"| `{name}` |" in text


def test_committed_reference_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules-reference.md").read_text(encoding="utf-8")
    assert committed == reference(), "run: grandprix rules-reference > docs/rules-reference.md"


def test_rules_reference_command() -> None:
    result = CliRunner().invoke(main, ["rules-reference"])
    assert result.exit_code == 0 and result.stdout.startswith("# Rule-set reference")

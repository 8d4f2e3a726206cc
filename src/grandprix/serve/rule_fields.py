"""The rules form's settings: every setting of a rule set, table by table as season.toml has
them, with its value as TOML writes it and what it means (from the schema). The pages that
show and accept the form are ``serve/forms.py``'s; the change it makes is
``serve/changes.rules_change``."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel

from grandprix.rules.schema import RuleSet
from grandprix.scores import show

# The rule-set settings a form offers: the plain values of these tables of the schema.
RULE_SAID = ("name", "description", "cites", "choices")  # what the rule set says of itself


@dataclass(frozen=True)
class RuleField:
    """One setting of the rules form: its dotted key, its value as TOML writes it, what it
    means (from the schema)."""

    key: str
    text: str
    what: str

    @property
    def long(self) -> bool:
        return "\n" in self.text or len(self.text) > 60


def rule_fields(rules: RuleSet) -> list[tuple[str, list[RuleField]]]:
    """Every setting of the rule set, table by table as season.toml has them (points,
    counting, ...), from the schema; a list of tables (divisions, prizes) is one setting,
    written as a TOML list of inline tables."""
    groups = []
    for name, field in RuleSet.model_fields.items():
        if name in RULE_SAID:
            continue
        value = getattr(rules, name)
        if isinstance(value, BaseModel):
            fields = [
                RuleField(f"{name}.{sub}", _toml_text(getattr(value, sub)), about.description or "")
                for sub, about in type(value).model_fields.items()
            ]
        else:
            fields = [RuleField(name, _toml_text(value), field.description or "")]
        groups.append((name, fields))
    return groups


def _toml_text(value: object) -> str:
    """A value as TOML writes it: a table inline with only what differs from the defaults,
    a list of tables one table a line; None (not set) as nothing."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        if value.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100):
            return show(value)
        return f'"{value.numerator}/{value.denominator}"'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return ""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, BaseModel):  # what differs from the schema's defaults
        fields = type(value).model_fields.items()
        value = {
            name: getattr(value, name)
            for name, about in fields
            if getattr(value, name) != about.get_default(call_default_factory=True)
        }
    if isinstance(value, dict):
        items = [(str(k), _toml_text(v)) for k, v in value.items() if v is not None]
        return "{" + ", ".join(f"{_toml_key(k)} = {v}" for k, v in items) + "}"
    if isinstance(value, list | tuple):
        parts = [_toml_text(v) for v in value]
        if any(isinstance(v, BaseModel | dict) for v in value):
            return "[\n" + "".join(f"  {p},\n" for p in parts) + "]"
        return "[" + ", ".join(parts) + "]"
    return _toml_text(str(value))


def _toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key)
    return key if bare else _toml_text(key)

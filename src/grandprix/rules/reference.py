"""The rule-set reference, generated from the schema (``grandprix rules-reference``)."""

from __future__ import annotations

import json
import typing
from fractions import Fraction
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from grandprix.rules.event_points import PointsBase
from grandprix.rules.load import PRESETS, preset_names
from grandprix.rules.schema import RuleSet
from grandprix.scores import show
from grandprix.tiebreaks import TIEBREAKS

INTRO = """# Rule-set reference

Generated from the schema in `src/grandprix/rules/schema.py` by `grandprix rules-reference`;
do not edit by hand.

A rule set is a TOML file: a preset shipped with grandprix, a file of your own, or a preset with
some keys changed. In `season.toml`, either name it:

```toml
rules = "utah-2012"          # a preset, or "my-rules.toml" beside season.toml
```

or change some of its keys:

```toml
[rules]
preset = "utah-2012"         # or: file = "my-rules.toml"
[rules.points]
table = [25, 18, 15, 12, 10, 8]
```

Numbers may be integers, decimals (`1.5`) or fractions in quotes (`"14/3"`); they are kept exact.
"""


def _type_name(annotation: Any) -> str:
    """A reader's name for a field type: 'number', 'list of numbers', '"a" or "b"', ..."""
    if typing.get_origin(annotation) is typing.Literal:
        return " or ".join(f'"{option}"' for option in typing.get_args(annotation))
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        if typing.get_origin(item) is typing.Literal:
            return "list of " + _type_name(item)
    text = str(annotation)
    if "Fraction" in text:
        return "list of numbers" if text.startswith("list") else "number"
    text = text.replace("typing.", "").replace("<class '", "").replace("'>", "")
    return text.replace(" | ", " or ").replace("|", " or ")


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return "required"
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return "see below"
    if isinstance(value, Fraction):
        return f"`{show(value)}`"
    return f"`{json.dumps(value)}`"


def _table(model: type[BaseModel], prefix: str) -> list[str]:
    lines = [
        f"## `{prefix or 'top level'}`",
        "",
        (model.__doc__ or "").strip(),
        "",
        "| key | type | default | meaning |",
        "|---|---|---|---|",
    ]
    nested: list[tuple[type[BaseModel], str]] = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        inner = _model(annotation)
        path = f"{prefix}.{name}" if prefix else name
        kind = f"table `[{path}]`" if inner else _type_name(annotation)
        if typing.get_origin(annotation) is list and inner is not None:
            kind = f"array of tables `[[{path}]]`"
        if inner is PointsBase:  # a category's points: the keys of `points` again
            kind = f"tables `[{path}.NAME]`, each with keys of `{prefix}`"
        elif inner is not None:
            nested.append((inner, path))
        example = f" Example: `{json.dumps(field.examples[0])}`." if field.examples else ""
        meaning = (field.description or "") + example
        lines.append(f"| `{name}` | {kind} | {_default(field)} | {meaning} |")
    lines.append("")
    for inner, path in nested:
        lines.extend(_table(inner, path))
    return lines


def _model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model(arg)
        if found is not None:
            return found
    return None


def _tiebreak_codes() -> list[str]:
    """The codes each rule book accepts (``tiebreak_rules``), from the registry ``TIEBREAKS``:
    each with the first line of the docstring of the function computing it."""
    lines = ["## Tie-break codes", ""]
    for book, codes in TIEBREAKS.items():
        lines += [
            f"### `{book.value}`",
            "",
            "| code | cuts (/C1, /M1) | what it is |",
            "|---|---|---|",
        ]
        for code, tiebreak in sorted(codes.items()):
            doc = tiebreak.compute.__doc__ if tiebreak.compute else None
            what = (doc or "").strip().splitlines()[0] if doc else DIRECT_ENCOUNTER
            lines.append(f"| `{code}` | {'yes' if tiebreak.cuts else ''} | {what} |")
        lines.append("")
    return lines


DIRECT_ENCOUNTER = (
    "DE: the results among the players still tied (C.07 art. 6), computed by placings."
)


def reference() -> str:
    """The whole reference as Markdown, tie-break codes and presets included."""
    lines = [INTRO, *_table(RuleSet, ""), *_tiebreak_codes()]
    lines.append("## Presets")
    lines.append("")
    for name in preset_names():
        text = (PRESETS / f"{name}.toml").read_text(encoding="utf-8")
        lines.extend([f"### `{name}`", "", "```toml", text.rstrip(), "```", ""])
    return "\n".join(lines) + "\n"

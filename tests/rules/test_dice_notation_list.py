"""The notation's list of modifiers (``rules/dice/notation.py``) covers what the grammar reads.

The guide's notation table is generated from that list, so a modifier missing from it would be
missing from the guide. The check is made on the parsed model, not on spellings: every node
kind of ``rules.dice.model``, every field that can be set (each way a flag or an optional value
can go) and every compare operator must be reached by some example. A new modifier adds a
field or a node kind, and fails here until the list has an example of it.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from rules.dice import model, parse
from rules.dice.notation import NOTATION, Form

#: Fields that say where or how a thing was written, not what it does.
WHERE = {"position", "text"}


def model_classes() -> dict[str, type]:
    return {
        name: cls
        for name, cls in inspect.getmembers(model, inspect.isclass)
        if dataclasses.is_dataclass(cls)
        and cls.__module__ == model.__name__
        and cls is not model.Limits
    }


def seen_values(forms: tuple[Form, ...] = NOTATION) -> dict[tuple[str, str], set[Any]]:
    """(class, field) → the kinds of value the examples gave it: True/False, None, "set", and
    "changed" when it differs from the field's default."""
    seen: dict[tuple[str, str], set[Any]] = {}

    def visit(value: Any) -> None:
        if isinstance(value, tuple):
            for item in value:
                visit(item)
            return
        if not dataclasses.is_dataclass(value):
            return
        name = type(value).__name__
        seen.setdefault((name, ""), set()).add("set")
        for field in dataclasses.fields(value):
            inner = getattr(value, field.name)
            kind = inner if isinstance(inner, bool) or inner is None else "set"
            kinds = seen.setdefault((name, field.name), set())
            kinds.add(kind)
            if field.default is not dataclasses.MISSING and inner != field.default:
                kinds.add("changed")
            if field.name == "op":
                seen.setdefault((name, f"op {inner}"), set()).add("set")
            visit(inner)

    for form in forms:
        visit(parse(form.example))
    return seen


def test_every_example_parses_to_a_canonical_form_that_parses_again() -> None:
    """A row's example is valid notation, and what kubik shows of it reads back the same."""
    for form in NOTATION:
        expression = parse(form.example)
        assert str(parse(str(expression))) == str(expression), form.example


def test_every_node_kind_and_settable_field_is_reached_by_an_example() -> None:
    """Every class of the model, every field that can be set, each way it can be set."""
    seen = seen_values()
    missing = []
    for name, cls in model_classes().items():
        if (name, "") not in seen:
            missing.append(name)
            continue
        hints = {f.name: str(f.type) for f in dataclasses.fields(cls)}
        for field in dataclasses.fields(cls):
            if field.name in WHERE:
                continue
            kinds = seen.get((name, field.name), set())
            wanted: set[Any] = set()
            if hints[field.name] == "bool":
                wanted = {True, False}
            elif "None" in hints[field.name]:
                wanted = {None, "set"}
            if field.default is not dataclasses.MISSING and "changed" not in kinds:
                missing.append(f"{name}.{field.name} set")
            for kind in wanted - kinds:
                missing.append(f"{name}.{field.name} = {kind}")
    assert not missing, f"no example in rules/dice/notation.py reaches: {missing}"


def test_every_compare_operator_and_arithmetic_operator_has_an_example() -> None:
    """``>=`` ``>`` ``<=`` ``<`` ``=`` and not-equal as compare points; ``+ - * /``."""
    seen = seen_values()
    missing = [op for op in model.OPERATORS if ("Compare", f"op {op}") not in seen]
    missing += [op for op in "+-*/" if ("Binary", f"op {op}") not in seen]
    assert not missing, missing


def test_the_list_fails_when_an_example_is_dropped() -> None:
    """The coverage check can fail: without the ``!p`` row, ``Explode.penetrate`` is missed."""
    assert True in seen_values()[("Explode", "penetrate")]
    fewer = tuple(form for form in NOTATION if form.example != "2d6!p")
    assert True not in seen_values(fewer)[("Explode", "penetrate")]

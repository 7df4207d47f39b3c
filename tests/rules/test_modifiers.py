"""The GM's free-text modifier list (Древо seed, «Модификаторы»)."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.modifiers import parse_modifiers


def test_signed_values_with_reasons():
    """Сид: «Модификатор имеет числовое значение (положительное или отрицательное) и
    складывается с результатом проверки»."""
    mods = parse_modifiers("+1 высота, -2 темнота; −1 ветер, 3")
    assert [(m.value, m.reason) for m in mods] == [
        (1, "высота"),
        (-2, "темнота"),
        (-1, "ветер"),
        (3, "ситуация"),
    ]


def test_empty_text_means_no_modifiers():
    assert parse_modifiers("  ") == ()
    assert parse_modifiers("+1,,") == parse_modifiers("+1")


@pytest.mark.parametrize("text", ["темно", "+1 высота, ветер -1", "+", "1000"])
def test_an_item_without_a_number_is_named_in_the_error(text):
    with pytest.raises(RulesError, match="Модификатор"):
        parse_modifiers(text)

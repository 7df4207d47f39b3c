"""The effects' typed numbers without Textual: the effect form's (effect_form.py: parse_int)
and the scene clock's minutes (effect_keys.py: clock_minutes). That the form shows a refusal
under its fields and saves nothing:
tests/tui/test_rounds.py::test_drevo_effect_from_the_party_tab_enters_the_check; the clock's
range: tests/table/test_effects_steps.py."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from tests.every_case import assert_every_case
from tui.widgets.common.effect_form import parse_int
from tui.widgets.common.effect_keys import clock_minutes

WHAT_TO_TYPE = "Модификатор: целое число, например −1 или +2 (или пусто)."

REFUSED = [
    "пять",
    "5.5",
    # Only the digits 0–9: int() and «\d» read «٣» and «３» as 3, int() «1_0» as 10.
    "٣",
    "３",
    "−٣",
    "1_0",
]


def test_a_number_not_of_the_digits_0_to_9_is_refused_saying_what_to_type():
    def check(text: str) -> None:
        with pytest.raises(RulesError) as refused:
            parse_int(text, "Модификатор")
        assert str(refused.value) == WHAT_TO_TYPE

    assert_every_case(REFUSED, check)


TAKEN = [
    ("−1", -1),
    ("+2", 2),
    (" 3 ", 3),
    ("- 1", -1),
    ("", 0),
]


def test_a_signed_whole_number_or_blank_is_taken():
    def check(text: str, value: int) -> None:
        assert parse_int(text, "Модификатор") == value

    assert_every_case(TAKEN, check)
    assert parse_int("  ", "Повтор", blank=1) == 1


def test_a_number_past_the_limit_says_the_range():
    with pytest.raises(RulesError, match="Сколько: число от −9999 до 9999"):
        parse_int("12345678901234567890", "Сколько")


def test_the_scene_clock_takes_minutes_of_the_digits_0_to_9():
    """«На сколько минут сцены вперёд?»: blank is one minute; «٣» is no number (int() read 3,
    «1_0» 10), so the prompt says what to type (``None`` → CLOCK_REFUSED)."""
    assert [clock_minutes(t) for t in ("٣", "３", "1_0", "три")] == [None] * 4
    assert [clock_minutes(t) for t in ("", " 3 ", "+2", "−1")] == [1, 3, 2, -1]

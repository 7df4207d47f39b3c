"""The character form's fields without Textual (tui/widgets/party/fields.py): what each
parser refuses and the message the form shows under the field. That the form shows it at
its field, saves nothing and clears it once fixed: tests/tui/test_forms.py."""

from __future__ import annotations

import pytest

from tests.every_case import assert_every_case
from tui import registry
from tui.store import Skill
from tui.widgets.party.fields import (
    FieldError,
    parse_int,
    parse_name,
    parse_skills,
    parse_stat,
    parse_weapons,
)

WEAPONS = ["Меч", "Щит", "Лук"]

REFUSED = [
    # (what the form calls, the text typed, what the message says)
    ("name", "Милава", "уже есть"),
    ("name", "   ", "Укажите имя"),
    ("stat", "7", "Ловкость: Нужно число от −3 до 5"),
    ("skills", "Драка два", "Навык число"),
    ("weapons", "Бластер", "Нет оружия «Бластер»"),
    ("fate", "11", "от 0 до 10"),
    # A whole number too long is out of range, not «not a whole number» (playbook).
    ("fate", "12345678901234567890", "Нужно число от 0 до 10"),
    ("fate", "5.5", "Нужно целое число"),
    ("fate", "пять", "Нужно целое число"),
    # Only the digits 0–9: int() and «\d» read «٣» and «３» as 3 and «1_0» as 10 (playtest).
    ("fate", "٣", "Нужно целое число"),
    ("fate", "３", "Нужно целое число"),
    ("fate", "1_0", "Нужно целое число"),
    ("stat", "−١", "Ловкость: Нужно целое число"),
    ("skills", "Драка ٢", "Навык число"),
]


def parse(field: str, text: str):
    """Parse ``text`` as the Древо form parses that field (the demo party's names taken)."""
    if field == "name":
        return parse_name(text, {"милава", "богдан сыч"})
    if field == "stat":
        return parse_stat("drevo", "Ловкость", text)
    if field == "skills":
        return parse_skills("drevo", text)
    if field == "weapons":
        return parse_weapons(text, WEAPONS)
    fate = next(f for f in registry.get("drevo").sheet_fields if f.key == "fate")
    return parse_int(text, fate.low, fate.high)  # the form's Судьба: Древо's sheet field


def test_a_wrong_value_is_refused_with_what_to_do():
    def check(field, text, message) -> None:
        with pytest.raises(FieldError) as refused:
            parse(field, text)
        assert message in str(refused.value)

    assert_every_case(REFUSED, check)


THE_FIXED_VALUE_IS_TAKEN = [
    ("name", "  Ждан ", "Ждан"),
    ("stat", "1", 1),
    ("stat", "−3", -3),
    ("skills", "", ()),
    ("weapons", "", ()),
    ("weapons", "меч, Щит, меч", ("Меч", "Щит")),
    ("fate", "3", 3),
    ("fate", " +2 ", 2),
    ("stat", "–1", -1),
    ("skills", "Драка 2", (Skill("Драка", 2),)),
]


def test_the_fixed_value_is_taken():
    def check(field, text, value) -> None:
        assert parse(field, text) == value

    assert_every_case(THE_FIXED_VALUE_IS_TAKEN, check)

"""Древо damage [default] and the weapon catalogue."""

from __future__ import annotations

import pytest

from rules.drevo import (
    BARE_HANDS,
    OneSidedCheck,
    OpposedCheck,
    Side,
    damage_level,
    damage_value,
    one_sided_margin,
    opposed_margin,
    resolve_one_sided,
    resolve_opposed,
    weapon,
    weapons,
)
from rules.errors import RulesError
from tests.every_case import assert_every_case

DAMAGE_TABLE_BOUNDARIES = [
    (-6, "scratch"),
    (0, "scratch"),
    (1, "scratch"),
    (2, "light"),
    (3, "light"),
    (4, "wound"),
    (5, "wound"),
    (6, "heavy"),
    (7, "heavy"),
    (8, "death"),
    (15, "death"),
]


def test_damage_table_boundaries() -> None:
    """RULES.md [default]: «≤ 1 Царапина, 2–3 Лёгкая рана, 4–5 Ранение, 6–7 Тяжёлая рана,
    ≥ 8 Смерть»."""

    def check(value: int, level: str) -> None:
        assert damage_level(value) == level

    assert_every_case(DAMAGE_TABLE_BOUNDARIES, check)


def test_value_is_margin_plus_the_attackers_damage_mod() -> None:
    """RULES.md [default]: «value = margin + attacker's МУ»."""
    assert damage_value(3, 2) == 5
    assert damage_value(2, BARE_HANDS.damage_mod) == 1


def test_opposed_margin_is_winner_minus_loser() -> None:
    """RULES.md [default]: «margin is the winner's result minus the loser's (opposed)»."""
    result = resolve_opposed(OpposedCheck(Side(3), Side(0)), (1, 0, 0, 0), (0, 0, 0, -1))
    assert (result.a.total, result.b.total) == (4, -1)
    assert opposed_margin(result) == 5


def test_one_sided_margin_counts_reaching_the_difficulty_as_one() -> None:
    """RULES.md [default]: «result − difficulty + 1 (one-sided)»."""
    exact = resolve_one_sided(OneSidedCheck(Side(1), difficulty=1), (1, -1, 0, 0))
    assert exact.outcome == "success" and one_sided_margin(exact) == 1
    assert damage_level(damage_value(one_sided_margin(exact), 0)) == "scratch"


def test_a_crit_win_with_a_lower_total_still_leaves_a_scratch() -> None:
    """Сид: «Действие персонажа автоматически считается максимально успешным, вне зависимости
    от … значения его навыка»; RULES.md [default]: «≤ 1 Царапина»."""
    result = resolve_opposed(OpposedCheck(Side(-3), Side(5)), (1, 1, 1, 1), (0, 0, 0, 0))
    assert result.outcome == "win" and result.margin < 0
    assert damage_level(damage_value(result.margin, 2)) == "scratch"


def test_bare_hands_have_damage_mod_minus_one() -> None:
    """Сид: «Модификатор урона у персонажа, сражающегося без оружия, равен «-1».»"""
    assert BARE_HANDS.name == "Без оружия"
    assert BARE_HANDS.damage_mod == -1 and BARE_HANDS.kind == "melee" and BARE_HANDS.bare_hands


def test_catalogue_has_kinds_and_skills() -> None:
    """Сид: «у каждого вида оружия свой МУ»."""
    sword = weapon("Меч")
    assert (sword.damage_mod, sword.kind, sword.skill, sword.base_skill) == (
        2,
        "melee",
        "Фехтование",
        "Драка",
    )
    kinds = {w.kind for w in weapons().values()}
    assert kinds == {"melee", "thrown", "bow", "firearm", "shield"}


def test_unknown_weapon_says_what_to_do() -> None:
    """Сид: «Модификаторы предметов определяются их игромеханическим описанием в модуле /
    сеттинге» — оружие без описания назвать нельзя."""
    with pytest.raises(RulesError, match="«Бластер» нет в каталоге"):
        weapon("Бластер")

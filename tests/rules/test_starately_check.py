"""Старатели checks: 2d6 + DM + skill vs difficulty, boons and banes, Effect, natural 12 and 2."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest

from rules.errors import RulesError
from rules.starately import (
    Check,
    Modifier,
    Side,
    characteristic_dm,
    difficulties,
    difficulty_name,
    difficulty_value,
    resolve,
    roll,
    routine_needs_roll,
    settings,
)
from tests.every_case import assert_every_case


def reference(dice: tuple[int, ...], net: int, bonus: int, difficulty: int) -> tuple[str, int]:
    """Classify a roll straight from the book, independently of rules.starately."""
    ordered = sorted(dice)
    kept = ordered[-2:] if net > 0 else ordered[:2] if net < 0 else ordered
    natural = sum(kept)
    effect = natural + bonus - difficulty
    if natural == 12:
        return "success", effect
    if natural == 2:
        return "failure", effect
    return ("success" if effect >= 0 else "failure"), effect


def test_difficulty_names_and_default() -> None:
    """Сид: «| Легко | 6+ | … | Средне | 8+ | … | Тяжело | 10+ | … | Подвиг | 12+ |» и «Если
    сложность в книге не указана, и вы не можете её оценить, она равна 8+»."""
    assert [(d.name, d.value) for d in difficulties()] == [
        ("Легко", 6),
        ("Средне", 8),
        ("Тяжело", 10),
        ("Подвиг", 12),
    ]
    assert Check(Side(dm=0, skill=0)).difficulty == 8
    assert difficulty_value("тяжело") == 10
    assert difficulty_value("Подвиг") == 12
    assert difficulty_value("9") == 9
    assert difficulty_value("10+") == 10
    assert difficulty_value(7) == 7
    assert difficulty_name(6) == "Легко"
    assert difficulty_name(9) == "9+"
    with pytest.raises(RulesError, match="Легко"):
        difficulty_value("Невозможно")


CHARACTERISTIC_DM = [(0, -1), (2, -1), (5, -1), (6, 0), (8, 0), (9, 1), (11, 1), (12, 2), (15, 2)]


def test_characteristic_dm() -> None:
    """RULES.md §2 (таблица создания персонажа, настройка кампании): DM «≤ 5 → −1, 6–8 → 0,
    9–11 → +1, 12+ → +2»."""

    def check(value: int, dm: int) -> None:
        assert characteristic_dm(value) == dm
        assert Side.of(value, 1).dm == dm
        assert Side.of(value, 1).characteristic_value == value

    assert_every_case(CHARACTERISTIC_DM, check)


def test_negative_characteristic_is_refused() -> None:
    """RULES.md §2: характеристики бросаются 2d6 — отрицательного значения в таблице нет."""
    with pytest.raises(RulesError, match="таблице DM"):
        characteristic_dm(-1)


def test_unskilled_penalty() -> None:
    """Сид: «К броску добавляется модификатор соответствующей характеристики и навыка. Если
    навыка у вас нет, бросок совершается со штрафом -3.»"""
    assert settings().unskilled == -3
    assert Side(dm=1, skill=None).bonus == 1 - 3
    assert Side(dm=1, skill=0).bonus == 1  # level 0 is having the skill: no penalty
    assert Side(dm=1, skill=2, modifiers=(Modifier(-1, "темно"),)).bonus == 2
    with pytest.raises(RulesError, match="без навыка"):
        Side(dm=0, skill=-1)


EVERY_ROLL_MATCHES_THE_BOOK = [
    (net, bonus, difficulty)
    for (bonus, difficulty) in [(-4, 8), (0, 8), (3, 10), (6, 6), (-1, 12)]
    for net in [-1, 0, 1]
]


def test_every_roll_matches_the_book() -> None:
    """Сид: «Основной бросок может получать (+d6) или терять (-d6) кости – в таких случаях вы
    кидаете на одну кость больше, и убираете большую (в случае потери) или меньшую (в случае
    получения) из них.» «Разность между броском и сложностью называется Эффектом»."""

    def check_case(net: int, bonus: int, difficulty: int) -> None:
        side = Side(dm=bonus, skill=0, boons=max(net, 0), banes=max(-net, 0))
        check = Check(side, difficulty)
        for dice in product(range(1, 7), repeat=2 + abs(net)):
            result = resolve(check, dice)
            assert (result.outcome, result.effect) == reference(dice, net, bonus, difficulty), dice
            assert [d.value for d in result.dice] == list(dice)
            assert sum(d.kept for d in result.dice) == 2
            assert result.total == result.natural + bonus

    assert_every_case(EVERY_ROLL_MATCHES_THE_BOOK, check_case)


def test_effect_example() -> None:
    """Сид: «если при броске 8+ вам выпало 3, то ваш Эффект равен -5»."""
    result = resolve(Check(Side(dm=0, skill=0), 8), (1, 2))
    assert result.total == 3
    assert result.effect == -5
    assert result.outcome == "failure"


def test_natural_twelve_succeeds_whatever_the_total() -> None:
    """Сид: «Если на кубах выпадает натуральное 12 - это автоматический успех.»"""
    result = resolve(Check(Side(dm=-1, skill=None), 20), (6, 6))
    assert result.outcome == "success"
    assert result.auto
    assert result.effect == 12 - 4 - 20  # Effect is still shown, negative here


def test_natural_two_fails_whatever_the_total() -> None:
    """Сид: «Натуральное 2 - это автоматический провал.»"""
    result = resolve(Check(Side(dm=2, skill=4), 6), (1, 1))
    assert result.outcome == "failure"
    assert result.auto
    assert result.effect == 2 + 6 - 6


def test_natural_is_the_two_kept_dice() -> None:
    """Сид: «в любом случае кидается не более 3 костей и из них выбирается 2» — натуральное
    12 или 2 считается по двум оставленным костям."""
    boon = Check(Side(dm=0, skill=0, boons=1), 30)
    assert resolve(boon, (6, 1, 6)).outcome == "success"  # kept 6+6
    bane = Check(Side(dm=5, skill=4, banes=1), 2)
    assert resolve(bane, (1, 6, 1)).outcome == "failure"  # kept 1+1
    assert not resolve(bane, (1, 6, 2)).auto


def test_boons_and_banes_cancel_and_cap_at_three_dice() -> None:
    """Сид: «Несколько таких модификаторов могут отменять друг друга, но в любом случае
    кидается не более 3 костей и из них выбирается 2.»"""
    assert Side(dm=0, boons=1, banes=1).dice_count == 2
    assert Side(dm=0, boons=3).dice_count == 3
    assert Side(dm=0, boons=3).net_dice == 1
    assert Side(dm=0, boons=1, banes=4).net_dice == -1
    assert Side(dm=0, boons=2, banes=1).net_dice == 1
    with pytest.raises(RulesError, match="3 кубика"):
        resolve(Check(Side(dm=0, boons=2)), (1, 2, 3, 4))
    with pytest.raises(RulesError, match="2 кубика"):
        resolve(Check(Side(dm=0, boons=1, banes=1)), (1, 2, 3))


def test_dropped_die_is_flagged() -> None:
    """Сид: «убираете большую (в случае потери) или меньшую (в случае получения) из них»."""
    boon = resolve(Check(Side(dm=0, skill=0, boons=1)), (4, 2, 5))
    assert [d.kept for d in boon.dice] == [True, False, True]
    bane = resolve(Check(Side(dm=0, skill=0, banes=1)), (4, 2, 5))
    assert [d.kept for d in bane.dice] == [True, True, False]
    ties = resolve(Check(Side(dm=0, skill=0, boons=1)), (3, 3, 3))
    assert [d.kept for d in ties.dice] == [True, True, False]
    assert boon.natural == 9 and bane.natural == 6


def test_faces_are_validated() -> None:
    """Сид: «игра использует обычные шестигранные кубы» — грань вне 1…6 отвергается."""
    with pytest.raises(RulesError, match="1…6"):
        resolve(Check(Side(dm=0)), (0, 3))
    with pytest.raises(RulesError, match="1…6"):
        resolve(Check(Side(dm=0)), (7, 3))


def test_routine_tasks() -> None:
    """Сид: «Рутинные задачи не требуют броска - даже 1 уровень навыка позволяет водить
    машину в спокойных условиях»."""
    assert routine_needs_roll(None)
    assert routine_needs_roll(0)
    assert not routine_needs_roll(1)
    assert not routine_needs_roll(3)


def test_roll_is_seeded_and_json_keeps_every_die() -> None:
    """RULES.md §0: «every rolled die is kept in the result… Same seed, same inputs: same
    result, byte for byte.»"""
    check = Check(Side.of(10, 2, boons=1, name="Хаим", skill_name="Атлетика"), 12)
    first = roll(check, random.Random(42))
    again = roll(check, random.Random(42))
    assert json.dumps(first.to_dict()) == json.dumps(again.to_dict())
    data = first.to_dict()
    assert data["system"] == "starately"
    assert data["difficulty_name"] == "Подвиг"
    assert len(data["dice"]) == 3
    assert {tuple(sorted(d)) for d in data["dice"]} == {("exploded", "kept", "rerolled", "value")}
    assert sum(d["kept"] for d in data["dice"]) == 2
    assert data["outcome"] in ("success", "failure")
    assert data["side"]["dm"] == 1
    assert data["effect"] == data["total"] - 12
    json.dumps(data, ensure_ascii=False)


def test_demo_party_fits_the_rules() -> None:
    """RULES.md §2: «Characteristics …: Сила, Ловкость, Выносливость, Интеллект, Образование,
    Влияние, rolled 2d6» — демо-партия из примеров сида (Хаим, Дмитрий, Борис, Дарина)."""
    from rules.data import load_table

    table = load_table("demo/starately.toml")
    assert table["campaign"]["system"] == "starately"
    kinds = [c["kind"] for c in table["characters"]]
    assert 3 <= kinds.count("pc") <= 4 and kinds.count("npc") == 2
    names = {"Сила", "Ловкость", "Выносливость", "Интеллект", "Образование", "Влияние"}
    for character in table["characters"]:
        assert set(character["qualities"]) == names
        assert all(2 <= v <= 15 for v in character["qualities"].values())
        assert all(0 <= s["value"] <= 4 for s in character["skills"])
        assert "fate" not in character and "weapons" not in character  # no Судьба here
        Side.of(character["qualities"]["Интеллект"], None)  # every value has a DM

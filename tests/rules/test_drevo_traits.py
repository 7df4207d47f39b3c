"""Древо trait choice: skill over quality, part over whole, absent skills."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rules.drevo import (
    ACTIONS,
    DrevoSettings,
    Sheet,
    Weapon,
    action_skills,
    choose_trait,
    rank_traits,
    weapon,
)
from rules.errors import RulesError

YAROSLAV = Sheet(
    {"Сила": 2, "Ловкость": 1},
    (("Драка", 2, None), ("Фехтование", 3, "Драка"), ("Щиты", 1, "Драка"), ("Уклонение", 1, None)),
)


def test_standard_actions_are_the_seeds() -> None:
    """Сид: «Сражаться оружием ближнего боя … Метать оружие в цель … Стрелять …
    Защищаться щитом … Уклоняться от атак»."""
    assert {k: a.name for k, a in ACTIONS.items()} == {
        "melee": "Ближний бой",
        "throw": "Метание",
        "shoot": "Стрельба",
        "shield": "Щит",
        "dodge": "Уклонение",
        "parry": "Отбить",
        "other": "Другое",
    }


def test_shield_uses_the_part_not_the_whole() -> None:
    """Сид: «если у персонажа есть навык «Драка» и отдельно — навык «Щиты», то при защите с
    помощью щита учитывается навык «Щиты».»"""
    choice = choose_trait(YAROSLAV, "shield", weapon("Щит"))
    assert (choice.name, choice.value, choice.source) == ("Щиты", 1, "skill")
    assert choice.reason == "Щиты — часть навыка Драка: часть важнее целого"


def test_part_wins_even_when_the_data_lists_the_whole_first() -> None:
    """Сид: «если у персонажа есть два навыка которые соотносятся между собой как часть и
    целое — предпочтение отдаётся части.»"""
    broadsword = Weapon("Палаш", 1, "melee", skill="Драка", base_skill="Палаши")
    assert action_skills("melee", broadsword) == ("Драка", "Палаши")
    sheet = Sheet({}, (("Драка", 3, None), ("Палаши", 1, "Драка")))
    ranked = rank_traits(sheet, "melee", broadsword)
    assert [c.name for c in ranked] == ["Палаши", "Драка"]


def test_skill_beats_a_higher_quality() -> None:
    """Сид: «в ходе любых проверок (и встречных и односторонних) навыки предпочитаются
    качествам.»"""
    sheet = Sheet({"Ловкость": 3}, (("Уклонение", 0, None),))
    choice = choose_trait(sheet, "dodge")
    assert (choice.name, choice.value, choice.source) == ("Уклонение", 0, "skill")
    assert choice.reason == "навык предпочтён качеству (Ловкость)"


def test_weapon_sub_skill_then_general_skill() -> None:
    """Сид: «навык «Драка» (или его разновидность, соответствующая типу или виду
    используемого оружия …)»."""
    assert choose_trait(YAROSLAV, "melee", weapon("Меч")).name == "Фехтование"
    assert choose_trait(YAROSLAV, "melee", weapon("Булава")).name == "Драка"


def test_bare_hands_use_unarmed_combat_then_brawling() -> None:
    """Сид: «или «Бой без оружия» — если оружия нет»."""
    assert action_skills("melee") == ("Бой без оружия", "Драка")
    both = Sheet({}, (("Драка", 1, None), ("Бой без оружия", 2, None)))
    assert choose_trait(both, "melee").name == "Бой без оружия"
    assert choose_trait(YAROSLAV, "melee").name == "Драка"


def test_thrown_knife_uses_throwing_not_knife_fighting() -> None:
    """Сид: «Метать оружие в цель — навык «Метание» (или его разновидность, соответствующая
    типу или виду используемого оружия)»."""
    assert action_skills("throw", weapon("Нож")) == ("Метание",)
    assert action_skills("shoot", weapon("Лук")) == ("Луки", "Стрельба")


def test_absent_skill_counts_as_zero() -> None:
    """RULES.md [default]: «An absent skill counts as 0 [default, campaign setting].»"""
    sheet = Sheet({"Ловкость": 2}, ())
    choice = choose_trait(sheet, "dodge")
    assert (choice.name, choice.value, choice.source) == ("Уклонение", 0, "absent")
    assert choice.reason == "навыка нет: считается 0 по настройке кампании"
    minus = choose_trait(sheet, "dodge", campaign=DrevoSettings(absent_skill=-1))
    assert minus.value == -1


def test_quality_when_the_setting_has_no_such_skill() -> None:
    """Сид: «Качества используются лишь в том случае, если соответствующие навыки в
    конкретном модуле / сеттинге отсутствуют.»"""
    sheet = Sheet({"Ловкость": 2}, ())
    choice = choose_trait(sheet, "dodge", campaign=DrevoSettings(absent_skill_mode="quality"))
    assert (choice.name, choice.value, choice.source) == ("Ловкость", 2, "quality")
    assert choice.reason == "навыка нет — берётся качество Ловкость"
    with pytest.raises(RulesError):
        DrevoSettings(absent_skill_mode="maybe")


def test_rank_lists_every_candidate_best_first() -> None:
    """Сид: «Навык или качество выбираются сообразно ситуации.»"""
    ranked = rank_traits(YAROSLAV, "shield", weapon("Щит"))
    assert [(c.name, c.source) for c in ranked] == [
        ("Щиты", "skill"),
        ("Драка", "skill"),
        ("Сила", "quality"),
    ]
    assert ranked[0] == choose_trait(YAROSLAV, "shield", weapon("Щит"))


def test_other_action_offers_every_trait() -> None:
    """Сид: «Выбор действий у персонажа не ограничен стандартными вариантами»."""
    names = [c.name for c in rank_traits(YAROSLAV, "other")]
    assert names == ["Драка", "Фехтование", "Щиты", "Уклонение", "Сила", "Ловкость"]


def test_store_like_objects_are_accepted() -> None:
    """Сид: «если у персонажа есть навык «Драка» и отдельно — навык «Щиты»» — в листе
    кампании навыки — объекты с именем, значением и родителем."""
    skill = SimpleNamespace
    character = SimpleNamespace(
        qualities={"Сила": 1},
        skills=(
            skill(name="Драка", value=2, parent=None),
            skill(name="Щиты", value=2, parent="Драка"),
        ),
    )
    assert choose_trait(character, "shield").name == "Щиты"


def test_unknown_action_is_refused() -> None:
    """Сид: «Ниже перечислены стандартные действия в бою»."""
    with pytest.raises(RulesError, match="Неизвестное действие"):
        choose_trait(YAROSLAV, "dance")

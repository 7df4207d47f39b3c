"""The seed's quick (10 lines) and full (16 lines) templates, filled from one check record."""

from __future__ import annotations

import re

from rules import ide4

# The seed's labels, line by line (the part before the blank «___» or the question mark).
QUICK_LABELS = [
    "Что ты хочешь сделать?",
    "Это требует проверки?",
    "Атрибут:",
    "Навык:",
    "Сложность:",
    "Модификаторы сцены:",
    "Бонусы мастерства:",
    "Брось d100",
    "Итог:",
    "Последствие:",
]
FULL_LABELS = [
    "Намерение:",
    "Проверка нужна?",
    "Действие:",
    "Атрибут:",
    "Навык:",
    "Базовая сложность:",
    "Модификаторы:",
    "Итоговая сложность:",
    "Энергия до броска:",
    "d100:",
    "Перебросы:",
    "Энергия после броска:",
    "Бонусы мастерства:",
    "Итоговый исход:",
    "Подбросок:",
    "Последствие:",
]


def full_check() -> ide4.Check:
    inp = ide4.CheckInput(
        intent="Вскрыть дверь подвала",
        actor="Вера",
        action="Взлом",
        attribute="Мелкая моторика",
        attribute_level=5,
        skill="Взлом",
        mastery=65,
        base=3,
        modifiers=(ide4.Modifier(1, "темнота"), ide4.Modifier(-1, "хорошие инструменты")),
        energy_dice=2,
        roll_reasons=("risk", "limited_time"),
    )
    check = ide4.roll(ide4.start(inp), natural=10, energy=(4, 5))  # 19: Провал
    check = ide4.reroll(check, "skill", natural=20)  # 29: Провал
    check = ide4.energy_after(check, 1, dice=(3,))  # 32: Средне
    check = ide4.subroll(check, value=5)
    return ide4.conclude(check, consequence="замок открыт, но патруль насторожился")


def numbered(text: str) -> list[str]:
    lines = text.splitlines()
    for i, line in enumerate(lines, start=1):
        assert line.startswith(f"{i}. "), line
    return [re.sub(r"^\d+\. ", "", line) for line in lines]


def test_quick_template_has_the_seeds_ten_lines_filled() -> None:
    """Сид: «Быстрый шаблон для мастера 1. Что ты хочешь сделать? 2. Это требует проверки?
    3. Атрибут: ___ … 8. Брось d100. 9. Итог: ___ 10. Последствие: ___»."""
    lines = numbered(ide4.quick_template(full_check()))
    assert len(lines) == 10
    for line, label in zip(lines, QUICK_LABELS, strict=True):
        assert line.startswith(label), line
    assert lines[0] == "Что ты хочешь сделать? Вскрыть дверь подвала"
    assert lines[1] == "Это требует проверки? да: риск, ограниченное время"
    assert lines[4] == "Сложность: [3] — обычная задача"
    assert lines[5] == "Модификаторы сцены: темнота +1, хорошие инструменты −1"
    assert lines[6] == "Бонусы мастерства: переброс от навыка"
    assert lines[7] == "Брось d100: 20"
    assert lines[8] == "Итог: Средне (сумма 32)"
    assert lines[9] == "Последствие: замок открыт, но патруль насторожился"


def test_full_template_has_the_seeds_sixteen_lines_filled() -> None:
    """Сид: «Полный шаблон проверки: 1. Намерение: ___ … 9. Энергия до броска: ___
    10. d100: ___ 11. Перебросы: ___ 12. Энергия после броска: ___ … 16. Последствие: ___»."""
    lines = numbered(ide4.full_template(full_check()))
    assert len(lines) == 16
    for line, label in zip(lines, FULL_LABELS, strict=True):
        assert line.startswith(label), line
    assert lines[2] == "Действие: Взлом"
    assert lines[3] == "Атрибут: Мелкая моторика (5)"
    assert lines[4] == "Навык: Взлом (мастерство 65)"
    assert lines[8] == "Энергия до броска: 2×d12: 4+5 = 9 (−24 энергии)"
    assert lines[9] == "d100: 10 (+9 энергии = 19)"
    assert lines[10] == "Перебросы: навык: 10 → 20"
    assert lines[11] == "Энергия после броска: 1×d12: 3 = 3 (сумма 32, −12 энергии)"
    assert lines[13] == "Итоговый исход: Средне (сумма 32)"
    assert lines[14] == "Подбросок: 5 — сильное последствие"


def test_templates_before_the_roll_keep_the_blanks() -> None:
    """Сид: «5. Сложность: [__] … 8. Брось d100. 9. Итог: ___» — unfilled parts stay blank."""
    lines = numbered(ide4.quick_template(ide4.start(ide4.CheckInput())))
    assert lines[0] == "Что ты хочешь сделать? ___"
    assert lines[1] == "Это требует проверки? не отмечено ни одно условие"
    assert lines[7] == "Брось d100: ___" and lines[8] == "Итог: ___"
    full = numbered(ide4.full_template(ide4.start(ide4.CheckInput(player_demand=True))))
    assert full[1] == "Проверка нужна? по требованию игрока"
    assert full[2] == "Действие: не требуется"


def test_templates_of_checks_without_a_roll() -> None:
    """Сид: «[0] … Кубик не бросается.» и «[00] … Мастер должен объяснить, почему выбранный
    способ невозможен, и … обозначить возможный альтернативный подход»."""
    auto = numbered(
        ide4.full_template(
            ide4.start(ide4.CheckInput(base=1, modifiers=(ide4.Modifier(-1, "дом безопасен"),)))
        )
    )
    assert auto[7] == "Итоговая сложность: [0] — автоматический успех"
    assert auto[9] == "d100: не бросается ([0] — автоматический Успех)"
    assert auto[13] == "Итоговый исход: Успех"
    wall = ide4.start(
        ide4.CheckInput(base=9, impossible_reason="дверь заварена", alternative="через окно")
    )
    lines = numbered(ide4.full_template(wall))
    assert lines[7] == "Итоговая сложность: [00] — невозможно"
    assert lines[13] == "Итоговый исход: Невозможно: дверь заварена; другой путь: через окно"


def test_mastery_bonuses_and_pinned_seven_in_the_templates() -> None:
    """Сид: «Бонусы мастерства — единственный способ смягчить Трагедию или создать Триумф
    после броска» и «[7] Сюжетная броня»."""
    inp = ide4.CheckInput(skill="Переговоры", mastery=100, base=3)
    check = ide4.bonus(ide4.roll(ide4.start(inp), natural=2), "soften")
    assert "Бонусы мастерства: смягчение (Трагедия → Провал)" in ide4.full_template(check)
    pinned = ide4.start(ide4.CheckInput(base=2, pinned_seven=True))
    assert "Сложность: [7] — Сюжетная броня" in ide4.quick_template(pinned)
    summary = ide4.summary(ide4.roll(pinned, natural=50))
    assert summary == "Проверка: [7] (Сюжетная броня), d100 50 → Провал"

"""The seed's IDE4™ templates, filled from a check: plain Russian text, no markup.

The quick template (10 lines) and the full template (16 lines) are part of the seed, so they
live with the rules; richer renderings (Rich, Markdown) belong to ``tui``.
"""

from __future__ import annotations

from rules.ide4.model import OUTCOME_NAMES, Modifier, difficulty_label
from rules.ide4.scene import ROLL_REASONS, ClearRisk, roll_need
from rules.ide4.state import REROLL_SOURCES, Check
from rules.modifiers import signed

BLANK = "___"

#: [seed] the three levels of detail: one algorithm, different numbers of steps.
LEVEL_CHAINS = {
    "quick": ("атрибут", "модификаторы", "сложность", "d100", "исход"),
    "standard": ("действие (если требуется)", "атрибут", "навык", "сложность", "d100", "исход"),
    "expanded": (
        "намерение",
        "действие (если требуется)",
        "атрибут",
        "навык",
        "база и модификаторы",
        "энергия до броска",
        "d100",
        "перебросы",
        "энергия после броска",
        "бонусы мастерства",
        "подбросок",
        "смысл исхода",
        "последствия в сцене",
    ),
}
BONUS_TEXT = {"soften": "смягчение", "triumph": "Успех → Триумф", "technique": "техника"}


def modifiers_text(modifiers: tuple[Modifier, ...]) -> str:
    """Return ``"темнота +1, хорошие инструменты −1"`` or ``"нет"``."""
    return ", ".join(f"{m.reason} {signed(m.value, zero='+0')}" for m in modifiers) or "нет"


def _or_blank(text: str) -> str:
    return text.strip() or BLANK


def _need(check: Check) -> str:
    need = roll_need(check.input.roll_reasons, check.input.player_demand)
    if need.reasons:
        return "да: " + ", ".join(ROLL_REASONS[r] for r in need.reasons)
    if need.player_demand:
        return "по требованию игрока"
    return "не отмечено ни одно условие"


def _attribute(check: Check) -> str:
    inp = check.input
    return f"{inp.attribute} ({inp.attribute_level})" if inp.attribute else BLANK


def _skill(check: Check) -> str:
    inp = check.input
    if not inp.skill:
        return "нет"
    text = f"{inp.skill} (мастерство {inp.mastery})"
    return f"{text}, дистанция {inp.distance}" if inp.distance else text


def _difficulty(check: Check) -> str:
    d = check.difficulty
    notes = []
    if d.pinned:
        notes.append("Сюжетная броня, модификаторы её не двигают")
    elif d.made_possible:
        notes.append(f"[00] открыто исключением: {d.opened_by}, сложность назначил мастер")
    elif d.hidden_risk:
        notes.append("скрытый риск: бросок при [1]")
    elif d.name:
        notes.append(d.name)
    if d.base_impossible and d.modifiers and not d.made_possible:
        notes.append("модификаторы и помощь не двигают [00]")
    return f"{d.label} — {'; '.join(notes)}" if notes else d.label


def _energy_before(check: Check) -> str:
    inp = check.input
    if not inp.energy_dice:
        return "нет"
    declared = f"{inp.energy_dice}×d{inp.before_die}"
    if not check.before_dice:
        return f"{declared} (не тратится: броска нет)" if check.status != "ready" else declared
    dice = "+".join(str(d) for d in check.before_dice)
    spent = inp.energy_dice * inp.before_die
    return f"{declared}: {dice} = {check.before_sum} (−{spent} энергии)"


def _d100(check: Check) -> str:
    if check.status == "auto":
        return "не бросается ([0] — автоматический Успех)"
    if check.status == "impossible":
        return "не бросается ([00])"
    first = check.first_natural
    if first is None:
        return BLANK
    if check.before_sum:
        first_total = min(100, first + check.before_sum)
        return f"{first} (+{check.before_sum} энергии = {first_total})"
    return str(first)


def _rerolls(check: Check) -> str:
    parts = [
        f"{REROLL_SOURCES[s.source]}: {s.replaced} → {s.dice[0]}"
        for s in check.steps
        if s.kind == "reroll"
    ]
    return ", ".join(parts) or "нет"


def _energy_after(check: Check) -> str:
    if not check.after_dice:
        return "нет"
    dice = "+".join(str(d) for d in check.after_dice)
    cost = len(check.after_dice) * check.after_die
    return (
        f"{len(check.after_dice)}×d{check.after_die}: {dice} = {check.after_sum} "
        f"(сумма {check.total}, −{cost} энергии)"
    )


def _bonuses(check: Check) -> str:
    parts = []
    for step in check.steps:
        if step.kind == "reroll" and step.source == "skill":
            parts.append("переброс от навыка")
        elif step.kind == "bonus":
            text = BONUS_TEXT[step.source]
            if step.source == "technique":
                text += f" «{check.input.technique}»"
            elif step.outcome_before and step.outcome:
                names = OUTCOME_NAMES[step.outcome_before], OUTCOME_NAMES[step.outcome]
                text += f" ({names[0]} → {names[1]})" if step.source == "soften" else ""
            parts.append(text)
    return ", ".join(parts) or "нет"


def _outcome(check: Check) -> str:
    if check.status == "impossible":
        reason = check.input.impossible_reason.strip()
        alternative = check.input.alternative.strip()
        text = f"Невозможно: {reason}" if reason else "Невозможно"
        return f"{text}; другой путь: {alternative}" if alternative else text
    if not check.outcome:
        return BLANK
    name = OUTCOME_NAMES[check.outcome]
    if check.total is not None and check.total != check.natural:
        return f"{name} (сумма {check.total})"
    return name


def _subroll(check: Check) -> str:
    if check.subroll_value is None:
        return "нет"
    return f"{check.subroll_value} — {check.subroll_name}"


def _consequence(check: Check) -> str:
    parts = [t for t in (check.meaning, check.consequence) if t.strip()]
    if check.input.help == "risk" and check.input.help_note.strip():
        parts.append(f"союзник берёт на себя: {check.input.help_note.strip()}")
    return "; ".join(parts) or BLANK


def _natural(check: Check) -> str:
    if check.status in ("auto", "impossible"):
        return _d100(check)
    if check.natural is None:
        return BLANK
    return str(check.natural)


def quick_template(check: Check) -> str:
    """Fill the seed's «Быстрый шаблон для мастера» (10 lines)."""
    inp = check.input
    lines = [
        f"Что ты хочешь сделать? {_or_blank(inp.intent)}",
        f"Это требует проверки? {_need(check)}",
        f"Атрибут: {_attribute(check)}",
        f"Навык: {_skill(check)}",
        f"Сложность: {_difficulty(check)}",
        f"Модификаторы сцены: {modifiers_text(check.difficulty.modifiers)}",
        f"Бонусы мастерства: {_bonuses(check)}",
        f"Брось d100: {_natural(check)}",
        f"Итог: {_outcome(check)}",
        f"Последствие: {_consequence(check)}",
    ]
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))


def full_template(check: Check) -> str:
    """Fill the seed's «Полный шаблон проверки» (16 lines)."""
    inp, d = check.input, check.difficulty
    lines = [
        f"Намерение: {_or_blank(inp.intent)}",
        f"Проверка нужна? {_need(check)}",
        f"Действие: {inp.action or 'не требуется'}",
        f"Атрибут: {_attribute(check)}",
        f"Навык: {_skill(check)}",
        f"Базовая сложность: {difficulty_label(d.base)}",
        f"Модификаторы: {modifiers_text(d.modifiers)}",
        f"Итоговая сложность: {_difficulty(check)}",
        f"Энергия до броска: {_energy_before(check)}",
        f"d100: {_d100(check)}",
        f"Перебросы: {_rerolls(check)}",
        f"Энергия после броска: {_energy_after(check)}",
        f"Бонусы мастерства: {_bonuses(check)}",
        f"Итоговый исход: {_outcome(check)}",
        f"Подбросок: {_subroll(check)}",
        f"Последствие: {_consequence(check)}",
    ]
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))


def clear_risk_text(card: ClearRisk) -> str:
    """Render the clear-risk card the GM reads aloud (four lines, blanks where still empty)."""
    return "\n".join(
        [
            f"Чего хочет персонаж: {_or_blank(card.intent)}",
            f"Сложность: {card.difficulty.label}",
            f"Обстоятельства: {', '.join(card.circumstances) or 'нет особых'}",
            f"Что может случиться при неудаче: {_or_blank(card.risk)}",
        ]
    )


def summary(check: Check) -> str:
    """Return one line: difficulty, dice, outcome (the log line's plain text)."""
    who = check.input.actor or check.input.attribute or "Проверка"
    d = check.difficulty
    label = d.label
    if d.made_possible:
        label += f" ([00] открыто: {d.opened_by})"
    elif d.seven:
        label += f" ({d.name})"
    if check.status != "rolled":
        return f"{who}: {label}, {_d100(check)} → {_outcome(check)}"
    energy = check.before_sum + check.after_sum
    dice = f"d100 {check.natural}" + (f" + {energy} энергии" if energy else "")
    return f"{who}: {label}, {dice} → {_outcome(check)}"

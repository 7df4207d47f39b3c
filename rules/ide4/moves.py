"""Which moves a check still allows, and why not: one source of truth for the builder's list
and for the refusals ``rules.ide4.procedure`` raises.

Each ``*_refusal`` returns ``None`` when the move is allowed, else the Russian sentence naming
the rule that forbids it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.ide4.model import OUTCOME_NAMES, PINNED, check_die
from rules.ide4.state import AFTER_BONUSES, LATE_SOURCES, REROLL_SOURCES, Check
from rules.ide4.tables import (
    ENERGY_FILE,
    SKILLS_FILE,
    band_for,
    dice_of,
    energy_rules,
    modified_seven_bars_mastery,
    threshold_of,
    unlocked,
)

SKILL_REROLL_CAP = 2  # [seed] «не более двух перебросов от навыков»
SOFTEN_CAP = 1  # [seed] «≤ 1 смягчение исхода»
TRIUMPH_CAP = 1  # [seed] «≤ 1 повышение до Триумфа от навыков на проверку»
SOFTEN_STEP = {"tragedy": "failure", "failure": "middle"}  # [seed] one step up


@dataclass(frozen=True)
class Move:
    """A move the builder may offer now.

    Attributes:
        kind: ``"roll"``, ``"reroll"``, ``"energy_after"``, ``"bonus"`` or ``"subroll"``.
        source: the reroll source or bonus kind (``""`` for the others).
        allowed: whether the rules allow it now.
        reason: why not (the rule), or what it does when allowed.
        limit: for ``energy_after``, the most dice allowed now; else 0.
    """

    kind: str
    source: str
    allowed: bool
    reason: str
    limit: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "kind": self.kind,
            "source": self.source,
            "allowed": self.allowed,
            "reason": self.reason,
            "limit": self.limit,
        }


def _after_roll(check: Check) -> str | None:
    """Refuse any post-roll move while there is no rolled d100."""
    if check.status == "auto":
        return "[0]: автоматический Успех без броска — перебросы, энергия и бонусы не нужны."
    if check.status == "impossible":
        return "[00]: невозможно — энергия, перебросы и бонусы мастерства не проходят [00]."
    if check.status == "ready":
        return "Сначала бросьте d100."
    if check.subroll_value is not None:
        return "Подбросок — последний шаг: после него исход уже не меняется."
    return None


def _mastery(check: Check, kind: str) -> str | None:
    """Refuse a mastery bonus the skill does not give or that cannot act here."""
    inp = check.input
    if not inp.skill:
        return "Без навыка нет бонусов мастерства."
    refusal = seven_refusal(check)
    if refusal:
        return refusal
    if unlocked(inp.mastery, kind) == 0:
        need = threshold_of(kind)
        if need is None:
            return f"Таблица мастерства кампании не открывает бонус «{kind}»."
        return f"Этот бонус открывается с мастерства {need}; у «{inp.skill}» — {inp.mastery}."
    return None


def seven_refusal(check: Check) -> str | None:
    """Why mastery bonuses do not act against this [7], naming which [7] it is, or ``None``.

    [seed] «Бонусы не действуют против [7] и [00] без особого правила»: a pinned [7] (Сюжетная
    броня) always bars them; a [7] reached by modifiers or set after opening [00] bars them
    unless the campaign setting relaxes it.
    """
    d = check.difficulty
    if d.final != PINNED:
        return None
    if d.pinned:
        return (
            "Бонусы мастерства не действуют против [7] — это Сюжетная броня, её назначил "
            "мастер («Бонусы не действуют против [7] и [00]»)."
        )
    if not modified_seven_bars_mastery():
        return None
    why = "её назначил мастер, открыв [00]" if d.made_possible else "до неё дошли модификаторы"
    return (
        f"Бонусы мастерства не действуют против [7] ({why}; это не Сюжетная броня): «Бонусы "
        f"не действуют против [7] и [00]» — настройка кампании {SKILLS_FILE}: "
        "modified_seven_bars_mastery = true."
    )


def roll_refusal(check: Check) -> str | None:
    """Why the d100 cannot be rolled now, or ``None``."""
    if check.status == "auto":
        return "[0]: автоматический Успех — кубик не бросается."
    if check.status == "impossible":
        return "[00]: невозможно — игрок не бросает кубик."
    if check.status == "rolled":
        return "d100 уже брошен: заменить его может только переброс."
    return None


def reroll_refusal(check: Check, source: str) -> str | None:
    """Why a reroll from ``source`` is not allowed now, or ``None``.

    Raises:
        RulesError: ``source`` is not one of ``REROLL_SOURCES``.
    """
    if source not in REROLL_SOURCES:
        raise RulesError(f"Источник переброса — одно из: {', '.join(REROLL_SOURCES)}.")
    refusal = _after_roll(check)
    if refusal:
        return refusal
    if check.bonuses:
        return "Порядок: перебросы — до бонусов мастерства; бонусы уже применены."
    if check.after_dice:
        return "Порядок: перебросы — до энергии после броска; она уже потрачена."
    if source not in LATE_SOURCES and any(s in LATE_SOURCES for s in check.rerolls):
        return "Порядок: обычные перебросы → Арбитриум/Фатум; после них обычный переброс нельзя."
    cap = check.input.cap
    if len(check.rerolls) >= cap:
        return f"Не больше {cap} перебросов за проверку от всех источников вместе."
    if source == "skill":
        refusal = _mastery(check, "reroll")
        if refusal:
            return refusal
        if check.skill_rerolls >= SKILL_REROLL_CAP:
            return "Не больше двух перебросов от навыков за проверку."
        if check.skill_rerolls >= unlocked(check.input.mastery, "reroll"):
            inp = check.input
            given = unlocked(inp.mastery, "reroll")
            return f"Мастерство «{inp.skill}» ({inp.mastery}) даёт перебросов: {given}; все взяты."
    if source == "help":
        if check.input.help != "reroll":
            return "Переброс от помощи — только если мастер выбрал для помощи «+1 переброс»."
        if "help" in check.rerolls:
            return "Помощь союзника даёт один переброс; он уже использован."
    return None


def energy_after_refusal(check: Check, count: int | None = None, die: int = 0) -> str | None:
    """Why energy after the roll is not allowed now, or ``None``.

    Args:
        check: the check.
        count: the dice asked for (``None``: whether any is possible at all).
        die: their size (0: the nominal).
    """
    refusal = _after_roll(check)
    if refusal:
        return refusal
    if check.bonuses:
        return "Порядок: энергия после броска — до бонусов мастерства; бонусы уже применены."
    if check.after_dice:
        return "Энергию после броска объявляют один раз."
    if check.outcome in ("tragedy", "triumph"):
        name = OUTCOME_NAMES[check.outcome]
        return f"Энергия после броска не применяется, если исход — {name}."
    rules, inp, pool = energy_rules(), check.input, check.pool_after
    if rules.after_max_dice < 1:
        return f"{ENERGY_FILE}: after_max_dice = 0 — кампания не разрешает энергию после броска."
    if count is not None and not 1 <= count <= rules.after_max_dice:
        return f"После броска — от 1 до {dice_of(rules.after_max_dice)} энергии."
    size = die or inp.nominal
    try:
        check_die(size, inp.nominal, inp.attribute_level)
    except RulesError as err:
        return str(err)
    if count is not None and count * size > pool:
        return f"Не хватает энергии: {count}×d{size} стоят {count * size}, в запасе {pool}."
    smallest = min(rules.sizes)
    if count is None and pool < smallest:
        return f"Не хватает энергии: 1×d{smallest} стоят {smallest}, в запасе {pool}."
    return None


def energy_after_futile(check: Check, count: int, die: int = 0) -> str | None:
    """Say, before anything is spent, when ``count`` dice after the roll cannot change the
    outcome whatever they show (on Успех they never can: «Не создаёт Триумф»), else ``None``."""
    if check.natural is None or check.outcome is None or check.total is None:
        return None
    size = die or check.input.nominal
    best = min(100, check.total + count * size)
    if band_for(check.difficulty.final).classify(check.natural, best) != check.outcome:
        return None
    name = OUTCOME_NAMES[check.outcome]
    if check.outcome == "success":
        return (
            "Энергия после броска не изменит исход: уже Успех, а Триумф энергия не создаёт "
            "(«Не создаёт Триумф»)."
        )
    return (
        f"Энергия после броска не изменит исход: даже {count}×d{size} на максимуме — "
        f"сумма {best}, всё равно {name}."
    )


def bonus_refusal(check: Check, kind: str) -> str | None:
    """Why a mastery bonus is not allowed now, or ``None``.

    Raises:
        RulesError: ``kind`` is not a bonus kind.
    """
    if kind == "reroll":
        return reroll_refusal(check, "skill")
    if kind not in AFTER_BONUSES:
        raise RulesError(f"Бонус мастерства — одно из: reroll, {', '.join(AFTER_BONUSES)}.")
    refusal = _after_roll(check) or _mastery(check, kind)
    if refusal:
        return refusal
    outcome = OUTCOME_NAMES[check.outcome or "success"]
    if kind == "soften":
        if check.bonuses.count("soften") >= SOFTEN_CAP:
            return "Не больше одного смягчения исхода за проверку."
        if check.outcome not in SOFTEN_STEP:
            return (
                "Смягчение поднимает только Трагедию → Провал или Провал → Средне; "
                f"сейчас {outcome}."
            )
    if kind == "triumph":
        if check.bonuses.count("triumph") >= TRIUMPH_CAP:
            return "Не больше одного повышения до Триумфа от навыков за проверку."
        if check.input.daily_triumph_used:
            return "Успех → Триумф от навыков — не чаще раза за игровой день на персонажа."
        if check.outcome != "success":
            return f"Бонус 100 поднимает до Триумфа только Успех; сейчас {outcome}."
    if kind == "technique":
        if not check.input.technique.strip():
            return "Бонус 20 работает, только если персонаж применяет именованную технику."
        if "technique" in check.bonuses:
            return "Техника уже применена в этой проверке."
    return None


def subroll_refusal(check: Check) -> str | None:
    """Why the sub-roll cannot be made now, or ``None``."""
    if check.subroll_value is not None:
        return "Подбросок делается один раз."
    return _after_roll(check)


def _move(kind: str, source: str, refusal: str | None, does: str, limit: int = 0) -> Move:
    return Move(kind, source, refusal is None, refusal or does, limit if refusal is None else 0)


def allowed_moves(check: Check) -> tuple[Move, ...]:
    """Return every move with whether it is allowed now and why (the builder's list).

    Returns:
        The roll, a reroll per source, energy after, the bonuses ``soften``, ``triumph``,
        ``technique`` and the sub-roll, in the seed's order. A skill's ``reroll`` bonus is the
        reroll with source ``"skill"``.
    """
    rules, inp = energy_rules(), check.input
    left = max(inp.cap - len(check.rerolls), 0)
    moves = [_move("roll", "", roll_refusal(check), "Бросить d100.")]
    for source, name in REROLL_SOURCES.items():
        does = f"Переброс ({name}) заменит d100; осталось перебросов: {left}."
        moves.append(_move("reroll", source, reroll_refusal(check, source), does))
    limit = min(rules.after_max_dice, check.pool_after // min(rules.sizes))
    does = (
        f"До {dice_of(rules.after_max_dice)} не больше d{inp.nominal}, куб стоит свой номинал; "
        f"в запасе {check.pool_after}."
    )
    moves.append(_move("energy_after", "", energy_after_refusal(check), does, limit))
    for kind, name in AFTER_BONUSES.items():
        moves.append(_move("bonus", kind, bonus_refusal(check, kind), f"Бонус: {name}."))
    moves.append(_move("subroll", "", subroll_refusal(check), "Подбросок d6: сила последствия."))
    return tuple(moves)

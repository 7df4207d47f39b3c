"""Russian text of an open Старатели check: what a character offers, the formula, a rolled
check (its dice, total, Effect and outcome), a task chain, a group check, an opposed roll,
Risk. Pure functions of ``rules.starately`` objects; markup for the screen, plain for the log.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import starately
from rules.errors import RulesError
from tui.present.faces import d6_faces
from tui.present.rolls import percent, plain, signed, term
from tui.store import Character
from tui.words import number

OUTCOME_STYLE = {"success": "$success", "failure": "$error"}
COUNT_OPTIONS = [(str(k), k) for k in range(4)]
IDLE = "Enter — бросить · h — помощник · g — группа · o — встречный\nпосле провала r — Риск"
DICE_LABELS = {-1: "3d6 (−d6)", 0: "2d6", 1: "3d6 (+d6)"}
UNSKILLED = ""  # the skill row's value for «без навыка»


def dice_note(side: Any) -> str:
    """Say how the +d6 and −d6 cancel and how many dice are rolled (never more than 3)."""
    if not side.boons and not side.banes:
        return "2d6"
    net = DICE_LABELS[side.net_dice]
    return f"+d6 ×{side.boons}, −d6 ×{side.banes} → {net}"


# --- what a character offers -------------------------------------------------------------------


def characteristic_options(c: Character) -> list[tuple[str, str]]:
    """Return the characteristics as ``Ловкость 10 (DM +1)``."""
    options = []
    for name, value in c.qualities.items():
        try:
            dm = signed(starately.characteristic_dm(value))
        except RulesError:
            dm = "?"
        options.append((f"{name} {value} (DM {dm})", name))
    return options


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return the skills as ``Стрельба-3``, then «без навыка (−3)»."""
    options = [(f"{s.name}-{s.value}", s.name) for s in c.skills]
    options.append((f"без навыка ({signed(starately.unskilled_penalty())})", UNSKILLED))
    return options


def side_for(c: Character, characteristic: str | None, skill_name: str, **kwargs: Any) -> Any:
    """Build a ``starately.Side`` for ``c`` rolling ``characteristic`` + ``skill_name``.

    Raises:
        RulesError: no such characteristic, or values outside the tables.
    """
    if not characteristic or characteristic not in c.qualities:
        raise RulesError(f"У персонажа «{c.name}» нет характеристики для броска.")
    skill = c.skill(skill_name) if skill_name else None
    return starately.Side.of(
        c.qualities[characteristic],
        skill.value if skill else None,
        name=c.name,
        characteristic=characteristic,
        skill_name=skill.name if skill else "",
        pc=c.kind == "pc",
        **kwargs,
    )


# --- rendering ---------------------------------------------------------------------------------


def bonus_terms(side: Any) -> str:
    """Return what is added to the dice: ``Ловкость +1, Стрельба +3, темнота −2``."""
    parts = [f"{side.characteristic or 'DM'} {signed(side.dm)}"]
    if side.skill is None:
        tried = f" «{side.skill_name}»" if side.skill_name else ""
        parts.append(f"без навыка{tried} {signed(side.unskilled)}")
    else:
        parts.append(f"{side.skill_name or 'навык'} {signed(side.skill)}")
    parts += [f"{m.reason} {signed(m.value)}" for m in side.modifiers]
    return ", ".join(parts)


def auto_note(result: Any) -> str:
    """Explain a natural 12 or 2, saying so when it overruled the total (`` — …`` or empty)."""
    if not result.auto:
        return ""
    reached = result.total >= result.check.difficulty
    if result.success:
        why = "хотя итог ниже сложности" if not reached else "при любом итоге"
        return f" — натуральные 12: успех {why}"
    why = "хотя итог достаточен" if reached else "при любом итоге"
    return f" — натуральные 2: провал {why}"


def result_lines(result: Any, title: str = "") -> list[str]:
    """Return markup lines of one rolled check: dice, total, Effect and outcome."""
    check, side = result.check, result.check.side
    dropped = [d.value for d in result.dice if not d.kept]
    head = plain(title or side.name or "Бросок")
    style = OUTCOME_STYLE[result.outcome]
    lines = [
        f"[b]{head}[/b]: {DICE_LABELS[side.net_dice]} {d6_faces(result.dice)}"
        + (f" [dim]— ({dropped[0]}) не в счёт[/]" if dropped else ""),
        f"Натуральные {result.natural}{term(side.bonus)} = [b]{number(result.total)}[/b] "
        f"против {check.difficulty}+ ({starately.difficulty_name(check.difficulty)})",
        f"Эффект [b]{signed(result.effect)}[/b] — [b {style}]"
        f"{starately.OUTCOME_NAMES[result.outcome]}[/]",
    ]
    if result.auto:
        lines.append(f"[{style}]{auto_note(result).removeprefix(' — ')}[/]")
    return lines


def summary(result: Any) -> str:
    """Return one plain log line of a rolled check."""
    side, check = result.check.side, result.check
    if side.skill is None:
        skill = f"без навыка «{side.skill_name}»" if side.skill_name else "без навыка"
    else:
        skill = f"{side.skill_name}-{side.skill}"
    return (
        f"{skill}, {side.characteristic} (DM {signed(side.dm)}): "
        f"{d6_faces(result.dice, markup=False)} = {result.natural}{term(side.bonus)} → "
        f"{number(result.total)} против {check.difficulty}+: "
        f"{starately.OUTCOME_NAMES[result.outcome]}, Эффект {signed(result.effect)}"
        + auto_note(result)
    )


def effect_rows(check: Any, odds: Any) -> list[tuple[str, Fraction, str]]:
    """Return the Effect distribution as rows coloured by the outcome each Effect gives."""
    table = starately.settings()
    rows = []
    for effect, p in odds.effect.items():
        natural = effect + check.difficulty - check.side.bonus
        if natural == table.natural_success:
            success = True
        elif natural == table.natural_failure:
            success = False
        else:
            success = effect >= 0
        rows.append((signed(effect), p, OUTCOME_STYLE["success" if success else "failure"]))
    return rows


def natural_note(check: Any, odds: Any) -> str:
    """Say what natural 12 and natural 2 do for this check."""
    table = starately.settings()
    bonus, difficulty = check.side.bonus, check.difficulty
    if table.natural_success + bonus < difficulty:
        return f"Успех только на натуральных 12: {percent(odds.natural_success)}"
    if table.natural_failure + bonus >= difficulty:
        return f"Провал только на натуральных 2: {percent(odds.natural_failure)}"
    return (
        f"Нат. 12 → успех, нат. 2 → провал: "
        f"{percent(odds.natural_success)} / {percent(odds.natural_failure)}"
    )


# --- the other procedures ----------------------------------------------------------------------


#: Who wins a tie of a встречный бросок (the campaign's rule), as the subject of «побеждает».
TIE_WINNERS = {"initiator": "инициатор", "player": "персонаж игрока"}


def opposed_lines(result: Any) -> list[str]:
    """Return markup lines of a rolled opposed roll: both sides' dice and totals, the winner."""
    check = result.check
    lines = []
    for key, roll, side in (("a", result.a, check.a), ("b", result.b, check.b)):
        flags = result.to_dict()[key]
        note = ""
        if flags["natural_12"] or flags["natural_2"]:
            nat = 12 if flags["natural_12"] else 2
            decides = starately.settings().naturals_decide
            note = (
                f" [dim]— натуральные {nat}: "
                + ("решают (настройка кампании)" if decides else "отмечено, ничего не решает")
                + "[/]"
            )
        lines.append(
            f"[b]{plain(side.name)}[/b]: {d6_faces(roll.dice)} = {roll.natural}"
            f"{term(side.bonus)} → [b]{number(roll.total)}[/b]{note}"
        )
    winner = check.a if result.winner == "a" else check.b
    if result.tie:
        rule = TIE_WINNERS.get(check.tie_rule, "персонаж игрока")
        how = f"ничья {number(result.a.total)}:{number(result.b.total)} — побеждает {rule}"
    elif result.decided_by == "natural":
        how = "натуральные кубы (настройка кампании)"
    else:
        how = f"перевес {result.margin}"
    lines.append(f"Побеждает [b $success]{plain(winner.name)}[/] ({how})")
    return lines


def opposed_summary(result: Any) -> str:
    """Return one plain log line of an opposed roll."""
    check = result.check
    parts = []
    for roll, side in ((result.a, check.a), (result.b, check.b)):
        skill = "без навыка" if side.skill is None else f"{side.skill_name}-{side.skill}"
        faces = d6_faces(roll.dice, markup=False)
        parts.append(f"{side.name} ({side.characteristic}, {skill}) {faces} → {number(roll.total)}")
    winner = check.a if result.winner == "a" else check.b
    tie = ""
    if result.tie:
        tie = " (ничья: инициатору)" if check.tie_rule == "initiator" else " (ничья: игроку)"
    return f"Встречный бросок: {'; '.join(parts)} — побеждает {winner.name}{tie}"


def chain_lines(result: Any) -> list[str]:
    """A task chain: the helper's roll, the Effect it carries, the main roll."""
    helper = result.helper.check.side
    return [
        *result_lines(result.helper, f"Помощник {helper.name}"),
        f"→ Эффект помощника {signed(result.carried)} идёт в основной бросок",
        *result_lines(result.main),
    ]


def chain_summary(result: Any) -> str:
    helper = result.helper.check.side
    return f"Цепочка: помощник {helper.name}: {summary(result.helper)}; " + summary(result.main)


def group_lines(result: Any) -> list[str]:
    """A group check: each helper's roll and the help it gave, the main roll."""
    helped = ", ".join(
        f"{h.check.side.name} {d6_faces(h.dice)} → {number(h.total)} "
        f"[{OUTCOME_STYLE[h.outcome]}]{starately.OUTCOME_NAMES[h.outcome]}[/]"
        for h in result.helpers
    )
    return [
        f"[b]Помощники[/b]: {helped or 'никто'}; помощь {signed(result.bonus)}",
        *result_lines(result.main),
    ]


def group_summary(result: Any) -> str:
    return (
        "Группа: "
        + "; ".join(f"{h.check.side.name}: {summary(h)}" for h in result.helpers)
        + f" → {signed(result.bonus)}; {summary(result.main)}"
    )


def risk_lines(first: Any, risky: Any) -> list[str]:
    """Risk: its price, the failed roll, the retry."""
    return [
        f"[b]Риск[/b] — цена: {plain(risky.price)}",
        f"[dim]Первый бросок: {d6_faces(first.dice)} → {number(first.total)}, провал[/]",
        *result_lines(risky.retry, "Повторно"),
    ]


def risk_summary(first: Any, risky: Any) -> str:
    return f"Риск (цена: {risky.price}): {summary(first)}; повторно: {summary(risky.retry)}"

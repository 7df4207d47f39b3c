"""Russian text for combat: plans, exchange results, damage."""

from __future__ import annotations

from rules import drevo
from rules.encounter import ACTION_NAMES, Declaration
from tui import words
from tui.present.rolls import fudge_dice, plain, signed


def declaration_text(d: Declaration, names: dict[str, str]) -> str:
    """Return one declaration as the table shows it (plain text: ``plain()`` it for markup)."""
    text = ACTION_NAMES[d.action]
    if d.weapon and d.action in ("melee", "throw", "shoot", "parry", "shield"):
        text += f" ({d.weapon})"
    if d.target:
        text += f" → {names.get(d.target, '?')}, {drevo.DISTANCE_NAMES[d.distance]}"
    if d.turns > 1:
        text += f", {words.turns(d.turns)}"
    if d.note:
        text += f" — {d.note}"
    if d.exception:
        text += " [исключение ведущего]"
    return text


def side_text(side: drevo.PlanSide, tie: str = " ") -> str:
    """Return what one side rolls with: trait, reason, modifiers with reasons.

    ``tie``: what joins the words of one term («Кинжал МУ 0»): the Бой tab ties them with a
    no-break space (:data:`tui.widgets.common.text.TIE`) so a term never splits across lines.
    """
    name = plain(side.fighter.name)
    if not side.rolls:
        return f"[b]{name}[/b]: не бросает — защиты нет"

    def term(*words: str) -> str:
        return tie.join(" ".join(words).split(" "))

    trait = side.trait
    line = (
        f"[b]{name}[/b]: {term(plain(trait.name), signed(trait.value))}"
        if trait
        else f"[b]{name}[/b]"
    )
    if trait and trait.reason:
        line += f" [dim]({plain(trait.reason)})[/dim]"
    weapon = side.action.weapon or drevo.BARE_HANDS
    if side.deals_damage or side.action.kind in ("melee", "parry", "shield"):
        # A dodger's «Без оружия МУ −1» said nothing: МУ is for hitting, and for comparing
        # blades in melee.
        line += ", " + term(plain(weapon.name), "МУ", signed(weapon.damage_mod))
    for m in side.modifiers:
        line += ", " + term(plain(m.reason), signed(m.value))
    if side.difficulty is not None:
        line += " " + term("против", signed(side.difficulty))
    return line


KIND_NAMES = {
    "opposed": "Встречная проверка",
    "one_sided": "Односторонняя проверка (цель беззащитна)",
    "two_one_sided": "Две односторонние проверки (перестрелка на дистанции)",
}


def plan_lines(plan: drevo.ExchangePlan, tie: str = " ") -> list[str]:
    """Return the lines describing a planned exchange before the roll (``tie``: see
    :func:`side_text`)."""
    lines = [f"[b]{KIND_NAMES[plan.kind]}[/b], {drevo.DISTANCE_NAMES[plan.distance]}"]
    lines.append(side_text(plan.attacker, tie))
    lines.append(side_text(plan.defender, tie))
    lines += [f"[dim]{plain(note)}[/dim]" for note in plan.notes]
    return lines


def _roll_text(
    dice: tuple[int, ...], fate_auto: bool, total: int, shifts: list[tuple[int, str]]
) -> str:
    """Dice → total, with Судьба before («+4 без броска») or after («+1 Судьбой») named."""
    shown = "Судьба: +4 без броска" if fate_auto else fudge_dice(dice, markup=True)
    moved = sum(points for points, _ in shifts)
    if not moved:
        return f"{shown} → [b]{signed(total)}[/b]"
    parts = ", ".join(
        f"{signed(points)} Судьбой" + (f" ({plain(who)})" if who else "") for points, who in shifts
    )
    return f"{shown} → {signed(total - moved)}, {parts} = [b]{signed(total)}[/b]"


def _crit_text(crit: int, raw_crit: int) -> str:
    """« — критический успех» for an opposed side's crit, or that the other side's equal
    crit cancelled it («аннулируется критическим успехом противника»)."""
    if crit > 0:
        return " — критический успех"
    if crit < 0:
        return " — критический провал"
    if raw_crit:
        name = "критический успех" if raw_crit > 0 else "критический провал"
        return f" — {name} аннулирован таким же у противника"
    return ""


def damage_text(hit: drevo.Hit) -> str:
    """Every term of a hit with its source: difference, one-sided bonus, crit floor, МУ."""
    text = f"разница {signed(hit.difference)}"
    if hit.bonus:
        text += f", {signed(hit.bonus)} (односторонняя, настройка кампании)"
    if hit.floor is not None:
        text += f" → {hit.floor} (критический успех: не меньше {hit.floor}, настройка кампании)"
    weapon = f" ({plain(hit.weapon)})" if hit.weapon else ""
    text += f", МУ{weapon} {signed(hit.damage_mod)} = {words.number(hit.value)}"
    return f"{text} → {drevo.level_name(hit.level)}"


def result_lines(
    result: drevo.ExchangeResult, shifts: dict[str, list[tuple[int, str]]] | None = None
) -> list[str]:
    """Return the lines describing a rolled exchange: dice, totals, winner, damage.

    ``shifts``: per role, the Судьба points moved after the roll and who spent them.
    """
    plan = result.plan
    shifts = shifts or {}
    lines: list[str] = []
    if result.opposed is not None:
        for side, roll in ((plan.attacker, result.opposed.a), (plan.defender, result.opposed.b)):
            moved = shifts.get(side.role) or ([(roll.fate_shift, "")] if roll.fate_shift else [])
            text = _roll_text(roll.dice, roll.fate_auto, roll.total, moved)
            text += _crit_text(roll.crit, roll.raw_crit)
            lines.append(f"{plain(side.fighter.name)}: {text}")
    else:
        rolling = [s for s in (plan.attacker, plan.defender) if s.rolls]
        for side, res in zip(rolling, result.one_sided, strict=False):
            moved = shifts.get(side.role) or ([(res.fate_shift, "")] if res.fate_shift else [])
            text = _roll_text(res.dice, res.fate_auto, res.total, moved)
            lines.append(
                f"{plain(side.fighter.name)}: {text} против "
                f"{signed(res.check.difficulty)}: {drevo.OUTCOME_NAMES[res.outcome]}"
            )
    outcome = drevo.EXCHANGE_OUTCOME_NAMES[result.outcome]
    if result.winner and result.plan.kind == "opposed":
        outcome += f" — {plain(plan.side(result.winner).fighter.name)}"
    style = "$warning" if result.tie else "$success"
    lines.append(f"[b {style}]{outcome}[/]")
    if result.tie:
        lines.append("Ничья — никто не пострадал.")
    for hit in result.hits:
        target = plain(plan.side(hit.target).fighter.name)
        lines.append(f"Урон — {target}: {damage_text(hit)}")
    if not result.hits and not result.tie:
        lines.append("Урона нет.")
    return lines

"""Russian text for combat: plans, exchange results, damage."""

from __future__ import annotations

from rules import drevo
from rules.encounter import ACTION_NAMES, Declaration
from tui.render import fudge_dice, plain, signed


def declaration_text(d: Declaration, names: dict[str, str]) -> str:
    """Return one declaration as the table shows it (plain text: ``plain()`` it for markup)."""
    text = ACTION_NAMES[d.action]
    if d.weapon and d.action in ("melee", "throw", "shoot", "parry", "shield"):
        text += f" ({d.weapon})"
    if d.target:
        text += f" → {names.get(d.target, '?')}, {drevo.DISTANCE_NAMES[d.distance]}"
    if d.turns > 1:
        text += f", {d.turns} хода"
    if d.note:
        text += f" — {d.note}"
    return text


def side_text(side: drevo.PlanSide) -> str:
    """Return what one side rolls with: trait, reason, modifiers with reasons."""
    name = plain(side.fighter.name)
    if not side.rolls:
        return f"[b]{name}[/b]: не бросает (беззащитен)"
    trait = side.trait
    line = (
        f"[b]{name}[/b]: {plain(trait.name)} {signed(trait.value)}" if trait else f"[b]{name}[/b]"
    )
    if trait and trait.reason:
        line += f" [dim]({plain(trait.reason)})[/dim]"
    weapon = side.action.weapon or drevo.BARE_HANDS
    line += f", {plain(weapon.name)} МУ {signed(weapon.damage_mod)}"
    for m in side.modifiers:
        line += f", {plain(m.reason)} {signed(m.value)}"
    if side.difficulty is not None:
        line += f" против {signed(side.difficulty)}"
    return line


KIND_NAMES = {
    "opposed": "Встречная проверка",
    "one_sided": "Односторонняя проверка (цель беззащитна)",
    "two_one_sided": "Две односторонние проверки (перестрелка на дистанции)",
}


def plan_lines(plan: drevo.ExchangePlan) -> list[str]:
    """Return the lines describing a planned exchange before the roll."""
    lines = [f"[b]{KIND_NAMES[plan.kind]}[/b], {drevo.DISTANCE_NAMES[plan.distance]}"]
    lines.append(side_text(plan.attacker))
    lines.append(side_text(plan.defender))
    lines += [f"[dim]{plain(note)}[/dim]" for note in plan.notes]
    return lines


def result_lines(result: drevo.ExchangeResult) -> list[str]:
    """Return the lines describing a rolled exchange: dice, totals, winner, damage."""
    plan = result.plan
    lines: list[str] = []
    if result.opposed is not None:
        for side, roll in ((plan.attacker, result.opposed.a), (plan.defender, result.opposed.b)):
            dice = "Судьба: +4" if roll.dice is None else fudge_dice(roll.dice, markup=True)
            lines.append(f"{plain(side.fighter.name)}: {dice} → [b]{signed(roll.total)}[/b]")
    else:
        rolling = [s for s in (plan.attacker, plan.defender) if s.rolls]
        for side, res in zip(rolling, result.one_sided, strict=False):
            dice = "Судьба" if res.dice is None else fudge_dice(res.dice, markup=True)
            lines.append(
                f"{plain(side.fighter.name)}: {dice} → [b]{signed(res.total)}[/b] против "
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
        lines.append(
            f"{target} получает [b]{drevo.level_name(hit.level)}[/b] "
            f"(разница {signed(hit.margin)} + МУ {signed(hit.damage_mod)} = {hit.value})"
        )
    if not result.hits and not result.tie:
        lines.append("Урона нет.")
    return lines

"""Russian text of an open Мир Тьмы check: what a character offers, the pool, a rolled pool.
Pure functions of ``rules.wod`` objects; markup for the screen, plain for the log line.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import wod
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.present.faces import d10_faces
from tui.present.rolls import plain, signed
from tui.store import Character
from tui.systems.wod.sheet import dots

OUTCOME_STYLE = {
    "exceptional_success": "$success",
    "success": "$success",
    "failure": "$error",
    "dramatic_failure": "$error",
}
AGAIN_OPTIONS = [("10-снова", 10), ("9-снова", 9), ("8-снова", 8), ("нет", None)]
ROTE_OPTIONS = [("нет", False), ("да — провалы перебрасываются", True)]
NO_SKILL = ""  # the skill row's value for «без навыка»
CHANCE_RULE = "Успех только на 10 (переброс); первая 1 — полный провал"
IDLE = "Enter — бросить запас · c — состязание · e — продолжительное."


def attribute_options(c: Character) -> list[tuple[str, str]]:
    """Return the attributes as ``Интеллект ●●●○○``."""
    return [(f"{name} {dots(value)}", name) for name, value in c.qualities.items()]


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return the skills as ``Расследование ●●●○○``, then «без навыка»."""
    options = [(f"{s.name} {dots(s.value)}", s.name) for s in c.skills]
    options.append(("без навыка (0)", NO_SKILL))
    return options


def pool_line(pool: Any) -> str:
    """Describe the pool: size, terms and options, or the chance die."""
    terms = f"{pool.attribute} + {pool.skill}"
    if pool.modifiers:
        terms += f" {'+' if pool.modifier_total >= 0 else '−'} {abs(pool.modifier_total)}"
    if pool.chance:
        return f"Запас {terms} = [b $error]{signed(pool.size)}[/] → [b]бросок на удачу[/], 1 куб"
    again = "без взрывов" if pool.again is None else f"{pool.again}-снова"
    rote = ", рутина" if pool.rote else ""
    return f"Запас {terms} = [b]{pool.size}d10[/] · {again}{rote}"


def result_lines(result: Any) -> list[str]:
    """Return markup lines of a rolled pool: each die, the successes, the outcome."""
    pool = result.pool
    style = OUTCOME_STYLE[result.outcome]
    head = "на удачу" if result.chance else f"{pool.size}d10"
    marks = []
    if any(d.exploded for d in result.dice):
        marks.append("! — взрыв, → добавленный куб")
    if any(d.rerolled for d in result.dice):
        marks.append("(x)↻ — переброс рутины")
    lines = [f"[b]{plain(pool.name or 'Бросок')}[/b], {head}: {d10_faces(result.dice)}"]
    if marks:
        lines.append(f"[dim]{'; '.join(marks)}[/]")
    lines.append(
        f"Успехов: [b]{result.successes}[/b] — [b {style}]{wod.OUTCOME_NAMES[result.outcome]}[/]"
    )
    if result.outcome == "dramatic_failure":
        lines.append(f"[{style}]1 на броске на удачу: что пошло не так, решает Рассказчик[/]")
    return lines


def summary(result: Any) -> str:
    """Return one plain log line of a rolled pool."""
    pool = result.pool
    what = f"{pool.attribute_name} + {pool.skill_name or 'без навыка'}"
    head = f"на удачу (запас {signed(pool.size)})" if result.chance else f"{pool.size}d10"
    return (
        f"{what}, {head}: {d10_faces(result.dice, markup=False)} → успехов "
        f"{result.successes}: {wod.OUTCOME_NAMES[result.outcome]}"
    )


def success_rows(odds: Any) -> list[tuple[str, Fraction, str]]:
    """Return the success counts as rows 0 … E−1 and «E+» (E: the campaign's exceptional)."""
    rows = [(str(k), p, "$error" if k == 0 else "$success") for k, p in odds.low.items()]
    rows.append((f"{len(odds.low)}+", odds.outcomes["exceptional_success"], "$success"))
    return rows


def pool_for(c: Character, attribute: str | None, skill_name: str, mods: str = "") -> Any:
    """Build ``c``'s pool of ``attribute`` + ``skill_name`` with typed modifiers.

    Raises:
        RulesError: no attribute, or modifiers that do not parse.
    """
    if not attribute or attribute not in c.qualities:
        raise RulesError(f"У персонажа «{c.name}» нет атрибутов для броска.")
    skill = c.skill(skill_name) if skill_name else None
    typed = parse_modifiers(mods)
    return wod.Pool(
        c.qualities[attribute],
        skill.value if skill else 0,
        tuple(wod.Modifier(m.value, m.reason) for m in typed),
        name=c.name,
        attribute_name=attribute,
        skill_name=skill.name if skill else "",
    )

"""Exchanges in the Бой tab for IDE4, Старатели and Мир Тьмы: that system's opposed check.

Rounds, sides and the declaration order are the same as for Древо; each exchange is one
opposed check of the campaign's system, and damage is left to the GM (the seeds of these
systems give no damage rules kubik could apply).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules.errors import RulesError
from tui.sanitize import plain
from tui.store import Character

NO_SKILL = ""
SYSTEM_NOTES = {
    "ide4": "Противоборство IDE4: обе стороны проходят проверку [3]; выше исход — победа, "
    "при равном исходе — ниже итоговая сложность, иначе решает ведущий.",
    "starately": "Встречная проверка 2d6: выше итог — победа; ничья — за инициатором (нападающим).",
    "wod": "Встречный бросок запасов: больше успехов — победа (правило кампании); "
    "равенство — ничья.",
}


@dataclass(frozen=True)
class OtherResult:
    """One resolved exchange: the text lines, who won (a name, or None) and the data."""

    lines: list[str]
    winner: str | None
    data: dict[str, Any] = field(default_factory=dict)


def stat_options(c: Character) -> list[tuple[str, str]]:
    """Return the character's attributes/characteristics as stepper options."""
    return [(f"{name} {value}", name) for name, value in c.qualities.items()]


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return the character's skills, then «без навыка»."""
    return [(f"{s.name} {s.value}", s.name) for s in c.skills] + [("без навыка", NO_SKILL)]


def _skill_value(c: Character, skill: str) -> int | None:
    found = c.skill(skill) if skill else None
    return found.value if found else None


def opposed(
    system: str,
    a: tuple[Character, str, str],
    b: tuple[Character, str, str],
    rng: random.Random,
) -> OtherResult:
    """Roll the system's opposed check; ``a`` attacks (the initiator), ``b`` answers.

    Args:
        system: ``ide4``, ``starately`` or ``wod``.
        a, b: (character, attribute name, skill name or "").
        rng: the session's random source.
    """
    if system == "starately":
        return _starately(a, b, rng)
    if system == "wod":
        return _wod(a, b, rng)
    if system == "ide4":
        return _ide4(a, b, rng)
    raise RulesError(f"Для системы «{system}» встречная проверка в бою не задана.")


def _starately(
    a: tuple[Character, str, str], b: tuple[Character, str, str], rng: random.Random
) -> OtherResult:
    from rules import starately as s

    def side(spec: tuple[Character, str, str]) -> Any:
        c, stat, skill = spec
        return s.Side.of(
            c.qualities.get(stat, 7),
            _skill_value(c, skill),
            name=c.name,
            characteristic=stat,
            skill_name=skill,
            pc=c.kind == "pc",
        )

    result = s.roll_opposed(s.Opposed(side(a), side(b), initiator="a"), rng)
    lines = [
        f"{plain(spec[0].name)}: {' '.join(str(d.value) for d in roll.dice)} → [b]{roll.total}[/b]"
        for spec, roll in ((a, result.a), (b, result.b))
    ]
    winner = a[0].name if result.winner == "a" else b[0].name
    lines.append(
        f"[b $success]Победа: {plain(winner)}[/]"
        + (" (ничья — за инициатором)" if result.tie else f", разница {result.margin}")
    )
    return OtherResult(
        lines,
        winner,
        result.to_dict(),  # system, winner, tie, margin, and each side's dice (the ledger)
    )


def _wod(
    a: tuple[Character, str, str], b: tuple[Character, str, str], rng: random.Random
) -> OtherResult:
    from rules import wod

    rolls = []
    for c, stat, skill in (a, b):
        pool = wod.Pool(
            c.qualities.get(stat, 1),
            _skill_value(c, skill) or 0,
            name=c.name,
            attribute_name=stat,
            skill_name=skill,
        )
        rolls.append((c, wod.roll_pool(pool, rng)))
    lines = [
        f"{plain(c.name)}: {' '.join(str(d.value) for d in r.dice)} → успехов [b]{r.successes}[/b]"
        for c, r in rolls
    ]
    (ca, ra), (cb, rb) = rolls
    winner = None if ra.successes == rb.successes else (ca if ra.successes > rb.successes else cb)
    lines.append(
        f"[b $success]Победа: {plain(winner.name)}[/]" if winner else "[b $warning]Ничья[/]"
    )
    return OtherResult(
        lines,
        winner.name if winner else None,
        {
            "system": "wod",
            "successes": [ra.successes, rb.successes],
            "rolls": [ra.to_dict(), rb.to_dict()],  # each pool's inputs (the luck ledger)
        },
    )


def _ide4(
    a: tuple[Character, str, str], b: tuple[Character, str, str], rng: random.Random
) -> OtherResult:
    from rules import ide4

    checks = []
    for c, stat, skill in (a, b):
        inp = ide4.CheckInput(
            actor=c.name,
            attribute=stat,
            attribute_level=c.qualities.get(stat, 3),
            skill=skill,
            mastery=_skill_value(c, skill) or 0,
            base=3,
            energy_pool=int(c.extra.get("energy", 100)),
            level="quick",
        )
        checks.append(ide4.roll(ide4.start(inp), rng))
    result = ide4.opposed(checks[0], checks[1])
    lines = [
        f"{plain(spec[0].name)}: d100 {check.natural} → [b]{check.outcome_name}[/b]"
        for spec, check in zip((a, b), checks, strict=True)
    ]
    names = {"a": a[0].name, "b": b[0].name}
    winner = names.get(result.winner or "")
    lines.append(
        f"[b $success]Победа: {plain(winner)}[/]"
        if winner
        else "[b $warning]Равенство — решает ведущий[/]"
    )
    return OtherResult(lines, winner, result.to_dict())

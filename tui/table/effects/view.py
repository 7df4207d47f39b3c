"""What the screens show of the effects, derived from the effects, the fight's round and the
party (never kept): each effect's line, a sheet's «Эффекты:», the choices of «снять»."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.effects import Effect, EffectSet
from tui import words
from tui.bridge.effects import left_text
from tui.table.effects.steps import whom


@dataclass(frozen=True)
class EffectLine:
    """One effect as shown: «Оглушён −1 (Гриша) — ещё 2 раунда · каждые …: … · скрыт».

    Attributes:
        id: the effect's id; label: its name and modifier; whom: its target's name or
        «сцена»; left: what is left of it; repeat: «каждые 3 мин: патруль» or ``""``;
        hidden: the players do not see it.
    """

    id: str
    label: str
    whom: str
    left: str
    repeat: str
    hidden: bool


def repeat_text(e: Effect) -> str:
    """«каждые 3 раунда: проверка» (``""`` without a repeat)."""
    if not e.repeat_every:
        return ""
    n = e.repeat_every
    every = words.rounds(n) if e.repeat_unit == "round" else f"{n} мин"
    return f"каждые {every}: {e.repeat_text or e.name}"


def effect_line(
    e: Effect, effects: EffectSet, round_now: int, names: Mapping[str, str]
) -> EffectLine:
    """Derive one effect's line at round ``round_now`` (0 outside a fight)."""
    return EffectLine(
        e.id,
        e.label,
        whom(e.target, names),
        left_text(e, round_now, effects.minute, dict(names)),
        repeat_text(e),
        e.hidden,
    )


def effect_lines(
    effects: EffectSet, round_now: int, names: Mapping[str, str]
) -> tuple[EffectLine, ...]:
    """Every effect's line, in the order they were added."""
    return tuple(effect_line(e, effects, round_now, names) for e in effects.effects)


def choice_label(line: EffectLine) -> str:
    """An effect in a list to pick from: «Оглушён −1 (Гриша) — скрыт»."""
    return f"{line.label} ({line.whom})" + (" — скрыт" if line.hidden else "")


def sheet_effects(
    effects: EffectSet, round_now: int, names: Mapping[str, str], character_id: str
) -> str:
    """A character's effects and the scene's, for the sheet: «Оглушён −1 (ещё 2 раунда),
    Темнота −2 (сцена, пока не снимут)» (``""`` for none)."""
    parts = []
    for e in effects.effects:
        if e.target not in (character_id, ""):
            continue
        where = "сцена, " if not e.target else ""
        parts.append(f"{e.label} ({where}{left_text(e, round_now, effects.minute, dict(names))})")
    return ", ".join(parts)

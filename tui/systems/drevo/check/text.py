"""Pieces of the Древо builder: its actions, what a character offers for them (traits, the
weapon that suits the action), and the text of the formula line and of a rolled check.
The builder (``tui.systems.drevo.builder.builder``) draws them from the table engine's view.

Markup uses theme variables only; every reason or name a GM typed passes through ``plain``.
"""

from __future__ import annotations

from rules import drevo
from tui.present.rolls import plain, signed
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.check.lines import one_sided_lines

CHECK_ACTIONS = (
    ("Любая проверка", "other"),
    ("Ближний бой", "melee"),
    ("Метание", "throw"),
    ("Стрельба", "shoot"),
    ("Защита щитом", "shield"),
    ("Уклонение", "dodge"),
)
WEAPON_KIND = {"melee": "melee", "throw": "thrown", "shoot": ("bow", "firearm"), "shield": "shield"}
WOUND_REASON = {-1: "Лёгкая рана", -2: "Ранение"}
IDLE = "Enter — бросить 4dF."


# --- what a character offers -------------------------------------------------------------------


def trait_options(c: Character) -> list[tuple[str, str]]:
    """Return the character's traits as stepper options: skills first, then qualities."""
    options = [
        (
            f"{s.name} {signed(s.value)} — навык" + (f" ({s.parent})" if s.parent else ""),
            s.name,
        )
        for s in c.skills
    ]
    options += [(f"{name} {signed(v)} — качество", name) for name, v in c.qualities.items()]
    return options


def weapon_for(c: Character, action: str) -> drevo.Weapon | None:
    """Return the character's first weapon that suits the action (None: bare hands/none)."""
    kinds = WEAPON_KIND.get(action)
    if kinds is None:
        return None
    for name in bridge.weapon_names(c):
        w = bridge.weapon_of(name)
        if w.kind == kinds or w.kind in kinds:
            return w
    return drevo.BARE_HANDS if action == "melee" else None


# --- the text of a check -----------------------------------------------------------------------


def formula_lines(
    check: drevo.OneSidedCheck,
    reason: str,
    *,
    can_act: bool,
    note: str | None,
    rolled: bool = False,
) -> list[str]:
    """Describe the built check: why this trait, the roll against the difficulty with every
    modifier, a wound that forbids acting, Судьба before the roll, the active effects' note;
    what Enter does — once ``rolled``, that «n» starts the next check (it is not rolled
    again)."""
    side = check.side
    base = side.trait + side.modifier_total
    lines = []
    if reason:
        lines.append(f"[dim]Черта: {plain(reason)}[/dim]")
    mods = plain(", ".join(f"{m.reason} {signed(m.value)}" for m in side.modifiers))
    lines.append(
        f"Бросок: 4dF {signed(base)} против {signed(check.difficulty)} "
        f"({drevo.difficulty_name(check.difficulty)})"
        + (f"; {mods}" if mods else "")
        + (" · n — новая проверка" if rolled else " · Enter — бросить")
    )
    if not can_act:
        lines.append("[$error]Тяжело ранен: персонаж не может действовать.[/]")
    if check.fate_auto:
        lines.append("[$accent]Судьба: автоматический критический успех, кубики не бросаются.[/]")
    if note:
        lines.append(note)
    return lines


def result_lines(result: drevo.OneSidedResult) -> list[str]:
    """Describe the rolled check: every die, the total, the outcome, the margin, Судьба's shift."""
    lines = one_sided_lines(result)
    if result.fate_shift:
        lines.append(f"Судьба: {signed(result.fate_shift)} к результату")
    return lines

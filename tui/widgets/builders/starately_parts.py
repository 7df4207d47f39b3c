"""Pieces of the Старатели builder: its rows, what a character offers, the text of a rolled
check, and the frame of its pop-ups. ``starately`` holds the builder itself; each procedure has
its module (``starately_risk``, ``starately_chain``, ``starately_group``, ``starately_opposed``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from textual.content import Content

from rules import starately
from rules.errors import RulesError
from tui.present.rolls import percent, plain, signed, term
from tui.store import Character
from tui.widgets.builders.dicefaces import d6_faces
from tui.widgets.common.stepper import Stepper
from tui.words import number

OUTCOME_STYLE = {"success": "$success", "failure": "$error"}
COUNT_OPTIONS = [(str(k), k) for k in range(4)]
IDLE = "Enter — бросить · h — помощник · g — группа · o — встречный\nпосле провала r — Риск"
DICE_LABELS = {-1: "3d6 (−d6)", 0: "2d6", 1: "3d6 (+d6)"}
UNSKILLED = ""  # the skill row's value for «без навыка»


class Row(Stepper):
    """A stepper whose label column fits «Характеристика» (or ``label_width``)."""

    label_width = 15

    def render(self) -> Content:
        """Draw ``Label  ◀ value ▶`` with a wider label column (plain text, as Stepper)."""
        shown = self._options[self.index][0] if self._options else "—"
        return Content(f"{self.label:<{self.label_width}}◀ {shown} ▶")


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


# --- modal screens -----------------------------------------------------------------------------

MODAL_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; max-width: 100%; height: auto; max-height: 100%;
    border: round $warning; background: $surface; padding: 0 1;
}}
{name} Input {{ margin: 1 0 0 0; }}
{name} Horizontal {{ height: auto; margin: 1 0 0 0; }}
{name} Button {{ margin: 0 1 0 0; }}
"""

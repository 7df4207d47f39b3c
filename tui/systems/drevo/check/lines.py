"""The words of a rolled Древо check: a one-sided check's lines (the builder, ``kubik
check drevo``) and the one-line summaries the Журнал and ``kubik check`` write.

Only Древо's: its outcome names and its ladder of difficulty (``rules.drevo``); the shared
pieces (4dF faces, a signed number, the outcome colours) are :mod:`tui.present.rolls`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.present.rolls import OUTCOME_STYLE, fudge_dice, plain, signed

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules.drevo import OneSidedResult, OpposedResult


def one_sided_lines(result: OneSidedResult, *, markup: bool = True) -> list[str]:
    """Return the lines describing a rolled one-sided Древо check (markup or plain text)."""
    from rules.drevo import OUTCOME_NAMES, difficulty_name

    check = result.check
    side = check.side
    text = plain if markup else str
    mods = text("".join(f", {m.reason} {signed(m.value)}" for m in side.modifiers))
    style = OUTCOME_STYLE[result.outcome]

    def bold(text: str) -> str:
        return f"[b]{text}[/b]" if markup else text

    crit = ""
    if result.outcome == "crit_success" and result.fate_auto:  # no dice: Судьба made it
        crit = " — Судьба: критический успех при любой сложности"
    elif result.outcome == "crit_success":
        crit = " — на кубиках +4, критический успех при любой сложности"
    elif result.outcome == "crit_failure":
        crit = " — на кубиках −4, критический провал при любой сложности"
    fate = f", Судьба {signed(result.fate_shift)}" if result.fate_shift else ""  # after the roll
    return [
        (
            "Кубики не бросались: Судьба, считаются +4"
            if result.fate_auto
            else f"Кубики 4dF: {fudge_dice(result.dice, markup=markup)} = {signed(result.dice_sum)}"
        ),
        f"Итого: кубики {signed(result.dice_sum)}, {text(side.trait_name or 'черта')} "
        f"{signed(side.trait)}{mods}{fate} → {bold(signed(result.total))}",
        f"Сложность: {signed(check.difficulty)} ({difficulty_name(check.difficulty)}), "
        f"запас {signed(result.margin)}",
        f"[b {style}]{OUTCOME_NAMES[result.outcome]}[/]{crit}"
        if markup
        else f"{OUTCOME_NAMES[result.outcome]}{crit}",
    ]


def one_sided_summary(result: OneSidedResult) -> str:
    """Return the one-line log text of a one-sided Древо check."""
    from rules.drevo import OUTCOME_NAMES

    side = result.check.side
    dice = "Судьба +4" if result.fate_auto else fudge_dice(result.dice)
    return (
        f"{side.trait_name or 'черта'} {signed(side.trait)}, {dice} → "
        f"{signed(result.total)} против {signed(result.check.difficulty)}: "
        f"{OUTCOME_NAMES[result.outcome]} (запас {signed(result.margin)})"
    )


def opposed_summary(result: OpposedResult) -> str:
    """Return the one-line text of an opposed Древо check, from the first side's view."""
    from rules.drevo import OPPOSED_NAMES

    a, b = result.check.a, result.check.b
    return (
        f"{a.name or 'A'} {fudge_dice(result.a.dice)} → {signed(result.a.total)} против "
        f"{b.name or 'Б'} {fudge_dice(result.b.dice)} → {signed(result.b.total)}: "
        f"{OPPOSED_NAMES[result.outcome]} (разница {result.margin})"
    )

"""Renderers: turn rules results into Russian text for the screen, the log and the CLI.

The rules never format anything; every wording lives here (d20's stringifier habit).
Markup uses Textual's theme variables ($success, $error …) so themes own the colours.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules.dice import RollResult
    from rules.drevo import OneSidedResult, OpposedResult

FUDGE_FACE = {1: "+", 0: "0", -1: "−"}


def plain(text: str) -> str:
    """Return text the GM typed (a name, a note, a modifier's reason) ready for markup.

    Every «[» becomes literal, so «+1 [/b]» or «[$error]» is shown as typed instead of being
    read as a tag (an unmatched closing tag stopped the app).
    """
    text = text.replace("[", "\\[")  # Textual drops one backslash before a «[»
    # A backslash at the end would make the «[» of a tag that follows literal: a zero-width
    # space keeps the two apart.
    return text + "\u200b" if text.endswith("\\") else text


OUTCOME_STYLE = {
    "crit_success": "$success",
    "success": "$success",
    "failure": "$error",
    "crit_failure": "$error",
    "win": "$success",
    "tie": "$warning",
    "lose": "$error",
    "attacker_wins": "$success",
    "defender_wins": "$error",
    "hit": "$success",
    "miss": "$error",
    "attacker_hits": "$success",
    "both_hit": "$warning",
    "neither": "$warning",
    "defender_hits": "$error",
}


def signed(value: int) -> str:
    """Return ``value`` with an explicit sign, using the typographic minus."""
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def term(value: int) -> str:
    """Return `` +2`` / `` −1`` to follow a sum, or nothing for 0 (``= 8 0 → 8`` read as a
    number in the sum)."""
    return f" {signed(value)}" if value else ""


def percent(p: Fraction | float) -> str:
    """Return a probability as a short Russian percentage (comma decimal)."""
    value = float(p) * 100
    if 0 < value < 0.1:
        text = "<0,1"
    elif value > 99.9 and value < 100:
        text = ">99,9"
    else:
        text = f"{value:.1f}".replace(".", ",")
    return f"{text}%"


def fudge_dice(dice: tuple[int, ...], *, markup: bool = False) -> str:
    """Return 4dF dice as ``[+][0][−][+]`` (brackets escaped for Textual markup)."""
    open_ = "\\[" if markup else "["
    return "".join(f"{open_}{FUDGE_FACE[d]}]" for d in dice)


def bar(p: Fraction | float, width: int) -> str:
    """Return a horizontal bar of eighth-blocks for probability ``p``."""
    eighths = round(float(p) * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + ("" if rest == 0 else " ▏▎▍▌▋▊▉"[rest])


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
    if result.outcome == "crit_success":
        crit = " — на кубиках +4, критический успех при любой сложности"
    elif result.outcome == "crit_failure":
        crit = " — на кубиках −4, критический провал при любой сложности"
    return [
        (
            "Кубики не бросались: Судьба, считаются +4"
            if result.fate_auto
            else f"Кубики 4dF: {fudge_dice(result.dice, markup=markup)} = {signed(result.dice_sum)}"
        ),
        f"Итого: кубики {signed(result.dice_sum)}, {text(side.trait_name or 'черта')} "
        f"{signed(side.trait)}{mods} → {bold(signed(result.total))}",
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


def die_text(rolls: tuple[int, ...], kept: bool, fudge: bool) -> str:
    """Return one die of a quick roll: ``6→4`` for an explosion chain, ``~3~`` for a dropped die."""
    faces = [FUDGE_FACE[r] if fudge else str(r) for r in rolls]
    text = "→".join(faces)
    return text if kept else f"({text})"


def roll_summary(result: RollResult) -> str:
    """Return a quick roll as one line: expression, each die, total and the target check."""
    from rules.dice import ConstTerm

    parts: list[str] = []
    for part in result.parts:
        if isinstance(part, ConstTerm):
            parts.append(f"{'−' if part.sign < 0 else '+'} {part.value}")
            continue
        fudge = part.term.faces is None
        dice = " ".join(die_text(d.rolls, d.kept, fudge) for d in part.dice)
        parts.append(f"{'−' if part.term.sign < 0 else '+'} {part.term}[{dice}]")
    body = " ".join(parts).removeprefix("+ ")
    line = f"{result.expression}: {body} = {result.total}"
    if result.success is not None:
        verdict = "успех" if result.success else "провал"
        line += f" (против {result.expression.target}: {verdict})"
    return line

"""Dice faces as text: a 2d6 / 3d6 check's dice and a d10 pool's, with markup for the screen
or plain for the log line.

Each die is shown with its fate: a d6 a boon or bane dropped is struck through in parentheses;
a d10 pool die shows success, explosion (``!``, the dice it added follow ``→``) and a rote
reroll (the replaced die struck, ``↻`` before the new one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules import starately, wod


def d6_faces(dice: Sequence[starately.Die], *, markup: bool = True) -> str:
    """Return 2d6 / 3d6 dice as ``[5] [3] (1)``: a dropped die is struck and in parentheses."""
    parts = []
    for die in dice:
        if die.kept:
            parts.append(f"[b]\\[{die.value}][/b]" if markup else f"[{die.value}]")
        else:
            parts.append(f"[dim strike]({die.value})[/]" if markup else f"({die.value})")
    return " ".join(parts)


def d10_groups(dice: Sequence[wod.Die]) -> list[list[wod.Die]]:
    """Group pool dice by the pool die they came from (its rote reroll and explosions follow)."""
    groups: list[list[wod.Die]] = []
    for die in dice:
        if die.rerolled or die.added:
            if groups:
                groups[-1].append(die)
                continue
        groups.append([die])
    return groups


def _d10(die: wod.Die, markup: bool) -> str:
    text = f"{die.value}{'!' if die.exploded else ''}"
    if not die.kept:
        return f"[dim strike]({text})[/]" if markup else f"({text})"
    if markup:
        text = f"[b $success]{text}[/]" if die.success else f"[$text-muted]{text}[/]"
    return f"↻{text}" if die.rerolled else text


def d10_faces(dice: Sequence[wod.Die], *, markup: bool = True) -> str:
    """Return pool dice as ``9 10!→8 (3)↻7 2``: successes bold, explosions chained with ``→``."""
    shown = []
    for group in d10_groups(dice):
        text = ""
        for die in group:
            face = _d10(die, markup)
            text += f"→{face}" if die.added else face
        shown.append(text)
    return " ".join(shown)

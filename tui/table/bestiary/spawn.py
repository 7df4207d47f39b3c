"""NPCs made from a template: their numbered names and the variation the campaign allows.

Pure: a template, the names the party has, a roller and the variation table
(``data/bestiary/variation.toml``, the campaign's own if it replaced it) in; characters out.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from tui.store import Character
from tui.store.bestiary import Template

#: The variation table and the mode that adds every NPC alike.
VARIATION_TABLE = "bestiary/variation.toml"
NONE, SPREAD = "none", "spread"
MODES = (NONE, SPREAD)


def numbered(base: str, count: int, names: Iterable[str]) -> list[str]:
    """The names of ``count`` NPCs of ``base``: «Разбойник 1» … «Разбойник 5».

    One NPC whose name is free keeps the template's name («Атаман»). Numbers go on after the
    highest the party has («Разбойник 6» when five are there), so a second group never takes
    a name the first one has.
    """
    taken = {n.casefold() for n in names}
    if count == 1 and base.casefold() not in taken:
        return [base]
    pattern = re.compile(re.escape(base.casefold()) + r" ([0-9]{1,4})")  # kubik's numbers
    used = [int(m.group(1)) for n in taken if (m := pattern.fullmatch(n))]
    start = max([*used, 1 if base.casefold() in taken else 0]) + 1
    found: list[str] = []
    number = start
    while len(found) < count:
        name = f"{base} {number}"
        if name.casefold() not in taken:
            found.append(name)
        number += 1
    return found


def mode_of(table: Mapping[str, Any]) -> str:
    """The table's mode («none» or «spread»; anything else reads as «none»)."""
    mode = table.get("variation", {}).get("mode", NONE)
    return mode if mode in MODES else NONE


def varied(
    sheet: Character, system: str, table: Mapping[str, Any], rng: random.Random
) -> Character:
    """``sheet`` with every quality and skill moved by the system's spread (a skill at 0 stays:
    a spread gives no skill the template does not have); never out of the table's bounds,
    nor further out than the template already is."""
    spread = table.get("spread", {}).get(system, {})
    q, s = int(spread.get("qualities", 0)), int(spread.get("skills", 0))
    q_low, q_high = int(spread.get("quality_min", -100)), int(spread.get("quality_max", 1000))
    s_low, s_high = int(spread.get("skill_min", -100)), int(spread.get("skill_max", 1000))
    qualities = {
        name: _moved(value, q, q_low, q_high, rng) for name, value in sheet.qualities.items()
    }
    skills = tuple(
        sk if sk.value == 0 else replace(sk, value=_moved(sk.value, s, s_low, s_high, rng))
        for sk in sheet.skills
    )
    return replace(sheet, qualities=qualities, skills=skills)


def _moved(value: int, by: int, low: int, high: int, rng: random.Random) -> int:
    if by <= 0:
        return value
    moved = value + rng.randint(-by, by)
    return max(min(low, value), min(max(high, value), moved))


def made(
    template: Template,
    name: str,
    new_id: str,
    *,
    encounter: str = "",
    hidden: bool = False,
) -> Character:
    """An NPC of the party made from ``template`` under ``name``, marked with where it came
    from (core marks, the GM's, never shown to the players: the template's name and the
    prepared encounter that brought it), and hidden from the players when asked."""
    npc = replace(template.sheet, id=new_id, name=name, kind="npc", player="", origin=None)
    return npc.marked(
        template=template.name, encounter=encounter or None, hidden=True if hidden else None
    )

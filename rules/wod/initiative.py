"""Мир Тьмы's initiative in the round tracker: d10 + the sheet's initiative (its own value, else
the sum of the table's attributes, ``data/rounds/initiative.toml`` [wod]), plus modifiers."""

from __future__ import annotations

import random

from rules.errors import RulesError
from rules.modifiers import signed
from rules.rounds.initiative import Fighter, InitiativeRoll, modifiers_sum, setting

#: A tie's roll: one d10.
TIE_FACES = 10


def check_setting() -> None:
    """Read the table's attributes: a list of them.

    Raises:
        RulesError: the key missing, or not a list.
    """
    if not isinstance(setting("wod", "attributes"), list):
        raise RulesError("rounds/initiative.toml [wod] attributes: нужен список атрибутов.")


def wod_initiative(f: Fighter) -> int:
    """Return the Мир Тьмы sheet initiative: its own value, else the sum of the attributes."""
    if f.initiative is not None:
        return f.initiative
    if "Инициатива" in f.qualities:
        return f.qualities["Инициатива"]
    return sum(f.qualities.get(a, 0) for a in setting("wod", "attributes"))


def bonus(f: Fighter) -> int:
    """Return the fixed part of the fighter's initiative: the sheet's initiative."""
    return wod_initiative(f)


def roll(f: Fighter, rng: random.Random) -> InitiativeRoll:
    """Roll the fighter's initiative: d10 + the sheet's initiative + modifiers."""
    base = wod_initiative(f)
    mods = modifiers_sum(f)
    die = rng.randint(1, 10)
    total = die + base + mods
    text = f"{die} {signed(base, zero='+0')}"
    text += f" {signed(mods, zero='+0')}" if f.modifiers else ""
    return InitiativeRoll(f.id, (total,), base + mods, f"{text} = {total}", f.pc)

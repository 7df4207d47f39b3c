"""Старатели's initiative in the round tracker: 2d6 + the DM of the table's characteristic
(``data/rounds/initiative.toml`` [starately]), plus the fighter's modifiers."""

from __future__ import annotations

import random

from rules.modifiers import signed
from rules.rounds.initiative import Fighter, InitiativeRoll, modifiers_sum, setting
from rules.starately.tables import characteristic_dm

#: A tie's roll: one d6.
TIE_FACES = 6


def check_setting() -> None:
    """Read the table's characteristic (a missing key is refused, named)."""
    setting("starately", "characteristic")


def bonus(f: Fighter) -> int:
    """Return the fixed part of the fighter's initiative: its characteristic's DM."""
    return characteristic_dm(f.qualities.get(str(setting("starately", "characteristic")), 7))


def roll(f: Fighter, rng: random.Random) -> InitiativeRoll:
    """Roll the fighter's initiative: 2d6 + DM + modifiers."""
    dm = bonus(f)
    mods = modifiers_sum(f)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    total = sum(dice) + dm + mods
    text = f"{dice[0]}+{dice[1]} {signed(dm, zero='+0')}"
    text += f" {signed(mods, zero='+0')}" if f.modifiers else ""
    return InitiativeRoll(f.id, (total,), dm + mods, f"{text} = {total}", f.pc)

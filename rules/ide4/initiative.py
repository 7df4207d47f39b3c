"""IDE4™'s initiative in the round tracker: a quick check of the table's action
(``data/rounds/initiative.toml`` [ide4]) through the better attribute it allows; a higher
outcome first, then a higher total."""

from __future__ import annotations

import random

from rules import ide4
from rules.rounds.initiative import Fighter, InitiativeRoll, setting

#: A tie's roll: one d100.
TIE_FACES = 100
#: Why an initiative check at [00] is impossible (the rules ask the GM for a reason; in a
#: fight it is always the modifiers), and what its roll says.
IMPOSSIBLE_REASON = "модификаторы делают проверку инициативы невозможной"
IMPOSSIBLE_TEXT = "[00] невозможно"


def check_setting() -> None:
    """Read the table's action (a missing key is refused, named)."""
    setting("ide4", "action")


def ide4_attribute(f: Fighter) -> str:
    """Return the attribute the IDE4 initiative is checked through: the better one the
    action allows (the first on a tie)."""
    allowed = ide4.action(str(setting("ide4", "action"))).attributes
    known = [a for a in allowed if a in f.qualities] or list(allowed)
    return max(known, key=lambda a: f.qualities.get(a, 0))


def bonus(f: Fighter) -> int:
    """Return the fixed part of the fighter's initiative: the attribute's level."""
    return f.qualities.get(ide4_attribute(f), 0)


def roll(f: Fighter, rng: random.Random) -> InitiativeRoll:
    """Make the fighter's initiative check (no dice at [00]: after everyone who has some)."""
    attribute = ide4_attribute(f)
    inp = ide4.CheckInput(
        actor=f.name,
        action=str(setting("ide4", "action")),
        attribute=attribute,
        attribute_level=f.qualities.get(attribute, 3),
        # An effect's modifier helps with +; an IDE4 modifier is a step of difficulty.
        modifiers=tuple(ide4.Modifier(-m.value, m.reason) for m in f.modifiers),
        energy_pool=f.energy,
        level="quick",
        impossible_reason=IMPOSSIBLE_REASON,
    )
    check = ide4.start(inp)
    if check.status == "impossible":
        # [seed] «Если итоговая сложность становится [00], игрок не бросает кубик»: no
        # roll, no outcome — after everyone who has one.
        return InitiativeRoll(f.id, (0, 0), 0, IMPOSSIBLE_TEXT, f.pc)
    if check.status == "ready":
        check = ide4.roll(check, rng)
    outcome = check.outcome or "failure"
    total = check.total or 0
    name = ide4.OUTCOME_NAMES[outcome]
    text = f"{name} · {total}" if check.natural is not None else name
    placed = None
    if check.natural is not None:  # [0] and [00] roll no dice: nothing for the ledger
        placed = {
            "final": check.difficulty.final,
            "hidden_risk": check.difficulty.hidden_risk,
            "outcome": outcome,
        }
    key = (ide4.OUTCOME_RANK[outcome], total)
    return InitiativeRoll(f.id, key, 0, text, f.pc, check=placed)

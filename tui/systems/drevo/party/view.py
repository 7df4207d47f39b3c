"""Which of Древо's party keys apply to a character now, and what their dialogs offer.

Derived from the character as stored and the campaign's Судьба rules, nothing kept. The key
bar asks at every refresh, so this loads with the first screen: the rules, no engine (the
steps, :mod:`tui.systems.drevo.party.steps`, load with the first key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import drevo  # loads each part on first use (PEP 562)
from tui.systems.drevo.sheet import track_of

if TYPE_CHECKING:
    from tui.store import Character


def can_heal(c: Character) -> bool:
    """Whether healing applies: a wound, or Смерть (the GM may rule it was «при смерти»)."""
    return any(c.drevo.wounds.values()) or c.drevo.dead


def can_spend_circumstance(c: Character) -> bool:
    """Whether a point of Судьба can go on a favourable circumstance: one left, and the
    campaign's Судьба rules allow that use."""
    return c.drevo.fate > 0 and drevo.fate_rules().allows("circumstance")


def wound_choices() -> list[tuple[str, str]]:
    """The wound dialog's rows, mildest first: ``(the level's name, the level)``."""
    return [(drevo.level_name(level), level) for level in drevo.LEVELS]


def heal_choices(c: Character) -> list[tuple[str, str]]:
    """The heal dialog's rows, worst first: ``(«name — what healing it needs», the level)``."""
    return [(f"{drevo.level_name(level)} — {need}", level) for level, need in track_of(c).needs()]

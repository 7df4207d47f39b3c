"""The world a step reads, as the campaign has it now."""

from __future__ import annotations

from tui.bridge.effects import load_effects
from tui.store import Store
from tui.table.core import Dice, World


def world_of(store: Store, dice: Dice) -> World:
    """Return the campaign's world now: its party, system, effects, Журнал and ``dice``."""
    return World(
        characters={c.id: c for c in store.characters()},
        system=store.campaign.system,
        effects=load_effects(store),
        dice=dice,
        journal=lambda limit: store.log(limit=limit),
        removed_where=store.removed_where,
    )

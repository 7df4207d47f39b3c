"""The world a step reads, as the campaign has it now."""

from __future__ import annotations

from collections.abc import Mapping

from rules.effects import EffectSet
from tui.bridge.effects import load_effects
from tui.store import Character, Store
from tui.table.core import Dice, World


def world_of(
    store: Store,
    dice: Dice,
    *,
    characters: Mapping[str, Character] | None = None,
    effects: EffectSet | None = None,
) -> World:
    """Return the campaign's world now: its party, system, effects, Журнал and ``dice``; a
    pane passes the ``characters`` (and ``effects``) it shows, the rest is the store's."""
    return World(
        characters={c.id: c for c in store.characters()} if characters is None else characters,
        system=store.campaign.system,
        effects=load_effects(store) if effects is None else effects,
        dice=dice,
        journal=lambda limit: store.log(limit=limit),
        removed_where=store.removed_where,
    )

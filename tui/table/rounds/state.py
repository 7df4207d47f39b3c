"""The round tracker as it stands: from its stored document and the party now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.rounds import Entrant, Tracker
from tui.bridge.effects import ROUNDS_DOC, party_tracker
from tui.table.core import World

#: The round tracker's document of the campaign.
DOC = ROUNDS_DOC


def default_tracker(world: World) -> Tracker:
    """A fight to set up: the whole party, PCs in «Отряд», NPCs «Противники»."""
    t = Tracker(world.system)
    for c in world.characters.values():
        side = "Отряд" if c.kind == "pc" else "Противники"
        t = t.with_entrant(Entrant(c.id, c.name, side, c.kind == "pc"))
    return t


def current(stored: Mapping[str, Any] | None, world: World) -> Tracker:
    """The fight as it stands: the stored one (another system's: a fresh setup), with the
    characters removed from the party out of it and renamed ones under their new names.

    Raises:
        RulesError: the stored fight is damaged (its message says to start a new one).
    """
    tracker = Tracker.from_dict(dict(stored)) if stored else None
    if tracker is None or tracker.system != world.system:
        tracker = default_tracker(world)
    fresh: Tracker = party_tracker(tracker, dict(world.characters))
    return fresh

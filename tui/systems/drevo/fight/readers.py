"""What the players' view and the seats read of a Древо fight (``System.fight_readers``).

They show and take a fight of exchanges (``rules.encounter``: the order, who declares now,
each declaration) for any system that fights so; what is Древо's in it — who may still act
on the wound ladder, a fighter's weapons from the catalogue, a declaration's legality, its
distances and its words — they ask here, by the registry's string, never by an import of
this package.
"""

from __future__ import annotations

from rules.drevo import DISTANCES
from rules.drevo.exchange import DISTANCE_NAMES
from tui.systems.drevo.combat import (
    NO_WEAPON,
    can_act,
    declaration_problem,
    is_dead,
    weapon_names,
)
from tui.systems.drevo.present import declaration_text

__all__ = [
    "DISTANCES",
    "DISTANCE_NAMES",
    "NO_WEAPON",
    "can_act",
    "declaration_problem",
    "declaration_text",
    "is_dead",
    "weapon_names",
]

"""The Древо builder's text is the table engine's (:mod:`tui.systems.drevo.check.text`):
re-exported here for the widgets that name it."""

from __future__ import annotations

from tui.systems.drevo.check.text import (
    CHECK_ACTIONS,
    IDLE,
    WEAPON_KIND,
    WOUND_REASON,
    formula_lines,
    result_lines,
    trait_options,
    weapon_for,
)

__all__ = [
    "CHECK_ACTIONS",
    "IDLE",
    "WEAPON_KIND",
    "WOUND_REASON",
    "formula_lines",
    "result_lines",
    "trait_options",
    "weapon_for",
]

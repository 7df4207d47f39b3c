"""The Древо builder's text is the table engine's (:mod:`tui.table.check.drevo_text`):
re-exported here for the widgets that name it."""

from __future__ import annotations

from tui.table.check.drevo_text import (
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

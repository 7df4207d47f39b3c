"""Pieces of the Старатели builder's widgets: its rows and the frame of its pop-ups. The text
(what a character offers, a rolled check, a chain, a group, an opposed roll) is the table
engine's (:mod:`tui.systems.starately.check.text`), re-exported here for the pop-ups.
"""

from __future__ import annotations

from textual.content import Content

from tui.systems.starately.check.text import (
    COUNT_OPTIONS,
    DICE_LABELS,
    IDLE,
    OUTCOME_STYLE,
    UNSKILLED,
    auto_note,
    bonus_terms,
    characteristic_options,
    dice_note,
    effect_rows,
    natural_note,
    result_lines,
    side_for,
    skill_options,
    summary,
)
from tui.widgets.common.stepper import Stepper

__all__ = [
    "COUNT_OPTIONS",
    "DICE_LABELS",
    "IDLE",
    "MODAL_CSS",
    "OUTCOME_STYLE",
    "UNSKILLED",
    "Row",
    "auto_note",
    "bonus_terms",
    "characteristic_options",
    "dice_note",
    "effect_rows",
    "natural_note",
    "result_lines",
    "side_for",
    "skill_options",
    "summary",
]


class Row(Stepper):
    """A stepper whose label column fits «Характеристика» (or ``label_width``)."""

    label_width = 15

    def render(self) -> Content:
        """Draw ``Label  ◀ value ▶`` with a wider label column (plain text, cut, as Stepper)."""
        return self.row(f"{self.label:<{self.label_width}}◀ ")


# --- modal screens -----------------------------------------------------------------------------

MODAL_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; max-width: 100%; height: auto; max-height: 100%;
    border: round $warning; background: $surface; padding: 0 1;
}}
{name} Input {{ margin: 1 0 0 0; }}
{name} Horizontal {{ height: auto; margin: 1 0 0 0; }}
{name} Button {{ margin: 0 1 0 0; }}
"""

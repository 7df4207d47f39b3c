"""What every check builder (one per rules system) shares with the app.

A builder is a container widget for the Проверка tab with:

* ``set_characters(characters)`` — called whenever the party changes;
* ``choose_character(character_id)`` — called when the GM presses Enter in the party table;
* ``BINDINGS`` — its keys (listed by ``?``);
* it posts :class:`CheckRolled` after each roll so the app writes the Журнал, and
  :class:`CharacterChanged` when a roll changes the sheet (energy spent, a daily cap used).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from textual.message import Message

from tui.store import Character

BUILDERS = {
    "drevo": ("tui.widgets.check", "DrevoBuilder"),
    "ide4": ("tui.widgets.builder_ide4", "Ide4Builder"),
    "starately": ("tui.widgets.builder_starately", "StaratelyBuilder"),
    "wod": ("tui.widgets.builder_wod", "WodBuilder"),
}


@dataclass
class CheckRolled(Message):
    """A check was rolled in a builder; the app appends it to the log."""

    actor: str | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class CharacterChanged(Message):
    """A roll changed a character (energy, daily caps); the app saves it."""

    character: Character


def builder_class(system: str) -> Any:
    """Return the builder widget class for a campaign's system (imported on demand)."""
    module_name, class_name = BUILDERS[system]
    return getattr(importlib.import_module(module_name), class_name)

"""Древо's sheet: the wound ladder as the sheet, the party table and the fight write it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules import drevo

if TYPE_CHECKING:
    from tui.store import Character

WOUND_NAMES = {"scratch": "Царапина", "light": "Лёгкая", "wound": "Ранение", "heavy": "Тяжёлая"}


def wounds_text(wounds: Mapping[str, int]) -> str:
    """Return a compact wound list, e.g. ``Лёгкая×1, Царапина×2``, or ``—``."""
    parts = [
        f"{WOUND_NAMES[key]}×{wounds[key]}"
        for key in ("heavy", "wound", "light", "scratch")
        if wounds.get(key)
    ]
    return ", ".join(parts) or "—"


def track_of(c: Character) -> drevo.WoundTrack:
    """Return the character's wound track (its Древо sheet's wounds and Смерть)."""
    sheet = c.drevo
    return drevo.WoundTrack(counts=sheet.wounds, dead=sheet.dead)


def needs(track: drevo.WoundTrack) -> list[tuple[str, str]]:
    """Return what healing each wound level of ``track`` needs, by the level's name."""
    return [(drevo.level_name(level), need) for level, need in track.needs()]

"""Древо's sheet: the wound ladder as the sheet, the party table and the fight write it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import drevo

if TYPE_CHECKING:
    from tui.store import Character

from tui.words import wounds_text as wounds_text  # the wound list: tui.words, shared


def track_of(c: Character) -> drevo.WoundTrack:
    """Return the character's wound track (its Древо sheet's wounds and Смерть)."""
    return c.drevo.track()


def needs(track: drevo.WoundTrack) -> list[tuple[str, str]]:
    """Return what healing each wound level of ``track`` needs, by the level's name."""
    return [(drevo.level_name(level), need) for level, need in track.needs()]


def weapon_names() -> list[str]:
    """Return the campaign's weapon catalogue's names (the form's «Оружие» field)."""
    return list(drevo.weapons())

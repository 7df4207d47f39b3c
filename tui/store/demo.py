"""The demo party a new campaign starts with (``data/demo/<system>.toml``: every system of
:mod:`rules.systems` has one)."""

from __future__ import annotations

from typing import Any

from rules import systems
from rules.data import load_table
from rules.drevo.sheet import DrevoSheet

from .models import SHEET_EXTRAS, Character, Skill, new_id

#: Fate a character gets when the table does not say ([seed]: 1–5, default 3).
DEFAULT_FATE = 3


def demo_campaign(system: str = "drevo") -> tuple[str, str, list[Character]]:
    """Return ``(name, system, characters)`` of a system's demo campaign, with fresh ids."""
    if not systems.known(system):
        raise ValueError(f"unknown system {system!r}")
    table = load_table(f"demo/{system}.toml")
    campaign = table["campaign"]
    characters = [_character(row) for row in table["characters"]]
    return campaign["name"], campaign["system"], characters


def _character(row: dict[str, Any]) -> Character:
    return Character(
        id=new_id(),
        name=row["name"],
        kind=row["kind"],
        qualities=dict(row.get("qualities", {})),
        skills=tuple(
            Skill(s["name"], int(s["value"]), s.get("parent"), tuple(s.get("distances", ())))
            for s in row.get("skills", [])
        ),
        weapons=tuple(row.get("weapons", ())),
        sheet=DrevoSheet(fate=int(row.get("fate", DEFAULT_FATE))),
        notes=row.get("notes", ""),
        extra={**row.get("extra", {}), **{k: row[k] for k in SHEET_EXTRAS if k in row}},
    )

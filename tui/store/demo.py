"""The demo party a new campaign starts with (``data/demo/<system>.toml``: every system of
:mod:`rules.systems` has one)."""

from __future__ import annotations

from typing import Any

from rules import systems
from rules.data import load_table
from rules.sheets import SheetError

from .models import SHEET_FIELDS, Character, Sheet, Skill, new_id, sheet_kind


def demo_campaign(system: str = "drevo") -> tuple[str, str, list[Character]]:
    """Return ``(name, system, characters)`` of a system's demo campaign, with fresh ids."""
    if not systems.known(system):
        raise ValueError(f"unknown system {system!r}")
    table = load_table(f"demo/{system}.toml")
    campaign = table["campaign"]
    characters = [_character(row, campaign["system"]) for row in table["characters"]]
    return campaign["name"], campaign["system"], characters


def _character(row: dict[str, Any], system: str) -> Character:
    sheet = _sheet(row, system)
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
        sheet=sheet,
        notes=row.get("notes", ""),
        extra=dict(row.get("extra", {})),
        kept=frozenset(k for k in sheet.FIELDS if k in row),  # stored as the data gives them
    )


def _sheet(row: dict[str, Any], system: str) -> Sheet:
    """The row's sheet: its system's, each value the row gives checked by it (Древо's Судьба,
    when the row names none, the fate rules' starting points).

    Raises:
        ValueError: the row gives a value the sheet cannot hold, or another system's field.
    """
    kind = sheet_kind(system)
    given = {k: row[k] for k in kind.FIELDS if k in row}
    others = sorted(k for k in SHEET_FIELDS if k in row and k not in given)
    if others:
        raise ValueError(f"demo/{system}.toml, {row['name']}: not a field of its sheet: {others}")
    if "fate" in kind.FIELDS and "fate" not in given:
        from rules import drevo

        given["fate"] = drevo.fate_rules().starting_points
    try:
        kind.CHECKS.check(given)
    except SheetError as err:
        raise ValueError(f"demo/{system}.toml, {row['name']}: {err}") from err
    return kind.from_values(given)

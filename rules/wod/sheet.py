"""Мир Тьмы's sheet: the health track and a fixed initiative (the rounds tracker's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.sheets import FieldChecks, is_int, optional_int_field, strings_field

#: A fixed initiative the GM gave, generous bounds.
INITIATIVE_RANGE = (-1000, 1000)


@dataclass(frozen=True)
class WodSheet:
    """What a character carries for Мир Тьмы's rules.

    Attributes:
        health: the health track's marks, worst first (the kinds of
            ``data/rounds/health.toml``: the campaign may rename them, so any string).
        initiative: a fixed initiative, or None to roll it.
    """

    SYSTEM: ClassVar[str] = "wod"
    FIELDS: ClassVar[tuple[str, ...]] = ("health", "initiative")
    #: The checks of its stored values (the campaign schema runs them).
    CHECKS: ClassVar[FieldChecks]

    health: tuple[str, ...] = ()
    initiative: int | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> WodSheet:
        """Read the sheet from stored values (checked ones: a damaged value reads as none)."""
        marks = values.get("health")
        initiative = values.get("initiative")
        return cls(
            health=tuple(str(m) for m in marks) if isinstance(marks, list | tuple) else (),
            initiative=initiative if is_int(initiative) else None,
        )

    def values(self) -> dict[str, Any]:
        """Return the stored values, JSON-ready (None: not set)."""
        return {"health": list(self.health), "initiative": self.initiative}


#: The checks of the stored values (the campaign schema runs them).
CHECKS = FieldChecks(
    {
        "health": strings_field("health"),
        "initiative": optional_int_field("initiative", *INITIATIVE_RANGE),
    }
)
WodSheet.CHECKS = CHECKS

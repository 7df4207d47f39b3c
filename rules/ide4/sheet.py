"""IDE4's sheet: the energy left, the expanded-check habit, the day's triumph, harm."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.sheets import (
    FieldChecks,
    bool_field,
    int_field,
    int_or,
    is_int,
    optional_int_field,
    str_field,
)

#: Energy is a percentage: 0–100.
ENERGY_RANGE = (0, 100)
#: A fixed initiative the GM gave (the rounds tracker), generous bounds.
INITIATIVE_RANGE = (-1000, 1000)


@dataclass(frozen=True)
class Ide4Sheet:
    """What a character carries for IDE4's rules.

    Attributes:
        energy: energy left, 0–100.
        always_expanded: the player always demands the expanded check.
        daily_triumph_used: the day's triumph is spent.
        harm: the GM's note of the harm taken (the rounds tracker), "" for none.
        initiative: a fixed initiative, or None to roll it.
    """

    SYSTEM: ClassVar[str] = "ide4"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "energy",
        "always_expanded",
        "daily_triumph_used",
        "harm",
        "initiative",
    )
    #: The checks of its stored values (the campaign schema runs them).
    CHECKS: ClassVar[FieldChecks]

    energy: int = 100
    always_expanded: bool = False
    daily_triumph_used: bool = False
    harm: str = ""
    initiative: int | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> Ide4Sheet:
        """Read the sheet from stored values (checked ones: a damaged value reads as none)."""
        initiative = values.get("initiative")
        return cls(
            energy=int_or(values.get("energy"), 100),
            always_expanded=bool(values.get("always_expanded")),
            daily_triumph_used=bool(values.get("daily_triumph_used")),
            harm=str(values.get("harm") or ""),
            initiative=initiative if is_int(initiative) else None,
        )

    def values(self) -> dict[str, Any]:
        """Return the stored values, JSON-ready (None: not set)."""
        return {
            "energy": self.energy,
            "always_expanded": self.always_expanded,
            "daily_triumph_used": self.daily_triumph_used,
            "harm": self.harm,
            "initiative": self.initiative,
        }


#: The checks of the stored values (the campaign schema runs them).
CHECKS = FieldChecks(
    {
        "energy": int_field("energy", *ENERGY_RANGE),
        "always_expanded": bool_field("always_expanded"),
        "daily_triumph_used": bool_field("daily_triumph_used"),
        "harm": str_field("harm"),
        "initiative": optional_int_field("initiative", *INITIATIVE_RANGE),
    }
)
Ide4Sheet.CHECKS = CHECKS

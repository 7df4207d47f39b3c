"""Старатели's sheet: the harm taken and a fixed initiative (the rounds tracker's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.sheets import FieldChecks, is_int, optional_int_field, str_field

#: A fixed initiative the GM gave, generous bounds.
INITIATIVE_RANGE = (-1000, 1000)


@dataclass(frozen=True)
class StaratelySheet:
    """What a character carries for Старатели's rules.

    Attributes:
        harm: the GM's note of the harm taken, "" for none.
        initiative: a fixed initiative, or None to roll it.
    """

    SYSTEM: ClassVar[str] = "starately"
    FIELDS: ClassVar[tuple[str, ...]] = ("harm", "initiative")
    #: The checks of its stored values (the campaign schema runs them).
    CHECKS: ClassVar[FieldChecks]

    harm: str = ""
    initiative: int | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> StaratelySheet:
        """Read the sheet from stored values (checked ones: a damaged value reads as none)."""
        initiative = values.get("initiative")
        return cls(
            harm=str(values.get("harm") or ""),
            initiative=initiative if is_int(initiative) else None,
        )

    def values(self) -> dict[str, Any]:
        """Return the stored values, JSON-ready (None: not set)."""
        return {"harm": self.harm, "initiative": self.initiative}


#: The checks of the stored values (the campaign schema runs them).
CHECKS = FieldChecks(
    {
        "harm": str_field("harm"),
        "initiative": optional_int_field("initiative", *INITIATIVE_RANGE),
    }
)
StaratelySheet.CHECKS = CHECKS

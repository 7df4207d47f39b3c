"""Древо's sheet: Судьба, the wounds carried, Смерть and the parry ability."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.drevo.wounds import WOUND_KEYS, WoundTrack
from rules.sheets import FieldChecks, SheetError, bool_field, int_field, int_or, is_int

#: Bounds a stored value may take (generous: they keep a hand edit from a count of −2).
FATE_RANGE = (0, 100)
WOUND_RANGE = (0, 99)


def _zero() -> Mapping[str, int]:
    return dict.fromkeys(WOUND_KEYS, 0)


@dataclass(frozen=True)
class DrevoSheet:
    """What a character carries for Древо's rules.

    Attributes:
        fate: points of Судьба left.
        wounds: wounds per level (``WOUND_KEYS``, mildest first); every level is present.
        dead: Смерть (or «при смерти», as the GM rules).
        parry_ability: the character has the ability to parry without a shield.
    """

    SYSTEM: ClassVar[str] = "drevo"
    FIELDS: ClassVar[tuple[str, ...]] = ("fate", "wounds", "dead", "parry_ability")
    #: The checks of its stored values (the campaign schema runs them).
    CHECKS: ClassVar[FieldChecks]

    fate: int = 0
    wounds: Mapping[str, int] = field(default_factory=_zero)
    dead: bool = False
    parry_ability: bool = False

    def __post_init__(self) -> None:
        for key in self.wounds:
            if key not in WOUND_KEYS:
                raise SheetError(
                    f"wounds.{key}",
                    self.wounds[key],
                    "неизвестная рана; бывают " + ", ".join(WOUND_KEYS),
                    shown=False,
                )
        # A copy of its own (a plain dict: a sheet is copied and compared as a dataclass).
        counts = {k: int(self.wounds.get(k, 0)) for k in WOUND_KEYS}
        object.__setattr__(self, "wounds", counts)

    def __hash__(self) -> int:
        return hash((self.fate, tuple(self.wounds.values()), self.dead, self.parry_ability))

    def track(self) -> WoundTrack:
        """Return the wound track these wounds and Смерть make."""
        return WoundTrack(counts=self.wounds, dead=self.dead)

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> DrevoSheet:
        """Read the sheet from stored values (checked ones: a damaged value reads as none)."""
        wounds = values.get("wounds")
        counts = wounds if isinstance(wounds, Mapping) else {}
        return cls(
            fate=int_or(values.get("fate"), 0),
            wounds={k: int_or(counts.get(k), 0) for k in WOUND_KEYS},
            dead=bool(values.get("dead")),
            parry_ability=bool(values.get("parry_ability")),
        )

    def values(self) -> dict[str, Any]:
        """Return the stored values, JSON-ready."""
        return {
            "fate": self.fate,
            "wounds": dict(self.wounds),
            "dead": self.dead,
            "parry_ability": self.parry_ability,
        }


def _wounds(value: Any) -> None:
    if not isinstance(value, Mapping):
        raise SheetError("wounds", value, "нужен объект", shown=False)
    for key, count in value.items():
        if key not in WOUND_KEYS:
            raise SheetError(
                f"wounds.{key}",
                count,
                "неизвестная рана; бывают " + ", ".join(WOUND_KEYS),
                shown=False,
            )
        if not is_int(count) or not WOUND_RANGE[0] <= count <= WOUND_RANGE[1]:
            int_field(f"wounds.{key}", *WOUND_RANGE)(count)


#: The checks of the stored values (the campaign schema runs them).
CHECKS = FieldChecks(
    {
        "fate": int_field("fate", *FATE_RANGE),
        "wounds": _wounds,
        "dead": bool_field("dead"),
        "parry_ability": bool_field("parry_ability"),
    }
)
DrevoSheet.CHECKS = CHECKS

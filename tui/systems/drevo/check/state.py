"""The open Древо check (outside a fight) as a frozen state: the form's choices and, once
rolled, its record — the side as rolled, the four Fudge dice (none with Судьба before the
roll), each point of Судьба spent after the roll. The rules' result is rebuilt from it
(:func:`result_of`); the stored form is the campaign's ``check`` document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules import drevo
from tui.table.check.base import check_doc, new_check_id, read_check

SYSTEM = "drevo"
DAMAGED = "Сохранённая проверка Древа повреждена — начните новую (Enter в форме)."


@dataclass(frozen=True)
class Inputs:
    """The GM's choices in the form."""

    character: str = ""
    action: str = "other"
    trait: str | None = None  # None: the trait the rules rank first for the action
    difficulty: int = 0
    mods: str = ""
    fate_auto: bool = False  # Судьба declared before the roll (paid when rolled)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inputs:
        trait = data.get("trait")
        return cls(
            character=str(data.get("character", "")),
            action=str(data.get("action", "other")),
            trait=None if trait is None else str(trait),
            difficulty=int(data.get("difficulty", 0)),
            mods=str(data.get("mods", "")),
            fate_auto=bool(data.get("fate_auto", False)),
        )


@dataclass(frozen=True)
class Rolled:
    """What was rolled: whose check, the side and difficulty as rolled, the dice (None: Судьба
    before the roll), and the points of Судьба moved after it (signed, in order)."""

    character: str
    side: drevo.Side
    difficulty: int
    dice: tuple[int, ...] | None
    fate_auto: bool = False
    shifts: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        side = self.side
        return {
            "character": self.character,
            "side": {
                "trait": side.trait,
                "modifiers": [[m.value, m.reason] for m in side.modifiers],
                "name": side.name,
                "trait_name": side.trait_name,
            },
            "difficulty": self.difficulty,
            "dice": list(self.dice) if self.dice is not None else None,
            "fate_auto": self.fate_auto,
            "shifts": list(self.shifts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rolled:
        side = data["side"]
        dice = data.get("dice")
        return cls(
            character=str(data["character"]),
            side=drevo.Side(
                trait=int(side["trait"]),
                modifiers=tuple(
                    drevo.Modifier(int(v), str(r)) for v, r in side.get("modifiers", ())
                ),
                name=str(side.get("name", "")),
                trait_name=str(side.get("trait_name", "")),
            ),
            difficulty=int(data["difficulty"]),
            dice=None if dice is None else tuple(int(d) for d in dice),
            fate_auto=bool(data.get("fate_auto", False)),
            shifts=tuple(int(p) for p in data.get("shifts", ())),
        )


@dataclass(frozen=True)
class DrevoCheck:
    """An open Древо check: its id, the form's choices, and its record once rolled."""

    id: str = field(default_factory=new_check_id)
    inputs: Inputs = field(default_factory=Inputs)
    rolled: Rolled | None = None

    system = SYSTEM

    @property
    def phase(self) -> str:
        return "setup" if self.rolled is None else "result"

    def to_doc(self) -> dict[str, Any]:
        """The campaign document ``check``."""
        return check_doc(SYSTEM, self)

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> DrevoCheck:
        """Read the stored check.

        Raises:
            RulesError: the document is damaged (the message says what to do).
        """
        parts = {"rolled": Rolled.from_dict}
        return read_check(doc, cls, Inputs.from_dict, parts, _verify, DAMAGED)


def _verify(check: DrevoCheck) -> None:
    if check.rolled is not None:
        result_of(check.rolled)


def result_of(rolled: Rolled) -> drevo.OneSidedResult:
    """The rolled check with every point of Судьба moved after it."""
    check = drevo.OneSidedCheck(rolled.side, rolled.difficulty, fate_auto=rolled.fate_auto)
    result = drevo.resolve_one_sided(check, rolled.dice)
    for points in rolled.shifts:
        result = drevo.shift_one_sided(result, points)
    return result


def fresh(state: DrevoCheck) -> DrevoCheck:
    return DrevoCheck(inputs=replace(state.inputs, fate_auto=False))


def unrolled(state: DrevoCheck) -> DrevoCheck:
    """The form the check was rolled from (the same id: rolled again, the same dice), Судьба
    declared before it as it was (the roll clears it on the form)."""
    rolled = state.rolled
    if rolled is None:
        return state
    return replace(state, rolled=None, inputs=replace(state.inputs, fate_auto=rolled.fate_auto))

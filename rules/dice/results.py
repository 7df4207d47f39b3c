"""The result of a roll: every die's entry with its history, frozen, and the tree of rolls.

:func:`rules.dice.roller.roll` returns a :class:`RollResult`: one :class:`Outcome` per repeat,
each a tree of :data:`Part` (numbers, pools of :class:`Die`, operators, groups) mirroring the
parsed expression; ``to_dict`` makes the JSON the command and the log keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from rules.dice.model import Binary, Dice, Expression, Group, Negate, Number

__all__ = [
    "Die",
    "GroupRoll",
    "OpRoll",
    "Outcome",
    "Part",
    "PoolRoll",
    "RollResult",
    "ValueRoll",
]

#: History events of a die, in the order they happened (each with the value it gave).
EVENTS = ("rolled", "min", "max", "exploded", "rerolled")


@dataclass(frozen=True)
class Die:
    """One entry of a pool.

    Attributes:
        value: what it counts with (after clamping, compounding, penetration, rerolls).
        history: ``(event, value)`` pairs: ``rolled`` (the first roll), ``min``/``max`` (the
            clamp), ``exploded`` (a roll compounded into it by ``!!``), ``rerolled`` (a new
            roll replacing it).
        exploded: it set off an explosion (the next entry, or its own compounded rolls).
        added: it was rolled by an explosion of the entry before it.
        penetrated: 1 was subtracted (``!p``; for ``!!p`` from each compounded roll).
        kept: False when keep or drop removed it.
        outcome: +1 success, -1 failure, 0 neither; None without a success compare point.
    """

    value: int
    history: tuple[tuple[str, int], ...]
    exploded: bool = False
    added: bool = False
    penetrated: bool = False
    kept: bool = True
    outcome: int | None = None

    @property
    def rolls(self) -> tuple[int, ...]:
        """Every value drawn for this die, in order."""
        return tuple(v for event, v in self.history if event in ("rolled", "exploded", "rerolled"))

    @property
    def rerolled(self) -> bool:
        return any(event == "rerolled" for event, _ in self.history)

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "history": [list(step) for step in self.history],
            "exploded": self.exploded,
            "added": self.added,
            "penetrated": self.penetrated,
            "rerolled": self.rerolled,
            "kept": self.kept,
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class ValueRoll:
    node: Number
    value: int


@dataclass(frozen=True)
class PoolRoll:
    """A dice pool's entries; ``value`` is their sum (or success count) over kept entries."""

    node: Dice
    dice: tuple[Die, ...]
    value: int


@dataclass(frozen=True)
class OpRoll:
    """``+ - * /`` or a leading minus over its operands' rolls."""

    node: Binary | Negate
    parts: tuple[Part, ...]
    value: int


@dataclass(frozen=True)
class GroupRoll:
    """A group's sub-rolls; ``kept``/``outcomes`` are per sub-total (several sub-expressions)."""

    node: Group
    parts: tuple[Part, ...]
    kept: tuple[bool, ...]
    outcomes: tuple[int | None, ...]
    value: int


Part = Union[ValueRoll, PoolRoll, OpRoll, GroupRoll]


@dataclass(frozen=True)
class Outcome:
    """One roll of the expression (``Nx`` makes several)."""

    tree: Part
    total: int
    success: bool | None


@dataclass(frozen=True)
class RollResult:
    """The outcome of rolling an expression, keeping every die."""

    expression: Expression
    outcomes: tuple[Outcome, ...]

    @property
    def total(self) -> int:
        """The total of the roll (of the first, for ``Nx``)."""
        return self.outcomes[0].total

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(o.total for o in self.outcomes)

    @property
    def success(self) -> bool | None:
        """Success against ``vs N`` (of the first roll, for ``Nx``); None without a target."""
        return self.outcomes[0].success

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die's history."""
        rolls = [
            {"total": o.total, "success": o.success, "tree": _part_dict(o.tree)}
            for o in self.outcomes
        ]
        return {
            "expression": str(self.expression),
            "text": self.expression.text,
            "label": self.expression.label,
            "target": self.expression.target,
            "repeat": self.expression.repeat,
            "total": self.total,
            "totals": list(self.totals),
            "success": self.success,
            "rolls": rolls,
        }


def _part_dict(part: Part) -> dict[str, Any]:
    if isinstance(part, ValueRoll):
        return {"kind": "number", "value": part.value}
    if isinstance(part, PoolRoll):
        return {
            "kind": "dice",
            "notation": str(part.node),
            "value": part.value,
            "dice": [die.to_dict() for die in part.dice],
        }
    if isinstance(part, OpRoll):
        op = "neg" if isinstance(part.node, Negate) else part.node.op
        return {
            "kind": "op",
            "op": op,
            "value": part.value,
            "parts": [_part_dict(p) for p in part.parts],
        }
    return {
        "kind": "group",
        "notation": str(part.node),
        "value": part.value,
        "kept": list(part.kept),
        "outcomes": list(part.outcomes),
        "parts": [_part_dict(p) for p in part.parts],
    }

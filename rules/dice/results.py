"""The result of a roll: every die's entry with its history, frozen, and the tree of rolls.

:func:`rules.dice.roller.roll` returns a :class:`RollResult`: one :class:`Outcome` per repeat,
each a tree of :data:`Part` (numbers, pools of :class:`Die`, operators, groups) mirroring the
parsed expression; ``to_dict`` makes the JSON the command and the log keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from rules.dice.model import Binary, Call, Dice, Expression, Group, Negate, Number
from rules.dice.values import Value, total_of

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
EVENTS = ("rolled", "min", "max", "exploded", "rerolled", "unique")


def json_number(value: Value) -> int | float:
    """A value as a JSON number (a fraction as its nearest float; ``exact`` keeps it whole)."""
    return value if isinstance(value, int) else float(value)


def exact_text(value: Value) -> str | None:
    """``"1/3"`` for a fraction, None for a whole number or a float (nothing more to say)."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    return None


@dataclass(frozen=True)
class Die:
    """One entry of a pool.

    Attributes:
        value: what it counts with (after clamping, compounding, penetration, rerolls).
        history: ``(event, value)`` pairs: ``rolled`` (the first roll), ``min``/``max`` (the
            clamp), ``exploded`` (a roll compounded into it by ``!!``), ``rerolled`` (a new
            roll replacing it), ``unique`` (a new roll replacing a value an earlier die shows).
        exploded: it set off an explosion (the next entry, or its own compounded rolls).
        added: it was rolled by an explosion of the entry before it.
        penetrated: 1 was subtracted (``!p``; for ``!!p`` from each compounded roll).
        kept: False when keep or drop removed it.
        outcome: +1 success, -1 failure, 0 neither; None without a success compare point.
        critical_success: ``cs`` marks it (its value matches the point; the default: the
            die's maximum); it changes no value.
        critical_failure: ``cf`` marks it (the default: the die's minimum).
    """

    value: int
    history: tuple[tuple[str, int], ...]
    exploded: bool = False
    added: bool = False
    penetrated: bool = False
    kept: bool = True
    outcome: int | None = None
    critical_success: bool = False
    critical_failure: bool = False

    @property
    def rolls(self) -> tuple[int, ...]:
        """Every value drawn for this die, in order."""
        drawn = ("rolled", "exploded", "rerolled", "unique")
        return tuple(v for event, v in self.history if event in drawn)

    @property
    def rerolled(self) -> bool:
        return any(event == "rerolled" for event, _ in self.history)

    @property
    def made_unique(self) -> bool:
        """``u``/``uo`` rolled it again (an earlier die showed its value)."""
        return any(event == "unique" for event, _ in self.history)

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "history": [list(step) for step in self.history],
            "exploded": self.exploded,
            "added": self.added,
            "penetrated": self.penetrated,
            "rerolled": self.rerolled,
            "unique": self.made_unique,
            "kept": self.kept,
            "outcome": self.outcome,
            "critical_success": self.critical_success,
            "critical_failure": self.critical_failure,
        }


@dataclass(frozen=True)
class ValueRoll:
    node: Number
    value: Value


@dataclass(frozen=True)
class PoolRoll:
    """A dice pool's entries (in ``s``/``sa``/``sd`` order when sorted); ``value`` is their sum
    (or success count) over kept entries."""

    node: Dice
    dice: tuple[Die, ...]
    value: int


@dataclass(frozen=True)
class OpRoll:
    """``+ - * / % ^``, a leading minus or a maths function over its operands' rolls."""

    node: Binary | Negate | Call
    parts: tuple[Part, ...]
    value: Value


@dataclass(frozen=True)
class GroupRoll:
    """A group's sub-rolls (in ``s`` order when sorted); ``kept``/``outcomes`` are per
    sub-roll: the sub-total kept, and its success (+1), failure (-1) or neither (0)."""

    node: Group
    parts: tuple[Part, ...]
    kept: tuple[bool, ...]
    outcomes: tuple[int | None, ...]
    value: Value


Part = Union[ValueRoll, PoolRoll, OpRoll, GroupRoll]


@dataclass(frozen=True)
class Outcome:
    """One roll of the expression (``Nx`` makes several).

    Attributes:
        tree: the rolled parts.
        total: what rpg-dice-roller shows: the value to two decimals (an int when whole).
        success: against ``vs N`` (None without one).
        value: the exact value (a fraction after ``/``, a float after ``sqrt``…).
    """

    tree: Part
    total: int | Fraction
    success: bool | None
    value: Value = 0

    @staticmethod
    def of(tree: Part, target: int | Fraction | None) -> Outcome:
        total = total_of(tree.value)
        success = None if target is None else total >= target
        return Outcome(tree, total, success, tree.value)


@dataclass(frozen=True)
class RollResult:
    """The outcome of rolling an expression, keeping every die."""

    expression: Expression
    outcomes: tuple[Outcome, ...]

    @property
    def total(self) -> int | Fraction:
        """The total of the roll (of the first, for ``Nx``)."""
        return self.outcomes[0].total

    @property
    def totals(self) -> tuple[int | Fraction, ...]:
        return tuple(o.total for o in self.outcomes)

    @property
    def success(self) -> bool | None:
        """Success against ``vs N`` (of the first roll, for ``Nx``); None without a target."""
        return self.outcomes[0].success

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die's history."""
        rolls = []
        for o in self.outcomes:
            one: dict[str, Any] = {"total": json_number(o.total), "success": o.success}
            if o.value != o.total:  # the exact value behind a rounded total
                one["value"] = json_number(o.value)
                one["value_exact"] = exact_text(o.value)
            one["tree"] = _part_dict(o.tree)
            rolls.append(one)
        target = self.expression.target
        return {
            "expression": str(self.expression),
            "text": self.expression.text,
            "label": self.expression.label,
            "target": None if target is None else json_number(target),
            "repeat": self.expression.repeat,
            "total": json_number(self.total),
            "totals": [json_number(t) for t in self.totals],
            "success": self.success,
            "readings": [
                {"position": r.position, "typed": r.typed, "read": r.read, "note": r.note}
                for r in self.expression.readings
            ],
            "rolls": rolls,
        }


def _value(value: Value) -> dict[str, Any]:
    exact = exact_text(value)
    return {"value": json_number(value), **({"exact": exact} if exact else {})}


def _part_dict(part: Part) -> dict[str, Any]:
    if isinstance(part, ValueRoll):
        return {"kind": "number", **_value(part.value)}
    if isinstance(part, PoolRoll):
        return {
            "kind": "dice",
            "notation": str(part.node),
            "value": part.value,
            "dice": [die.to_dict() for die in part.dice],
        }
    if isinstance(part, OpRoll):
        node = part.node
        if isinstance(node, Call):
            head = {"kind": "function", "name": node.name}
        else:
            head = {"kind": "op", "op": "neg" if isinstance(node, Negate) else node.op}
        return {**head, **_value(part.value), "parts": [_part_dict(p) for p in part.parts]}
    return {
        "kind": "group",
        "notation": str(part.node),
        **_value(part.value),
        "kept": list(part.kept),
        "outcomes": list(part.outcomes),
        "parts": [_part_dict(p) for p in part.parts],
    }

"""Roll a parsed expression, keeping every die's history.

Each pool runs rpg-dice-roller's modifier order: ``min``/``max`` clamp the first roll; ``!``
rolls one more die (a new entry) while the last roll matches the compare point, ``!!`` adds
those rolls into the one die, ``!p`` subtracts 1 from each added roll (matched on the roll
before the subtraction); ``r`` rerolls an entry while it matches (``ro`` once), the new roll
replacing it; keep, then drop, mark entries as dropped; a success/failure compare point turns
each kept entry into +1, -1 or 0 and the pool counts them instead of adding values.

Every die is drawn with ``rng.randint`` (``randint(1, M)``, or ``randint(-1, 1)`` for F): left
to right, each pool's first rolls in order, then each entry's explosion chain, then rerolls. An
explosion chain or a reroll run longer than ``Limits.max_chain``, or more than
``Limits.max_dice_total`` dice in all, stops the roll with :class:`DiceLimitError`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Union

from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Dice,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
    Select,
    Target,
)
from rules.dice.parser import parse
from rules.errors import DiceLimitError, RulesError

__all__ = [
    "Die",
    "GroupRoll",
    "OpRoll",
    "Outcome",
    "Part",
    "PoolRoll",
    "RollResult",
    "ValueRoll",
    "roll",
    "validate",
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


# -- mutable state while rolling -----------------------------------------------------------------


@dataclass
class _Entry:
    value: int
    history: list[tuple[str, int]]
    exploded: bool = False
    added: bool = False
    penetrated: bool = False
    kept: bool = True
    outcome: int | None = None


@dataclass
class _Pool:
    node: Dice
    entries: list[_Entry]


@dataclass
class _Op:
    node: Binary | Negate
    parts: list[Any]


@dataclass
class _Group:
    node: Group
    parts: list[Any]
    kept: list[bool] = field(default_factory=list)
    outcomes: list[int | None] = field(default_factory=list)


class _Roller:
    def __init__(self, rng: random.Random, limits: Limits) -> None:
        self.rng = rng
        self.limits = limits
        self.rolled = 0

    def draw(self, dice: Dice) -> int:
        self.rolled += 1
        if self.rolled > self.limits.max_dice_total:
            raise DiceLimitError(
                f"взрывы и перебросы довели число кубиков до {self.rolled}, больше "
                f"{self.limits.max_dice_total} за бросок — бросок остановлен; уменьшите число "
                "кубиков или ослабьте «!» и «r»"
            )
        if dice.faces is None:
            return self.rng.randint(-1, 1)
        return self.rng.randint(1, dice.faces)

    def chain_error(self, dice: Dice, what: str) -> DiceLimitError:
        return DiceLimitError(
            f"у {dice}: {what} больше {self.limits.max_chain} раз подряд — бросок остановлен; "
            "проверьте источник случайности или ослабьте условие"
        )

    def node(self, node: Node) -> Any:
        if isinstance(node, Number):
            return node
        if isinstance(node, Dice):
            return self.pool(node)
        if isinstance(node, Binary):
            return _Op(node, [self.node(node.left), self.node(node.right)])
        if isinstance(node, Negate):
            return _Op(node, [self.node(node.operand)])
        return self.group(node)

    def pool(self, dice: Dice) -> _Pool:
        entries = []
        for _ in range(dice.count):
            raw = self.draw(dice)
            entry = _Entry(raw, [("rolled", raw)])
            if dice.minimum is not None and entry.value < dice.minimum:
                entry.value = dice.minimum
                entry.history.append(("min", dice.minimum))
            if dice.maximum is not None and entry.value > dice.maximum:
                entry.value = dice.maximum
                entry.history.append(("max", dice.maximum))
            entries.append(entry)
        if dice.explode is not None:
            entries = self.explode(dice, entries)
        if dice.reroll is not None:
            point, once = dice.reroll_point, dice.reroll.once
            for entry in entries:
                times = 0
                while point.match(entry.value):
                    times += 1
                    if times > self.limits.max_chain:
                        raise self.chain_error(dice, "переброс")
                    entry.value = self.draw(dice)
                    entry.history.append(("rerolled", entry.value))
                    if once:
                        break
        _select(entries, dice.keep, dice.drop)
        if dice.target is not None:
            _count(entries, dice.target)
        return _Pool(dice, entries)

    def explode(self, dice: Dice, entries: list[_Entry]) -> list[_Entry]:
        assert dice.explode is not None
        point, compound, penetrate = (
            dice.explode_point,
            dice.explode.compound,
            dice.explode.penetrate,
        )
        out: list[_Entry] = []
        for entry in entries:
            chain = [entry]
            compare = entry.value
            while point.match(compare):
                if len(chain) > self.limits.max_chain:
                    raise self.chain_error(dice, "взрыв")
                raw = self.draw(dice)
                compare = raw
                chain[-1].exploded = True
                chain.append(
                    _Entry(
                        raw - 1 if penetrate else raw,
                        [("rolled", raw)],
                        added=True,
                        penetrated=penetrate,
                    )
                )
            if compound and len(chain) > 1:
                entry.value = sum(e.value for e in chain)
                entry.history += [("exploded", e.history[0][1]) for e in chain[1:]]
                entry.penetrated = penetrate
                out.append(entry)
            else:
                out += chain
        return out

    def group(self, group: Group) -> _Group:
        parts = [self.node(item) for item in group.items]
        state = _Group(group, parts)
        selected = group.keep is not None or group.drop is not None
        if len(parts) == 1 and (selected or group.target is not None):
            entries = [e for pool in _pools(parts[0]) for e in pool.entries]
            _select(entries, group.keep, group.drop)
            if group.target is not None:
                _count(entries, group.target)
            state.kept, state.outcomes = [True], [None]
            return state
        totals = [_value(p) for p in parts]
        fake = [_Entry(t, []) for t in totals]
        _select(fake, group.keep, group.drop)
        if group.target is not None:
            _count(fake, group.target)
        state.kept = [e.kept for e in fake]
        state.outcomes = [e.outcome for e in fake]
        return state


def _pools(part: Any) -> list[_Pool]:
    if isinstance(part, _Pool):
        return [part]
    if isinstance(part, (_Op, _Group)):
        return [p for sub in part.parts for p in _pools(sub)]
    return []


def _select(entries: list[_Entry], keep: Select | None, drop: Select | None) -> None:
    """Mark entries dropped by keep, then by drop among the rest (ties: the earlier die first)."""
    for select in (keep, drop):
        if select is None:
            continue
        live = [i for i, e in enumerate(entries) if e.kept]
        ranked = sorted(live, key=lambda i: entries[i].value)  # stable: ascending, ties in order
        n, count = len(ranked), min(select.count, len(ranked))
        if select.keep:
            gone = ranked[: n - count] if select.high else ranked[count:]
        else:
            gone = ranked[n - count :] if select.high else ranked[:count]
        for i in gone:
            entries[i].kept = False


def _count(entries: list[_Entry], target: Target) -> None:
    for entry in entries:
        entry.outcome = target.outcome(entry.value) if entry.kept else 0


def _value(part: Any) -> int:
    if isinstance(part, Number):
        return part.value
    if isinstance(part, _Pool):
        return (
            sum(e.value for e in part.entries if e.kept)
            if part.node.target is None
            else sum(e.outcome or 0 for e in part.entries if e.kept)
        )
    if isinstance(part, _Op):
        values = [_value(p) for p in part.parts]
        if isinstance(part.node, Negate):
            return -values[0]
        a, b = values
        op = part.node.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            raise RulesError("делитель оказался нулём — на ноль не делят")
        return a // b
    group: _Group = part
    if len(group.parts) == 1 and (group.node.keep or group.node.drop or group.node.target):
        if group.node.target is not None:
            return sum(e.outcome or 0 for p in _pools(group.parts[0]) for e in p.entries if e.kept)
        return _value(group.parts[0])
    if group.node.target is not None:
        return sum(o or 0 for o, k in zip(group.outcomes, group.kept, strict=True) if k)
    return sum(_value(p) for p, k in zip(group.parts, group.kept, strict=True) if k)


def _freeze(part: Any) -> Part:
    if isinstance(part, Number):
        return ValueRoll(part, part.value)
    if isinstance(part, _Pool):
        dice = tuple(
            Die(e.value, tuple(e.history), e.exploded, e.added, e.penetrated, e.kept, e.outcome)
            for e in part.entries
        )
        return PoolRoll(part.node, dice, _value(part))
    if isinstance(part, _Op):
        return OpRoll(part.node, tuple(_freeze(p) for p in part.parts), _value(part))
    return GroupRoll(
        part.node,
        tuple(_freeze(p) for p in part.parts),
        tuple(part.kept),
        tuple(part.outcomes),
        _value(part),
    )


def validate(expression: Expression, limits: Limits = DEFAULT_LIMITS) -> None:
    """Check a (possibly hand-built) expression against the limits by parsing its notation.

    Raises:
        DiceSyntaxError: a pool that cannot be rolled (``d6r<=6``, a divisor that may be 0).
        DiceBoundsError: a count, faces, keep or total dice out of bounds.
    """
    parse(str(expression), limits)


def roll(expr: str | Expression, rng: random.Random, limits: Limits = DEFAULT_LIMITS) -> RollResult:
    """Roll an expression, keeping every die (dropped ones too, with ``kept=False``).

    Args:
        expr: dice notation or an already parsed expression.
        rng: the session's random source; same seed and input give the same result.
        limits: the bounds to apply.

    Returns:
        The result: one :class:`Outcome` per repeat, each with its tree of rolls.

    Raises:
        DiceSyntaxError: the text cannot be parsed.
        DiceLimitError: a bound is broken, including explosions past the dice or chain cap.
    """
    expression = parse(expr, limits) if isinstance(expr, str) else expr
    if not isinstance(expr, str):
        validate(expression, limits)
    roller = _Roller(rng, limits)
    outcomes = []
    for _ in range(expression.repeat):
        tree = _freeze(roller.node(expression.root))
        total = tree.value
        success = None if expression.target is None else total >= expression.target
        outcomes.append(Outcome(tree, total, success))
    return RollResult(expression, tuple(outcomes))

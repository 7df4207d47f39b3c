"""Roll a parsed expression, keeping every die's history.

Each pool runs rpg-dice-roller's modifier order: ``min``/``max`` clamp the first roll; ``!``
rolls one more die (a new entry) while the last roll matches the compare point, ``!!`` adds
those rolls into the one die, ``!p`` subtracts 1 from each added roll (matched on the roll
before the subtraction); ``r`` rerolls an entry while it matches (``ro`` once), the new roll
replacing it; ``u`` rolls an entry again while an earlier one shows its value (``uo`` once);
keep and drop mark entries as dropped, each looking at the whole pool; a success/failure
compare point turns each kept entry into +1, -1 or 0 and the pool counts them instead of adding
values; ``cs``/``cf`` mark criticals and ``s`` sorts, changing no value.

Every die is drawn with ``rng.randint`` (``randint(1, M)``, ``randint(-1, 1)`` for F,
``randint(1, 6)`` for ``F.1``): left to right, each pool's first rolls in order, then each
entry's explosion chain, then rerolls, then unique rolls (one draw among the faces the entry
may show). An explosion chain or a reroll run longer than ``Limits.max_chain``, or more than
``Limits.max_dice_total`` dice in all, stops the roll with :class:`DiceLimitError`.

Numbers are exact (:mod:`rules.dice.values`): ``/`` keeps the fraction, and the total is
rpg-dice-roller's, the value to two decimals.

This module walks the tree and totals it; one pool's modifiers are rolled in
:mod:`rules.dice.roller_pool`, and the frozen result is in :mod:`rules.dice.results`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Call,
    Dice,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
)
from rules.dice.parser import parse
from rules.dice.results import (
    Die,
    GroupRoll,
    OpRoll,
    Outcome,
    Part,
    PoolRoll,
    RollResult,
    ValueRoll,
)
from rules.dice.roller_pool import PoolRoller, _count, _Entry, _Pool, _select
from rules.dice.values import Value, apply, call

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


@dataclass
class _Op:
    node: Binary | Negate | Call
    parts: list[Any]


@dataclass
class _Group:
    node: Group
    parts: list[Any]
    kept: list[bool] = field(default_factory=list)
    outcomes: list[int | None] = field(default_factory=list)


class _Roller(PoolRoller):
    def node(self, node: Node) -> Any:
        if isinstance(node, Number):
            return node
        if isinstance(node, Dice):
            return self.pool(node)
        if isinstance(node, Binary):
            return _Op(node, [self.node(node.left), self.node(node.right)])
        if isinstance(node, Negate):
            return _Op(node, [self.node(node.operand)])
        if isinstance(node, Call):
            return _Op(node, [self.node(arg) for arg in node.args])
        return self.group(node)

    def group(self, group: Group) -> _Group:
        parts = [self.node(item) for item in group.items]
        state = _Group(group, parts)
        if len(parts) == 1:
            # one sub-roll: keep and drop act on the dice of its pools; success compares its
            # total (rpg-dice-roller)
            if group.selects:
                pools = _pools(parts[0])
                entries = [e for pool in pools for e in pool.entries]
                _select(entries, group.selects)
            outcome = None if group.target is None else group.target.outcome(_value(parts[0]))
            state.kept, state.outcomes = [True], [outcome]
            if group.sort is not None:
                _sort_dice(parts[0], group.sort)
            return state
        totals = [_value(p) for p in parts]
        fake = [_Entry(t, []) for t in totals]  # type: ignore[arg-type]  # ranked, not added
        _select(fake, group.selects)
        if group.target is not None:
            _count(fake, group.target)
        state.kept = [e.kept for e in fake]
        state.outcomes = [e.outcome for e in fake]
        if group.sort is not None:
            order = sorted(range(len(parts)), key=lambda i: totals[i], reverse=group.sort == "d")
            state.parts = [parts[i] for i in order]
            state.kept = [state.kept[i] for i in order]
            state.outcomes = [state.outcomes[i] for i in order]
            for part in state.parts:
                _sort_dice(part, group.sort)
        return state


def _sort_dice(part: Any, direction: str) -> None:
    """A group's ``s`` sorts the dice of every pool in it too."""
    for pool in _pools(part):
        pool.entries.sort(key=lambda e: e.value, reverse=direction == "d")


def _pools(part: Any) -> list[_Pool]:
    if isinstance(part, _Pool):
        return [part]
    if isinstance(part, _Op):
        return [p for sub in part.parts for p in _pools(sub)]
    if isinstance(part, _Group):
        return [p for sub in part.parts for p in _pools(sub)]
    return []


def _value(part: Any) -> Value:
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
        node = part.node
        if isinstance(node, Negate):
            return -values[0]
        if isinstance(node, Call):
            return call(node.name, tuple(values))
        return apply(node.op, values[0], values[1])
    group: _Group = part
    if group.node.target is not None:
        return sum(o or 0 for o, k in zip(group.outcomes, group.kept, strict=True) if k)
    return sum(_value(p) for p, k in zip(group.parts, group.kept, strict=True) if k)


def _freeze(part: Any) -> Part:
    if isinstance(part, Number):
        return ValueRoll(part, part.value)
    if isinstance(part, _Pool):
        dice = tuple(
            Die(
                e.value,
                tuple(e.history),
                e.exploded,
                e.added,
                e.penetrated,
                e.kept,
                e.outcome,
                e.critical_success,
                e.critical_failure,
            )
            for e in part.entries
        )
        return PoolRoll(part.node, dice, _value(part))  # type: ignore[arg-type]
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
        RulesError: a value with no number (a divisor of zero the parser could not rule out).
    """
    expression = parse(expr, limits) if isinstance(expr, str) else expr
    if not isinstance(expr, str):
        validate(expression, limits)
    roller = _Roller(rng, limits)
    outcomes = []
    for _ in range(expression.repeat):
        tree = _freeze(roller.node(expression.root))
        outcomes.append(Outcome.of(tree, expression.target))
    return RollResult(expression, tuple(outcomes))

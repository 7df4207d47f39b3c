"""The range a node can roll (lowest and highest value), without rolling it.

Used to refuse a divisor that may be zero, a square root or logarithm that may have no value
and a number that may pass ±10¹⁵ before rolling, and by the tests to check that every roll
lands inside its range. Ranges are exact for sums; under keep, drop, ``*``, ``%``, powers and
functions they may be wider than the truth, never narrower (``tan`` over a pole: unbounded).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Call,
    Dice,
    Group,
    Limits,
    Negate,
    Node,
    Number,
    kept_range,
)
from rules.dice.values import Value, is_whole, magnitude

__all__ = ["bounds", "integral", "loose_bounds", "static_dice"]

_Range = tuple[Value, Value]


def static_dice(node: Node) -> int:
    """Return the number of dice a node rolls before any explosion or reroll."""
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, Group):
        return sum(static_dice(item) for item in node.items)
    if isinstance(node, Binary):
        return static_dice(node.left) + static_dice(node.right)
    if isinstance(node, Negate):
        return static_dice(node.operand)
    if isinstance(node, Call):
        return sum(static_dice(a) for a in node.args)
    return 0


def integral(node: Node) -> bool:
    """Whether a node's value is always a whole number."""
    if isinstance(node, Number):
        return is_whole(node.value)
    if isinstance(node, Dice):
        return True
    if isinstance(node, Negate):
        return integral(node.operand)
    if isinstance(node, Binary):
        if node.op in "+-*%":
            return integral(node.left) and integral(node.right)
        if node.op == "^":
            low = bounds(node.right)[0]
            return integral(node.left) and integral(node.right) and low >= 0
        return False
    if isinstance(node, Call):
        if node.name in ("ceil", "floor", "round", "sign"):
            return True
        if node.name in ("abs", "max", "min"):
            return all(integral(a) for a in node.args)
        return False
    assert isinstance(node, Group)
    if node.target is not None:
        return True
    return all(integral(item) for item in node.items)


def entry_range(dice: Dice, limits: Limits) -> tuple[int, int, int]:
    """Return (lowest value, highest value, most entries) of one pool's dice entries."""
    low, high = dice.low, dice.high
    first_low = max(low, dice.minimum) if dice.minimum is not None else low
    first_high = min(high, dice.maximum) if dice.maximum is not None else high
    lo, hi = first_low, first_high
    entries = dice.count
    if dice.explode is not None:
        extra_low, extra_high = (low - 1, high - 1) if dice.explode.penetrate else (low, high)
        chain = limits.max_chain
        if dice.explode.compound:
            lo = min(lo, lo + chain * extra_low)
            hi = max(hi, hi + chain * extra_high)
        else:
            lo, hi = min(lo, extra_low), max(hi, extra_high)
            entries = min(dice.count * (chain + 1), limits.max_dice_total)
    if dice.reroll is not None or dice.unique is not None:
        lo, hi = min(lo, low), max(hi, high)
    return lo, hi, entries


def _scale(lo: int, hi: int, least: int, most: int) -> tuple[int, int]:
    """The range of a sum of between ``least`` and ``most`` values, each in lo..hi."""
    return min(least * lo, most * lo), max(least * hi, most * hi)


def _kept_counts(selects: tuple, least: int, most: int) -> tuple[int, int]:
    """Fewest and most entries the selections keep of between ``least`` and ``most``."""
    if not selects:
        return least, most
    sizes = [b - a for a, b in (kept_range(selects, n) for n in (least, most))]
    if len(selects) > 1:  # the kept count need not be monotone in the pool's size
        return 0, max(sizes)
    return min(sizes), max(sizes)


def _corners(op: str, a: _Range, b: _Range) -> _Range:
    values: list[Value] = []
    for x in a:
        for y in b:
            if op == "*":
                if x == 0 or y == 0:
                    values.append(0)
                elif isinstance(x, float) or isinstance(y, float):
                    values.append(float(x) * float(y))  # an infinite end stays infinite
                else:
                    values.append(x * y)
            elif isinstance(x, float) or isinstance(y, float):
                values.append(float(x) / float(y))
            else:
                values.append(Fraction(x) / y)
    return min(values), max(values)


def _power(a: _Range, b: _Range, whole_exponent: bool) -> _Range:
    """The range of ``x ^ y`` (refusals of a power with no value are the parser's checks)."""
    xs: set[Value] = {a[0], a[1]}
    xs |= {v for v in (-1, 0, 1) if a[0] <= v <= a[1]}
    ys: set[Value]
    if whole_exponent and math.isfinite(b[0]) and math.isfinite(b[1]):
        lo, hi = math.ceil(b[0]), math.floor(b[1])
        ys = {y for y in (lo, hi, lo + 1, hi - 1, 0) if lo <= y <= hi}
    else:
        ys = {b[0], b[1]}
    values = []
    for x in xs:
        for y in ys:
            if x == 0 and y < 0:
                continue
            if x < 0 and not is_whole(y):
                continue
            try:
                values.append(_exact_power(x, y))
            except (OverflowError, ZeroDivisionError):
                values.append(math.inf)
    if not values:
        return 0, 0
    return min(values), max(values)


def _exact_power(x: Value, y: Value) -> Value:
    """``x ^ y`` as the roller gives it: exact for a whole power of an exact number of
    moderate size (a float's 1/3 lies below the roller's exact 1/3), a float otherwise."""
    if isinstance(x, float) or not is_whole(y) or x == 0:
        return float(x) ** float(y)
    size = int(y) * math.log2(magnitude(x))  # as the roller sizes it (values._power)
    if not -200 <= size <= 60:  # the roller's float, or beyond what it rolls at all
        return float(x) ** float(y)
    return Fraction(x) ** int(y)


def _call(node: Call, limits: Limits) -> _Range:
    ranges = [bounds(a, limits) for a in node.args]
    lo, hi = ranges[0]
    name = node.name
    if name == "abs":
        low_end = 0 if lo <= 0 <= hi else min(magnitude(lo), magnitude(hi))
        return low_end, max(magnitude(lo), magnitude(hi))
    if name in ("ceil", "floor", "round"):
        return math.floor(lo) if math.isfinite(lo) else lo, math.ceil(hi) if math.isfinite(
            hi
        ) else hi
    if name == "sign":
        return (lo > 0) - (lo < 0), (hi > 0) - (hi < 0)
    if name in ("max", "min"):
        pick = max if name == "max" else min
        return pick(lo, ranges[1][0]), pick(hi, ranges[1][1])
    if name == "pow":
        return _power(ranges[0], ranges[1], integral(node.args[1]))
    if name == "sqrt":
        return math.sqrt(max(lo, 0)), math.sqrt(max(hi, 0))
    if name == "exp":
        try:
            return math.exp(lo), math.exp(hi)
        except OverflowError:
            return math.exp(min(lo, 700)), math.inf
    if name == "log":
        return (math.log(lo) if lo > 0 else -math.inf), (math.log(hi) if hi > 0 else -math.inf)
    if name in ("sin", "cos"):
        return -1, 1
    assert name == "tan"
    if math.isfinite(lo) and math.isfinite(hi):
        k_lo = math.floor((lo + math.pi / 2) / math.pi)
        k_hi = math.floor((hi + math.pi / 2) / math.pi)
        if k_lo == k_hi:  # no pole in between: tan rises from end to end
            return math.tan(lo), math.tan(hi)
    return -math.inf, math.inf


def bounds(node: Node, limits: Limits = DEFAULT_LIMITS) -> _Range:
    """Return (lowest, highest) the node can roll.

    Args:
        node: a parsed node.
        limits: the bounds that cap explosion chains and dice.
    """
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Negate):
        lo, hi = bounds(node.operand, limits)
        return -hi, -lo
    if isinstance(node, Call):
        return _call(node, limits)
    if isinstance(node, Binary):
        a, b = bounds(node.left, limits), bounds(node.right, limits)
        if node.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if node.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if node.op == "*":
            return _corners("*", a, b)
        if node.op == "/":
            if b[0] <= 0 <= b[1]:  # refused by the parser; wide enough for its message
                return -math.inf, math.inf
            return _corners("/", a, b)
        if node.op == "%":
            top = max(magnitude(b[0]), magnitude(b[1]))
            if b[0] > 0:
                return 0, min(top, max(a[1], 0)) if a[0] >= 0 else top
            if b[1] < 0:
                return -top, 0
            return -top, top
        return _power(a, b, integral(node.right))
    if isinstance(node, Dice):
        lo, hi, entries = entry_range(node, limits)
        least, most = _kept_counts(node.selects, node.count, entries)
        if node.target is not None:
            fail = 1 if node.target.failure is not None else 0
            return -fail * most, most
        return _scale(lo, hi, least, most)
    assert isinstance(node, Group)
    if node.target is not None:
        fail = 1 if node.target.failure is not None else 0
        return -fail * len(node.items), len(node.items)
    ranges = [bounds(item, limits) for item in node.items]
    if not node.selects:
        return sum(r[0] for r in ranges), sum(r[1] for r in ranges)
    if len(node.items) == 1:
        # any of its dice may be dropped: each pool spans from none kept to all kept
        return _loose(node.items[0], limits)
    return sum(min(r[0], 0) for r in ranges), sum(max(r[1], 0) for r in ranges)


def loose_bounds(node: Node, limits: Limits = DEFAULT_LIMITS) -> _Range:
    """The range of a one-expression group's body, whose pools may keep any of their dice."""
    return _loose(node, limits)


def _loose(node: Node, limits: Limits) -> _Range:
    """The range of an expression whose pools may each keep any number of their entries."""
    if isinstance(node, Dice):
        e_lo, e_hi, entries = entry_range(node, limits)
        return _scale(e_lo, e_hi, 0, entries)
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Negate):
        lo, hi = _loose(node.operand, limits)
        return -hi, -lo
    if isinstance(node, Binary):
        a, b = _loose(node.left, limits), _loose(node.right, limits)
        if node.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if node.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if node.op == "*":
            return _corners("*", a, b)
        if node.op == "/" and not b[0] <= 0 <= b[1]:
            return _corners("/", a, b)
        return -math.inf, math.inf
    if isinstance(node, Call):
        return -math.inf, math.inf
    return bounds(node, limits)

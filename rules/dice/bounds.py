"""The range a node can roll (lowest and highest total), without rolling it.

Used to refuse a divisor that may be zero before rolling, and by the tests to check that every
roll lands inside its range. Ranges are exact for sums; under keep, drop or ``*`` they may be
wider than the truth, never narrower.
"""

from __future__ import annotations

from rules.dice.model import DEFAULT_LIMITS, Binary, Dice, Group, Limits, Negate, Node, Number

__all__ = ["bounds", "static_dice"]


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
    return 0


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
    if dice.reroll is not None:
        lo, hi = min(lo, low), max(hi, high)
    return lo, hi, entries


def _scale(lo: int, hi: int, least: int, most: int) -> tuple[int, int]:
    """The range of a sum of between ``least`` and ``most`` values, each in lo..hi."""
    return min(least * lo, most * lo), max(least * hi, most * hi)


def bounds(node: Node, limits: Limits = DEFAULT_LIMITS) -> tuple[int, int]:
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
    if isinstance(node, Binary):
        a, b = bounds(node.left, limits), bounds(node.right, limits)
        if node.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if node.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if node.op == "*":
            products = [x * y for x in a for y in b]
        else:
            # the divisor never spans 0 (the parser refuses it), so the ends are extremes
            products = [x // y for x in a for y in b if y != 0] or [0]
        return min(products), max(products)
    if isinstance(node, Dice):
        lo, hi, entries = entry_range(node, limits)
        least = node.count
        if node.keep is not None:
            least, entries = min(least, node.keep.count), min(entries, node.keep.count)
        if node.drop is not None:
            least = max(0, least - node.drop.count)
        if node.target is not None:
            fail = 1 if node.target.failure is not None else 0
            return -fail * entries, entries
        return _scale(lo, hi, least, entries)
    assert isinstance(node, Group)
    if node.target is not None:
        if len(node.items) > 1:
            most = len(node.items)
        else:
            most = min(
                limits.max_dice_total, sum(entry_range(n, limits)[2] for n in _pools(node.items[0]))
            )
        fail = 1 if node.target.failure is not None else 0
        return -fail * most, most
    ranges = [bounds(item, limits) for item in node.items]
    if node.keep is None and node.drop is None:
        return sum(r[0] for r in ranges), sum(r[1] for r in ranges)
    if len(node.items) == 1:
        # any of its dice may be dropped: each pool spans from none kept to all kept
        lo = hi = 0
        for sign, item in _signed(node.items[0]):
            if isinstance(item, Number):
                lo, hi = lo + sign * item.value, hi + sign * item.value
                continue
            e_lo, e_hi, entries = entry_range(item, limits)
            p_lo, p_hi = _scale(e_lo, e_hi, 0, entries)
            lo, hi = (lo + p_lo, hi + p_hi) if sign > 0 else (lo - p_hi, hi - p_lo)
        return lo, hi
    return sum(min(r[0], 0) for r in ranges), sum(max(r[1], 0) for r in ranges)


def _pools(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, Binary):
        return _pools(node.left) + _pools(node.right)
    if isinstance(node, Negate):
        return _pools(node.operand)
    if isinstance(node, Group):
        return [p for item in node.items for p in _pools(item)]
    return []


def _signed(node: Node, sign: int = 1) -> list[tuple[int, Dice | Number]]:
    """The signed dice pools and numbers of a sum (a single-expression group's body)."""
    if isinstance(node, Binary):
        right = sign if node.op == "+" else -sign
        return _signed(node.left, sign) + _signed(node.right, right)
    if isinstance(node, Negate):
        return _signed(node.operand, -sign)
    assert isinstance(node, (Dice, Number))
    return [(sign, node)]

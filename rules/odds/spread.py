"""Distributions whose values are not consecutive integers: fractions, floats, sparse products.

The lattice ``(offset, weights, denominator)`` of :mod:`rules.odds.weights` holds every total
of a plain pool; after ``/`` (``1d100/2``), a maths function (``sqrt(4d10)``) or a product that
leaves gaps (``d1000*d1000``) a node's values are held here instead: a :class:`Spread`, each
value with its integer weight over one denominator. Operators and functions act value by value
through :mod:`rules.dice.values`, the very arithmetic the roller uses, so every rolled total is
a total of its distribution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from rules.dice.values import Value, apply, call, total_of
from rules.odds.weights import _add, _Dist, _neg, _Work


class Spread:
    """Values with integer weights over one denominator (a value may be any number)."""

    __slots__ = ("denominator", "table")

    def __init__(self, table: dict[Value, int], denominator: int) -> None:
        self.table = table
        self.denominator = denominator


_Any = _Dist | Spread


def items(a: _Any) -> list[tuple[Value, int]]:
    """The (value, weight) pairs of a distribution, weights above zero."""
    if isinstance(a, Spread):
        return [(v, w) for v, w in a.table.items() if w]
    offset, weights, _ = a
    return [(offset + i, w) for i, w in enumerate(weights) if w]


def denominator(a: _Any) -> int:
    return a.denominator if isinstance(a, Spread) else a[2]


def settle(table: dict[Value, int], den: int) -> _Any:
    """A lattice when every value is a whole number not too thinly spread, else a Spread."""
    table = {v: w for v, w in table.items() if w}
    if not table:
        return 0, [0], den
    whole: dict[int, int] = {}
    for value, weight in table.items():
        if isinstance(value, int):
            key = value
        elif isinstance(value, Fraction) and value.denominator == 1:
            key = value.numerator
        else:
            return Spread(table, den)
        whole[key] = whole.get(key, 0) + weight
    low, high = min(whole), max(whole)
    if high - low + 1 > 8 * len(whole) + 64:
        return Spread(whole, den)  # type: ignore[arg-type]
    return low, [whole.get(v, 0) for v in range(low, high + 1)], den


def from_pairs(pairs: Iterable[tuple[Value, int]], den: int) -> _Any:
    table: dict[Value, int] = {}
    for value, weight in pairs:
        if weight:
            table[value] = table.get(value, 0) + weight
    return settle(table, den)


def negate(a: _Any) -> _Any:
    if isinstance(a, Spread):
        return Spread({-v: w for v, w in a.table.items()}, a.denominator)
    return _neg(a)


def _per_value(pairs: list[tuple[Value, int]]) -> int:
    """Steps of one operation on one value: a fraction or float costs several times an int,
    and long weights a little more."""
    exact = any(not isinstance(v, int) for v, _ in pairs[:64])
    bits = max((w.bit_length() for _, w in pairs[:64]), default=0)
    return (150 if exact else 25) + bits // 64


def mapped(a: _Any, f: Callable[[Value], Value], work: _Work) -> _Any:
    """The distribution of ``f(x)``."""
    pairs = items(a)
    work.take(len(pairs) * (_per_value(pairs) + 60))
    return from_pairs(((f(v), w) for v, w in pairs), denominator(a))


def combine(op: str, a: _Any, b: _Any, work: _Work) -> _Any:
    """``a op b`` over every pair of values (``+``/``-`` of two lattices convolve instead)."""
    if op in "+-" and not isinstance(a, Spread) and not isinstance(b, Spread):
        return _add(a, b if op == "+" else _neg(b), work)
    left, right = items(a), items(b)
    work.take(len(left) * len(right) * (_per_value(left) + _per_value(right)) + 10)
    table: dict[Value, int] = {}
    for wx, xs in _by_weight(left):
        for wy, ys in _by_weight(right):
            weight = wx * wy
            for x in xs:
                for y in ys:
                    value = apply(op, x, y)
                    table[value] = table.get(value, 0) + weight
    return settle(table, denominator(a) * denominator(b))


def function(name: str, args: list[_Any], work: _Work) -> _Any:
    """A maths function of one or two distributions."""
    if len(args) == 1:
        return mapped(args[0], lambda v: call(name, (v,)), work)
    left, right = items(args[0]), items(args[1])
    work.take(len(left) * len(right) * (_per_value(left) + _per_value(right) + 60) + 10)
    table: dict[Value, int] = {}
    for x, wx in left:
        for y, wy in right:
            value = call(name, (x, y))
            table[value] = table.get(value, 0) + wx * wy
    return settle(table, denominator(args[0]) * denominator(args[1]))


def _by_weight(pairs: list[tuple[Value, int]]) -> list[tuple[int, list[Value]]]:
    """The values grouped by weight (a die's: one group), so a pair of groups is one weight."""
    groups: dict[int, list[Value]] = {}
    for value, weight in pairs:
        groups.setdefault(weight, []).append(value)
    return list(groups.items())


def totals(a: _Any) -> tuple[list[int | Fraction], list[int], int]:
    """The totals rpg-dice-roller shows (two decimals) with their weights, ascending."""
    if not isinstance(a, Spread):
        offset, weights, den = a
        return [offset + i for i, w in enumerate(weights) if w], [w for w in weights if w], den
    merged: dict[int | Fraction, int] = {}
    for value, weight in a.table.items():
        if weight:
            key = total_of(value)
            merged[key] = merged.get(key, 0) + weight
    keys = sorted(merged)
    return keys, [merged[k] for k in keys], a.denominator

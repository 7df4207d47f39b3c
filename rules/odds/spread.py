"""Distributions whose values are not consecutive integers: fractions, floats, sparse products.

The lattice ``(offset, weights, denominator)`` of :mod:`rules.odds.weights` holds every total
of a plain pool; after ``/`` (``1d100/2``), a maths function (``sqrt(4d10)``) or a product that
leaves gaps (``d1000*d1000``) a node's values are held here instead: a :class:`Spread`, each
value with its integer weight over one denominator. Operators and functions act value by value
through :mod:`rules.dice.values`, the very arithmetic the roller uses, so every rolled total is
a total of its distribution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import compress, product, repeat, starmap
from operator import add, mod, mul, sub

from rules.dice.values import MAX_MAGNITUDE, Value, apply, call, norm, total_of
from rules.odds.weights import _add, _Dist, _neg, _trim, _Work


class Spread:
    """Values with integer weights over one denominator (a value may be any number).

    With a ``scale``, the keys are whole numbers standing for ``key / scale`` (``4d6/3``: each
    total once, no fraction made until one is shown).
    """

    __slots__ = ("denominator", "scale", "table")

    def __init__(self, table: dict[Value, int], denominator: int, scale: int = 1) -> None:
        self.table = table
        self.denominator = denominator
        self.scale = scale


_Any = _Dist | Spread


def items(a: _Any) -> list[tuple[Value, int]]:
    """The (value, weight) pairs of a distribution, weights above zero."""
    if isinstance(a, Spread):
        if a.scale != 1:
            scale = a.scale
            return [(norm(Fraction(int(k), scale)), w) for k, w in a.table.items() if w]
        return [(v, w) for v, w in a.table.items() if w]
    offset, weights, _ = a
    return [(offset + i, w) for i, w in enumerate(weights) if w]


def denominator(a: _Any) -> int:
    return a.denominator if isinstance(a, Spread) else a[2]


def settle(
    table: dict[Value, int], den: int, whole: bool = False, ends: tuple[int, int] | None = None
) -> _Any:
    """A lattice when every value is a whole number not too thinly spread, else a Spread
    (``whole``: the caller knows every value is an int; ``ends``: and its least and most)."""
    if not whole and not set(map(type, table)) <= {int}:
        table = {norm(v): w for v, w in table.items() if w}
        if not table:
            return 0, [0], den
        if not set(map(type, table)) <= {int}:
            return Spread(table, den)
    if not table:
        return 0, [0], den
    low, high = ends or (int(min(table)), int(max(table)))  # every value is an int by now
    if high - low + 1 > 8 * len(table) + 64:
        return Spread({v: w for v, w in table.items() if w}, den)
    return low, list(map(table.get, range(low, high + 1), repeat(0))), den


def from_pairs(pairs: Iterable[tuple[Value, int]], den: int) -> _Any:
    table: dict[Value, int] = {}
    for value, weight in pairs:
        if weight:
            table[value] = table.get(value, 0) + weight
    return settle(table, den)


def negate(a: _Any) -> _Any:
    if isinstance(a, Spread):
        return Spread({-v: w for v, w in a.table.items()}, a.denominator, a.scale)
    return _neg(a)


def _per_value(whole: bool, den: int) -> int:
    """Steps of one operation on one value: a fraction or float costs several times an int,
    and long weights (at most the denominator) a little more."""
    return (25 if whole else 150) + den.bit_length() // 64


def _whole(pairs: list[tuple[Value, int]]) -> bool:
    return set(map(type, (v for v, _ in pairs))) <= {int}


def mapped(a: _Any, f: Callable[[Value], Value], work: _Work) -> _Any:
    """The distribution of ``f(x)``."""
    pairs = items(a)
    work.take(len(pairs) * (_per_value(_whole(pairs), denominator(a)) + 60))
    return from_pairs(((f(v), w) for v, w in pairs), denominator(a))


#: Operators on two whole numbers, as C functions (``/`` makes a Fraction: exact).
_WHOLE_OPS = {"+": add, "-": sub, "*": mul, "%": mod, "/": Fraction}


def _one_whole(a: _Any) -> bool:
    """Whether a distribution is one whole number (a lattice of one weight)."""
    return not isinstance(a, Spread) and len(a[1]) == 1 and type(a[0]) is int


def _stretched(a: _Dist, c: int, wc: int, den_c: int) -> _Dist:
    """A lattice times a whole number: its weights spread ``c`` apart (turned over for a
    negative ``c``), the ends checked within ±10¹⁵ as a roll checks them."""
    offset, weights, den = a
    if c == 0:
        return 0, [sum(weights) * wc], den * den_c
    stretched = [0] * ((len(weights) - 1) * abs(c) + 1)
    stretched[:: abs(c)] = weights if wc == 1 else [w * wc for w in weights]
    apply("*", offset, c)
    apply("*", offset + len(weights) - 1, c)
    if c > 0:
        return offset * c, stretched, den * den_c
    return (offset + len(weights) - 1) * c, stretched[::-1], den * den_c


def _times(a: _Dist, b: _Dist, work: _Work) -> _Dist | None:
    """The product of two lattices, one row per value of ``a``: the products ``x * y`` of one
    ``x`` lie ``x`` apart, so each row is one strided slice added at C speed; None when the
    products are too thinly spread for a list (a Spread is made of the pairs instead)."""
    (oa, wa, da), (ob, wb, db) = a, b
    xa, xb = oa + len(wa) - 1, ob + len(wb) - 1
    corners = (oa * ob, oa * xb, xa * ob, xa * xb)
    low, high = min(corners), max(corners)
    if high - low + 1 > 16 * len(wa) * len(wb) + 64:
        return None
    bits = (da * db).bit_length()  # the weights' size: each addition is of such numbers
    work.take(len(wa) * (len(wb) * (2 + bits // 32) + 20) + (high - low) // 4 + 10)
    if max(-low, high) > MAX_MAGNITUDE:
        apply("+", high if high > -low else low, 0)  # past ±10¹⁵: refused, as a roll is
    dense = [0] * (high - low + 1)
    total_b = sum(wb)
    for i, w in enumerate(wa):
        if not w:
            continue
        x = oa + i
        if x == 0:
            dense[-low] += w * total_b
            continue
        weights = wb if w == 1 else [w * v for v in wb]
        if x > 0:
            row = slice(x * ob - low, x * xb - low + 1, x)
        else:  # the products fall as y rises: the same row read from its other end
            row = slice(x * xb - low, x * ob - low + 1, -x)
            weights = weights[::-1]
        dense[row] = map(add, dense[row], weights)
    return _trim((low, dense, da * db))


def combine(op: str, a: _Any, b: _Any, work: _Work) -> _Any:
    """``a op b`` over every pair of values (``+``/``-`` of two lattices convolve instead)."""
    if op in "+-" and not isinstance(a, Spread) and not isinstance(b, Spread):
        return _add(a, b if op == "+" else _neg(b), work)
    if op in "*/" and _one_whole(b) and not isinstance(a, Spread):
        c, wc = b[0], b[1][0]  # type: ignore[index]  # by one whole number: no pairs to make
        work.take(len(a[1]) * 30 + 10)
        if op == "*":
            return _stretched(a, c, wc, b[2])  # type: ignore[index]
        if c:
            sign = 1 if c > 0 else -1
            offset, weights, den = a
            keys: dict[Value, int] = {
                sign * (offset + i): w * wc for i, w in enumerate(weights) if w
            }
            return Spread(keys, den * b[2], abs(c))  # type: ignore[index]
    if op == "*" and not isinstance(a, Spread) and not isinstance(b, Spread):
        product_ = _times(a, b, work)
        if product_ is not None:
            return product_
    left, right = items(a), items(b)
    whole = _whole(left) and _whole(right)
    price = _per_value(whole, denominator(a)) + _per_value(whole, denominator(b))
    work.take(len(left) * len(right) * price + 10)
    if whole and op == "*" and len(right) == 1 and not isinstance(a, Spread):
        c, wc = int(right[0][0]), right[0][1]  # by one number: the lattice stretched
        return _stretched(a, c, wc, denominator(b))
    if whole and op == "*" and len(left) == 1 and not isinstance(b, Spread):
        return combine("*", b, a, work)
    if whole and op == "/" and len(right) == 1 and right[0][0]:
        c, wc = int(right[0][0]), right[0][1]  # by one number: the values keep their order
        sign = 1 if c > 0 else -1
        scaled: dict[Value, int] = {sign * int(v): w * wc for v, w in left}
        return Spread(scaled, denominator(a) * denominator(b), abs(c))
    if whole and op in _WHOLE_OPS and not (op in "/%" and any(v == 0 for v, _ in right)):
        # whole numbers: each pair of weight classes is one C-level count (the division by
        # zero and the size checks stay with apply(): the extremes are checked here)
        f: Callable[[int, int], Value] = _WHOLE_OPS[op]  # type: ignore[assignment]
        classes = [(wx * wy, xs, ys) for wx, xs in _by_weight(left) for wy, ys in _by_weight(right)]
        counted: Counter[Value] = Counter()
        for weight, xs, ys in classes:
            counts: Counter[Value] = Counter(starmap(f, product(xs, ys)))
            if len(classes) == 1 and weight == 1:
                counted = counts  # one class of weight 1 (two dice): nothing to add up
            elif weight == 1:
                counted.update(counts)
            else:
                for value, times in counts.items():
                    counted[value] += times * weight
        low, high = min(counted), max(counted)
        if max(-low, high) > MAX_MAGNITUDE:
            apply("+", high if high > -low else low, 0)  # past ±10¹⁵: refused, as a roll is
        if op == "/":
            return settle(counted, denominator(a) * denominator(b))
        return settle(counted, denominator(a) * denominator(b), True, (low, high))  # type: ignore[arg-type]
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
    whole = _whole(left) and _whole(right)
    price = _per_value(whole, denominator(args[0])) + _per_value(whole, denominator(args[1]))
    work.take(len(left) * len(right) * (price + 60) + 10)
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
        return (
            list(compress(range(offset, offset + len(weights)), weights)),
            list(filter(None, weights)),
            den,
        )
    if a.scale != 1:  # whole keys over one scale: sorted as numbers, made fractions once
        scale, den = a.scale, a.denominator
        keys = sorted(int(k) for k, w in a.table.items() if w)
        if 100 % scale == 0:  # already two decimals at most
            shown_keys = [norm(Fraction(k, scale)) for k in keys]
            return shown_keys, [a.table[k] for k in keys], den  # type: ignore[return-value]
        rounded: dict[int | Fraction, int] = {}
        for k in keys:
            total = total_of(Fraction(k, scale))
            rounded[total] = rounded.get(total, 0) + a.table[k]
        return list(rounded), list(rounded.values()), den
    rows = [(v, w) for v, w in a.table.items() if w]
    if all(type(v) is int or (type(v) is Fraction and 100 % v.denominator == 0) for v, _ in rows):
        shown = rows  # every value already has two decimals at most: nothing to merge
    else:
        merged: dict[int | Fraction, int] = {}
        for value, weight in rows:
            key = total_of(value)
            merged[key] = merged.get(key, 0) + weight
        shown = list(merged.items())
    # by float: two totals of two decimals never share one (and a Fraction compares slowly)
    shown.sort(key=lambda row: float(row[0]))
    return [v for v, _ in shown], [w for _, w in shown], a.denominator  # type: ignore[misc]

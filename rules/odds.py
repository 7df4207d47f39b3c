"""Exact outcome distributions of dice expressions, as fractions (no sampling).

Every node of the parsed tree becomes a distribution: integer weights over a common
denominator on consecutive totals (``offset``, ``weights``, ``denominator``), so all the
arithmetic is exact. The pieces:

* one die is described by its *entries*: the first roll (clamped by ``min``/``max``), and, for
  ``!``, each roll an explosion adds (``!p``: minus 1); each entry carries its value after
  rerolls (``r`` conditions on the faces that do not match, ``ro`` rolls once more) and whether
  it explodes (decided on the value before the reroll, as rpg-dice-roller runs explode first);
* a pool without keep/drop adds its dice: one die's value (or success count) is its first entry
  plus, if it explodes, a chain of further entries. Where an added roll is the first one shifted
  by a constant (``!``, ``!!``, ``!p``, 10-again counting), the pool is ``count`` stopping rolls
  and ``E`` exploding ones in ``C(count+E-1, E)`` orders, ``E`` followed until more explosions
  in the whole pool are less likely than 1e-12; otherwise each die's chain is followed until a
  longer chain in any die is less likely than 1e-12 (never past ``Limits.max_chain``
  explosions) and the die's distribution raised to the pool's count. Either way the pool's
  dropped mass is below 1e-12 and reported in :attr:`Distribution.truncated`;
* keep/drop over a fixed number of dice (no ``!``, or ``!!``) is a dynamic programme over the
  faces from best to worst; over a varying number of entries (``!``, ``!p``, a one-expression
  group) it follows the dice one by one, remembering only the entries the keep can still use;
* ``+``/``-`` convolve (long lists through one big-integer product), ``*``/``/`` (floor) take
  every pair of outcomes.
"""

from __future__ import annotations

import time
from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import accumulate, product, repeat, starmap
from math import comb
from operator import add, floordiv, mul

from rules.dice import (
    DEFAULT_LIMITS,
    Binary,
    Dice,
    Expression,
    Group,
    Negate,
    Node,
    Number,
    Select,
    Target,
    parse,
    validate,
)
from rules.errors import DiceLimitError

__all__ = ["Distribution", "odds"]

_TAIL = Fraction(1, 10**12)  # stop following a chain once its probability is below this
_BUDGET = 30_000_000  # elementary steps, about a second
_BACKSTOP = 1.5  # seconds

_Dist = tuple[int, list[int], int]  # offset, weights of offset.., denominator
_Kind = list[tuple[int, bool, int]]  # (value, explodes, weight) of one entry over a denominator
# (dice, first entry, its denominator, an added entry, its denominator, chain steps)
_Source = tuple[int, _Kind, int, _Kind, int, int]
_States = dict[tuple[tuple[int, ...], int], int]


@dataclass(frozen=True)
class Distribution:
    """The exact distribution of an expression's total (or success count).

    Held as integer weights over one denominator (exact, and cheap to build); ``probs`` turns
    them into fractions on first use.

    Attributes:
        offset: the lowest total.
        weights: weight of ``offset``, ``offset + 1``, ... (zeros for unreachable totals).
        denominator: the common denominator; the weights add up to at most it, the rest being
            the mass dropped by cutting explosion chains.
    """

    offset: int
    weights: tuple[int, ...]
    denominator: int

    @cached_property
    def probs(self) -> dict[int, Fraction]:
        """Total -> probability, keys ascending, zero-probability totals left out."""
        d = self.denominator
        return {self.offset + i: Fraction(w, d) for i, w in enumerate(self.weights) if w}

    @cached_property
    def truncated(self) -> Fraction:
        """Probability mass dropped by cutting explosion chains (0 without ``!``)."""
        return Fraction(self.denominator - sum(self.weights), self.denominator)

    def p_at_least(self, n: int) -> Fraction:
        """Return P(total >= n) over the listed totals (truncated mass not counted)."""
        start = max(0, n - self.offset)
        return Fraction(sum(self.weights[start:]), self.denominator)

    def mean(self) -> Fraction:
        """Return the mean total, normalised over the listed (non-truncated) mass."""
        mass = sum(self.weights)
        moment = sum(i * w for i, w in enumerate(self.weights))
        return self.offset + Fraction(moment, mass)

    def floats(self) -> dict[int, float]:
        """Total -> probability as floats (for display), without building fractions."""
        d = self.denominator
        return {self.offset + i: w / d for i, w in enumerate(self.weights) if w}

    @property
    def minimum(self) -> int:
        return self.offset + next(i for i, w in enumerate(self.weights) if w)

    @property
    def maximum(self) -> int:
        last = max(i for i, w in enumerate(self.weights) if w)
        return self.offset + last


class _Work:
    """Counts elementary steps; past the budget the calculation stops with a clear error.

    The steps are an estimate made before each piece of work; a wall clock backs it up, so an
    estimate that is off never turns into a hang.
    """

    def __init__(self) -> None:
        self.done = 0
        self.start = time.perf_counter()

    def take(self, steps: int) -> None:
        self.done += steps
        if self.done > _BUDGET or time.perf_counter() - self.start > _BACKSTOP:
            raise DiceLimitError(
                "слишком много вариантов для точного расчёта шансов — уменьшите число кубиков "
                "или граней (бросать такое выражение можно)"
            )


# -- arithmetic on weight lists ------------------------------------------------------------------


def _conv(x: list[int], y: list[int], work: _Work) -> list[int]:
    """The convolution of two weight lists (non-negative integers)."""
    if len(x) < len(y):
        x, y = y, x
    used = [j for j, c in enumerate(y) if c]
    if len(used) > 24 and len(x) * 4 > len(y) and sum(1 for c in x if c) <= 24:
        x, y = y, x  # the shorter list is dense, the longer one sparse: loop over the sparse
        used = [j for j, c in enumerate(y) if c]
    if len(used) <= 24:  # few non-zero weights (a short list, or spread like 0, 10, 20, ...)
        work.take(len(x) * len(used))
        out = [0] * (len(x) + len(y) - 1)
        n = len(x)
        for j in used:
            c = y[j]
            out[j : j + n] = map(add, out[j : j + n], map(c.__mul__, x))
        return out
    # Kronecker substitution: one big-integer product does the whole convolution
    bits = max(x).bit_length() + max(y).bit_length() + len(y).bit_length() + 1
    size = (bits + 7) // 8
    small, big = sorted((len(x) * size * 8 // 30 + 1, len(y) * size * 8 // 30 + 1))
    work.take(int(big * small**0.585) + (len(x) + len(y)) * 4)  # Karatsuba, in steps
    big_x = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in x), "little")
    big_y = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in y), "little")
    length = len(x) + len(y) - 1
    raw = (big_x * big_y).to_bytes(size * length, "little")
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, size * length, size)]


def _add(a: _Dist, b: _Dist, work: _Work) -> _Dist:
    return a[0] + b[0], _conv(a[1], b[1], work), a[2] * b[2]


def _neg(a: _Dist) -> _Dist:
    return -(a[0] + len(a[1]) - 1), a[1][::-1], a[2]


def _uniform_power(faces: int, n: int) -> list[int]:
    """Coefficients of ``(1 + x + ... + x**(faces-1))**n``, O(1) work per coefficient.

    From ``P = Q**n`` with ``Q = (1 - x**m) / (1 - x)``: ``(1-x)(1-x**m) P' = n (1 - m x**(m-1)
    + (m-1) x**m) P``, a recurrence of three terms; every division is exact.
    """
    if n == 1:
        return [1] * faces
    m = faces
    length = n * (m - 1) + 1
    p = [0] * length
    p[0] = 1
    for k in range(length - 1):
        s = (k + n) * p[k]
        j = k - m + 1
        if j >= 0:
            s += (j - n * m) * p[j]
            if j >= 1:
                s += (n * (m - 1) - k + m) * p[j - 1]
        p[k + 1] = s // (k + 1)
    return p


def _trim(a: _Dist) -> _Dist:
    offset, weights, denominator = a
    if weights and weights[0] and weights[-1]:
        return a
    high = len(weights) - 1
    while high > 0 and not weights[high]:
        high -= 1
    low = 0
    while low < high and not weights[low]:
        low += 1
    return offset + low, weights[low : high + 1], denominator


def _power(a: _Dist, n: int, work: _Work) -> _Dist:
    """The sum of ``n`` independent copies.

    Uniform weights use :func:`_uniform_power`; others J. C. P. Miller's recurrence for a
    power series raised to a power (``p_k = sum_i ((n+1) i - k) d_i p_(k-i) / (k d_0)``), whose
    work is the result's length times the die's.
    """
    offset, d, denominator = _trim(a)
    if n == 1:
        return offset, d, denominator
    if len(d) == 1:
        return offset * n, [d[0] ** n], denominator**n
    if all(w == d[0] for w in d):
        work.take((len(d) - 1) * n * (3 + (len(d) - 1).bit_length() * n // 30))
        scale = d[0] ** n
        u = _uniform_power(len(d), n)
        return offset * n, u if scale == 1 else [w * scale for w in u], denominator**n
    m = len(d) - 1
    length = n * m + 1
    work.take(2 * length * m * (1 + denominator.bit_length() * n // 300))
    p = [0] * length
    p[0] = d[0] ** n
    up = [(n + 1) * i * d[i] for i in range(m + 1)]
    divisor = d[0]
    for k in range(1, length):
        t = min(m, k)
        window = p[k - t : k][::-1]  # p[k-1], p[k-2], ..., p[k-t]
        s = sum(map(mul, up[1 : t + 1], window)) - k * sum(map(mul, d[1 : t + 1], window))
        p[k] = s // (k * divisor)
    return offset * n, p, denominator**n


def _from_items(items: Iterable[tuple[int, int]], denominator: int) -> _Dist:
    table: dict[int, int] = {}
    for value, weight in items:
        if weight:
            table[value] = table.get(value, 0) + weight
    if not table:
        return 0, [0], denominator
    low, high = min(table), max(table)
    return low, [table.get(v, 0) for v in range(low, high + 1)], denominator


def _items(a: _Dist) -> list[tuple[int, int]]:
    return [(a[0] + i, w) for i, w in enumerate(a[1]) if w]


def _rescale(a: _Dist, factor: int) -> _Dist:
    return a[0], [w * factor for w in a[1]], a[2] * factor


def _mix(a: _Dist, b: _Dist) -> _Dist:
    """Sum of two sub-distributions (disjoint events) over a common denominator."""
    if a[2] != b[2]:
        a, b = _rescale(a, b[2]), _rescale(b, a[2])
    return _from_items(_items(a) + _items(b), a[2])


def _binary(op: str, a: _Dist, b: _Dist, work: _Work) -> _Dist:
    if op == "+":
        return _add(a, b, work)
    if op == "-":
        return _add(a, _neg(b), work)
    if op == "*" and len(a[1]) == 1:
        a, b = b, a
    if len(b[1]) == 1 and (op == "*" or b[0] > 0):
        return _by_constant(op, a, b[0], b[1][0], b[2])
    work.take(len(a[1]) * len(b[1]))
    apply = mul if op == "*" else floordiv
    # dice give few distinct weights: each pair of weight classes is one C-level count
    parts = [
        (wx * wy, Counter(starmap(apply, product(x_values, y_values))))
        for wx, x_values in _by_weight(a)
        for wy, y_values in _by_weight(b)
    ]
    if len(parts) == 1:
        scale, table = parts[0]
    else:
        scale, table = 1, Counter()
        for factor, counts in parts:
            for key, times in counts.items():
                table[key] += factor * times
    low, high = min(table), max(table)
    weights = [0] * (high - low + 1)
    for key, times in table.items():  # products leave gaps: place the keys, not the range
        weights[key - low] = times if scale == 1 else times * scale
    return low, weights, a[2] * b[2]


def _by_constant(op: str, a: _Dist, c: int, weight: int, denominator: int) -> _Dist:
    """``a * c`` or ``a / c`` (floor, ``c > 0``) for a constant ``c`` of one weight."""
    offset, weights, den = a
    scaled = weights if weight == 1 else [w * weight for w in weights]
    if op == "*":
        if c == 0:
            return 0, [sum(scaled)], den * denominator
        if c < 0:
            offset, scaled, c = -(offset + len(scaled) - 1), scaled[::-1], -c
        out = [0] * ((len(scaled) - 1) * c + 1)
        out[::c] = scaled
        return offset * c, out, den * denominator
    low = offset // c
    out = [0] * ((offset + len(scaled) - 1) // c - low + 1)
    for i, w in enumerate(scaled):
        out[(offset + i) // c - low] += w
    return low, out, den * denominator


def _by_weight(a: _Dist) -> list[tuple[int, list[int]]]:
    """The values of a distribution grouped by their weight (a die: one group)."""
    offset, weights, _ = a
    kinds = set(weights)
    if len(kinds) == 1:
        return [(weights[0], list(range(offset, offset + len(weights))))]
    groups: dict[int, list[int]] = {}
    for i, weight in enumerate(weights):
        if weight:
            groups.setdefault(weight, []).append(offset + i)
    return list(groups.items())


# -- one die's entries ---------------------------------------------------------------------------


def _faces(dice: Dice) -> range:
    return range(dice.low, dice.high + 1)


def _reroll(dice: Dice) -> tuple[Callable[[int], list[tuple[int, int]]], int]:
    """Map a value to its (final value, weight) after rerolls, over a common denominator."""
    faces = _faces(dice)
    if dice.reroll is None:
        return (lambda v: [(v, 1)]), 1
    point, once = dice.reroll_point, dice.reroll.once
    fresh = list(faces) if once else [f for f in faces if not point.match(f)]
    size = len(fresh)

    def final(value: int) -> list[tuple[int, int]]:
        if point.match(value):
            return [(f, 1) for f in fresh]
        return [(value, size)]

    return final, size


def _kinds(dice: Dice) -> tuple[_Kind, int, _Kind, int]:
    """Entries before rerolls: the first roll, and a roll an explosion adds."""
    faces = _faces(dice)
    explode = dice.explode
    first: _Kind = []
    for raw in faces:
        value = raw
        if dice.minimum is not None:
            value = max(value, dice.minimum)
        if dice.maximum is not None:
            value = min(value, dice.maximum)
        first.append((value, explode is not None and dice.explode_point.match(value), 1))
    later: _Kind = []
    if explode is not None:
        point = dice.explode_point
        later = [(raw - 1 if explode.penetrate else raw, point.match(raw), 1) for raw in faces]
    return first, len(faces), later, len(faces)


def _after_reroll(kind: _Kind, denominator: int, dice: Dice) -> tuple[_Kind, int]:
    final, size = _reroll(dice)
    table: dict[tuple[int, bool], int] = {}
    for value, explodes, weight in kind:
        for v, w in final(value):
            table[v, explodes] = table.get((v, explodes), 0) + weight * w
    return [(v, e, w) for (v, e), w in sorted(table.items())], denominator * size


def _depth(first: _Kind, d1: int, later: _Kind, d2: int, max_chain: int, count: int = 1) -> int:
    """Continuation entries to follow per die: until a longer chain in any of ``count`` dice
    is less likely than 1e-12 (so the pool's cut mass stays below it)."""
    q1 = Fraction(sum(w for _, e, w in first if e), d1)
    if not q1:
        return 0
    q2 = Fraction(sum(w for _, e, w in later if e), d2)
    steps = 1
    while count * q1 * q2**steps >= _TAIL and steps < max_chain:
        steps += 1
    return steps


def _chain(
    first: _Kind, d1: int, later: _Kind, d2: int, steps: int, g: Callable[[int], int], work: _Work
) -> _Dist:
    """One die: its first entry plus, while entries explode, further entries (``g`` of each)."""
    stop1 = _from_items(((g(v), w) for v, e, w in first if not e), d1)
    go1 = _from_items(((g(v), w) for v, e, w in first if e), d1)
    if steps == 0 or not any(go1[1]):
        return stop1
    stop2 = _from_items(((g(v), w) for v, e, w in later if not e), d2)
    go2 = _from_items(((g(v), w) for v, e, w in later if e), d2)
    tail = stop2  # chains of further entries, the last one not exploding
    part = stop2
    for _ in range(steps - 1):
        part = _add(go2, part, work)
        tail = _mix(_rescale(tail, d2), part)
    return _mix(_rescale(stop1, tail[2]), _add(go1, tail, work))


def _compound_value(dice: Dice, steps: int, work: _Work) -> tuple[list[tuple[int, int]], int]:
    """(value, weight) of one ``!!`` die: the whole chain adds up, then rerolls apply."""
    first, d1, later, d2 = _kinds(dice)
    chain = _chain(first, d1, later, d2, steps, lambda v: v, work)
    final, size = _reroll(dice)
    out: dict[int, int] = {}
    for value, weight in _items(chain):
        for v, w in final(value):
            out[v] = out.get(v, 0) + weight * w
    return sorted(out.items()), chain[2] * size


# -- pools ---------------------------------------------------------------------------------------


def _g(target: Target | None) -> Callable[[int], int]:
    return (lambda v: v) if target is None else target.outcome


def _plain(dice: Dice) -> bool:
    return not (
        dice.minimum is not None
        or dice.maximum is not None
        or dice.explode
        or dice.reroll
        or dice.target
        or dice.drop
    )


def _pool(dice: Dice, max_chain: int, work: _Work, target: Target | None = None) -> _Dist:
    if target is None and _plain(dice):
        faces = dice.high - dice.low + 1
        if dice.keep is None or dice.keep.count == dice.count:
            work.take(dice.count * faces * (1 + dice.count * faces.bit_length() // 30))
            return dice.count * dice.low, _uniform_power(faces, dice.count), faces**dice.count
        if dice.keep.count == 1:  # the highest (lowest) of n: P(max <= v) = (v/M)**n
            n = dice.count
            cdf = [k**n for k in range(faces + 1)]
            weights = [cdf[k + 1] - cdf[k] for k in range(faces)]
            return dice.low, weights if dice.keep.high else weights[::-1], faces**n
    target = target or dice.target
    if dice.explode is None and dice.keep is None and dice.drop is None:
        # one entry per die: its final value (or outcome) straight from the faces
        final, size = _reroll(dice)
        g = _g(target)
        table: dict[int, int] = {}
        for value, _, _ in _kinds(dice)[0]:
            for v, w in final(value):
                key = g(v)
                table[key] = table.get(key, 0) + w
        low, high = min(table), max(table)
        die = (
            low,
            [table.get(v, 0) for v in range(low, high + 1)],
            (dice.high - dice.low + 1) * size,
        )
        return _power(die, dice.count, work)
    g = _g(target)
    first, d1, later, d2 = _kinds(dice)
    explodes = dice.explode is not None
    steps = _depth(first, d1, later, d2, max_chain, dice.count) if explodes else 0
    compound = dice.explode is not None and dice.explode.compound
    selected = dice.keep is not None or dice.drop is not None
    if compound and (selected or target is not None or dice.reroll is not None):
        # without rerolls, keep or counting, a compounded chain adds up like separate dice
        values, den = _compound_value(dice, steps, work)
        first, d1, later, d2, steps = [(v, False, w) for v, w in values], den, [], 1, 0
    else:
        first, d1 = _after_reroll(first, d1, dice)
        if later:
            later, d2 = _after_reroll(later, d2, dice)
    if not selected:
        if compound:
            first, d1 = _after_reroll(first, d1, dice)
            later, d2 = _after_reroll(later, d2, dice)
        pooled = _pooled_explosions(first, d1, later, d2, dice.count, g, max_chain, work)
        if pooled is not None:
            return pooled
        die = _chain(first, d1, later, d2, steps, g, work)
        return _power(die, dice.count, work)
    if steps == 0:
        return _select_fixed(first, d1, dice.count, dice.keep, dice.drop, g, work)
    return _stream([(dice.count, first, d1, later, d2, steps)], dice.keep, dice.drop, g, work)


def _pooled_explosions(
    first: _Kind,
    d1: int,
    later: _Kind,
    d2: int,
    count: int,
    g: Callable[[int], int],
    max_chain: int,
    work: _Work,
) -> _Dist | None:
    """``count`` exploding dice added up, cut where more explosions in the whole pool are less
    likely than 1e-12; ``None`` where this does not apply (the caller follows each die).

    It applies when an added roll is the first roll shifted by a constant ``c`` (``!``, ``!!``
    without rerolls or counting: ``c = 0``; ``!p``: ``c = -1``). Then a pool with ``E``
    explosions in all is ``count`` rolls that stop and ``E`` that explode, in ``C(count+E-1,
    E)`` orders, plus ``c`` for each added roll: the total is ``stop**count * H`` with ``H =
    sum over E of C(count+E-1, E) (go x**c)**E``, ``E`` up to the least number whose longer
    tail is below 1e-12 — a few hundred big-integer steps instead of a power of the whole
    chain (whose weights carry every die's longest chain).
    """
    stop1 = _from_items(((g(v), w) for v, e, w in first if not e), d1)
    go1 = _from_items(((g(v), w) for v, e, w in first if e), d1)
    stop2 = _from_items(((g(v), w) for v, e, w in later if not e), d2)
    go2 = _from_items(((g(v), w) for v, e, w in later if e), d2)
    if d1 != d2 or not any(go1[1]) or not any(stop1[1]):
        return None
    shift = go2[0] - go1[0]
    if go2[1] != go1[1] or stop2[1] != stop1[1] or stop2[0] - stop1[0] != shift:
        return None
    q, s, d = sum(go1[1]), sum(stop1[1]), d1
    if count * Fraction(q, d) ** (max_chain + 1) >= _TAIL:
        return None  # a chain could pass the roller's limit: follow each die, capped
    # the least E with P(more than E explosions) < 1e-12 (negative binomial, exact)
    p = Fraction(s, d) ** count  # P(no explosion at all)
    mass, explosions = p, 0
    while 1 - mass >= _TAIL:
        work.take(20 + p.denominator.bit_length() // 8)  # fractions of growing size
        p = p * (count + explosions) / (explosions + 1) * Fraction(q, d)
        explosions += 1
        mass += p
    go_offset, go, _ = _trim(go1)
    go_offset += shift
    top = explosions
    # a_E = C(count+E-1, E) d**(top-E), from E = top down, each from the one above
    coefficients = [0] * (top + 1)
    a = comb(count + top - 1, top)
    for e in range(top, -1, -1):
        coefficients[e] = a
        if e:
            a = a * e // (count + e - 1) * d
    if len(go) == 1:  # one exploding value (plain `!`): H is spread, its terms direct
        work.take(top * 4)
        (w,) = go
        acc = [0] * (go_offset * top + 1) if go_offset >= 0 else [0] * (-go_offset * top + 1)
        step = go_offset if go_offset >= 0 else -go_offset
        power = 1
        for e, a in enumerate(coefficients):
            at = e * step if go_offset >= 0 else (top - e) * step
            acc[at] = a * power
            power *= w
        offset = 0 if go_offset >= 0 else go_offset * top
    else:  # Horner: H = a_0 + go (a_1 + go (a_2 + ...))
        offset, acc = 0, [coefficients[top]]
        for e in range(top - 1, -1, -1):
            acc = _conv(acc, go, work)
            offset += go_offset
            if offset > 0:
                acc = [0] * offset + acc
                offset = 0
            elif offset + len(acc) <= 0:
                acc = acc + [0] * (1 - offset - len(acc))
            acc[-offset] += coefficients[e]
    stop = _power(stop1, count, work)
    return _add(stop, (offset, acc, d**top), work)


def _keep_highest(
    outcomes: list[tuple[int, int]], count: int, keep: int, work: _Work
) -> dict[int, int]:
    """Weights of the sum of the ``keep`` highest of ``count`` dice.

    Outcomes are visited best first; a state is (dice placed so far, sum kept so far). Once
    the keep is full, the remaining dice only have to show this value or lower, which has a
    closed form, so the work grows with ``keep`` rather than ``count``.

    Args:
        outcomes: (contribution, weight) of one die, best first, one per distinct value.
        count: dice rolled.
        keep: dice kept.
        work: the step counter.
    """
    below = list(accumulate((w for _, w in reversed(outcomes)), initial=0))[::-1][1:]
    states: list[dict[int, int]] = [{} for _ in range(keep)]
    states[0][0] = 1
    final: dict[int, int] = {}
    for (value, weight), lower in zip(outcomes, below, strict=True):
        powers = list(accumulate(repeat(weight, keep), mul, initial=1))
        work.take(10 * sum(len(state) for state in states))
        new = [dict(state) for state in states]  # no die shows this value
        for placed in range(keep):
            if not states[placed]:
                continue
            rest = count - placed
            need = keep - placed
            work.take(10 * (len(states[placed]) * need + need))
            lower_power = lower ** (rest - need + 1)
            head = 0
            for j in range(need - 1, -1, -1):
                head += comb(rest, j) * powers[j] * lower_power
                lower_power *= lower
            tail = (weight + lower) ** rest - head
            steps = [comb(rest, j) * powers[j] for j in range(need)]
            for total, ways in states[placed].items():
                for j in range(1, need):
                    key = total + j * value
                    bucket = new[placed + j]
                    bucket[key] = bucket.get(key, 0) + ways * steps[j]
                if tail:
                    key = total + need * value
                    final[key] = final.get(key, 0) + ways * tail
        states = new
    return final


def _select_fixed(
    kind: _Kind,
    denominator: int,
    count: int,
    keep: Select | None,
    drop: Select | None,
    g: Callable[[int], int],
    work: _Work,
) -> _Dist:
    """Keep/drop over ``count`` independent dice of one kind (each one entry)."""
    if keep is not None and drop is not None:
        return _stream([(count, kind, denominator, [], 1, 0)], keep, drop, g, work)
    select = keep or drop
    assert select is not None
    if select.keep:
        high, kept = select.high, select.count
    else:
        high, kept = not select.high, count - select.count
    table: dict[int, int] = {}
    for value, _, weight in kind:
        table[value] = table.get(value, 0) + weight
    if kept == 0:
        return 0, [denominator**count], denominator**count
    ranked = sorted(table.items(), reverse=high)
    sums = _keep_highest([(g(v), w) for v, w in ranked], count, kept, work)
    return _from_items(sums.items(), denominator**count)


def _stream(
    sources: list[_Source],
    keep: Select | None,
    drop: Select | None,
    g: Callable[[int], int],
    work: _Work,
    sign: int = 1,
) -> _Dist:
    """Keep/drop over entries whose number varies: follow the dice one by one.

    A state is the tuple of the entries (values, ascending) the selection may still keep, plus,
    when only dropping, the running sum of every entry's contribution.
    """
    if keep is not None:
        top, size = keep.high, keep.count
    else:
        assert drop is not None
        top, size = drop.high, drop.count

    def insert(state: tuple[tuple[int, ...], int], value: int) -> tuple[tuple[int, ...], int]:
        held, running = state
        if keep is None:
            running += g(value)
        if len(held) < size:
            items = list(held)
            insort(items, value)
            return tuple(items), running
        if top and value > held[0]:
            items = list(held[1:])
            insort(items, value)
            return tuple(items), running
        if not top and value < held[-1]:
            items = list(held[:-1])
            insort(items, value)
            return tuple(items), running
        return held, running

    def step(states: _States, kind: _Kind, done: _States, pending: _States) -> None:
        work.take(len(states) * len(kind) * (10 + size))
        for state, weight in states.items():
            for value, explodes, w in kind:
                new = insert(state, value)
                bucket = pending if explodes else done
                bucket[new] = bucket.get(new, 0) + weight * w

    current: dict[tuple[tuple[int, ...], int], int] = {((), 0): 1}
    denominator = 1
    for count, first, d1, later, d2, steps in sources:
        for _ in range(count):
            done: dict[tuple[tuple[int, ...], int], int] = {}
            pending: dict[tuple[tuple[int, ...], int], int] = {}
            step(current, first, done, pending)
            denominator *= d1
            for _ in range(steps):
                if not pending:
                    break
                work.take(len(done))
                done = {s: w * d2 for s, w in done.items()}
                waiting, pending = pending, {}
                step(waiting, later, done, pending)
                denominator *= d2
            current = done
    totals: dict[int, int] = {}
    for (held, running), weight in current.items():
        if keep is not None:
            kept = sorted(held, reverse=top)
            if drop is not None:
                n = min(drop.count, len(kept))
                # the kept entries sorted best first for `top`; drop from the matching end
                if drop.high == top:
                    kept = kept[n:]
                else:
                    kept = kept[: len(kept) - n]
            value = sum(g(v) for v in kept)
        else:
            value = running - sum(g(v) for v in held)
        totals[sign * value] = totals.get(sign * value, 0) + weight
    return _from_items(totals.items(), denominator)


# -- groups and the tree -------------------------------------------------------------------------


def _signed(node: Node, sign: int = 1) -> list[tuple[int, Node]]:
    if isinstance(node, Binary) and node.op in "+-":
        return _signed(node.left, sign) + _signed(node.right, sign if node.op == "+" else -sign)
    if isinstance(node, Negate):
        return _signed(node.operand, -sign)
    return [(sign, node)]


def _group(group: Group, max_chain: int, work: _Work) -> _Dist:
    selected = group.keep is not None or group.drop is not None
    if len(group.items) == 1 and (selected or group.target is not None):
        parts = _signed(group.items[0])
        pools = [(s, n) for s, n in parts if isinstance(n, Dice)]
        constant = sum(s * n.value for s, n in parts if isinstance(n, Number))
        if not selected:
            result: _Dist = (0, [1], 1)
            for _, pool in pools:
                result = _add(result, _pool(pool, max_chain, work, group.target), work)
            return result
        g = _g(group.target)
        signs = {s for s, _ in pools}
        sources: list[_Source] = []
        for _, pool in pools:
            first, d1, later, d2 = _kinds(pool)
            explodes = pool.explode is not None
            steps = _depth(first, d1, later, d2, max_chain, pool.count) if explodes else 0
            if pool.explode is not None and pool.explode.compound:
                values, den = _compound_value(pool, steps, work)
                sources.append((pool.count, [(v, False, w) for v, w in values], den, [], 1, 0))
                continue
            first, d1 = _after_reroll(first, d1, pool)
            if later:
                later, d2 = _after_reroll(later, d2, pool)
            sources.append((pool.count, first, d1, later, d2, steps))
        sign = -1 if signs == {-1} else 1
        dist = _stream(sources, group.keep, group.drop, g, work, sign)
        return dist if group.target is not None else (dist[0] + constant, dist[1], dist[2])
    dists = [_node(item, max_chain, work) for item in group.items]
    g = _g(group.target)
    if not selected:
        result = (0, [1], 1)
        for dist in dists:
            mapped = _from_items(((g(v), w) for v, w in _items(dist)), dist[2])
            result = _add(result, mapped, work)
        return result
    select = group.keep or group.drop
    assert select is not None
    one_left = (group.keep is not None and select.count == 1) or (
        group.keep is None and select.count == len(dists) - 1
    )
    if group.target is None and one_left and (group.keep is None or group.drop is None):
        # the best (worst) of independent sub-totals: P(max <= v) is the product of the CDFs
        high = select.high if select.keep else not select.high
        return _extreme([_trim(d) for d in dists], high, work)
    sources = [(1, [(v, False, w) for v, w in _items(dist)], dist[2], [], 1, 0) for dist in dists]
    return _stream(sources, group.keep, group.drop, g, work)


def _extreme(dists: list[_Dist], high: bool, work: _Work) -> _Dist:
    """The highest (or lowest) of independent values, through their cumulative weights."""
    if not high:
        return _neg(_extreme([_neg(d) for d in dists], True, work))
    low = max(d[0] for d in dists)  # the maximum is never below any value's lowest
    top = max(d[0] + len(d[1]) - 1 for d in dists)
    work.take((top - low + 2) * len(dists) * 2)
    product = [1] * (top - low + 2)  # product[i]: weight of "all values <= low - 1 + i"
    for offset, weights, _ in dists:
        cumulative = list(accumulate(weights, initial=0))
        for i in range(len(product)):
            j = min(max(low + i - offset, 0), len(weights))
            product[i] *= cumulative[j]
    out = [product[i + 1] - product[i] for i in range(top - low + 1)]
    denominator = 1
    for d in dists:
        denominator *= d[2]
    return low, out, denominator


def _node(node: Node, max_chain: int, work: _Work) -> _Dist:
    if isinstance(node, Number):
        return node.value, [1], 1
    if isinstance(node, Dice):
        return _pool(node, max_chain, work)
    if isinstance(node, Negate):
        return _neg(_node(node.operand, max_chain, work))
    if isinstance(node, Binary):
        a = _node(node.left, max_chain, work)
        b = _node(node.right, max_chain, work)
        return _binary(node.op, a, b, work)
    return _group(node, max_chain, work)


_CACHE: dict[str, Distribution] = {}
_CACHE_SIZE = 256


def _compute(root: Node, max_chain: int) -> Distribution:
    """The distribution of a parsed tree, remembered by its canonical notation."""
    key = f"{max_chain}:{root}"
    found = _CACHE.get(key)
    if found is not None:
        return found
    offset, weights, denominator = _trim(_node(root, max_chain, _Work()))
    dist = Distribution(offset, tuple(weights), denominator)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = dist
    return dist


_compute.cache_clear = _CACHE.clear  # type: ignore[attr-defined]  # the benchmarks clear it


def odds(expr: str | Expression) -> Distribution:
    """Return the exact distribution of one roll of an expression.

    ``vs N`` does not change it (use :meth:`Distribution.p_at_least`); ``Nx`` repeats are
    independent rolls of the same distribution; a success-counting pool or group gives the
    distribution of its count.

    Args:
        expr: dice notation or a parsed expression (checked against the default limits).

    Returns:
        Exact probabilities of every reachable total; explosion chains are cut where a longer
        chain is less likely than 1e-12 and the dropped mass is in ``truncated``.

    Raises:
        DiceSyntaxError: the text cannot be parsed.
        DiceLimitError: a bound is broken, or the exact calculation would take too long.
    """
    if isinstance(expr, str):
        expression = parse(expr)
    else:
        validate(expr)
        expression = expr
    return _compute(expression.root, DEFAULT_LIMITS.max_chain)

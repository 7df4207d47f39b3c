"""Arithmetic on weight lists: the exact distributions every part of :mod:`rules.odds` builds.

A distribution is ``(offset, weights, denominator)``: integer weights of the consecutive totals
``offset, offset + 1, ...`` over one denominator. Here are their sum (convolution, long lists
through one big-integer product), the sum of ``n`` copies, mixing disjoint parts, and the
counted bound that refuses a calculation that would take too long.

The bound is a count, never a clock: each piece of work adds its estimated elementary steps
(:meth:`_Work.take`) *before* it runs, and the calculation is refused once the count passes
:data:`BUDGET`. The same expression is therefore answered, or refused, the same way on a quiet
machine and a busy one. A step is about 33 ns of this machine's CPU on the benchmark's
expressions (``tests/benchmarks/notation.py`` checks that what is accepted stays within its
time goal); the budget is about 0.1 s of work.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable
from operator import add, mul

from rules.errors import DiceLimitError

#: Elementary steps one calculation of exact odds may take (about 0.1 s of work).
BUDGET = 3_000_000
_Dist = tuple[int, list[int], int]  # offset, weights of offset.., denominator


class _Work:
    """Counts elementary steps; past the budget the calculation stops with a clear error.

    Each step count is an estimate made *before* the work it prices, from the sizes of what is
    about to be computed (never from a clock), so a refusal costs next to nothing and is the
    same on every machine.
    """

    def __init__(self, budget: int = BUDGET) -> None:
        self.done = 0
        self.budget = budget

    def take(self, steps: int) -> None:
        self.done += steps
        if self.done > self.budget:
            raise DiceLimitError(
                "слишком много вариантов для точного расчёта шансов — уменьшите число кубиков "
                "или граней (бросать такое выражение можно)"
            )


def mul_steps(a_bits: int, b_bits: int) -> int:
    """Steps of one big-integer product of ``a_bits`` by ``b_bits`` (Karatsuba above a few
    thousand bits, the longer factor cut into pieces of the shorter one, as CPython does)."""
    small, big = sorted((a_bits // 30 + 1, b_bits // 30 + 1))
    if small <= 70:
        return big * small // 40 + 1
    return int(big * small**0.7) // 16 + 1


def _conv(x: list[int], y: list[int], work: _Work) -> list[int]:
    """The convolution of two weight lists (non-negative integers)."""
    if len(x) < len(y):
        x, y = y, x
    used = [j for j, c in enumerate(y) if c]
    if len(used) > 24 and len(x) * 4 > len(y) and sum(1 for c in x if c) <= 24:
        x, y = y, x  # the shorter list is dense, the longer one sparse: loop over the sparse
        used = [j for j, c in enumerate(y) if c]
    if len(used) <= 24:  # few non-zero weights (a short list, or spread like 0, 10, 20, ...)
        x_bits = max(x).bit_length() if x else 0
        y_bits = max(y[j] for j in used).bit_length() if used else 0
        work.take(len(x) * len(used) * (3 + mul_steps(x_bits, y_bits)))
        out = [0] * (len(x) + len(y) - 1)
        n = len(x)
        for j in used:
            c = y[j]
            out[j : j + n] = map(add, out[j : j + n], map(c.__mul__, x))
        return out
    # Kronecker substitution: one big-integer product does the whole convolution
    bits = max(x).bit_length() + max(y).bit_length() + len(y).bit_length() + 1
    size = (bits + 7) // 8
    work.take(mul_steps(len(x) * size * 8, len(y) * size * 8) + (len(x) + len(y)) * 8)
    big_x = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in x), "little")
    big_y = int.from_bytes(b"".join(v.to_bytes(size, "little") for v in y), "little")
    length = len(x) + len(y) - 1
    raw = (big_x * big_y).to_bytes(size * length, "little")
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, size * length, size)]


def _add(a: _Dist, b: _Dist, work: _Work) -> _Dist:
    return a[0] + b[0], _conv(a[1], b[1], work), a[2] * b[2]


def _neg(a: _Dist) -> _Dist:
    return -(a[0] + len(a[1]) - 1), a[1][::-1], a[2]


#: array type codes by the bytes of one coefficient, for :func:`_small_power`
_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}
_CODES = {size: code for size, code in _CODES.items() if array(code).itemsize == size}


def _small_power(d: list[int], n: int) -> list[int] | None:
    """Coefficients of ``d(x)**n`` by one big-integer power, or None when they are too big.

    Every coefficient is at most ``sum(d)**n``; while that fits in 64 bits, ``d`` packed one
    coefficient per machine word is a number whose ``n``-th power holds the answer word by
    word (nothing carries over), read back in one call. Tiny pools (``3d6``, ``4d6ro1``) then
    cost a few C calls instead of a loop per total.
    """
    bits = (sum(d) ** n).bit_length()
    if bits > 64:
        return None
    size = 1 if bits <= 8 else 2 if bits <= 16 else 4 if bits <= 32 else 8
    code = _CODES.get(size)
    if code is None:
        return None
    order = sys.byteorder  # the array's words are in the machine's order
    packed = int.from_bytes(array(code, d).tobytes(), order)
    length = (len(d) - 1) * n + 1
    words = array(code)
    words.frombytes((packed**n).to_bytes(length * size, order))
    return words.tolist()


def _uniform_power(faces: int, n: int) -> list[int]:
    """Coefficients of ``(1 + x + ... + x**(faces-1))**n``, O(1) work per coefficient.

    From ``P = Q**n`` with ``Q = (1 - x**m) / (1 - x)``: ``(1-x)(1-x**m) P' = n (1 - m x**(m-1)
    + (m-1) x**m) P``, a recurrence of three terms; every division is exact.
    """
    if n == 1:
        return [1] * faces
    small = _small_power([1] * faces, n)
    if small is not None:
        return small
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
    small = _small_power(d, n)
    if small is not None:
        work.take(len(d) * n)
        return offset * n, small, denominator**n
    m = len(d) - 1
    length = n * m + 1
    bits = sum(d).bit_length() * n  # the coefficients' size
    miller = 2 * length * m * (1 + bits // 64)
    squaring = (
        n.bit_length() * 2 * (mul_steps(length * (bits + 8), length * (bits + 8)) + length * 8)
    )
    if squaring < miller:  # few copies of a long die: a handful of big products
        result, base, k = [1], d, n
        while True:
            if k & 1:
                result = _conv(result, base, work)
            k >>= 1
            if not k:
                break
            base = _conv(base, base, work)
        return offset * n, result, denominator**n
    work.take(miller)
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

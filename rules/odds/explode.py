"""One die's entries and its explosion chains, for :mod:`rules.odds`.

A die is described by its *entries*: the first roll (clamped by ``min``/``max``), and, for
``!``, each roll an explosion adds (``!p``: minus 1); each entry carries its value after
rerolls and whether it explodes. Here are the entries, how deep a chain is followed (until a
longer one is less likely than 1e-12), one die's chain, a compounded (``!!``) die's value, and
a whole exploding pool counted by its number of explosions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb

from rules.dice import Dice
from rules.odds.weights import (
    _add,
    _conv,
    _Dist,
    _from_items,
    _items,
    _mix,
    _power,
    _rescale,
    _trim,
    _Work,
)

_TAIL = Fraction(1, 10**12)  # stop following a chain once its probability is below this
_Kind = list[tuple[int, bool, int]]  # (value, explodes, weight) of one entry over a denominator


def _reroll(dice: Dice) -> tuple[Callable[[int], list[tuple[int, int]]], int]:
    """Map a value to its (final value, weight) after rerolls, over a common denominator."""
    faces = dice.face_weights()
    if dice.reroll is None:
        return (lambda v: [(v, 1)]), 1
    point, once = dice.reroll_point, dice.reroll.once
    fresh = [(f, w) for f, w in faces.items() if once or not point.match(f)]
    size = sum(w for _, w in fresh)

    def final(value: int) -> list[tuple[int, int]]:
        if point.match(value):
            return fresh
        return [(value, size)]

    return final, size


def _kinds(dice: Dice) -> tuple[_Kind, int, _Kind, int]:
    """Entries before rerolls: the first roll, and a roll an explosion adds."""
    faces = dice.face_weights()
    total = sum(faces.values())
    explode = dice.explode
    first: _Kind = []
    for raw, weight in faces.items():
        value = raw
        if dice.minimum is not None:
            value = max(value, dice.minimum)
        if dice.maximum is not None:
            value = min(value, dice.maximum)
        first.append((value, explode is not None and dice.explode_point.match(value), weight))
    later: _Kind = []
    if explode is not None:
        point = dice.explode_point
        later = [
            (raw - 1 if explode.penetrate else raw, point.match(raw), weight)
            for raw, weight in faces.items()
        ]
    return first, total, later, total


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
            acc[at] += a * power  # an explosion that adds 0 (`d2!p1`): all land on one total
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

"""Keep and drop, for :mod:`rules.odds`: the sum of the dice a selection keeps.

Over a fixed number of dice (no ``!``, or ``!!``) a dynamic programme over the faces from best
to worst; over a varying number of entries (``!``, ``!p``, a one-expression group) the dice
followed one by one, remembering only the entries the keep can still use; the best (worst) of
independent sub-totals through their cumulative weights.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from itertools import accumulate, repeat
from math import comb
from operator import mul

from rules.dice import Select
from rules.odds.explode import _Kind
from rules.odds.weights import _Dist, _from_items, _neg, _Work

# (dice, first entry, its denominator, an added entry, its denominator, chain steps)
_Source = tuple[int, _Kind, int, _Kind, int, int]
_States = dict[tuple[tuple[int, ...], int], int]


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

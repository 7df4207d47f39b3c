"""Keep and drop, for :mod:`rules.odds`: the sum of the dice a selection keeps.

Over a fixed number of dice (no ``!``, or ``!!``) a dynamic programme over the faces from best
to worst; over a varying number of entries (``!``, ``!p``, a one-expression group) the dice
followed one by one, remembering only the entries the keep can still use; the best (worst) of
independent sub-totals through their cumulative weights.
"""

from __future__ import annotations

from itertools import accumulate, repeat
from math import comb
from operator import mul

from rules.odds.weights import _Dist, _neg, _Work


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


def _extreme(dists: list[_Dist], high: bool, work: _Work) -> _Dist:
    """The highest (or lowest) of independent values, through their cumulative weights."""
    if not high:
        return _neg(_extreme([_neg(d) for d in dists], True, work))
    low = max(d[0] for d in dists)  # the maximum is never below any value's lowest
    top = max(d[0] + len(d[1]) - 1 for d in dists)
    bits = max(d[2].bit_length() for d in dists)
    work.take((top - low + 2) * len(dists) * (12 + bits // 32))
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

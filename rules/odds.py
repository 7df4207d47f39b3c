"""Exact outcome distributions of dice expressions, as fractions (no sampling).

Each die is a list of *runs* ``(lo, hi, weight)``: equal weight on every value in ``lo..hi``
over a common denominator. A plain ``dM`` is one run; an exploding ``dM!`` is one run per
chain length ``k`` (values ``kM+1 .. kM+M-1``, weight ``M**-(k+1)``), cut at the first depth
where the remaining chain probability drops below 1e-12 (and never past
``Limits.max_chain``); the dropped mass is reported in :attr:`Distribution.truncated`.
Sums are built die by die with prefix sums (cost: length of the running total × runs), keeps by
a dynamic programme over the die's outcomes from best to worst. All weights are integers, so
the result is exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, repeat
from math import comb
from operator import add, mul, sub

from rules.dice import DEFAULT_LIMITS, ConstTerm, DiceTerm, Expression, parse, validate
from rules.errors import DiceLimitError

__all__ = ["Distribution", "odds"]

_TAIL = 10**12  # stop exploding once the remaining chain probability is below 1 / _TAIL
_BUDGET = 8_000_000  # units of _cost, about a second

_Run = tuple[int, int, int]
_TermKey = tuple[int, int, int | None, bool, tuple[str, int] | None]


@dataclass(frozen=True)
class Distribution:
    """The exact distribution of an expression's total.

    Attributes:
        probs: total -> probability, keys ascending, zero-probability totals left out.
        truncated: probability mass dropped by cutting explosion chains (0 without ``!``).
    """

    probs: dict[int, Fraction]
    truncated: Fraction = Fraction(0)

    def p_at_least(self, n: int) -> Fraction:
        """Return P(total >= n) over the listed totals (truncated mass not counted)."""
        return sum((p for total, p in self.probs.items() if total >= n), Fraction(0))

    def mean(self) -> Fraction:
        """Return the mean total, normalised over the listed (non-truncated) mass."""
        mass = sum(self.probs.values(), Fraction(0))
        return sum((total * p for total, p in self.probs.items()), Fraction(0)) / mass


def _die(faces: int | None, explode: bool, max_chain: int) -> tuple[list[_Run], int]:
    """Runs and denominator of one die's value (an explosion chain counts as one value)."""
    if faces is None:
        return [(-1, 1, 1)], 3
    if not explode:
        return [(1, faces, 1)], faces
    depth = 0  # explosions kept: chains of 0..depth explosions are enumerated
    while faces ** (depth + 1) <= _TAIL and depth < max_chain:
        depth += 1
    runs = [(k * faces + 1, k * faces + faces - 1, faces ** (depth - k)) for k in range(depth + 1)]
    return runs, faces ** (depth + 1)


def _negate(runs: Iterable[_Run]) -> list[_Run]:
    return [(-hi, -lo, weight) for lo, hi, weight in runs]


def _span(runs: list[_Run]) -> int:
    return max(hi for _, hi, _ in runs) - min(lo for lo, _, _ in runs)


def _convolve(offset: int, weights: list[int], runs: list[_Run]) -> tuple[int, list[int]]:
    """Add one independent value (given as runs) to the running total's distribution."""
    low = min(lo for lo, _, _ in runs)
    span = _span(runs)
    size = len(weights) + span
    pad = span + 1
    prefix = list(accumulate(weights, initial=0))
    # padded[j + pad] == prefix[clamp(j, 0, len(weights))]
    padded = [0] * pad + prefix + [prefix[-1]] * pad
    out = [0] * size
    for lo, hi, weight in runs:
        # total t gets sum(weights[t + low - hi .. t + low - lo]) * weight
        upper = padded[low - lo + 1 + pad : low - lo + 1 + pad + size]
        lower = padded[low - hi + pad : low - hi + pad + size]
        if weight == 1:
            out = list(map(add, out, map(sub, upper, lower)))
        else:
            out = [o + weight * (u - d) for o, u, d in zip(out, upper, lower, strict=True)]
    return offset + low, out


def _keep_highest(outcomes: list[tuple[int, int]], count: int, keep: int) -> dict[int, int]:
    """Weights of the sum of the ``keep`` highest of ``count`` dice.

    Outcomes are visited best first; a state is (dice placed so far, sum kept so far). Once
    the keep is full, the remaining dice only have to show this value or lower, which has a
    closed form, so the work grows with ``keep`` rather than ``count``.

    Args:
        outcomes: (value, weight) of one die, value descending, distinct values.
        count: dice rolled.
        keep: dice kept.
    """
    below = list(accumulate((w for _, w in reversed(outcomes)), initial=0))[::-1][1:]
    # states[n]: kept-sum -> weight, with n dice placed so far (all at higher values), n < keep
    states: list[dict[int, int]] = [{} for _ in range(keep)]
    states[0][0] = 1
    final: dict[int, int] = {}
    for (value, weight), lower in zip(outcomes, below, strict=True):
        powers = list(accumulate(repeat(weight, keep), mul, initial=1))
        new = [dict(state) for state in states]  # no die shows this value
        for placed in range(keep):
            if not states[placed]:
                continue
            rest = count - placed
            need = keep - placed
            # P(at least `need` of `rest` dice show this value, the others lower), as weights
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


def _outcomes(runs: list[_Run]) -> list[tuple[int, int]]:
    return sorted(((v, weight) for lo, hi, weight in runs for v in range(lo, hi + 1)), reverse=True)


def _cost(terms: tuple[_TermKey, ...], max_chain: int) -> int:
    """Estimate the work of :func:`_compute` in units of about 0.1 µs, without doing it."""
    dies = [_die(faces, explode, max_chain) for _, _, faces, explode, _ in terms]
    bits = sum(
        term[1] * denominator.bit_length()
        for term, (_, denominator) in zip(terms, dies, strict=True)
    )
    sums = 0.0  # additions of big weights: linear in their size
    products = 0.0  # products of big weights: worse than linear
    length = 1
    for (_, count, _, _, keep), (runs, _) in zip(terms, dies, strict=True):
        span = _span(runs)
        if keep is None or keep[1] == count:
            # runs with weights other than 1 multiply as well as add
            per_run = 1 if len(runs) == 1 else 1.5
            for _ in range(count):
                length += span
                sums += length * len(runs) * per_run
        else:
            kept = keep[1]
            values = sum(hi - lo + 1 for lo, hi, _ in runs)
            states = sum((n * span + 1) * (kept - n) for n in range(kept))
            products += values * (states + kept * kept)
            length += kept * span
            products += length * (kept * span + 1)
    size = 1 + bits / 4000
    # long lists fall out of the CPU caches
    return int((sums + 20 * length) * size * (1 + length / 100_000) + products * size**1.6)


@lru_cache(maxsize=256)
def _compute(
    terms: tuple[_TermKey, ...], constant: int, max_chain: int
) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    if _cost(terms, max_chain) > _BUDGET:
        raise DiceLimitError(
            "слишком много вариантов для точного расчёта шансов — уменьшите число кубиков "
            "или граней (бросать такое выражение можно)"
        )
    offset, weights, denominator = constant, [1], 1
    for sign, count, faces, explode, keep in terms:
        runs, die_denominator = _die(faces, explode, max_chain)
        denominator *= die_denominator**count
        if keep is None or keep[1] == count:
            if sign < 0:
                runs = _negate(runs)
            for _ in range(count):
                offset, weights = _convolve(offset, weights, runs)
            continue
        mode, kept = keep
        outcomes = _outcomes(runs if mode == "h" else _negate(runs))
        sums = _keep_highest(outcomes, count, kept)
        flip = sign if mode == "h" else -sign  # lowest K of X is -(highest K of -X)
        term_runs = [(flip * s, flip * s, w) for s, w in sums.items() if w]
        offset, weights = _convolve(offset, weights, term_runs)
    probs = tuple((offset + i, Fraction(w, denominator)) for i, w in enumerate(weights) if w)
    truncated = Fraction(denominator - sum(weights), denominator)
    return probs, truncated


def odds(expr: str | Expression) -> Distribution:
    """Return the exact distribution of an expression's total.

    ``vs N`` does not change it; use :meth:`Distribution.p_at_least` for the success chance.

    Args:
        expr: dice notation or a parsed expression (checked against the default limits).

    Returns:
        Exact probabilities of every reachable total; exploding dice are cut where the
        remaining chain probability is below 1e-12 and the dropped mass is in ``truncated``.

    Raises:
        DiceSyntaxError: the text cannot be parsed.
        DiceLimitError: a bound is broken, or the exact calculation would take too long.
    """
    expression = parse(expr) if isinstance(expr, str) else expr
    validate(expression)
    constant = sum(t.sign * t.value for t in expression.terms if isinstance(t, ConstTerm))
    terms = tuple(
        (t.sign, t.count, t.faces, t.explode, t.keep)
        for t in expression.terms
        if isinstance(t, DiceTerm)
    )
    probs, truncated = _compute(terms, constant, DEFAULT_LIMITS.max_chain)
    return Distribution(dict(probs), truncated)

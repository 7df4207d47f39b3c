"""Exact outcome distributions of dice expressions, as fractions (no sampling).

Every node of the parsed tree becomes a distribution: integer weights over a common
denominator, on consecutive totals (``offset``, ``weights``, ``denominator``) or, once values
stop being consecutive integers (``/``, maths functions, sparse products), on any values
(:mod:`rules.odds.spread`), so all the arithmetic is exact. The totals of the result are
rpg-dice-roller's: each value to two decimals (:func:`rules.dice.total_of`), as a roll shows it.

* one die is described by its *entries*: the first roll (clamped by ``min``/``max``), and, for
  ``!``, each roll an explosion adds (``!p``: minus 1); each entry carries its value after
  rerolls (``r`` conditions on the faces that do not match, ``ro`` rolls once more) and whether
  it explodes (decided on the value before the reroll, as rpg-dice-roller runs explode first);
* a pool without keep/drop adds its dice: where an added roll is the first one shifted by a
  constant (``!``, ``!!``, ``!p``, 10-again counting), the pool is ``count`` stopping rolls and
  ``E`` exploding ones in ``C(count+E-1, E)`` orders, ``E`` followed until more explosions in the
  whole pool are less likely than 1e-12; otherwise each die's chain is followed until a longer
  chain in any die is less likely than 1e-12 (never past ``Limits.max_chain`` explosions) and
  the die's distribution raised to the pool's count. Either way the pool's dropped mass is
  below 1e-12 and reported in :attr:`Distribution.truncated`;
* keep/drop (:mod:`rules.odds.select`) works face by face in time that grows with faces × kept
  dice, over exploding pools too; what has no closed form follows the dice one by one
  (:mod:`rules.odds.stream`), as do unique dice (:mod:`rules.odds.unique`);
* ``+``/``-`` convolve (long lists through one big-integer product), other operators and
  functions take every pair of values.

Every piece prices its work before doing it (:class:`rules.odds.weights._Work`): past the
budget the calculation is refused, by a count that does not depend on the machine or its load.

This module holds the public API (:class:`Distribution`, :func:`odds`, the cache); the tiniest
shapes (``3d6``, ``2d20kh1 + 5``) go straight from the text through :mod:`rules.odds.direct`.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from rules.dice import DEFAULT_LIMITS, Expression, Node, parse, validate
from rules.odds.direct import _direct
from rules.odds.spread import _Any, totals
from rules.odds.tree import _node
from rules.odds.weights import _Work

__all__ = ["Distribution", "odds"]

Total = int | Fraction


@dataclass(frozen=True)
class Distribution:
    """The exact distribution of an expression's total (or success count).

    Held as integer weights over one denominator (exact, and cheap to build); ``probs`` turns
    them into fractions on first use.

    Attributes:
        totals: every reachable total, ascending: an ``int``, or a Fraction (two decimals, as
            rpg-dice-roller shows it) when the total is not whole.
        weights: the weight of each total (all above zero).
        denominator: the common denominator; the weights add up to at most it, the rest being
            the mass dropped by cutting explosion chains.
    """

    totals: tuple[Total, ...]
    weights: tuple[int, ...]
    denominator: int

    @cached_property
    def probs(self) -> dict[Total, Fraction]:
        """Total -> probability, keys ascending."""
        d = self.denominator
        return {t: Fraction(w, d) for t, w in zip(self.totals, self.weights, strict=True)}

    @cached_property
    def truncated(self) -> Fraction:
        """Probability mass dropped by cutting explosion chains (0 without ``!``)."""
        return Fraction(self.denominator - sum(self.weights), self.denominator)

    @property
    def whole(self) -> bool:
        """Whether every total is a whole number."""
        return all(isinstance(t, int) for t in self.totals)

    def p_at_least(self, n: Total) -> Fraction:
        """Return P(total >= n) over the listed totals (truncated mass not counted)."""
        start = bisect_left(self.totals, n)
        return Fraction(sum(self.weights[start:]), self.denominator)

    def mean(self) -> Fraction:
        """Return the mean total, normalised over the listed (non-truncated) mass."""
        mass = sum(self.weights)
        moment = sum(t * w for t, w in zip(self.totals, self.weights, strict=True))
        return Fraction(moment) / mass

    def floats(self) -> dict[Total, float]:
        """Total -> probability as floats (for display), without building fractions."""
        d = self.denominator
        return {t: w / d for t, w in zip(self.totals, self.weights, strict=True)}

    @property
    def minimum(self) -> Total:
        return self.totals[0]

    @property
    def maximum(self) -> Total:
        return self.totals[-1]


_CACHE: dict[object, Distribution] = {}
_CACHE_SIZE = 256
_new = object.__new__


def _compute(root: Node, max_chain: int, key: object = None) -> Distribution:
    """The distribution of a parsed tree, remembered by ``key`` (its canonical notation
    unless given: ``odds`` of a text passes the text, which costs nothing to make)."""
    if key is None:
        key = f"{max_chain}:{root}"
        found = _CACHE.get(key)
        if found is not None:
            return found
    return _store(key, _node(root, max_chain, _Work()))


def _store(key: object, computed: _Any) -> Distribution:
    """Remember a computed distribution under ``key`` and return it."""
    keys, weights, denominator = totals(computed)
    # not Distribution(...): a frozen __init__ pays an object.__setattr__ per field, a tenth of
    # the odds of ``3d6``; these three fields are all it has
    dist = _new(Distribution)
    dist.__dict__.update(totals=tuple(keys), weights=tuple(weights), denominator=denominator)
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
        DiceLimitError: a bound is broken, or the exact calculation would pass its counted
            budget of work.
        RulesError: a value with no number on some outcome (the roll would say the same).
    """
    max_chain = DEFAULT_LIMITS.max_chain
    if isinstance(expr, str):
        key = (max_chain, expr)  # the same text parses to the same tree
        found = _CACHE.get(key)
        if found is not None:
            return found
        direct = _direct(expr)
        if direct is not None:
            return _store(key, direct)
        return _compute(parse(expr).root, max_chain, key)
    validate(expr)
    return _compute(expr.root, max_chain)

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

This module holds the public API (:class:`Distribution`, :func:`odds`, the cache); the weight
arithmetic is in :mod:`rules.odds.weights`, one die's entries and explosions in
:mod:`rules.odds.explode`, keep/drop in :mod:`rules.odds.keep`, and the walk over pools, groups
and the tree in :mod:`rules.odds.tree`; the tiniest shapes (``3d6``, ``2d20kh1 + 5``) go
straight from the text through :mod:`rules.odds.direct`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from rules.dice import DEFAULT_LIMITS, Expression, Node, parse, validate
from rules.odds.direct import _direct
from rules.odds.tree import _node
from rules.odds.weights import _Dist, _trim, _Work

__all__ = ["Distribution", "odds"]


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


def _store(key: object, computed: _Dist) -> Distribution:
    """Remember a computed distribution under ``key`` and return it."""
    offset, weights, denominator = _trim(computed)
    # not Distribution(...): a frozen __init__ pays an object.__setattr__ per field, a tenth of
    # the odds of ``3d6``; these three fields are all it has
    dist = _new(Distribution)
    dist.__dict__.update(offset=offset, weights=tuple(weights), denominator=denominator)
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

"""Exact Мир Тьмы odds: the four outcomes and the distribution of successes.

One die's success count is computed once per (n-again, rote, threshold) as integer weights over
``10**k``: an explosion chain is followed until what remains of it is below 1e-15. A pool adds
one die at a time to the cached pool one die smaller (integer convolution); after each die the
highest success counts holding less than 5e-15 in all are dropped. So a pool of up to 100 dice
loses less than 1e-12, reported as ``truncated``. Every dropped event has more successes than
the exceptional threshold, so the four outcome chances are exact all the same (what is dropped
is counted in ``exceptional_success``). ``Fraction`` appears only in the cached final answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from rules.wod.pool import OUTCOMES, Pool
from rules.wod.tables import FACES

_DIE_TAIL = 10**15  # a die's chain stops once what remains of it is below 1e-15
_STEP_TAIL = 2 * 10**14  # per added die, drop top counts holding less than 5e-15 in all
_CHANCE_DEPTH = 12  # a chance die's run of 10s is listed up to 12 successes (tail 1e-13)

Weights = tuple[tuple[int, ...], int]  # (ways for 0, 1, 2… successes; exponent of 10)


@lru_cache(maxsize=64)
def die_counts(again: int | None, rote: bool, threshold: int, exceptional: int) -> Weights:
    """Return one pool die's success-count weights over ``10**exp``.

    Args:
        again: 10, 9, 8 or ``None``.
        rote: a failed first roll is rerolled once (the reroll may explode).
        threshold: a face of at least this succeeds.
        exceptional: the chain is followed at least this deep, so anything cut has more
            successes than an exceptional success needs.

    Returns:
        ``(weights, exp)``: ``weights[k] / 10**exp`` is the chance of exactly ``k``
        successes; the missing mass is the cut tail of the explosion chain.
    """
    fail = threshold - 1
    boom = 0 if again is None else FACES + 1 - again
    plain = FACES - fail - boom  # succeeds without exploding
    depth = 0  # explosions followed; a longer chain is cut
    if boom:
        while boom ** (depth + 1) * _DIE_TAIL >= FACES ** (depth + 1) or depth + 1 < exceptional:
            depth += 1
    chain = [fail, plain]  # over 10: a roll that may not explode any more
    for level in range(1, depth + 1):
        scale = FACES**level
        longer = [fail * scale, plain * scale] + [0] * (len(chain) - 1)
        for k, ways in enumerate(chain):
            longer[k + 1] += boom * ways
        chain = longer
    if not rote:
        return tuple(chain), depth + 1
    # Rote: a first roll that failed (fail / 10) is rolled again as a whole new chain.
    kept = [w * FACES for w in chain]
    kept[0] -= fail * FACES**depth * FACES
    return tuple(k + fail * w for k, w in zip(kept, chain, strict=True)), depth + 2


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for j, wb in enumerate(b):
        if wb:
            for i, wa in enumerate(a, start=j):
                out[i] += wa * wb
    return out


@lru_cache(maxsize=1024)
def pool_counts(
    size: int, again: int | None, rote: bool, threshold: int, exceptional: int
) -> Weights:
    """Return a normal pool's success-count weights over ``10**exp`` (see ``die_counts``).

    The pool of ``size`` dice is built from the cached pool of ``size − 1``; the highest counts
    holding less than 5e-15 are dropped after each die (never counts below ``exceptional``).
    """
    if size <= 0:
        return (1,), 0
    prev, prev_exp = pool_counts(size - 1, again, rote, threshold, exceptional)
    die, die_exp = die_counts(again, rote, threshold, exceptional)
    weights = _convolve(prev, die)
    exp = prev_exp + die_exp
    allowance = 10**exp // _STEP_TAIL
    dropped = 0
    while len(weights) > exceptional + 1 and dropped + weights[-1] < allowance:
        dropped += weights.pop()
    return tuple(weights), exp


@dataclass(frozen=True)
class PoolOdds:
    """The exact odds of a pool or chance die (cached and shared: treat as read-only).

    Attributes:
        outcomes: the four outcomes, best first, summing to exactly 1.
        weights: ways to roll 0, 1, 2… successes over ``10**exp`` (the exact integers
            behind ``successes``).
        exp: the power of ten the weights are over.
    """

    outcomes: dict[str, Fraction]
    weights: tuple[int, ...]
    exp: int

    @cached_property
    def successes(self) -> dict[int, Fraction]:
        """Successes → chance, ascending; the long tail is cut (see ``truncated``)."""
        whole = 10**self.exp
        return {k: Fraction(w, whole) for k, w in enumerate(self.weights) if w}

    @property
    def truncated(self) -> Fraction:
        """The chance cut from ``successes`` (below 1e-12; all of it is exceptional)."""
        return Fraction(10**self.exp - sum(self.weights), 10**self.exp)


def _odds(weights: tuple[int, ...], exp: int, exceptional: int, dramatic: int) -> PoolOdds:
    """Build the odds from integer weights over ``10**exp``.

    ``dramatic`` is the part of ``weights[0]`` that is a dramatic failure; everything not
    below ``exceptional`` successes, the cut tail included, is an exceptional success.
    """
    whole = 10**exp
    failure = weights[0] - dramatic
    success = sum(weights[1:exceptional])
    ways = (whole - failure - dramatic - success, success, failure, dramatic)
    outcomes = {key: Fraction(w, whole) for key, w in zip(OUTCOMES, ways, strict=True)}
    return PoolOdds(outcomes=outcomes, weights=weights, exp=exp)


@lru_cache(maxsize=1024)
def _normal_odds(
    size: int, again: int | None, rote: bool, threshold: int, exceptional: int
) -> PoolOdds:
    weights, exp = pool_counts(size, again, rote, threshold, exceptional)
    return _odds(weights, exp, exceptional, dramatic=0)


@lru_cache(maxsize=64)
def _chance_odds(exceptional: int) -> PoolOdds:
    # Seed: only a 10 succeeds and is rerolled; a first 1 is a dramatic failure; 8s, 9s and
    # later 1s add nothing. k successes: k tens, then a non-10 (9 of 10 faces).
    exp = _CHANCE_DEPTH + 1
    weights = (9 * 10 ** (exp - 1),) + tuple(9 * 10 ** (exp - 1 - k) for k in range(1, exp))
    return _odds(weights, exp, exceptional, dramatic=10 ** (exp - 1))


def pool_odds(pool: Pool) -> PoolOdds:
    """Return the exact odds of a pool, or of a chance die when the pool is 0 or less.

    Args:
        pool: the inputs (size, n-again, rote, thresholds).

    Returns:
        The four outcome chances (exact) and the success-count distribution (tail cut below
        1e-12, reported). A chance die ignores n-again and rote: only its 10s reroll.
    """
    if pool.chance:
        return _chance_odds(pool.exceptional)
    return _normal_odds(pool.size, pool.again, pool.rote, pool.success_threshold, pool.exceptional)

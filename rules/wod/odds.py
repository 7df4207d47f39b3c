"""Exact Мир Тьмы odds: the four outcomes and the distribution of successes.

The four outcomes need only the chance of each success count below the exceptional threshold
(``low``); an exceptional success is the rest. One die's chance of ``k`` successes has a closed
form, and ``k`` successes take ``k`` rolls beyond each die's first, so with ``x`` standing for one
success and one roll more (``x / 10``) a die is a polynomial with small integer coefficients.
A pool is that polynomial to the power ``size``, cut after ``x**(exceptional − 1)``; its
coefficients come from J. C. P. Miller's recurrence for a power series raised to a power, in
exact integers: a few dozen operations whatever the pool's size.

The whole distribution of successes (the CLI shows it) is built only on first use: one die's
success count is computed once per (n-again, rote, threshold) as integer weights over ``10**k``:
an explosion chain is followed until what remains of it is below 1e-15. A pool adds one die at a
time to the cached pool one die smaller (integer convolution); after each die the highest
success counts holding less than 5e-15 in all are dropped. So a pool of up to 100 dice loses
less than 1e-12, reported as ``truncated``. Every dropped event has more successes than the
exceptional threshold, so it never touches ``low``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache, partial

from rules.wod.pool import OUTCOMES, Pool
from rules.wod.tables import FACES

_DIE_TAIL = 10**15  # a die's chain stops once what remains of it is below 1e-15
_STEP_TAIL = 2 * 10**14  # per added die, drop top counts holding less than 5e-15 in all
_CHANCE_DEPTH = 12  # a chance die's run of 10s is listed up to 12 successes (tail 1e-13)

Weights = tuple[tuple[int, ...], int]  # (ways for 0, 1, 2… successes; exponent of 10)
Low = tuple[tuple[int, ...], int]  # (ways for 0, 1… successes; rolls: k's are over 10**(rolls+k))


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


@lru_cache(maxsize=64)
def die_low(again: int | None, rote: bool, threshold: int, exceptional: int) -> Low:
    """Return one pool die's exact weights for fewer successes than ``exceptional``.

    A roll fails (``fail`` faces of 10), succeeds (``plain``) or succeeds and adds a die
    (``boom``); ``k`` successes are ``k − 1`` booms and a plain success, or ``k`` booms and a
    failure. With rote, a failed first roll is rolled again as a whole new chain, once.

    Args:
        again: 10, 9, 8 or ``None``.
        rote: a failed first roll is rerolled once (the reroll may explode).
        threshold: a face of at least this succeeds.
        exceptional: the weights run up to ``exceptional − 1`` successes.

    Returns:
        ``(weights, rolls)``: ``weights[k] / 10**(rolls + k)`` is the exact chance of ``k``
        successes (``rolls`` is 1, or 2 with rote: the rolls every count pays for).
    """
    fail = threshold - 1
    boom = 0 if again is None else FACES + 1 - again
    plain = FACES - fail - boom
    chain = [fail] + [
        FACES * plain * boom ** (k - 1) + fail * boom**k for k in range(1, exceptional)
    ]
    if not rote:
        return tuple(chain), 1
    # 0: both rolls fail. k ≥ 1: the first roll's chain, or a failed roll (fail / 10) and then
    # the reroll's chain: (1 + fail / 10) times the chain, over one more power of 10.
    return (fail * fail,) + tuple((FACES + fail) * w for w in chain[1:]), 2


def low_counts(size: int, again: int | None, rote: bool, threshold: int, exceptional: int) -> Low:
    """Return a normal pool's exact weights for fewer successes than ``exceptional``.

    The pool is the die's polynomial (``die_low``) to the power ``size``, cut after
    ``exceptional − 1`` successes. For ``P = D**n``, ``P′·D = n·D′·P`` gives, term by term,
    ``k·d₀·pₖ = Σⱼ ((n + 1)·j − k)·dⱼ·pₖ₋ⱼ`` (j = 1…k; J. C. P. Miller), exact in integers as
    ``pₖ`` is an integer and ``d₀`` (a die that fails) is never 0.

    Returns:
        ``(weights, rolls)``: ``weights[k] / 10**(rolls + k)`` is the exact chance of ``k``
        successes, with ``rolls`` the die's ``rolls`` times ``size``.
    """
    die, rolls = die_low(again, rote, threshold, exceptional)
    weights = [die[0] ** size]
    for k in range(1, exceptional):
        total = sum(((size + 1) * j - k) * die[j] * weights[k - j] for j in range(1, k + 1))
        weights.append(total // (k * die[0]))
    return tuple(weights), rolls * size


@dataclass(frozen=True)
class PoolOdds:
    """The exact odds of a pool or chance die (cached and shared: treat as read-only).

    Attributes:
        outcomes: the four outcomes, best first, summing to exactly 1.
        low: successes → exact chance, for every count below the exceptional threshold
            (``outcomes["exceptional_success"]`` is the rest, ``1 − sum(low)``).
        full_counts: builds the whole distribution's weights (``successes``) on first use.
    """

    outcomes: dict[str, Fraction]
    low: dict[int, Fraction]
    full_counts: Callable[[], Weights] = field(repr=False, compare=False)

    @cached_property
    def _counts(self) -> Weights:
        return self.full_counts()

    @property
    def weights(self) -> tuple[int, ...]:
        """Ways to roll 0, 1, 2… successes over ``10**exp`` (built on first use)."""
        return self._counts[0]

    @property
    def exp(self) -> int:
        """The power of ten ``weights`` are over."""
        return self._counts[1]

    @cached_property
    def successes(self) -> dict[int, Fraction]:
        """Successes → chance, ascending; the long tail is cut (see ``truncated``)."""
        whole = 10**self.exp
        return {k: Fraction(w, whole) for k, w in enumerate(self.weights) if w}

    @property
    def truncated(self) -> Fraction:
        """The chance cut from ``successes`` (below 1e-12; all of it is exceptional)."""
        return Fraction(10**self.exp - sum(self.weights), 10**self.exp)


@lru_cache(maxsize=1024)
def _normal_odds(
    size: int, again: int | None, rote: bool, threshold: int, exceptional: int
) -> PoolOdds:
    weights, rolls = low_counts(size, again, rote, threshold, exceptional)
    # Over one denominator, 10**(rolls + exceptional − 1), the outcomes are sums of integers.
    top = exceptional - 1
    whole = 10 ** (rolls + top)
    scaled = [w * 10 ** (top - k) for k, w in enumerate(weights)]
    success = sum(scaled[1:])
    ways = (whole - scaled[0] - success, success, scaled[0], 0)
    return PoolOdds(
        outcomes={key: Fraction(w, whole) for key, w in zip(OUTCOMES, ways, strict=True)},
        low={k: Fraction(w, 10 ** (rolls + k)) for k, w in enumerate(weights)},
        full_counts=partial(pool_counts, size, again, rote, threshold, exceptional),
    )


def _chance_counts() -> Weights:
    # k successes: k tens, then a non-10 (9 of 10 faces), listed up to _CHANCE_DEPTH.
    exp = _CHANCE_DEPTH + 1
    return (9 * 10 ** (exp - 1),) + tuple(9 * 10 ** (exp - 1 - k) for k in range(1, exp)), exp


@lru_cache(maxsize=64)
def _chance_odds(exceptional: int) -> PoolOdds:
    # Seed: only a 10 succeeds and is rerolled; a first 1 is a dramatic failure; 8s, 9s and
    # later 1s add nothing. So k successes (k ≥ 1) are k tens and a non-10: 9 / 10**(k + 1).
    low = {0: Fraction(9, 10)} | {k: Fraction(9, 10 ** (k + 1)) for k in range(1, exceptional)}
    outcomes = {
        "exceptional_success": Fraction(1, 10**exceptional),
        "success": Fraction(1, 10) - Fraction(1, 10**exceptional),
        "failure": Fraction(8, 10),
        "dramatic_failure": Fraction(1, 10),
    }
    return PoolOdds(outcomes=outcomes, low=low, full_counts=_chance_counts)


def pool_odds(pool: Pool) -> PoolOdds:
    """Return the exact odds of a pool, or of a chance die when the pool is 0 or less.

    Args:
        pool: the inputs (size, n-again, rote, thresholds).

    Returns:
        The four outcome chances and the chance of each count below the exceptional threshold
        (exact), and on first use the success-count distribution (tail cut below 1e-12,
        reported). A chance die ignores n-again and rote: only its 10s reroll.
    """
    if pool.chance:
        return _chance_odds(pool.exceptional)
    return _normal_odds(pool.size, pool.again, pool.rote, pool.success_threshold, pool.exceptional)

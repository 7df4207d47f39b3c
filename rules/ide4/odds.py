"""Exact IDE4™ odds of the five outcomes, energy before the roll included.

The natural d100 is uniform on 1…100; K energy dice of size N add their sum (the total is
capped at 100). Counts are plain integers out of ``100 · N**K``, cached per integer input;
``Fraction`` appears only when a result is handed out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rules.errors import RulesError
from rules.ide4.model import AUTO, IMPOSSIBLE, OUTCOMES, CheckInput, check_die, resolve_difficulty
from rules.ide4.tables import band_for, dice_of, energy_rules

D100 = 100


@lru_cache(maxsize=None)
def energy_sum_counts(count: int, die: int) -> tuple[int, ...]:
    """Return how many of the ``die**count`` rolls give each sum, indexed by the sum.

    Args:
        count: number of energy dice (0 gives the single sum 0).
        die: their size.
    """
    if count <= 0:
        return (1,)
    prev = energy_sum_counts(count - 1, die)
    # Sliding window: ways(t) = Σ prev[t − f] for f in 1…die, from running prefix sums.
    prefix = [0]
    for ways in prev:
        prefix.append(prefix[-1] + ways)
    top = len(prev) - 1 + die
    return tuple(
        prefix[min(t - 1, len(prev) - 1) + 1] - prefix[max(t - die, 0)] for t in range(top + 1)
    )


@lru_cache(maxsize=None)
def _at_least(count: int, die: int) -> tuple[int, ...]:
    """``result[s]`` = ways the energy sum is ≥ s, for s in 0…max+1."""
    sums = energy_sum_counts(count, die)
    suffix = [0] * (len(sums) + 1)
    for s in range(len(sums) - 1, -1, -1):
        suffix[s] = suffix[s + 1] + sums[s]
    return tuple(suffix)


@lru_cache(maxsize=4096)
def outcome_counts(final: int, count: int = 0, die: int = 4) -> tuple[int, int, int, int, int]:
    """Return how many of the ``100 · die**count`` rolls give each of ``OUTCOMES``, in order.

    Args:
        final: a rolled difficulty 1…7.
        count: energy dice before the roll; die: their size.
    """
    band = band_for(final)
    at_least = _at_least(count, die)
    every = at_least[0]

    def ways(need: int) -> int:
        if need <= 0:
            return every
        return at_least[need] if need < len(at_least) else 0

    triumph = success = middle = failure = tragedy = 0
    for natural in range(1, D100 + 1):
        if natural <= band.tragedy_max:
            tragedy += every
        elif band.triumph_min is not None and natural >= band.triumph_min:
            triumph += every
        else:
            if band.success_natural:
                up = every if natural >= band.success_min else 0
            else:
                up = ways(band.success_min - natural)
            mid = ways(band.middle_min - natural) - up
            success += up
            middle += mid
            failure += every - up - mid
    return triumph, success, middle, failure, tragedy


def outcome_odds(
    final: int, energy_dice: int = 0, die: int = 4, *, hidden_risk: bool = False
) -> dict[str, Fraction]:
    """Return the exact chance of each outcome.

    Args:
        final: the final difficulty; ≤ 0 is an automatic Успех, ≥ 8 is [00].
        energy_dice: energy dice declared before the roll (0…10); die: their size.
        hidden_risk: a final ≤ 0 is kept at [1] and rolled.

    Returns:
        ``{outcome: Fraction}`` keyed by ``OUTCOMES`` in order; the values sum to exactly 1.

    Raises:
        RulesError: [00], too many energy dice, or a die size not in the energy table.
    """
    if final >= IMPOSSIBLE:
        raise RulesError(
            "[00]: невозможно — этим способом сейчас нельзя; кубик не бросается, шансов нет."
        )
    rules = energy_rules()
    if not 0 <= energy_dice <= rules.before_max_dice:
        raise RulesError(f"До броска — от 0 до {dice_of(rules.before_max_dice)} энергии.")
    if energy_dice and die not in rules.sizes:
        raise RulesError(f"Кубы энергии — {', '.join(f'd{s}' for s in rules.sizes)}, а не d{die}.")
    if final <= AUTO:
        if not hidden_risk:
            return {key: Fraction(int(key == "success")) for key in OUTCOMES}
        final = 1
    if not energy_dice:
        die = min(rules.sizes)  # any size: zero dice; one cache entry
    counts = outcome_counts(final, energy_dice, die)
    total = D100 * die**energy_dice
    return {key: Fraction(n, total) for key, n in zip(OUTCOMES, counts, strict=True)}


def check_odds(inp: CheckInput) -> dict[str, Fraction]:
    """Return the exact odds of a check before its roll (the builder's live odds).

    Raises:
        RulesError: [00], or energy the rules forbid (above the nominal, too many dice).
    """
    difficulty = resolve_difficulty(inp)
    if inp.energy_dice:
        check_die(inp.before_die, inp.nominal, inp.attribute_level)
    final = difficulty.final
    return outcome_odds(final, inp.energy_dice, inp.before_die)

"""Exact Древо odds from the 4dF distribution.

Counts are plain integers over the 81 outcomes of 4dF (6561 for two sides) and are cached
per integer input; ``Fraction`` appears only when a result is handed out.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product

from rules.drevo.check import OUTCOMES, OneSidedCheck, crit_of, one_sided_outcome
from rules.drevo.opposed import OPPOSED_OUTCOMES, OpposedCheck, cancel_crits

# Sum of 4dF -> how many of the 3**4 = 81 equally likely rolls give it.
FOUR_DF: dict[int, int] = dict(
    sorted(Counter(sum(faces) for faces in product((-1, 0, 1), repeat=4)).items())
)

ROLLS = sum(FOUR_DF.values())  # 81
_SUMS = tuple(FOUR_DF.items())


@lru_cache(maxsize=1024)
def one_sided_counts(bonus: int, difficulty: int) -> tuple[int, int, int, int]:
    """Return how many of the 81 rolls give each of ``OUTCOMES`` (in that order).

    Args:
        bonus: trait plus modifiers.
        difficulty: the difficulty to reach.
    """
    counts = dict.fromkeys(OUTCOMES, 0)
    for dice_sum, ways in _SUMS:
        counts[one_sided_outcome(dice_sum, dice_sum + bonus, difficulty)] += ways
    return (
        counts["crit_success"],
        counts["success"],
        counts["failure"],
        counts["crit_failure"],
    )


@lru_cache(maxsize=1024)
def opposed_counts(bonus_diff: int) -> tuple[int, int, int]:
    """Return how many of the 6561 roll pairs give win, tie, lose for side a.

    Args:
        bonus_diff: side a's trait plus modifiers minus side b's (all that matters).
    """
    win = tie = lose = 0
    for sum_a, ways_a in _SUMS:
        for sum_b, ways_b in _SUMS:
            crit_a, crit_b = cancel_crits(crit_of(sum_a), crit_of(sum_b))
            key_a = (crit_a, sum_a + bonus_diff)
            key_b = (crit_b, sum_b)
            ways = ways_a * ways_b
            if key_a > key_b:
                win += ways
            elif key_a < key_b:
                lose += ways
            else:
                tie += ways
    return win, tie, lose


def one_sided_odds(check: OneSidedCheck) -> dict[str, Fraction]:
    """Return the exact chance of each outcome of a one-sided check.

    Args:
        check: side and difficulty (only trait + modifiers and difficulty matter).

    Returns:
        ``{outcome: Fraction}`` keyed by ``OUTCOMES`` in order; the values sum to exactly 1.
        With Судьба declared (``check.uses_fate``) the critical success is certain.
    """
    if check.uses_fate:
        return {key: Fraction(int(key == "crit_success")) for key in OUTCOMES}
    counts = one_sided_counts(check.side.bonus, check.difficulty)
    return {key: Fraction(n, ROLLS) for key, n in zip(OUTCOMES, counts, strict=True)}


def opposed_odds(check: OpposedCheck) -> dict[str, Fraction]:
    """Return the exact chance of win, tie and lose for side a of an opposed check.

    Args:
        check: the two sides (only the difference of their bonuses matters).

    Returns:
        ``{"win"|"tie"|"lose": Fraction}``; the values sum to exactly 1. A side that spent
        Судьба (``fate_auto``) contributes a certain +4 instead of the 81 rolls.
    """
    diff = check.a.bonus - check.b.bonus
    if check.a.fate_auto or check.b.fate_auto:
        counts = _fated_opposed_counts(diff, check.a.fate_auto, check.b.fate_auto)
        total = (1 if check.a.fate_auto else ROLLS) * (1 if check.b.fate_auto else ROLLS)
    else:
        counts, total = opposed_counts(diff), ROLLS * ROLLS
    return {key: Fraction(n, total) for key, n in zip(OPPOSED_OUTCOMES, counts, strict=True)}


def _fated_opposed_counts(bonus_diff: int, a_fate: bool, b_fate: bool) -> tuple[int, int, int]:
    """Count win, tie, lose when one or both sides' dice are a fixed +4 (Судьба)."""
    fixed = ((4, 1),)
    win = tie = lose = 0
    for sum_a, ways_a in fixed if a_fate else _SUMS:
        for sum_b, ways_b in fixed if b_fate else _SUMS:
            crit_a, crit_b = cancel_crits(crit_of(sum_a), crit_of(sum_b))
            key_a, key_b = (crit_a, sum_a + bonus_diff), (crit_b, sum_b)
            if key_a > key_b:
                win += ways_a * ways_b
            elif key_a < key_b:
                lose += ways_a * ways_b
            else:
                tie += ways_a * ways_b
    return win, tie, lose

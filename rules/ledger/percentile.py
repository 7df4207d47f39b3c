"""Where one roll landed in its own exact distribution: the mid-rank percentile.

For a total ``x`` of a distribution ``X`` the percentile is ``P(X < x) + P(X = x) / 2``; for a
check with named outcomes it is the same over the outcomes ordered worst to best. Under fair
dice its mean is exactly 1/2 whatever the distribution (ties share their mass evenly), which is
what makes rolls of different checks comparable. Its variance is ``(1 − Σ pᵢ³) / 12``: 1/12 for
a continuous total, less when a few outcomes carry the mass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import RulesError

#: A roll whose distribution has more outcomes than this keeps only its summary in the log
#: (mean 1/2 and its variance); the verdict then uses the normal approximation. Outcomes in
#: either tail holding less than ``TAIL`` in all are stored as one (exploding dice).
STORED_OUTCOMES = 160
TAIL = Fraction(1, 10**12)


@dataclass(frozen=True)
class Luck:
    """Where one roll landed.

    Attributes:
        percentile: ``P(worse) + P(this) / 2``, in 0…1 (0.5 is a typical roll).
        at_least: the chance of this outcome or better (``P(X ≥ x)`` for a total).
        outcome: the outcome's key, or the total as text.
        probs: every outcome's chance, worst first (the distribution the roll came from).
        index: the rolled outcome's place in ``probs``.
    """

    percentile: Fraction
    at_least: Fraction
    outcome: str
    probs: tuple[Fraction, ...]
    index: int

    @property
    def variance(self) -> Fraction:
        """The variance of the percentile under fair dice: ``(1 − Σ pᵢ³) / 12``."""
        return (1 - sum((p**3 for p in self.probs), Fraction(0))) / 12

    def spread(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """Return ``(percentile, chance)`` of every outcome: the percentile's own distribution."""
        below = Fraction(0)
        out = []
        for p in self.probs:
            if p:
                out.append((below + p / 2, p))
            below += p
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (floats at full precision; the outcome chances only for
        small distributions)."""
        data: dict[str, Any] = {
            "percentile": float(self.percentile),
            "at_least": float(self.at_least),
            "outcome": self.outcome,
            "variance": float(self.variance),
        }
        stored = _trimmed(self.probs)
        if len(stored) <= STORED_OUTCOMES:
            data["probs"] = [float(p) for p in stored]
        return data


def _trimmed(probs: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """Merge each tail's outcomes holding less than ``TAIL`` in all into one outcome."""
    low, mass = 0, Fraction(0)
    while low < len(probs) - 1 and mass + probs[low] < TAIL:
        mass += probs[low]
        low += 1
    high, top = len(probs) - 1, Fraction(0)
    while high > low and top + probs[high] < TAIL:
        top += probs[high]
        high -= 1
    middle = list(probs[low : high + 1])
    if low:
        middle[0] += mass
    if high < len(probs) - 1:
        middle[-1] += top
    return tuple(middle)


def outcome_luck(odds: Mapping[str, Fraction], order: Sequence[str], outcome: str) -> Luck:
    """Return where ``outcome`` landed among ordered named outcomes.

    Args:
        odds: each outcome's exact chance (they sum to 1).
        order: the outcome keys, best first (as each system's ``OUTCOMES``).
        outcome: the outcome rolled.

    Returns:
        The mid-rank percentile over the outcomes ordered worst to best, and the chance of
        this outcome or better.

    Raises:
        RulesError: the outcome is not one of ``order``, or it had no chance at all.
    """
    worst_first = list(reversed(order))
    if outcome not in worst_first:
        raise RulesError(f"Исход «{outcome}» не из этой проверки: {', '.join(order)}.")
    probs = tuple(Fraction(odds.get(key, 0)) for key in worst_first)
    return _luck(probs, worst_first.index(outcome), outcome)


def total_luck(probs: Mapping[Any, Fraction], total: int | Fraction) -> Luck:
    """Return where ``total`` landed in the distribution ``probs`` (total → chance).

    The chances are normalised over their sum, so a distribution with a cut tail (exploding
    dice) still gives a percentile in 0…1.

    Raises:
        RulesError: ``total`` cannot be rolled in this distribution.
    """
    keys = sorted(k for k, p in probs.items() if p)
    if total not in keys:
        raise RulesError(f"Итог {total} не выпадает в этом распределении.")
    mass = sum((probs[k] for k in keys), Fraction(0))
    return _luck(tuple(probs[k] / mass for k in keys), keys.index(total), str(total))


def _luck(probs: tuple[Fraction, ...], index: int, outcome: str) -> Luck:
    if not probs[index]:
        raise RulesError(f"Исход «{outcome}» здесь невозможен: его шанс равен нулю.")
    below = sum(probs[:index], Fraction(0))
    return Luck(
        percentile=below + probs[index] / 2,
        at_least=1 - below,
        outcome=outcome,
        probs=probs,
        index=index,
    )

"""What each move after the d100 is worth: the exact chance that it improves the outcome and
the chance that it worsens it, before the GM or the player chooses it.

[seed] «Новый d100 может попасть в другую полосу таблицы — тогда меняется категория»: a reroll
replaces the natural d100 (the energy already added stays), so it can improve or worsen.
«Сумма прибавляется к d100, категория определяется заново»: energy after only adds, and
Трагедия and Триумф are read from the natural d100, so it never worsens. A mastery bonus that
changes the outcome does so for certain; the named technique and the sub-roll leave it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.ide4.model import OUTCOME_RANK, OUTCOMES
from rules.ide4.moves import SOFTEN_STEP
from rules.ide4.odds import D100, energy_sum_counts
from rules.ide4.state import Check
from rules.ide4.tables import band_for


@dataclass(frozen=True)
class MoveOdds:
    """The outcome a move leads to, as exact chances.

    Attributes:
        outcomes: the chance of each outcome after the move (keyed by ``OUTCOMES``).
        better: the chance the outcome is better than now; worse: that it is worse.
    """

    outcomes: dict[str, Fraction]
    better: Fraction
    worse: Fraction

    @property
    def same(self) -> Fraction:
        """The chance the outcome stays as it is."""
        return 1 - self.better - self.worse

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (each chance as a float and as an exact fraction)."""
        return {
            "better": float(self.better),
            "worse": float(self.worse),
            "same": float(self.same),
            "exact": {"better": str(self.better), "worse": str(self.worse)},
            "outcomes": {k: float(v) for k, v in self.outcomes.items()},
        }


def _odds(now: str, counts: dict[str, int], total: int) -> MoveOdds:
    rank = OUTCOME_RANK[now]
    outcomes = {k: Fraction(counts.get(k, 0), total) for k in OUTCOMES}
    better = sum((p for k, p in outcomes.items() if OUTCOME_RANK[k] > rank), Fraction(0))
    worse = sum((p for k, p in outcomes.items() if OUTCOME_RANK[k] < rank), Fraction(0))
    return MoveOdds(outcomes, better, worse)


def certain(now: str, after: str) -> MoveOdds:
    """The odds of a move whose outcome is known before it is made (a bonus, the sub-roll)."""
    return _odds(now, {after: 1}, 1)


def reroll_odds(check: Check) -> MoveOdds:
    """The outcome after a reroll of the d100: a new natural 1…100, the energy sums kept.

    Raises:
        RulesError: the check has no rolled d100.
    """
    if check.outcome is None or check.natural is None:
        raise RulesError("Шансы хода после броска — только когда d100 брошен.")
    band = band_for(check.difficulty.final)
    added = check.before_sum + check.after_sum
    counts: dict[str, int] = {}
    for natural in range(1, D100 + 1):
        outcome = band.classify(natural, min(100, natural + added))
        counts[outcome] = counts.get(outcome, 0) + 1
    return _odds(check.outcome, counts, D100)


def energy_after_odds(check: Check, count: int, die: int = 0) -> MoveOdds:
    """The outcome after ``count`` energy dice of size ``die`` (0: the nominal) are added.

    Raises:
        RulesError: the check has no rolled d100.
    """
    if check.outcome is None or check.natural is None or check.total is None:
        raise RulesError("Шансы хода после броска — только когда d100 брошен.")
    size = die or check.input.nominal
    band = band_for(check.difficulty.final)
    counts: dict[str, int] = {}
    for added, ways in enumerate(energy_sum_counts(count, size)):
        if ways:
            outcome = band.classify(check.natural, min(100, check.total + added))
            counts[outcome] = counts.get(outcome, 0) + ways
    return _odds(check.outcome, counts, size**count)


def bonus_odds(check: Check, kind: str) -> MoveOdds:
    """The outcome after a mastery bonus: ``reroll`` is a reroll; ``soften`` moves one step
    up, ``triumph`` makes Триумф, ``technique`` keeps the outcome (its effect is its text).

    Raises:
        RulesError: the check has no outcome yet.
    """
    if check.outcome is None:
        raise RulesError("Шансы хода после броска — только когда d100 брошен.")
    if kind == "reroll":
        return reroll_odds(check)
    if kind == "soften":
        return certain(check.outcome, SOFTEN_STEP.get(check.outcome, check.outcome))
    if kind == "triumph":
        return certain(check.outcome, "triumph")
    return certain(check.outcome, check.outcome)

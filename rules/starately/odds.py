"""Exact Старатели odds: success, failure and the whole Effect distribution.

A check only depends on the sum of the two kept dice ("natural"), whose distribution over the
36 rolls of 2d6 (216 of 3d6 keep 2) is enumerated once per boon/bane net. Counts are plain
integers cached per integer input; ``Fraction`` appears only when a result is handed out.
Task chains and group checks mix the main roll over the helpers' outcomes, still in integers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product

from rules.starately.check import FACES, KEPT, Check, Side, kept_flags, outcome_of
from rules.starately.procedures import GroupCheck, Opposed, TaskChain, natural_edge
from rules.starately.tables import settings

Naturals = tuple[tuple[int, int], ...]  # (natural, ways), ascending


def _count_naturals(net: int) -> Naturals:
    tally: Counter[int] = Counter()
    for dice in product(range(1, FACES + 1), repeat=KEPT + abs(net)):
        flags = kept_flags(dice, net)
        tally[sum(v for v, kept in zip(dice, flags, strict=True) if kept)] += 1
    return tuple(sorted(tally.items()))


# Enumerated once at import (216 rolls at most), so no odds call pays for it.
_NATURALS = {net: _count_naturals(net) for net in (-1, 0, 1)}


def natural_counts(net: int) -> Naturals:
    """Return how many rolls give each natural for a boon/bane net of −1, 0 or +1.

    Over ``6**2`` rolls for 2d6, ``6**3`` for 3d6 keeping the two highest (+1) or lowest (−1).
    """
    return _NATURALS[net]


def rolls(net: int) -> int:
    """Return how many equally likely rolls a net gives (36 or 216)."""
    return FACES ** (KEPT + abs(net))


@lru_cache(maxsize=4096)
def check_counts(net: int, bonus: int, difficulty: int) -> tuple[int, int, int, int]:
    """Return ``(success, failure, natural_success, natural_failure)`` roll counts.

    Args:
        net: boon/bane net, −1, 0 or +1.
        bonus: DM + skill (or −3) + modifiers.
        difficulty: the number to reach.

    Returns:
        Counts over ``rolls(net)``; the last two are the rolls a natural 12 or 2 decided
        (they are already inside the first two).
    """
    success = failure = auto_success = auto_failure = 0
    for natural, ways in natural_counts(net):
        outcome, auto = outcome_of(natural, natural + bonus, difficulty)
        if outcome == "success":
            success += ways
            auto_success += ways if auto else 0
        else:
            failure += ways
            auto_failure += ways if auto else 0
    return success, failure, auto_success, auto_failure


@dataclass(frozen=True)
class CheckOdds:
    """The exact odds of a check (cached and shared: treat as read-only).

    Attributes:
        outcomes: ``{"success": p, "failure": p}``, summing to exactly 1.
        effect: Effect (total − difficulty) → probability, ascending, summing to 1.
        natural_success: chance that a natural 12 decides (a success whatever the total).
        natural_failure: chance that a natural 2 decides (a failure whatever the total).
    """

    outcomes: dict[str, Fraction]
    effect: dict[int, Fraction]
    natural_success: Fraction
    natural_failure: Fraction

    @property
    def with_risk(self) -> Fraction:
        """Chance of success if the player declares Risk after any failure."""
        p = self.outcomes["success"]
        return p + (1 - p) * p


def _mixed(side: Side, difficulty: int, shifts: dict[int, int], weight: int) -> CheckOdds:
    """Odds of ``side`` vs ``difficulty`` with an extra modifier ``s`` in ``shifts[s]/weight``."""
    return _mixed_odds(side.net_dice, side.bonus, difficulty, tuple(shifts.items()), weight)


@lru_cache(maxsize=4096)
def _mixed_odds(
    net: int, base: int, difficulty: int, shifts: tuple[tuple[int, int], ...], weight: int
) -> CheckOdds:
    denominator = rolls(net) * weight
    success = auto_success = auto_failure = 0
    effect: Counter[int] = Counter()
    for shift, ways in shifts:
        bonus = base + shift
        s, _, a_s, a_f = check_counts(net, bonus, difficulty)
        success += s * ways
        auto_success += a_s * ways
        auto_failure += a_f * ways
        for natural, n in natural_counts(net):
            effect[natural + bonus - difficulty] += n * ways
    return CheckOdds(
        outcomes={
            "success": Fraction(success, denominator),
            "failure": Fraction(denominator - success, denominator),
        },
        effect={e: Fraction(n, denominator) for e, n in sorted(effect.items())},
        natural_success=Fraction(auto_success, denominator),
        natural_failure=Fraction(auto_failure, denominator),
    )


def check_odds(check: Check) -> CheckOdds:
    """Return the exact odds of one check.

    Args:
        check: side (DM, skill, boons/banes, modifiers) and difficulty.
    """
    return _mixed(check.side, check.difficulty, {0: 1}, 1)


def _effect_counts(check: Check) -> dict[int, int]:
    """Effect → how many of ``rolls(net)`` rolls give it."""
    shift = check.side.bonus - check.difficulty
    return {natural + shift: ways for natural, ways in natural_counts(check.side.net_dice)}


def chain_odds(chain: TaskChain) -> CheckOdds:
    """Return the exact odds of a task chain's main check, over the helper's every Effect."""
    helper = chain.helper_check
    return _mixed(
        chain.main.side, chain.main.difficulty, _effect_counts(helper), rolls(helper.side.net_dice)
    )


def group_odds(group: GroupCheck) -> CheckOdds:
    """Return the exact odds of a group check's main roll, over every count of helper successes."""
    per_success = settings().group_bonus
    bonus_ways: dict[int, int] = {0: 1}  # bonus -> ways, over the product of the helpers' rolls
    weight = 1
    for check in group.helper_checks:
        net = check.side.net_dice
        success = check_counts(net, check.side.bonus, check.difficulty)[0]
        failure = rolls(net) - success
        step: Counter[int] = Counter()
        for bonus, ways in bonus_ways.items():
            step[bonus + per_success] += ways * success
            step[bonus] += ways * failure
        bonus_ways, weight = dict(step), weight * rolls(net)
    return _mixed(group.main.side, group.main.difficulty, bonus_ways, weight)


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed roll.

    Attributes:
        a, b: chance each side wins, ties included (they go to ``Opposed.tie_winner``).
        tie: chance the totals are equal.
    """

    a: Fraction
    b: Fraction
    tie: Fraction


def opposed_odds(check: Opposed) -> OpposedOdds:
    """Return who wins an opposed roll how often (natural 12 and 2 decide nothing there)."""
    a_net, b_net = check.a.net_dice, check.b.net_dice
    diff = check.a.bonus - check.b.bonus
    a_wins = ties = 0
    for a_nat, a_ways in natural_counts(a_net):
        for b_nat, b_ways in natural_counts(b_net):
            edge = natural_edge(a_nat, b_nat)
            if edge is not None:
                a_wins += a_ways * b_ways if edge == "a" else 0
                continue
            margin = a_nat + diff - b_nat
            if margin > 0:
                a_wins += a_ways * b_ways
            elif margin == 0:
                ties += a_ways * b_ways
    total = rolls(a_net) * rolls(b_net)
    if check.tie_winner == "a":
        a_wins += ties
    return OpposedOdds(
        a=Fraction(a_wins, total), b=Fraction(total - a_wins, total), tie=Fraction(ties, total)
    )


@dataclass(frozen=True)
class RiskOdds:
    """What Risk is worth before it is declared: the retry's exact chance of a success
    (``better``) and of a failure worse than the first (a lower Effect, ``worse``); the price
    is paid whatever comes."""

    better: Fraction
    worse: Fraction

    @property
    def same(self) -> Fraction:
        """The chance of a failure as good as the first or better (still a failure)."""
        return 1 - self.better - self.worse

    def to_dict(self) -> dict[str, float | dict[str, str]]:
        """Return a JSON-ready dict (each chance as a float and as an exact fraction)."""
        return {
            "better": float(self.better),
            "worse": float(self.worse),
            "same": float(self.same),
            "exact": {"better": str(self.better), "worse": str(self.worse)},
        }


def risk_odds(check: Check, first_effect: int) -> RiskOdds:
    """Risk's odds for a check that failed with Effect ``first_effect``: the same check
    rolled again. [seed] «Игрок может заявить Риск и совершить проверку ещё раз».
    """
    side, difficulty = check.side, check.difficulty
    better = worse = 0
    for natural, ways in natural_counts(side.net_dice):
        total = natural + side.bonus
        outcome, _ = outcome_of(natural, total, difficulty)
        if outcome == "success":
            better += ways
        elif total - difficulty < first_effect:
            worse += ways
    every = rolls(side.net_dice)
    return RiskOdds(Fraction(better, every), Fraction(worse, every))

"""Мир Тьмы contested and extended rolls [default, as the game family does it].

RULES.md §3: contested — both sides roll their pools, more successes wins, equal is a tie;
extended — successes accumulate over rolls toward a target the Storyteller sets, each roll kept.
The seed has only the chance-die chapter, so every rule here reads ``data/wod/pool.toml``
([contested], [extended]) and a campaign may change it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from rules.counts import genitive
from rules.data import load_table, packaged_table
from rules.errors import RulesError
from rules.wod.odds import pool_odds
from rules.wod.pool import Pool, PoolResult, roll_pool
from rules.wod.tables import POOL_FILE

TIES = {"tie": "ничья", "initiator": "побеждает начавший"}


@dataclass(frozen=True)
class ContestRules:
    """The campaign's contested and extended settings (all [default])."""

    tie: str
    max_rolls: int
    dramatic_failure_ends: bool


def _section(name: str) -> dict[str, Any]:
    section = load_table(POOL_FILE).get(name)
    if section is None:  # a campaign table saved before this section existed
        section = packaged_table(POOL_FILE)[name]
    if not isinstance(section, dict):
        raise RulesError(f"{POOL_FILE}: [{name}] должна быть таблицей.")
    return section


@cache
def contest_rules() -> ContestRules:
    """Return the [contested] and [extended] settings of ``data/wod/pool.toml``.

    Raises:
        RulesError: a value of the wrong kind.
    """
    contested, extended = _section("contested"), _section("extended")
    tie = contested.get("tie")
    if tie not in TIES:
        raise RulesError(f"{POOL_FILE}: [contested] tie — «tie» или «initiator», а не {tie!r}.")
    rolls = extended.get("max_rolls")
    if not isinstance(rolls, int) or isinstance(rolls, bool) or rolls < 0:
        raise RulesError(f"{POOL_FILE}: [extended] max_rolls — целое число от 0 (0: без предела).")
    ends = extended.get("dramatic_failure_ends")
    if not isinstance(ends, bool):
        raise RulesError(f"{POOL_FILE}: [extended] dramatic_failure_ends — true или false.")
    return ContestRules(tie=tie, max_rolls=rolls, dramatic_failure_ends=ends)


# --- contested ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContestedResult:
    """Both sides' rolls and who won.

    Attributes:
        a, b: each side's result (a is the side that started the contest).
        winner: ``"a"``, ``"b"`` or ``None`` (a tie).
        tie_rule: on equal successes, the campaign rule that decided (``"tie"`` / ``"initiator"``).
    """

    a: PoolResult
    b: PoolResult
    winner: str | None
    tie_rule: str = ""

    @property
    def margin(self) -> int:
        """The winner's successes minus the loser's (0 on equal successes)."""
        return abs(self.a.successes - self.b.successes)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die of both sides."""
        return {
            "system": "wod",
            "kind": "contested",
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "winner": self.winner,
            "tie_rule": self.tie_rule,
            "margin": self.margin,
        }


def resolve_contested(a: PoolResult, b: PoolResult) -> ContestedResult:
    """Compare two rolled pools: more successes wins; equal — the campaign's tie rule."""
    if a.successes != b.successes:
        return ContestedResult(a, b, "a" if a.successes > b.successes else "b")
    tie = contest_rules().tie
    return ContestedResult(a, b, "a" if tie == "initiator" else None, tie)


def roll_contested(a: Pool, b: Pool, rng: random.Random) -> ContestedResult:
    """Roll side a, then side b (see ``resolve_contested``)."""
    return resolve_contested(roll_pool(a, rng), roll_pool(b, rng))


@dataclass(frozen=True)
class ContestedOdds:
    """Exact chances of a contested roll (the long tails below 1e-12 are cut: ``truncated``)."""

    a: Fraction
    tie: Fraction
    b: Fraction
    truncated: Fraction


def contested_odds(a: Pool, b: Pool) -> ContestedOdds:
    """Return how often side a wins, the sides tie, side b wins.

    With the campaign's tie rule «initiator» the ties count as a's wins and ``tie`` is 0.
    """
    da, db = pool_odds(a), pool_odds(b)
    wa, wb = da.weights, db.weights  # ways over 10**exp: exact integers, fast sums
    below = [0]  # below[k]: b's ways to roll fewer than k successes
    for ways in wb:
        below.append(below[-1] + ways)
    whole_b = below[-1]
    win = tie = lose = 0
    for k, ways in enumerate(wa):
        if not ways:
            continue
        fewer = below[min(k, len(wb))]
        same = wb[k] if k < len(wb) else 0
        win += ways * fewer
        tie += ways * same
        lose += ways * (whole_b - fewer - same)
    whole = Fraction(1, 10 ** (da.exp + db.exp))
    wins, ties, losses = win * whole, tie * whole, lose * whole
    if contest_rules().tie == "initiator":
        wins, ties = wins + ties, Fraction(0)
    return ContestedOdds(wins, ties, losses, da.truncated + db.truncated)


# --- extended -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Extended:
    """An extended roll: one pool rolled again and again toward a target of successes.

    Attributes:
        pool: the pool of each roll (the GM may change it between rolls).
        target: successes needed, set by the Storyteller.
        rolls: every roll so far, in order.
        max_rolls: rolls allowed (0: no limit), from the campaign's settings.

    Raises:
        RulesError: a target below 1.
    """

    pool: Pool
    target: int
    rolls: tuple[PoolResult, ...] = ()
    max_rolls: int = -1  # -1: the campaign's setting

    def __post_init__(self) -> None:
        if self.target < 1:
            raise RulesError("Продолжительное действие: цель — хотя бы 1 успех.")
        if self.max_rolls < 0:
            object.__setattr__(self, "max_rolls", contest_rules().max_rolls)

    @property
    def successes(self) -> int:
        """Successes gathered (0 after a dramatic failure that ends the action)."""
        if self.failed:
            return 0
        return sum(r.successes for r in self.rolls)

    @property
    def failed(self) -> bool:
        """A dramatic failure ended the action (when the campaign says it does)."""
        return contest_rules().dramatic_failure_ends and any(
            r.outcome == "dramatic_failure" for r in self.rolls
        )

    @property
    def done(self) -> bool:
        """The target is reached."""
        return not self.failed and self.successes >= self.target

    @property
    def status(self) -> str:
        """``"done"``, ``"failed"``, ``"out_of_rolls"`` or ``"going"``."""
        if self.done:
            return "done"
        if self.failed:
            return "failed"
        if self.max_rolls and len(self.rolls) >= self.max_rolls:
            return "out_of_rolls"
        return "going"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every roll."""
        return {
            "system": "wod",
            "kind": "extended",
            "target": self.target,
            "max_rolls": self.max_rolls,
            "successes": self.successes,
            "status": self.status,
            "rolls": [r.to_dict() for r in self.rolls],
        }


def extended_refusal(extended: Extended) -> str | None:
    """Why another roll of the extended action is not allowed, or ``None``."""
    status = extended.status
    if status == "done":
        target = genitive(extended.target, "успеха", "успехов")
        return f"Цель достигнута: {extended.successes} из {target}."
    if status == "failed":
        return "Полный провал завершил продолжительное действие (настройка кампании)."
    if status == "out_of_rolls":
        return f"Бросков больше нет: предел кампании — {extended.max_rolls}."
    return None


def add_roll(extended: Extended, result: PoolResult) -> Extended:
    """Add one rolled pool to the extended action.

    Raises:
        RulesError: the action is over (target reached, failed, out of rolls).
    """
    refusal = extended_refusal(extended)
    if refusal:
        raise RulesError(refusal)
    return replace(extended, pool=result.pool, rolls=(*extended.rolls, result))


def roll_extended(extended: Extended, rng: random.Random, pool: Pool | None = None) -> Extended:
    """Roll the pool (or ``pool``, changed by the GM) once more and add it (see ``add_roll``)."""
    refusal = extended_refusal(extended)
    if refusal:
        raise RulesError(refusal)
    return add_roll(extended, roll_pool(pool or extended.pool, rng))

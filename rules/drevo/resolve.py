"""Resolve a planned Древо exchange: dice → winner → damage level for whoever was hit.

Damage [default]: value = margin + the hitter's МУ; margin = winner's total − loser's
(opposed) or total − difficulty + 1 (one-sided); then ``damage_level``. A tie hurts nobody
(``result.tie``: the UI may offer a reroll). Судьба declared before the roll is passed as
``fate`` (the roles that spent a point); a shift after the roll is ``shift_exchange``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rules.drevo.check import OneSidedResult, resolve_one_sided, roll_4df, shift_one_sided
from rules.drevo.damage import damage_level, damage_settings, damage_value, one_sided_margin
from rules.drevo.exchange import EXCHANGE_OUTCOME_NAMES, ROLES, ExchangePlan, PlanSide
from rules.drevo.opposed import OpposedResult, resolve_opposed, shift_opposed
from rules.drevo.wounds import level_name
from rules.errors import RulesError


@dataclass(frozen=True)
class Hit:
    """Damage one side dealt to the other.

    Attributes:
        by: the hitter's role; target: the role hit.
        margin: the margin the damage counts: ``difference + bonus``, raised to ``floor``
            when a critical success won and the sum is below it.
        damage_mod: the hitter's weapon МУ.
        weapon: the weapon's name.
        value: margin + МУ.
        level: the damage level id (``"scratch"`` … ``"death"``).
        difference: the rolled difference: winner's total − loser's, or total − difficulty.
        bonus: the one-sided campaign setting added to the difference (0 when opposed).
        floor: the crit floor (campaign setting) when it raised the margin, else ``None``.
    """

    by: str
    target: str
    margin: int
    damage_mod: int
    weapon: str
    value: int
    level: str
    difference: int = 0
    bonus: int = 0
    floor: int | None = None

    @property
    def level_name(self) -> str:
        """The Russian name of the damage level."""
        return level_name(self.level)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "by": self.by,
            "target": self.target,
            "margin": self.margin,
            "damage_mod": self.damage_mod,
            "weapon": self.weapon,
            "value": self.value,
            "level": self.level,
            "level_name": self.level_name,
            "difference": self.difference,
            "bonus": self.bonus,
            "floor": self.floor,
        }


@dataclass(frozen=True)
class ExchangeResult:
    """A resolved exchange.

    Attributes:
        plan: what was rolled.
        opposed: the opposed check's result (kind ``"opposed"``), else ``None``.
        one_sided: the one-sided results, the attacker's first (the other kinds).
        outcome: one of ``EXCHANGE_OUTCOMES[plan.kind]``.
        winner: ``"attacker"``, ``"defender"`` or ``None`` (tie; one-sided: the attacker
            when he hit).
        hits: the damage dealt (none, one, or two for two one-sided checks).
    """

    plan: ExchangePlan
    opposed: OpposedResult | None
    one_sided: tuple[OneSidedResult, ...]
    outcome: str
    winner: str | None
    hits: tuple[Hit, ...]

    @property
    def tie(self) -> bool:
        """Whether an opposed exchange tied (nobody hurt; a reroll may be offered)."""
        return self.outcome == "tie"

    @property
    def margin(self) -> int:
        """The opposed margin, or the attacker's one-sided margin."""
        if self.opposed is not None:
            return self.opposed.margin
        return one_sided_margin(self.one_sided[0])

    def hit_on(self, role: str) -> Hit | None:
        """Return the hit ``role`` took, if any."""
        return next((h for h in self.hits if h.target == role), None)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "plan": self.plan.to_dict(),
            "opposed": self.opposed.to_dict() if self.opposed else None,
            "one_sided": [r.to_dict() for r in self.one_sided],
            "outcome": self.outcome,
            "outcome_name": EXCHANGE_OUTCOME_NAMES[self.outcome],
            "winner": self.winner,
            "tie": self.tie,
            "margin": self.margin,
            "hits": [h.to_dict() for h in self.hits],
        }


def _hit(side: PlanSide, target: str, difference: int, *, one_sided: bool, crit: bool) -> Hit:
    """Build a hit: difference (+ one-sided bonus), raised to the crit floor after a crit."""
    settings = damage_settings()
    bonus = settings.one_sided_bonus if one_sided else 0
    margin = difference + bonus
    floor = settings.crit_floor if crit and margin < settings.crit_floor else None
    margin = floor if floor is not None else margin
    value = damage_value(margin, side.damage_mod)
    weapon = side.action.weapon.name if side.action.weapon else ""
    return Hit(
        side.role,
        target,
        margin,
        side.damage_mod,
        weapon,
        value,
        damage_level(value),
        difference,
        bonus,
        floor,
    )


def _other(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


def _finish(
    plan: ExchangePlan, opposed: OpposedResult | None, one_sided: tuple[OneSidedResult, ...]
) -> ExchangeResult:
    """Work out the outcome and the hits from the check results."""
    hits: list[Hit] = []
    if opposed is not None:
        winner = {"win": "attacker", "lose": "defender"}.get(opposed.outcome)
        outcome = {"win": "attacker_wins", "lose": "defender_wins"}.get(opposed.outcome, "tie")
        if winner is not None and plan.side(winner).deals_damage:
            roll = opposed.a if winner == "attacker" else opposed.b
            crit = roll.crit > 0
            hits.append(
                _hit(plan.side(winner), _other(winner), opposed.margin, one_sided=False, crit=crit)
            )
        return ExchangeResult(plan, opposed, (), outcome, winner, tuple(hits))
    rolling = [s for s in (plan.attacker, plan.defender) if s.rolls]
    landed: list[str] = []
    for side, result in zip(rolling, one_sided, strict=True):
        if result.outcome in ("crit_success", "success"):
            landed.append(side.role)
            difference = result.total - result.check.difficulty
            crit = result.outcome == "crit_success"
            hits.append(_hit(side, _other(side.role), difference, one_sided=True, crit=crit))
    if plan.kind == "one_sided":
        outcome = "hit" if landed else "miss"
    else:
        outcome = {
            ("attacker",): "attacker_hits",
            ("defender",): "defender_hits",
            ("attacker", "defender"): "both_hit",
        }.get(tuple(landed), "neither")
    winner = "attacker" if "attacker" in landed else None
    return ExchangeResult(plan, None, one_sided, outcome, winner, tuple(hits))


def _fate_roles(plan: ExchangePlan, fate: Collection[str]) -> frozenset[str]:
    roles = frozenset(fate)
    for role in roles:
        if role not in ROLES:
            raise RulesError(f"Судьбу тратит «attacker» или «defender», а не {role!r}.")
        if not plan.side(role).rolls:
            raise RulesError(f"{plan.side(role).fighter.name} не бросает кубики в этом обмене.")
    return roles


def resolve_exchange_with_dice(
    plan: ExchangePlan,
    attacker_dice: Sequence[int] | None = None,
    defender_dice: Sequence[int] | None = None,
    *,
    fate: Collection[str] = (),
) -> ExchangeResult:
    """Resolve ``plan`` for given dice.

    Args:
        plan: from ``plan_exchange``.
        attacker_dice: the attacker's four Fudge faces (ignored when he spent Судьба).
        defender_dice: the defender's (ignored when he does not roll or spent Судьба).
        fate: roles that declared Судьба before the roll: use 3 in an opposed check
            (dice count as +4), use 1 in a one-sided one (automatic critical success).

    Raises:
        RulesError: missing or invalid dice, or Судьба for a side that does not roll.
    """
    roles = _fate_roles(plan, fate)
    if plan.kind == "opposed":
        return _finish(
            plan, resolve_opposed(plan.opposed_check(roles), attacker_dice, defender_dice), ()
        )
    dice = {"attacker": attacker_dice, "defender": defender_dice}
    rolling = [s.role for s in (plan.attacker, plan.defender) if s.rolls]
    results = tuple(
        resolve_one_sided(check, dice[role])
        for role, check in zip(rolling, plan.one_sided_checks(roles), strict=True)
    )
    return _finish(plan, None, results)


def resolve_exchange(
    plan: ExchangePlan, rng: random.Random, *, fate: Collection[str] = ()
) -> ExchangeResult:
    """Roll the dice with ``rng`` (attacker first) and resolve ``plan``.

    A side that spent Судьба or does not roll takes nothing from ``rng``.
    See ``resolve_exchange_with_dice`` for the arguments.
    """
    roles = _fate_roles(plan, fate)

    def dice_for(side: PlanSide) -> tuple[int, int, int, int] | None:
        return roll_4df(rng) if side.rolls and side.role not in roles else None

    attacker_dice = dice_for(plan.attacker)
    defender_dice = dice_for(plan.defender)
    return resolve_exchange_with_dice(plan, attacker_dice, defender_dice, fate=roles)


def shift_exchange(result: ExchangeResult, role: str, points: int) -> ExchangeResult:
    """Move one side's total by ``points`` after the roll (Судьба use 2) and re-resolve.

    Crits stay as the dice made them; the winner, hits and damage are recomputed.

    Raises:
        RulesError: ``role`` does not roll in this exchange.
    """
    plan = result.plan
    if role not in ROLES or not plan.side(role).rolls:
        raise RulesError("Сдвинуть Судьбой можно только результат того, кто бросал кубики.")
    if result.opposed is not None:
        side = "a" if role == "attacker" else "b"
        return _finish(plan, shift_opposed(result.opposed, side, points), ())
    rolling = [s.role for s in (plan.attacker, plan.defender) if s.rolls]
    shifted = tuple(
        shift_one_sided(r, points) if rolling[i] == role else r
        for i, r in enumerate(result.one_sided)
    )
    return _finish(plan, None, shifted)

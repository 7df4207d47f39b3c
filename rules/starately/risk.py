"""Старатели Risk: a failed check rolled once more; the GM's price is paid whatever it gives.

Refused after a success, a second time, without a price, or where the GM forbids it (nothing
is drawn then); the result keeps both rolls.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.starately.check import Result, resolve, roll_dice


@dataclass(frozen=True)
class RiskResult:
    """A check rolled again after a failure; the price is paid whatever the retry gives.

    Attributes:
        first: the failed check.
        retry: the same check rolled again (dice flagged ``rerolled``).
        price: what the GM said it costs.
    """

    first: Result
    retry: Result
    price: str

    @property
    def outcome(self) -> str:
        """The retry's outcome: it replaces the first."""
        return self.retry.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both rolls."""
        return {
            "system": "starately",
            "kind": "risk",
            "first": self.first.to_dict(),
            "retry": self.retry.to_dict(),
            "price": self.price,
            "outcome": self.outcome,
        }


def risk_refusal(first: Result, price: str, *, forbidden: bool = False) -> str | None:
    """Say why Risk cannot be declared on ``first``, or ``None`` if it can.

    Args:
        first: the check the player wants to retry.
        price: the price the GM set (required text).
        forbidden: the GM forbids Risk here (no meaningful price fits the situation).
    """
    if forbidden:
        return "Ведущий запретил Риск: в этой ситуации у повторной попытки нет значимой цены."
    if first.success:
        return "Риск заявляют только после провала, а эта проверка удалась."
    if first.risk:
        return "Риск уже заявлен: повторная проверка даёт ещё один шанс, а не бесконечно много."
    if not price.strip():
        return (
            "Ведущий должен назначить цену Риска (потеря снаряжения, урон…) до повторного броска."
        )
    return None


def resolve_risk(
    first: Result, price: str, dice: Sequence[int], *, forbidden: bool = False
) -> RiskResult:
    """Roll the failed check again (Risk) with given dice; the price stands whatever happens.

    Raises:
        RulesError: the check succeeded, Risk was already taken, the price is empty, the GM
            forbids it, or the dice do not fit.
    """
    refusal = risk_refusal(first, price, forbidden=forbidden)
    if refusal is not None:
        raise RulesError(refusal)
    return RiskResult(first, resolve(first.check, dice, risk=True), price.strip())


def roll_risk(
    first: Result, price: str, rng: random.Random, *, forbidden: bool = False
) -> RiskResult:
    """Roll Risk with ``rng`` (see ``resolve_risk``); nothing is drawn when it is refused."""
    refusal = risk_refusal(first, price, forbidden=forbidden)
    if refusal is not None:
        raise RulesError(refusal)
    return resolve_risk(first, price, roll_dice(first.check.side, rng))

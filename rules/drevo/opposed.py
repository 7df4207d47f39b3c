"""Древо opposed checks: two sides roll 4dF, equal crits cancel, then the higher total wins.

Results are from side ``a``'s view and keep both sides' dice (:class:`SideRoll`); the dice,
a side's inputs and crits are those of :mod:`rules.drevo.check`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.drevo.check import Dice, Side, _faces, crit_of, roll_4df
from rules.errors import RulesError

OPPOSED_OUTCOMES = ("win", "tie", "lose")
OPPOSED_NAMES = {"win": "Победа", "tie": "Ничья", "lose": "Поражение"}


@dataclass(frozen=True)
class OpposedCheck:
    """Two participants whose actions oppose each other; results are from ``a``'s view."""

    a: Side
    b: Side


@dataclass(frozen=True)
class SideRoll:
    """One side's roll in an opposed check.

    Attributes:
        dice: the four Fudge dice as rolled.
        dice_sum: their sum.
        total: ``dice_sum`` + trait + modifiers.
        crit: +1 critical success, −1 critical failure, 0 none, after cancellation.
        raw_crit: the same before cancellation by the opponent's equal crit.
        fate_auto: the dice were not rolled: Судьба made them count as +4.
        fate_shift: Судьба points spent after the roll, already included in ``total``.
    """

    dice: Dice
    dice_sum: int
    total: int
    crit: int
    raw_crit: int
    fate_auto: bool = False
    fate_shift: int = 0

    @property
    def cancelled(self) -> bool:
        """Whether the opponent's equal crit cancelled this side's crit."""
        return self.raw_crit != self.crit

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "dice": list(self.dice),
            "dice_sum": self.dice_sum,
            "total": self.total,
            "crit": self.crit,
            "raw_crit": self.raw_crit,
            "fate_auto": self.fate_auto,
            "fate_shift": self.fate_shift,
        }


@dataclass(frozen=True)
class OpposedResult:
    """A resolved opposed check.

    Attributes:
        check: the inputs.
        a: side a's roll; b: side b's roll.
        outcome: ``"win"``, ``"tie"`` or ``"lose"``, from side a's view.
        margin: the winner's total minus the loser's (0 on a tie). When a crit decided
            the check (``by_crit``) the winner's total may be the lower one, so the
            margin is then 0 or negative.
    """

    check: OpposedCheck
    a: SideRoll
    b: SideRoll
    outcome: str
    margin: int

    @property
    def by_crit(self) -> bool:
        """Whether an uncancelled crit, not the totals, decided the check."""
        return self.a.crit != self.b.crit

    @property
    def winner(self) -> str | None:
        """``"a"``, ``"b"`` or ``None`` on a tie."""
        return {"win": "a", "lose": "b"}.get(self.outcome)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "system": "drevo",
            "kind": "opposed",
            "a": {"side": self.check.a.to_dict(), **self.a.to_dict()},
            "b": {"side": self.check.b.to_dict(), **self.b.to_dict()},
            "outcome": self.outcome,
            "outcome_name": OPPOSED_NAMES[self.outcome],
            "margin": self.margin,
            "by_crit": self.by_crit,
        }


def cancel_crits(crit_a: int, crit_b: int) -> tuple[int, int]:
    """Cancel equal crits: a crit success by a crit success, a crit failure by a crit failure."""
    if crit_a == crit_b:
        return 0, 0
    return crit_a, crit_b


def ranking_key(roll: SideRoll) -> tuple[int, int]:
    """Return the key opposed and many-sided checks rank by: (crit, total)."""
    return (roll.crit, roll.total)


def _side_roll(side: Side, faces: Dice, crit: int, fate_shift: int = 0) -> SideRoll:
    dice_sum = sum(faces)
    return SideRoll(
        dice=faces,
        dice_sum=dice_sum,
        total=dice_sum + side.bonus + fate_shift,
        crit=crit,
        raw_crit=crit_of(dice_sum),
        fate_auto=side.fate_auto,
        fate_shift=fate_shift,
    )


def resolve_opposed(
    check: OpposedCheck,
    a_dice: Sequence[int] | None = None,
    b_dice: Sequence[int] | None = None,
) -> OpposedResult:
    """Resolve an opposed check for given dice.

    Args:
        check: the two sides.
        a_dice: side a's four Fudge faces (ignored, may be ``None``, when a spent Судьба).
        b_dice: side b's four Fudge faces (likewise).

    Returns:
        The result from a's view: an uncancelled crit decides first, then the higher total;
        equal ranking keys are a tie. A side with ``fate_auto`` counts as +4 (a crit
        success, which the opponent's +4 cancels like any other).

    Raises:
        RulesError: either set of dice is not four Fudge faces.
    """
    a_faces = _faces(a_dice, check.a.fate_auto)
    b_faces = _faces(b_dice, check.b.fate_auto)
    return _opposed_result(check, a_faces, b_faces, 0, 0)


def _opposed_result(
    check: OpposedCheck, a_faces: Dice, b_faces: Dice, a_shift: int, b_shift: int
) -> OpposedResult:
    crit_a, crit_b = cancel_crits(crit_of(sum(a_faces)), crit_of(sum(b_faces)))
    a = _side_roll(check.a, a_faces, crit_a, a_shift)
    b = _side_roll(check.b, b_faces, crit_b, b_shift)
    key_a, key_b = ranking_key(a), ranking_key(b)
    if key_a > key_b:
        outcome, margin = "win", a.total - b.total
    elif key_a < key_b:
        outcome, margin = "lose", b.total - a.total
    else:
        outcome, margin = "tie", 0
    return OpposedResult(check=check, a=a, b=b, outcome=outcome, margin=margin)


def roll_opposed(check: OpposedCheck, rng: random.Random) -> OpposedResult:
    """Roll 4dF for side a, then for side b, with ``rng`` and resolve (see ``resolve_opposed``).

    A side that spent Судьба rolls nothing, so ``rng`` is used only for the other side.
    """
    a_dice = None if check.a.fate_auto else roll_4df(rng)
    b_dice = None if check.b.fate_auto else roll_4df(rng)
    return resolve_opposed(check, a_dice, b_dice)


def shift_opposed(result: OpposedResult, side: str, points: int) -> OpposedResult:
    """Return ``result`` with one side's total moved by ``points`` (Судьба use 2).

    Args:
        result: a resolved opposed check (shifts add up).
        side: ``"a"`` or ``"b"``.
        points: +N raises that side's total by N, −N lowers it.

    Returns:
        A new result, outcome and margin recomputed. Crits stay as the dice made them.

    Raises:
        RulesError: ``side`` is neither ``"a"`` nor ``"b"``.
    """
    if side not in ("a", "b"):
        raise RulesError(f"Сторона встречной проверки — «a» или «b», а не {side!r}.")
    a_shift = result.a.fate_shift + (points if side == "a" else 0)
    b_shift = result.b.fate_shift + (points if side == "b" else 0)
    return _opposed_result(result.check, result.a.dice, result.b.dice, a_shift, b_shift)

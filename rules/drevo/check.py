"""Древо checks: 4dF + trait + modifiers, one-sided against a difficulty or opposed.

Every result keeps its four dice, so the expanded view, the log and the JSON export
are renderings of one object (no formatting happens here beyond ``to_dict``).

This module holds the 4dF dice, a side's inputs and the one-sided check; the opposed check
(two sides, crits cancelling) is in :mod:`rules.drevo.opposed`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.drevo.ladder import difficulty_name
from rules.errors import RulesError
from rules.modifiers import Modifier

OUTCOMES = ("crit_success", "success", "failure", "crit_failure")  # best first
OUTCOME_NAMES = {
    "crit_success": "Критический успех",
    "success": "Успех",
    "failure": "Провал",
    "crit_failure": "Критический провал",
}

DICE_COUNT = 4
CRIT_SUM = 4  # all four Fudge dice on «+» (or, negated, on «−»)

Dice = tuple[int, int, int, int]

#: What a side's dice count as when it spent Судьба before the roll (uses 1 and 3):
#: «сразу получить результат «+4» (то есть критический успех), не бросая 4dF».
FATE_DICE: Dice = (1, 1, 1, 1)


@dataclass(frozen=True)
class Side:
    """One participant's inputs to a check.

    Attributes:
        trait: the skill or quality value used.
        modifiers: state, item and situation modifiers.
        name: who acts, e.g. a character's name.
        trait_name: which skill or quality, e.g. ``"Драка"``.
        fate_auto: Судьба spent before the roll: the dice are not rolled and count as
            +4 (use 3 in an opposed check; in a one-sided check it acts as use 1).
    """

    trait: int
    modifiers: tuple[Modifier, ...] = ()
    name: str = ""
    trait_name: str = ""
    fate_auto: bool = False

    @property
    def modifier_total(self) -> int:
        """Sum of all modifiers."""
        return sum(m.value for m in self.modifiers)

    @property
    def bonus(self) -> int:
        """What is added to the dice: trait plus all modifiers."""
        return self.trait + self.modifier_total

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "name": self.name,
            "trait_name": self.trait_name,
            "trait": self.trait,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "modifier_total": self.modifier_total,
            "fate_auto": self.fate_auto,
        }


@dataclass(frozen=True)
class OneSidedCheck:
    """A check against a difficulty (a number on the ladder, or off it).

    Attributes:
        side: who acts.
        difficulty: the number to reach.
        fate_auto: Судьба use 1, declared before the roll: an automatic critical success;
            no dice are rolled (the result records them as +4).
    """

    side: Side
    difficulty: int
    fate_auto: bool = False

    @property
    def uses_fate(self) -> bool:
        """Whether no dice are rolled because Судьба was declared (here or on the side)."""
        return self.fate_auto or self.side.fate_auto


@dataclass(frozen=True)
class OneSidedResult:
    """A resolved one-sided check.

    Attributes:
        check: the inputs.
        dice: the four Fudge dice as rolled, each −1, 0 or +1.
        dice_sum: their sum, −4..+4.
        total: ``dice_sum`` + trait + modifiers (the check's «Успех»).
        outcome: one of ``OUTCOMES``.
        margin: ``total − difficulty``; for a critical outcome it may have either sign.
        fate_auto: the dice were not rolled: Судьба made it a critical success.
        fate_shift: Судьба points spent after the roll to raise (+) or lower (−) the total;
            already included in ``total``. A shift never makes or unmakes a crit.
    """

    check: OneSidedCheck
    dice: Dice
    dice_sum: int
    total: int
    outcome: str
    margin: int
    fate_auto: bool = False
    fate_shift: int = 0

    @property
    def by_crit(self) -> bool:
        """Whether the dice (±4), not the numbers, decided the outcome."""
        return self.outcome in ("crit_success", "crit_failure")

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "system": "drevo",
            "kind": "one_sided",
            "side": self.check.side.to_dict(),
            "difficulty": self.check.difficulty,
            "difficulty_name": difficulty_name(self.check.difficulty),
            "dice": list(self.dice),
            "dice_sum": self.dice_sum,
            "total": self.total,
            "outcome": self.outcome,
            "outcome_name": OUTCOME_NAMES[self.outcome],
            "margin": self.margin,
            "by_crit": self.by_crit,
            "fate_auto": self.fate_auto,
            "fate_shift": self.fate_shift,
        }


def _validated(dice: Sequence[int]) -> Dice:
    """Return ``dice`` as a 4-tuple of Fudge faces, or raise ``RulesError``."""
    if len(dice) != DICE_COUNT:
        raise RulesError(f"Для 4dF нужно ровно {DICE_COUNT} кубика, а передано {len(dice)}.")
    for die in dice:
        if die not in (-1, 0, 1) or isinstance(die, bool):
            raise RulesError(f"На кубике Фудж бывает только −1, 0 или +1, а не {die!r}.")
    return (dice[0], dice[1], dice[2], dice[3])


def crit_of(dice_sum: int) -> int:
    """Return +1 for a 4dF sum of +4 (critical success), −1 for −4, else 0."""
    if dice_sum == CRIT_SUM:
        return 1
    if dice_sum == -CRIT_SUM:
        return -1
    return 0


def one_sided_outcome(dice_sum: int, total: int, difficulty: int) -> str:
    """Return the outcome key for a one-sided check (shared with the odds)."""
    crit = crit_of(dice_sum)
    if crit > 0:
        return "crit_success"
    if crit < 0:
        return "crit_failure"
    return "success" if total >= difficulty else "failure"


def roll_4df(rng: random.Random) -> Dice:
    """Roll four Fudge dice with ``rng``."""
    return (rng.randint(-1, 1), rng.randint(-1, 1), rng.randint(-1, 1), rng.randint(-1, 1))


def _faces(dice: Sequence[int] | None, fate_auto: bool) -> Dice:
    """Return the validated dice, or the +4 that Судьба stands for (no dice needed)."""
    if fate_auto:
        return FATE_DICE
    if dice is None:
        raise RulesError("Нужны четыре кубика 4dF: бросьте их или потратьте очко Судьбы.")
    return _validated(dice)


def _one_sided_result(check: OneSidedCheck, faces: Dice, fate_shift: int) -> OneSidedResult:
    dice_sum = sum(faces)
    total = dice_sum + check.side.bonus + fate_shift
    return OneSidedResult(
        check=check,
        dice=faces,
        dice_sum=dice_sum,
        total=total,
        outcome=one_sided_outcome(dice_sum, total, check.difficulty),
        margin=total - check.difficulty,
        fate_auto=check.uses_fate,
        fate_shift=fate_shift,
    )


def resolve_one_sided(check: OneSidedCheck, dice: Sequence[int] | None = None) -> OneSidedResult:
    """Resolve a one-sided check for given dice.

    Args:
        check: side and difficulty.
        dice: four Fudge faces, each −1, 0 or +1; ignored (may be ``None``) when the check
            uses Судьба (``check.uses_fate``): the dice then count as +4.

    Returns:
        The result: success when the total reaches the difficulty; a dice sum of +4 or −4
        is a critical success or failure whatever the numbers.

    Raises:
        RulesError: the dice are not four Fudge faces.
    """
    return _one_sided_result(check, _faces(dice, check.uses_fate), 0)


def roll_one_sided(check: OneSidedCheck, rng: random.Random) -> OneSidedResult:
    """Roll 4dF with ``rng`` and resolve a one-sided check (see ``resolve_one_sided``).

    With Судьба declared nothing is rolled and ``rng`` is left untouched.
    """
    return resolve_one_sided(check, None if check.uses_fate else roll_4df(rng))


def shift_one_sided(result: OneSidedResult, points: int) -> OneSidedResult:
    """Return ``result`` with its total moved by ``points`` (Судьба use 2).

    Args:
        result: a resolved one-sided check (it may already be shifted; shifts add up).
        points: +N raises the total by N, −N lowers it.

    Returns:
        A new result, outcome recomputed. A crit stays a crit and no shift makes one:
        the seed decides crits by the dice alone («вне зависимости от … значения»).
    """
    return _one_sided_result(result.check, result.dice, result.fate_shift + points)

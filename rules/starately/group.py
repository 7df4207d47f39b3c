"""Старатели group checks: helpers roll the same skill, each success adds +1 to the main roll.

A helper needs the skill at the campaign's minimum level; the result keeps every helper's roll,
then the main one, in the order the dice were drawn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.starately.check import Check, Modifier, Result, Side, resolve, roll_dice
from rules.starately.tables import settings


def helper_refusal(helper: Side, main: Side) -> str | None:
    """Say why ``helper`` cannot join ``main``'s group check, or ``None`` if it can.

    A helper needs the same skill at level 1 or more (the level is a campaign table value).
    """
    need = settings().min_helper_skill
    who = helper.name or "Помощник"
    if helper.skill is None or helper.skill < need:
        skill = main.skill_name or helper.skill_name or "этот навык"
        return f"{who} не может помочь: для помощи нужен навык «{skill}» хотя бы {need}-го уровня."
    if helper.skill_name and main.skill_name and helper.skill_name != main.skill_name:
        return (
            f"{who} не может помочь: в групповой проверке помогают тем же навыком "
            f"(«{main.skill_name}»), а не «{helper.skill_name}»."
        )
    return None


@dataclass(frozen=True)
class GroupCheck:
    """One main roll plus helpers rolling the same skill at the same difficulty.

    Raises:
        RulesError: a helper lacks the skill at level 1 (the message names the helper).
    """

    main: Check
    helpers: tuple[Side, ...]

    def __post_init__(self) -> None:
        for helper in self.helpers:
            refusal = helper_refusal(helper, self.main.side)
            if refusal is not None:
                raise RulesError(refusal)

    @property
    def helper_checks(self) -> tuple[Check, ...]:
        """Each helper's check, at the main check's difficulty."""
        return tuple(Check(h, self.main.difficulty) for h in self.helpers)


@dataclass(frozen=True)
class GroupResult:
    """A resolved group check.

    Attributes:
        group: the inputs.
        helpers: each helper's result, in order.
        bonus: +1 per successful helper; failures cost nothing.
        main: the main result; with a bonus its side carries it as the last modifier.
    """

    group: GroupCheck
    helpers: tuple[Result, ...]
    bonus: int
    main: Result

    @property
    def outcome(self) -> str:
        """The main check's outcome."""
        return self.main.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every roll."""
        return {
            "system": "starately",
            "kind": "group",
            "helpers": [h.to_dict() for h in self.helpers],
            "bonus": self.bonus,
            "main": self.main.to_dict(),
            "outcome": self.outcome,
        }


def resolve_group(
    group: GroupCheck, helper_dice: Sequence[Sequence[int]], main_dice: Sequence[int]
) -> GroupResult:
    """Resolve a group check: each helper's success adds +1 to the main roll.

    Raises:
        RulesError: not one set of dice per helper, or dice that do not fit.
    """
    if len(helper_dice) != len(group.helpers):
        raise RulesError(
            f"Помощников {len(group.helpers)}, а наборов кубиков для них {len(helper_dice)}."
        )
    helpers = tuple(
        resolve(check, dice) for check, dice in zip(group.helper_checks, helper_dice, strict=True)
    )
    bonus = settings().group_bonus * sum(h.success for h in helpers)
    main = group.main
    if bonus:
        main = main.with_modifier(Modifier(bonus, "помощь группы"))
    return GroupResult(group, helpers, bonus, resolve(main, main_dice))


def roll_group(group: GroupCheck, rng: random.Random) -> GroupResult:
    """Roll each helper in order, then the main check, with ``rng`` (see ``resolve_group``)."""
    helper_dice = [roll_dice(h, rng) for h in group.helpers]
    return resolve_group(group, helper_dice, roll_dice(group.main.side, rng))

"""One Старатели check: 2d6 (or 3d6 keep 2) + DM + skill + modifiers against a difficulty.

Every result keeps each die it rolled (kept or dropped), so the expanded view, the log and the
JSON export are renderings of one object.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import RulesError
from rules.modifiers import Modifier
from rules.starately.tables import (
    characteristic_dm,
    default_difficulty,
    difficulty_name,
    settings,
    unskilled_penalty,
)

OUTCOMES = ("success", "failure")  # best first
OUTCOME_NAMES = {"success": "Успех", "failure": "Провал"}
FACES = 6
KEPT = 2  # «из них выбирается 2»
MAX_DICE = 3  # «в любом случае кидается не более 3 костей»


@dataclass(frozen=True)
class Side:
    """Who rolls and with what: everything of a check but its difficulty.

    Attributes:
        dm: the characteristic's DM (see ``characteristic_dm`` or ``Side.of``).
        skill: the skill level, 0 or more; ``None`` when the character lacks the skill.
        boons: how many +d6 apply; banes: how many −d6. They cancel one another and the
            net is at most one extra die either way.
        modifiers: situational modifiers, a chain helper's Effect, group help.
        name: who rolls; characteristic / skill_name: which ones (for the log).
        characteristic_value: the characteristic's value the DM came from, if known.
        pc: whether this is a player character (decides an opposed tie with no initiator).
        unskilled: the penalty for lacking the skill (−3, a campaign table value).
    """

    dm: int
    skill: int | None = None
    boons: int = 0
    banes: int = 0
    modifiers: tuple[Modifier, ...] = ()
    name: str = ""
    characteristic: str = ""
    skill_name: str = ""
    characteristic_value: int | None = None
    pc: bool = True
    unskilled: int = field(default_factory=unskilled_penalty)

    def __post_init__(self) -> None:
        if self.skill is not None and self.skill < 0:
            raise RulesError(
                f"Уровень навыка не может быть отрицательным ({self.skill}); "
                "если навыка нет, отметьте «без навыка» (штраф −3)."
            )
        if self.boons < 0 or self.banes < 0:
            raise RulesError("Число +d6 и −d6 считается от нуля: укажите 0 или больше.")

    @classmethod
    def of(cls, characteristic_value: int, skill: int | None, **kwargs: Any) -> Side:
        """Build a side from a characteristic's value (the DM is looked up in the table).

        Args:
            characteristic_value: e.g. 9 for Ловкость 9 (DM +1).
            skill: the skill level, or ``None`` without the skill.
            **kwargs: any other ``Side`` field.
        """
        return cls(
            dm=characteristic_dm(characteristic_value),
            skill=skill,
            characteristic_value=characteristic_value,
            **kwargs,
        )

    @property
    def skill_modifier(self) -> int:
        """The skill level, or the unskilled penalty without the skill."""
        return self.unskilled if self.skill is None else self.skill

    @property
    def modifier_total(self) -> int:
        """Sum of the situational modifiers."""
        return sum(m.value for m in self.modifiers)

    @property
    def bonus(self) -> int:
        """Everything added to the two kept dice: DM + skill (or −3) + modifiers."""
        return self.dm + self.skill_modifier + self.modifier_total

    @property
    def net_dice(self) -> int:
        """+1 (roll 3d6, keep the two highest), −1 (keep the two lowest) or 0 (2d6)."""
        net = self.boons - self.banes
        return (net > 0) - (net < 0)

    @property
    def dice_count(self) -> int:
        """How many d6 are rolled: 2, or 3 with a net boon or bane."""
        return KEPT + abs(self.net_dice)

    def with_modifier(self, modifier: Modifier) -> Side:
        """Return a copy with one more modifier (a helper's Effect, group help)."""
        return replace(self, modifiers=self.modifiers + (modifier,))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "name": self.name,
            "pc": self.pc,
            "characteristic": self.characteristic,
            "characteristic_value": self.characteristic_value,
            "dm": self.dm,
            "skill_name": self.skill_name,
            "skill": self.skill,
            "unskilled": self.skill is None,
            "skill_modifier": self.skill_modifier,
            "boons": self.boons,
            "banes": self.banes,
            "net_dice": self.net_dice,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "modifier_total": self.modifier_total,
            "bonus": self.bonus,
        }


@dataclass(frozen=True)
class Check:
    """A side rolling against a difficulty (``difficulty_value`` reads names like «Тяжело»)."""

    side: Side
    difficulty: int = field(default_factory=default_difficulty)

    def with_modifier(self, modifier: Modifier) -> Check:
        """Return a copy whose side has one more modifier."""
        return Check(self.side.with_modifier(modifier), self.difficulty)


@dataclass(frozen=True)
class Die:
    """One d6 as rolled.

    Attributes:
        value: 1..6.
        kept: False for the die a boon or bane dropped.
        rerolled: True for the dice of a Risk retry (the check rolled again).
    """

    value: int
    kept: bool = True
    rerolled: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``exploded`` is always False: a check never explodes)."""
        return {
            "value": self.value,
            "kept": self.kept,
            "exploded": False,
            "rerolled": self.rerolled,
        }


@dataclass(frozen=True)
class Roll:
    """A side's dice and total (shared by checks and opposed rolls).

    Attributes:
        dice: every die in the order rolled; with a boon or bane one of three is dropped.
        natural: the sum of the two kept dice.
        total: ``natural`` + DM + skill (or −3) + modifiers.
    """

    dice: tuple[Die, ...]
    natural: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "dice": [d.to_dict() for d in self.dice],
            "natural": self.natural,
            "total": self.total,
        }


@dataclass(frozen=True)
class Result:
    """A resolved check.

    Attributes:
        check: the inputs.
        roll: the dice, the natural (two kept dice) and the total.
        effect: ``total − difficulty``, always shown, negative too.
        outcome: ``"success"`` or ``"failure"``.
        auto: the natural 12 or 2 decided the outcome, whatever the total.
        risk: this is a Risk retry (the check rolled again after a failure).
    """

    check: Check
    roll: Roll
    effect: int
    outcome: str
    auto: bool
    risk: bool = False

    @property
    def success(self) -> bool:
        """Whether the check succeeded."""
        return self.outcome == "success"

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every die rolled."""
        return self.roll.dice

    @property
    def natural(self) -> int:
        """The sum of the two kept dice."""
        return self.roll.natural

    @property
    def total(self) -> int:
        """Natural + DM + skill + modifiers."""
        return self.roll.total

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "system": "starately",
            "kind": "check",
            "side": self.check.side.to_dict(),
            "difficulty": self.check.difficulty,
            "difficulty_name": difficulty_name(self.check.difficulty),
            **self.roll.to_dict(),
            "effect": self.effect,
            "outcome": self.outcome,
            "outcome_name": OUTCOME_NAMES[self.outcome],
            "auto": self.auto,
            "risk": self.risk,
        }


def kept_flags(values: Sequence[int], net: int) -> tuple[bool, ...]:
    """Say which dice count: all of 2d6; of 3d6 the two highest (net +1) or lowest (net −1).

    Of equal candidates the die rolled last is the one dropped.
    """
    if net == 0:
        return tuple(True for _ in values)
    pick = min(values) if net > 0 else max(values)
    drop = max(i for i, v in enumerate(values) if v == pick)
    return tuple(i != drop for i in range(len(values)))


def outcome_of(natural: int, total: int, difficulty: int) -> tuple[str, bool]:
    """Return ``(outcome, auto)``: natural 12 succeeds and natural 2 fails whatever the total."""
    table = settings()
    if natural == table.natural_success:
        return "success", True
    if natural == table.natural_failure:
        return "failure", True
    return ("success" if total >= difficulty else "failure"), False


def make_roll(side: Side, dice: Sequence[int], *, rerolled: bool = False) -> Roll:
    """Keep two of the dice and total them for ``side``.

    Raises:
        RulesError: the wrong number of dice for the side's boons and banes, or a face not 1..6.
    """
    if len(dice) != side.dice_count:
        raise RulesError(
            f"Для этого броска нужно {side.dice_count} кубика d6 "
            f"(+d6/−d6 в итоге: {side.net_dice:+d}), а передано {len(dice)}."
        )
    for value in dice:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FACES:
            raise RulesError(f"На d6 бывает только 1…6, а не {value!r}.")
    flags = kept_flags(dice, side.net_dice)
    natural = sum(v for v, kept in zip(dice, flags, strict=True) if kept)
    return Roll(
        dice=tuple(Die(v, k, rerolled) for v, k in zip(dice, flags, strict=True)),
        natural=natural,
        total=natural + side.bonus,
    )


def roll_dice(side: Side, rng: random.Random) -> tuple[int, ...]:
    """Roll the side's 2 or 3 d6 with ``rng``."""
    return tuple(rng.randint(1, FACES) for _ in range(side.dice_count))


def resolve(check: Check, dice: Sequence[int], *, risk: bool = False) -> Result:
    """Resolve a check for given dice (typed in from a physical roll, or rolled by ``roll``).

    Args:
        check: side and difficulty.
        dice: 2 faces, or 3 with a net boon or bane, in the order rolled.
        risk: mark the result as a Risk retry (its dice are flagged ``rerolled``).

    Returns:
        The result: success when the total reaches the difficulty; a natural 12 on the two
        kept dice succeeds and a natural 2 fails whatever the total; Effect is total − difficulty.

    Raises:
        RulesError: the dice do not fit the check.
    """
    roll = make_roll(check.side, dice, rerolled=risk)
    outcome, auto = outcome_of(roll.natural, roll.total, check.difficulty)
    return Result(
        check=check,
        roll=roll,
        effect=roll.total - check.difficulty,
        outcome=outcome,
        auto=auto,
        risk=risk,
    )


def roll(check: Check, rng: random.Random) -> Result:
    """Roll a check with ``rng`` (see ``resolve``)."""
    return resolve(check, roll_dice(check.side, rng))


def routine_needs_roll(skill: int | None) -> bool:
    """Whether a routine task needs a roll: not with the skill at level 1 or more."""
    return skill is None or skill < 1

"""Мир Тьмы pools: d10s (attribute + skill + modifiers), successes on 8+, n-again, rote, and
the chance die when the pool falls to zero or below.

Every result keeps each die with its flags (kept or replaced by a rote reroll, exploded, added
by an explosion), so the expanded view, the log and the JSON export render one object.
Dice are drawn pool die by pool die: a die, its rote reroll if it failed, then its explosion
chain, before the next die.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.counts import genitive
from rules.dice import DEFAULT_LIMITS
from rules.errors import DiceLimitError, RulesError
from rules.modifiers import Modifier
from rules.wod.tables import (
    AGAIN_CHOICES,
    FACES,
    default_again,
    default_exceptional,
    default_threshold,
    default_withdrawal,
)

OUTCOMES = ("exceptional_success", "success", "failure", "dramatic_failure")  # best first
OUTCOME_NAMES = {
    "exceptional_success": "Исключительный успех",
    "success": "Успех",
    "failure": "Провал",
    "dramatic_failure": "Полный провал",
}
MAX_POOL = 100  # a bound against typos (a pool of 300), not a rule of the game
CHANCE_SUCCESS = 10  # seed: «Вы должны выкинуть 10.»
CHANCE_DRAMATIC = 1  # seed: «Полный провал может произойти только тогда, когда … получает 1»


@dataclass(frozen=True)
class Pool:
    """A pool check's inputs.

    Attributes:
        attribute: the attribute's dots; skill: the skill's dots (0 without it).
        modifiers: dice added or taken away (equipment, wounds, circumstances).
        again: 10, 9 or 8 (a die showing that or more adds a die), or ``None`` for none.
        rote: each failed die of the pool is rerolled once.
        name, attribute_name, skill_name: who and with what (for the log).
        withdrawal_allowed: before a chance die, whether the Storyteller lets the player
            withdraw (the character could foresee the danger).
        success_threshold: a die showing this or more succeeds (8, a campaign default).
        exceptional: successes for an exceptional success (5, a campaign default).

    Raises:
        RulesError: negative dots, an unknown n-again, or a pool over 100 dice.
    """

    attribute: int
    skill: int = 0
    modifiers: tuple[Modifier, ...] = ()
    again: int | None = field(default_factory=default_again)
    rote: bool = False
    name: str = ""
    attribute_name: str = ""
    skill_name: str = ""
    withdrawal_allowed: bool = field(default_factory=default_withdrawal)
    success_threshold: int = field(default_factory=default_threshold)
    exceptional: int = field(default_factory=default_exceptional)

    def __post_init__(self) -> None:
        if self.attribute < 0 or self.skill < 0:
            raise RulesError(
                "Точки атрибута и навыка не бывают отрицательными; штраф — модификатор."
            )
        if self.again not in AGAIN_CHOICES:
            raise RulesError(f"Правило «снова»: 10, 9, 8 или без взрывов, а не {self.again!r}.")
        if not 2 <= self.success_threshold <= FACES:
            raise RulesError(f"Порог успеха — от 2 до {FACES}, а не {self.success_threshold}.")
        if self.again is not None and self.again < self.success_threshold:
            raise RulesError(
                f"«{self.again}-снова» ниже порога успеха {self.success_threshold}: "
                "взрываться может только успешный куб."
            )
        if self.exceptional < 1:
            raise RulesError("Исключительный успех начинается хотя бы с 1 успеха.")
        if self.size > MAX_POOL:
            raise RulesError(f"Запас {self.size} кубов — больше {MAX_POOL}; проверьте числа.")

    @property
    def modifier_total(self) -> int:
        """Sum of the modifiers."""
        return sum(m.value for m in self.modifiers)

    @property
    def size(self) -> int:
        """Attribute + skill + modifiers (0 or less means a chance die)."""
        return self.attribute + self.skill + self.modifier_total

    @property
    def chance(self) -> bool:
        """Whether the pool fell to zero or below: one chance die, and the UI asks first."""
        return self.size <= 0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "name": self.name,
            "attribute_name": self.attribute_name,
            "attribute": self.attribute,
            "skill_name": self.skill_name,
            "skill": self.skill,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "modifier_total": self.modifier_total,
            "size": self.size,
            "chance": self.chance,
            "again": self.again,
            "rote": self.rote,
            "success_threshold": self.success_threshold,
            "exceptional": self.exceptional,
            "withdrawal_allowed": self.withdrawal_allowed,
        }


@dataclass(frozen=True)
class Die:
    """One d10 as rolled.

    Attributes:
        value: 1..10.
        success: whether it counts as a success (on a chance die only a 10 does).
        kept: False for a failed die that a rote reroll replaced.
        exploded: it showed the n-again number (10 on a chance die) and added a die.
        rerolled: it is the rote reroll of a failed die (``parent`` is that die).
        added: it was added by an explosion (``parent`` is the die that exploded).
        parent: index in ``PoolResult.dice`` of the die it came from, or ``None``.
    """

    value: int
    success: bool
    kept: bool = True
    exploded: bool = False
    rerolled: bool = False
    added: bool = False
    parent: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "value": self.value,
            "success": self.success,
            "kept": self.kept,
            "exploded": self.exploded,
            "rerolled": self.rerolled,
            "added": self.added,
            "parent": self.parent,
        }


@dataclass(frozen=True)
class PoolResult:
    """A resolved pool (or chance-die) check.

    Attributes:
        pool: the inputs.
        dice: every die in the order drawn (see ``Die`` for the flags).
        successes: how many kept dice succeeded.
        outcome: one of ``OUTCOMES``; ``dramatic_failure`` only on a chance die's first 1.
    """

    pool: Pool
    dice: tuple[Die, ...]
    successes: int
    outcome: str

    @property
    def chance(self) -> bool:
        """Whether this was a chance die."""
        return self.pool.chance

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die."""
        return {
            "system": "wod",
            "kind": "chance" if self.chance else "pool",
            "pool": self.pool.to_dict(),
            "dice": [d.to_dict() for d in self.dice],
            "successes": self.successes,
            "outcome": self.outcome,
            "outcome_name": OUTCOME_NAMES[self.outcome],
        }


def outcome_of(successes: int, exceptional: int, *, dramatic: bool = False) -> str:
    """Return the outcome id for a count of successes (``dramatic``: a chance die's first 1)."""
    if dramatic:
        return "dramatic_failure"
    if successes == 0:
        return "failure"
    return "exceptional_success" if successes >= exceptional else "success"


class _Dice:
    """Collects dice as they are drawn, within the dice core's limits."""

    def __init__(self, draw: Callable[[], int]) -> None:
        self.draw = draw
        self.dice: list[Die] = []

    def add(self, die: Die) -> int:
        if len(self.dice) >= DEFAULT_LIMITS.max_dice_total:
            raise DiceLimitError(
                f"Брошено больше {genitive(DEFAULT_LIMITS.max_dice_total, 'куба', 'кубов')}: "
                "генератор неисправен?"
            )
        self.dice.append(die)
        return len(self.dice) - 1

    def chain(
        self, index: int, explodes: Callable[[int], bool], succeeds: Callable[[int], bool]
    ) -> None:
        """Roll the explosion chain of die ``index`` (which already exploded)."""
        for _ in range(DEFAULT_LIMITS.max_chain):
            value = self.draw()
            index = self.add(
                Die(value, succeeds(value), exploded=explodes(value), added=True, parent=index)
            )
            if not explodes(value):
                return
        raise DiceLimitError(
            f"Больше {DEFAULT_LIMITS.max_chain} взрывов подряд у одного куба: генератор неисправен?"
        )


def _is_ten(value: int) -> bool:
    """A chance die succeeds, and is rerolled, only on a 10: 8 and 9 never count."""
    return value == CHANCE_SUCCESS


def _chance(dice: _Dice) -> bool:
    """Roll a chance die; return whether its very first roll was the dramatic 1."""
    first = dice.draw()
    is_ten = _is_ten
    index = dice.add(Die(first, is_ten(first), exploded=is_ten(first)))
    if is_ten(first):
        dice.chain(index, is_ten, is_ten)
    return first == CHANCE_DRAMATIC


def _pool(pool: Pool, dice: _Dice) -> None:
    again = pool.again

    def explodes(v: int) -> bool:
        return again is not None and v >= again

    def succeeds(v: int) -> bool:
        return v >= pool.success_threshold

    for _ in range(pool.size):
        value = dice.draw()
        if pool.rote and not succeeds(value):
            failed = dice.add(Die(value, False, kept=False))
            value = dice.draw()
            index = dice.add(
                Die(value, succeeds(value), exploded=explodes(value), rerolled=True, parent=failed)
            )
        else:
            index = dice.add(Die(value, succeeds(value), exploded=explodes(value)))
        if explodes(value):
            dice.chain(index, explodes, succeeds)


def _resolve(pool: Pool, draw: Callable[[], int]) -> PoolResult:
    dice = _Dice(draw)
    dramatic = False
    if pool.chance:
        dramatic = _chance(dice)
    else:
        _pool(pool, dice)
    successes = sum(d.success and d.kept for d in dice.dice)
    return PoolResult(
        pool=pool,
        dice=tuple(dice.dice),
        successes=successes,
        outcome=outcome_of(successes, pool.exceptional, dramatic=dramatic),
    )


def roll_pool(pool: Pool, rng: random.Random) -> PoolResult:
    """Roll a pool, or a chance die when it is 0 or less, with ``rng``.

    Args:
        pool: the inputs. Ask ``withdrawal(pool)`` first when ``pool.chance``.
        rng: the session's random source.

    Returns:
        The result with every die. Normal pool: dice ≥ 8 succeed, n-again adds dice, rote
        rerolls each failed pool die once; 0 successes is a plain failure. Chance die: only a
        10 succeeds and is rerolled, each further 10 adds a success; a first 1 is a dramatic
        failure.

    Raises:
        DiceLimitError: an impossible run of explosions (a broken random source).
    """
    return _resolve(pool, lambda: rng.randint(1, FACES))


def resolve_pool(pool: Pool, faces: Sequence[int]) -> PoolResult:
    """Resolve a pool with the faces given, in the order ``roll_pool`` would draw them.

    Raises:
        RulesError: a face not 1..10, too few faces for the rerolls and explosions, or faces
            left over.
    """
    for value in faces:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FACES:
            raise RulesError(f"На d10 бывает только 1…10, а не {value!r}.")
    source: Iterator[int] = iter(faces)

    def draw() -> int:
        try:
            return next(source)
        except StopIteration:
            raise RulesError(
                f"Кубов не хватило: передано {len(faces)}, а переброски и взрывы просят ещё."
            ) from None

    result = _resolve(pool, draw)
    if len(result.dice) != len(faces):
        raise RulesError(f"Лишние кубы: использовано {len(result.dice)} из {len(faces)}.")
    return result


# --- withdrawal before a chance die ----------------------------------------------------------


@dataclass(frozen=True)
class Withdrawal:
    """Whether the player may still back out of the action, and why (Russian, for the GM)."""

    allowed: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"allowed": self.allowed, "reason": self.reason}


def withdrawal(pool: Pool) -> Withdrawal:
    """Say whether the player may withdraw before this pool's roll.

    Only a chance die is offered; then ``pool.withdrawal_allowed`` (the Storyteller's call)
    decides: yes if the character could weigh the odds, no if it did not see the danger.
    """
    if not pool.chance:
        return Withdrawal(
            False,
            "Отказ предлагается только перед броском на удачу, когда запас сведён к нулю.",
        )
    if pool.withdrawal_allowed:
        return Withdrawal(
            True,
            "Запас сведён к нулю: персонаж мог обдумать положение и понять, что шансы слишком "
            "малы, — Рассказчик позволяет отказаться от действия.",
        )
    return Withdrawal(
        False,
        "Персонаж не знал об опасности или не предвидел всех штрафов — Рассказчик объявил, "
        "что действие уже нельзя отменить: бросок на удачу.",
    )


@dataclass(frozen=True)
class Withdrawn:
    """A chance-die action the player chose not to attempt; no die was rolled."""

    pool: Pool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "system": "wod",
            "kind": "withdrawn",
            "pool": self.pool.to_dict(),
            "dice": [],
            "reason": self.reason,
        }


def withdraw(pool: Pool) -> Withdrawn:
    """Back out of a chance-die action.

    Raises:
        RulesError: the pool is not a chance die, or the Storyteller forbids withdrawing
            (the message says why).
    """
    verdict = withdrawal(pool)
    if not verdict.allowed:
        raise RulesError(verdict.reason)
    return Withdrawn(pool, verdict.reason)

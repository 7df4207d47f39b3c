"""Старатели task chains: a helper rolls one step lower and carries its Effect to the main roll.

The result keeps the helper's roll, then the main one, in the order the dice were drawn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.starately.check import Check, Modifier, Result, Side, resolve, roll_dice
from rules.starately.tables import chain_difficulty


@dataclass(frozen=True)
class TaskChain:
    """A helper rolls another skill one step lower so the main check gets the helper's Effect.

    Attributes:
        helper: who prepares the way (e.g. the boat's pilot).
        main: the check that matters (e.g. the jump at 12+).
        helper_difficulty: override; by default one step below ``main`` (12→10→8→6).
    """

    helper: Side
    main: Check
    helper_difficulty: int | None = None

    @property
    def helper_check(self) -> Check:
        """The helper's check."""
        if self.helper_difficulty is not None:
            return Check(self.helper, self.helper_difficulty)
        return Check(self.helper, chain_difficulty(self.main.difficulty))


@dataclass(frozen=True)
class ChainResult:
    """A resolved task chain.

    Attributes:
        chain: the inputs.
        helper: the helper's result; its Effect, negative too, is carried.
        main: the main result; its side carries the Effect as the last modifier.
    """

    chain: TaskChain
    helper: Result
    main: Result

    @property
    def carried(self) -> int:
        """The Effect carried into the main roll."""
        return self.helper.effect

    @property
    def outcome(self) -> str:
        """The main check's outcome."""
        return self.main.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both rolls."""
        return {
            "system": "starately",
            "kind": "chain",
            "helper": self.helper.to_dict(),
            "carried": self.carried,
            "main": self.main.to_dict(),
            "outcome": self.outcome,
        }


def chain_modifier(helper: Result) -> Modifier:
    """Return the modifier a chain helper's result gives the main roll: its Effect."""
    who = helper.check.side.name
    return Modifier(helper.effect, f"Эффект помощника ({who})" if who else "Эффект помощника")


def resolve_chain(
    chain: TaskChain, helper_dice: Sequence[int], main_dice: Sequence[int]
) -> ChainResult:
    """Resolve a task chain: the helper's Effect becomes a modifier of the main check.

    Raises:
        RulesError: either set of dice does not fit its check.
    """
    helper = resolve(chain.helper_check, helper_dice)
    main = resolve(chain.main.with_modifier(chain_modifier(helper)), main_dice)
    return ChainResult(chain, helper, main)


def roll_chain(chain: TaskChain, rng: random.Random) -> ChainResult:
    """Roll the helper, then the main check, with ``rng`` (see ``resolve_chain``)."""
    helper_dice = roll_dice(chain.helper, rng)
    return resolve_chain(chain, helper_dice, roll_dice(chain.main.side, rng))

"""Effects and the scene clock run against the campaign: read, step, write (one undo step).

What the Партия tab's keys, the round tracker's effect keys and the tests do; the write is a
delta against the effects document as read (another window's change elsewhere stays, a
change to the same part is refused).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.effects import EffectSet, EffectSpec
from tui.bridge.effects import EFFECTS_DOC
from tui.store import StaleWrite, Store
from tui.table.commit import MakeEntry, commit, plain_entry, said_plainly, versioned
from tui.table.core import Dice, Outcome, World
from tui.table.effects import steps
from tui.table.effects.time import FightTime, fight_time
from tui.table.world import world_of

EFFECTS_NOT_SAVED = "эффект не записан"


@dataclass(frozen=True)
class EffectsRead:
    """The effects as a step reads them: the stored document (the base of the write), the
    effects, the world and where the fight stands."""

    base: dict[str, Any] | None
    effects: EffectSet
    world: World
    time: FightTime


def read_effects(store: Store, dice: Dice) -> EffectsRead:
    """Read the campaign's effects, its world and its fight's time, as they are now."""
    world = world_of(store, dice)
    time = fight_time(world.system, store.get_doc, world.characters)
    return EffectsRead(store.get_doc(EFFECTS_DOC), world.effects, world, time)


def write(
    store: Store,
    outcome: Outcome[EffectSet],
    base: dict[str, Any] | None,
    make: MakeEntry = plain_entry,
    docs: Mapping[str, dict[str, Any] | None] | None = None,
) -> str:
    """Write an effects step's outcome as one undo step (a delta against ``base``),
    versioned: a step made on effects another window has changed since is refused (the
    clock never moves twice, nor a repeat comes due twice, for one step).

    Raises:
        StaleWrite: another window changed the effects since ``base`` was read.
    """
    changed = {EFFECTS_DOC: versioned(outcome.state.to_dict()), **(docs or {})}
    try:
        return commit(
            store, outcome, changed, bases={EFFECTS_DOC: base}, make=make, what=EFFECTS_NOT_SAVED
        )
    except StaleWrite as err:
        plainly = said_plainly(err, EFFECTS_NOT_SAVED, "эффекты")
        if plainly is err:
            raise
        raise plainly from err


class EffectsSession:
    """The campaign's effects: what they are now, and each step written as one undo step."""

    def __init__(self, store: Store, dice: Dice | None = None, make: MakeEntry = plain_entry):
        self.store = store
        self.dice = dice or Dice()
        self.make = make

    def read(self) -> EffectsRead:
        """The effects, the world and the fight's time as they are now."""
        return read_effects(self.store, self.dice)

    def run(
        self, step: Callable[..., Outcome[EffectSet]], *args: Any, **kwargs: Any
    ) -> Outcome[EffectSet]:
        """Make ``step`` on the effects as they are now and write it (unless refused)."""
        read = self.read()
        outcome = step(read.effects, read.world, *args, **kwargs)
        if outcome.ok:
            write(self.store, outcome, read.base, self.make)
        return outcome

    def add(self, spec: EffectSpec) -> Outcome[EffectSet]:
        """Add an effect starting now, where the campaign's fight stands."""
        read = self.read()
        outcome = steps.add(read.effects, read.world, spec, read.time)
        if outcome.ok:
            write(self.store, outcome, read.base, self.make)
        return outcome

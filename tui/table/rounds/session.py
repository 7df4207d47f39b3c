"""The round tracker run against the campaign: read, step, write — each step one undo step.

The write is a delta against the documents as read (the tracker's and the effects'): another
window's change elsewhere stays, a change to the same part is refused. The tracker's document
is written only when the step changed the fight, the effects' only when they changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.rounds import Tracker
from tui.bridge.effects import EFFECTS_DOC
from tui.store import StaleWrite, Store
from tui.table.commit import MakeEntry, commit, plain_entry, said_plainly, versioned
from tui.table.core import Dice, Outcome, World
from tui.table.rounds.state import DOC, current
from tui.table.world import world_of

NOT_SAVED = "ход боя не записан"


@dataclass(frozen=True)
class RoundsRead:
    """The fight as a step reads it: the stored documents (the bases of the write), the
    tracker as it stands, and the world."""

    bases: Mapping[str, dict[str, Any] | None]
    tracker: Tracker
    world: World


def read_rounds(store: Store, dice: Dice) -> RoundsRead:
    """Read the campaign's round tracker and world as they are now.

    Raises:
        RulesError: the stored fight is damaged.
    """
    world = world_of(store, dice)
    stored = store.get_doc(DOC)
    bases = {DOC: stored, EFFECTS_DOC: store.get_doc(EFFECTS_DOC)}
    return RoundsRead(bases, current(stored, world), world)


def write(
    store: Store, outcome: Outcome[Tracker], read: RoundsRead, make: MakeEntry = plain_entry
) -> str:
    """Write a step's outcome as one undo step; return the step's id.

    The tracker and the effects are written versioned (:func:`~tui.table.commit.versioned`):
    a step made on a fight or effects another window has changed since they were read is
    refused (the same turn is never passed twice, its effects never ticked twice).

    Raises:
        StaleWrite: another window changed the fight or the effects since ``read``.
    """
    docs: dict[str, dict[str, Any] | None] = {}
    if outcome.state != read.tracker:
        docs[DOC] = versioned(outcome.state.to_dict())
    effects = outcome.docs.get(EFFECTS_DOC)
    if effects is not None:
        docs[EFFECTS_DOC] = versioned(effects)
    try:
        return commit(store, outcome, docs, bases=read.bases, make=make, what=NOT_SAVED)
    except StaleWrite as err:
        plainly = said_plainly(err, NOT_SAVED, "бой или эффекты")
        if plainly is err:
            raise
        raise plainly from err


class RoundsSession:
    """The campaign's round tracker: what it is now, and each step written as one."""

    def __init__(self, store: Store, dice: Dice | None = None, make: MakeEntry = plain_entry):
        self.store = store
        self.dice = dice or Dice()
        self.make = make

    def read(self) -> RoundsRead:
        """The tracker and the world as they are now."""
        return read_rounds(self.store, self.dice)

    def run(
        self, step: Callable[..., Outcome[Tracker]], *args: Any, **kwargs: Any
    ) -> Outcome[Tracker]:
        """Make ``step`` on the fight as it is now and write it (unless refused)."""
        read = self.read()
        outcome = step(read.tracker, read.world, *args, **kwargs)
        if outcome.ok:
            write(self.store, outcome, read, self.make)
        return outcome

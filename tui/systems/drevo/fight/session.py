"""A fight run against the campaign, step by step: read, step, write — what the players'
seats and ``kubik fight`` do (the Бой tab does the same through the app's ordered writer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.store import Store
from tui.systems.drevo.fight.steps import DOC, Fight, current
from tui.table.commit import MakeEntry, commit, plain_entry
from tui.table.core import Dice, Outcome, World
from tui.table.world import world_of

FIGHT_NOT_SAVED = "ход боя не записан"


class FightSession:
    """The campaign's fight: what it is now, and each step written as one undo step."""

    def __init__(self, store: Store, dice: Dice, make: MakeEntry = plain_entry) -> None:
        self.store = store
        self.dice = dice
        self.make = make

    def read(self) -> tuple[dict[str, Any] | None, Any, World]:
        """Return the stored fight document, the fight as it stands, and the world."""
        world = world_of(self.store, self.dice)
        stored = self.store.get_doc(DOC)
        return stored, current(stored, world), world

    def run(self, step: Callable[..., Outcome[Fight]], *args: Any, **kwargs: Any) -> Outcome[Fight]:
        """Make ``step`` on the fight as it is now and write it (unless refused)."""
        stored, enc, world = self.read()
        outcome = step(enc, world, *args, **kwargs)
        if outcome.ok:
            write(self.store, outcome, stored, self.make)
        return outcome


def write(
    store: Store, outcome: Outcome[Fight], base: dict[str, Any] | None, make: MakeEntry
) -> str:
    """Write a fight step's outcome as one undo step (a delta against ``base``)."""
    doc = outcome.state.to_dict() if outcome.state is not None else None
    return commit(store, outcome, {DOC: doc}, bases={DOC: base}, make=make, what=FIGHT_NOT_SAVED)

"""The bestiary run against the campaign: read the shelf, make a step, write it as one undo step.

The documents a step sets are written as deltas against the ones it read (another window's
change to another template stays; a change to the same one is refused); the round tracker's
document is written versioned, as the tracker's own steps write it, so a load into a fight
another window has moved on since is refused rather than doubled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.bestiary import check_variation
from rules.data import packaged_table
from rules.errors import RulesError
from tui.store import Store
from tui.store.bestiary import BESTIARY_DOC, ENCOUNTERS_DOC
from tui.store.bestiary_toml import campaign_bestiary
from tui.store.schema import rules_tables
from tui.table.bestiary.spawn import VARIATION_TABLE
from tui.table.bestiary.steps import ROUNDS_FIGHT, Shelf, fight_doc
from tui.table.commit import MakeEntry, commit, plain_entry, versioned
from tui.table.core import Dice, Outcome, World
from tui.table.world import world_of

NOT_SAVED = "бестиарий не изменён"


@dataclass(frozen=True)
class ShelfRead:
    """The shelf and the world as a step reads them."""

    shelf: Shelf
    world: World


def read_shelf(store: Store, dice: Dice) -> ShelfRead:
    """The campaign's bestiary, its documents, the fight being set up and the world now.

    Raises:
        SchemaError: a template or encounter in the campaign file is damaged.
    """
    world = world_of(store, dice)
    names = (BESTIARY_DOC, ENCOUNTERS_DOC, fight_doc(world.system))
    docs = {name: store.get_doc(name) for name in names}
    settings = rules_tables(store.get_doc("settings"))
    variation = settings.get(VARIATION_TABLE)
    try:
        if variation is not None:
            check_variation(variation)
    except RulesError:
        variation = None  # a hand edit the settings editor would refuse: kubik's own
    variation = variation or packaged_table(VARIATION_TABLE)
    return ShelfRead(Shelf(campaign_bestiary(store), docs, variation), world)


def write(
    store: Store, outcome: Outcome[Shelf], read: ShelfRead, make: MakeEntry = plain_entry
) -> str:
    """Write a step's outcome as one undo step; return the step's id.

    Raises:
        StaleWrite: another window changed the same template, encounter or fight.
        StoreError: nothing was written.
    """
    docs = dict(outcome.docs)
    if docs.get(ROUNDS_FIGHT) is not None:
        docs[ROUNDS_FIGHT] = versioned(docs[ROUNDS_FIGHT] or {})
    bases = {name: read.shelf.docs.get(name) for name in docs}
    return commit(store, outcome, docs, bases=bases, make=make, what=NOT_SAVED)


class BestiarySession:
    """The campaign's bestiary: what it is now, and each step written as one undo step."""

    def __init__(self, store: Store, dice: Dice | None = None, make: MakeEntry = plain_entry):
        self.store = store
        self.dice = dice or Dice()
        self.make = make

    def read(self) -> ShelfRead:
        """The shelf and the world as they are now."""
        return read_shelf(self.store, self.dice)

    def run(self, step: Callable[..., Outcome[Shelf]], *args: Any, **kwargs: Any) -> Outcome[Shelf]:
        """Make ``step`` on the shelf as it is now and write it (unless refused)."""
        read = self.read()
        outcome = step(read.shelf, read.world, *args, **kwargs)
        if outcome.ok:
            write(self.store, outcome, read, self.make)
        return outcome

"""The round tracker as the store has it: read on every change, each step written as one.

The pane reads the ``rounds`` and ``effects`` documents and the party, and keeps no copy of
what it shows: the engine derives it (:func:`tui.table.rounds.view.rounds_view`). A key makes
an engine step on the fight as it stands; its outcome — the tracker, the effects, the sheets,
the Журнал lines — goes to the app's writer (a worker) as one undo step, a delta against the
documents the pane showed; the pane changes only through the store's notification. The
effect keys write through here too, so one write at a time is pending.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.effects import EffectSet
from rules.errors import RulesError
from rules.rounds import Tracker
from tui.bridge.effects import EFFECTS_DOC
from tui.services import lent
from tui.store import Character
from tui.table.core import Dice, Outcome, World
from tui.table.effects import session as effects_session
from tui.table.effects.session import EffectsRead
from tui.table.rounds.session import NOT_SAVED, RoundsRead, write
from tui.table.rounds.state import DOC, current, default_tracker
from tui.table.rounds.view import RoundsView, rounds_view
from tui.table.world import world_of
from tui.widgets.combat.pending import PendingWrites


class RoundsStore(PendingWrites):
    """Reading the stored fight and writing the engine's steps (mixed into ``RoundsPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def tell(self, outcome: Outcome[Any]) -> None: ...

    def init_store(self) -> None:
        self.characters: dict[str, Character] = {}
        self.tracker = Tracker("ide4")
        self.effects = EffectSet()
        self.shown: RoundsView = rounds_view(self.tracker, self.effects, {}, "ide4")
        self._bases: dict[str, Any] = {}
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see PendingWrites).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""

    # The services it uses besides its pending write's (tui/services/lent.py).
    rng = lent.rng
    journal = lent.journal

    @property
    def system(self) -> str:
        return str(self.store.campaign.system)

    def world(self) -> World:
        """What a step may read: the party and the effects this pane shows, the dice."""
        return world_of(
            self.store, Dice(self.rng), characters=self.characters, effects=self.effects
        )

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party, the saved fight and the effects, derived anew."""
        self.characters = {c.id: c for c in characters}
        stored = self.store.get_doc(DOC)
        #: The stored documents this pane shows: a write is a delta to them.
        self._bases = {DOC: stored, EFFECTS_DOC: self.store.get_doc(EFFECTS_DOC)}
        try:
            self.effects = EffectSet.from_dict(self._bases[EFFECTS_DOC])
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            self.effects = EffectSet()
        world = self.world()
        try:
            self.tracker = current(stored, world)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            self.tracker = default_tracker(world)
        self.shown = rounds_view(self.tracker, self.effects, self.characters, self.system)
        self._redraw()

    # -- steps ---------------------------------------------------------------------------------

    def make(self, step: Callable[..., Outcome[Tracker]], *args: Any, **kwargs: Any) -> str:
        """Make an engine step on the fight shown and hand its outcome to the app's writer.

        Returns "" when the write is on its way, else why not (the rules' reason, or a write
        still pending).
        """
        if self._pending is not None:  # a key pressed twice applies once
            return f"Подождите: ещё сохраняется «{self._pending}»."
        outcome = step(self.tracker, self.world(), *args, **kwargs)
        if not outcome.ok:
            return outcome.refused
        read = RoundsRead(dict(self._bases), self.tracker, self.world())
        store, entry = self.store, self.journal.entry

        def job() -> None:
            write(store, outcome, read, entry)

        # A new turn or round moves the cursor to its actor: keys typed meanwhile wait for it.
        t, new = self.tracker, outcome.state
        hold = (new.round, new.turn) != (t.round, t.turn)
        self._write(job, outcome.label, lambda _step: self.tell(outcome), hold=hold)
        return ""

    def act(self, step: Callable[..., Outcome[Tracker]], *args: Any, **kwargs: Any) -> None:
        """Make a step for a key: the GM is told when it cannot be made now."""
        why = self.make(step, *args, **kwargs)
        if why:
            self.app.notify(why, severity="error")

    # -- the effect keys (EffectKeys) on the effects this pane shows -------------------------------

    def effects_read(self) -> EffectsRead:
        """The effects as this pane shows them, and where its fight stands."""
        return EffectsRead(
            self._bases.get(EFFECTS_DOC), self.effects, self.world(), self.shown.time
        )

    def write_effects(self, outcome: Outcome[EffectSet], read: EffectsRead) -> None:
        """An effects step goes through this pane's one pending write."""
        if self._pending is not None:
            self.app.notify(f"Подождите: ещё сохраняется «{self._pending}».", severity="error")
            return
        store, entry = self.store, self.journal.entry

        def job() -> None:
            effects_session.write(store, outcome, read.base, entry)

        self._write(job, outcome.label, lambda _step: self.tell(outcome))


__all__ = ["NOT_SAVED", "RoundsStore"]

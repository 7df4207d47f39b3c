"""The Бой tab's fight as the store has it: read on every change, each step written as one.

The pane shows the encounter document (``encounter``) and the party, and keeps no copy: every
key makes an engine step (:mod:`tui.systems.drevo.fight.steps`) on the fight as it stands, and the
step's outcome — the new fight, the sheets, the Журнал lines — is handed to the app's writer
(a worker) as a delta against the fight the pane showed. The pane changes only through the
store's notification.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.widgets import TabbedContent

from rules.data import on_change
from rules.encounter import Encounter
from rules.errors import RulesError
from tui.services import lent
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.follow import changes
from tui.systems.drevo.fight.session import FIGHT_NOT_SAVED, write
from tui.systems.drevo.fight.text import departures, marked
from tui.systems.drevo.fight.view import ExchangeView, exchange_view
from tui.table.core import Dice, Outcome, World
from tui.table.world import world_of
from tui.widgets.combat.pending import PendingWrites

DOC = steps.DOC


class FightStore(PendingWrites):
    """Reading the stored fight and writing the engine's steps (mixed into ``CombatPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def _focus_phase(self) -> None: ...

    # Provided by CombatPane.
    encounter: Encounter
    characters: dict[str, Character]
    #: The stored fight's document this pane last read (a step's write is a delta on it).
    _read: dict[str, Any] | None

    # The services it uses besides its pending write's (tui/services/lent.py).
    rng = lent.rng
    journal = lent.journal

    def world(self) -> World:
        """What a step may read: the party this pane shows, the effects, the Журнал, the dice."""
        return world_of(self.store, Dice(self.rng), characters=self.characters)

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party and the saved encounter."""
        had, before, read = self.characters, self.encounter, self._read
        was = self.world()
        self.characters = {c.id: c for c in characters}
        saved = self.store.get_doc(DOC)
        self._read = saved
        try:
            self.encounter = steps.current(saved, self.world())
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            self.encounter = Encounter()
        own = getattr(self, "_own_write", None)
        if not (saved != read and saved == own):  # not this pane's own step: who left, why
            for notice in departures(
                before, self.encounter, had, self.characters, self.store.removed_where
            ):
                self.app.notify(notice, severity="warning", timeout=10)
        for notice in self._changed_under(before, read, saved, was):
            self.app.notify(notice, severity="warning", timeout=15)
        phase = getattr(self, "_drawn_phase", None)
        self._redraw()
        self._refocus(phase != self.encounter.phase)

    def _changed_under(
        self, before: Encounter, read: Any, saved: Any, was: World
    ) -> tuple[str, ...]:
        """What changed under the fight — a fighter's sheet edited in Партия, by ``kubik``
        or in another window, or such an edit undone there — and what it did to the exchange
        on turn. Not a fight step (here, in another window or by ``kubik fight``: its sheet
        changes are the step's own, and the Журнал names it) nor this window's Ctrl+Z or
        Ctrl+Y (the GM was told what it undid)."""
        depth = self.store.own_depth
        seen = getattr(self, "_own_depth", None)
        self._own_depth = depth
        if was.characters is self.characters or not was.characters or saved != read:
            return ()
        if seen is not None and depth[1] != seen[1]:
            return ()
        return changes(before, self.encounter, was, self.world())

    def _refocus(self, phase_changed: bool) -> None:
        """After an undo, a redo or another kubik: keep the keys working on the shown phase."""
        try:
            active = self.app.query_one(TabbedContent).active == "combat"
        except Exception:  # noqa: BLE001 - no tabs (a test mounting the pane alone)
            return
        if not active or len(self.app.screen_stack) > 1:
            return
        focused = self.app.focused
        hidden = focused is None or not all(
            n.display for n in focused.ancestors_with_self if hasattr(n, "display")
        )
        if phase_changed or hidden:
            self._focus_phase()

    def view(self) -> ExchangeView | None:
        """The exchange on turn, derived from the fight and the party (kept until the
        encounter, the party or the campaign's tables change: every key's ``check_action``
        asks for it)."""
        memo = getattr(self, "_derived", None)
        enc, characters, tables = self.encounter, self.characters, _TABLES[0]
        if memo is not None and memo[0] is enc and memo[1] is characters and memo[2] == tables:
            return memo[3]
        derived = exchange_view(enc, self.world())
        self._derived = (enc, characters, tables, derived)
        return derived

    def stage(self) -> str:
        """Where the exchange on turn stands ("" outside the dice or when all are resolved)."""
        view = self.view()
        return view.stage if view is not None else ""

    def make(
        self,
        step: Callable[..., Outcome[Any]],
        *args: Any,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
        **kwargs: Any,
    ) -> str:
        """Make an engine step on the fight shown and hand its outcome to the app's writer.

        Returns "" when the write is on its way, else why not (the rules' reason, or a write
        still pending). ``then(step_id)`` runs once it is stored, ``failed(err)`` if not.
        """
        if self._pending is not None:  # a key pressed twice applies once
            return f"Подождите: ещё сохраняется «{self._pending}»."
        outcome = step(self.encounter, self.world(), *args, **kwargs)
        if not outcome.ok:
            return outcome.refused
        for notice in outcome.notices:
            self.app.notify(notice, severity="warning")
        store, base, entry = self.store, self._read, self.journal.entry
        self._own_write = outcome.state.to_dict() if outcome.state is not None else None

        def job() -> None:
            write(store, outcome, base, entry)

        shown = (self.encounter.phase, self.encounter.round)
        state = outcome.state
        new = (state.phase, state.round) if state is not None else None
        self._write(job, outcome.label, then, failed, hold=new != shown)
        return ""

    def act(self, step: Callable[..., Outcome[Any]], *args: Any, **kwargs: Any) -> None:
        """Make a step for a key: the GM is told when it cannot be made now."""
        why = self.make(step, *args, **kwargs)
        if why:
            self.app.notify(why, severity="error")

    def _can_act(self) -> Callable[[str], bool]:
        return lambda cid: bridge.can_act(self.characters.get(cid))

    def _marked(self, name: str, character_id: str) -> str:
        """A name with «тяжело ранен» / «погиб» when the character is down."""
        return marked(name, self.characters.get(character_id))

    def _names(self) -> dict[str, str]:
        return {c.character_id: c.name for c in self.encounter.combatants}


#: A number that changes whenever the campaign's rules tables change (the view is derived
#: anew then).
_TABLES = [0]


def _tables_changed() -> None:
    _TABLES[0] += 1


on_change(_tables_changed)

__all__ = ["DOC", "FIGHT_NOT_SAVED", "FightStore"]

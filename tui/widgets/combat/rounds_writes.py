"""Writing the round tracker: the tracker, the effects and characters as one store step.

The write is a delta against the documents the pane showed (``rounds``, ``effects``), run in
the app's writer (a worker); the status line says when it waits or why it failed. Here too:
the Журнал lines of the fight and the effects' notices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.effects import EffectSet, Notice
from rules.rounds import Tracker
from tui.bridge.effects import EFFECTS_DOC, ROUNDS_DOC
from tui.store import Character
from tui.widgets.combat.pending import PendingWrites

NOT_SAVED = "ход боя не записан"


class RoundsWrites(PendingWrites):
    """Saving and logging the fight (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    tracker: Tracker
    effects: EffectSet
    characters: dict[str, Character]
    app: Any

    def _save(
        self,
        label: str,
        *,
        tracker: Tracker | None = None,
        effects: EffectSet | None = None,
        upsert: Sequence[Character] = (),
        then: Callable[[str], object] | None = None,
    ) -> bool:
        """Write the tracker, the effects and characters as one undo step, in a worker.

        The UI never waits for the campaign's lock: the status line says the write is being
        saved, and the pane changes only through the store's notification; then
        ``then(step)`` runs with the id of the step (for its Журнал lines). A write that
        fails changes nothing on screen: the GM is told why, the status line says what was
        not saved. While one write is pending the next is refused (False): it would be made
        from a state the store does not have yet, and a key pressed twice must not apply
        twice.
        """
        docs: dict[str, Any] = {}
        if tracker is not None:
            docs[ROUNDS_DOC] = tracker.to_dict()
        if effects is not None:
            docs[EFFECTS_DOC] = effects.to_dict()
        store, changed = self.store, list(upsert)
        # A delta against what the pane showed: another window's change to the fight or the
        # effects stays, and a change to the same part is refused with a message.
        bases = {name: self._read.get(name) for name in docs}

        def job() -> None:
            store.apply(label, upsert=changed, docs=docs, bases=bases, what=NOT_SAVED)

        # A new turn or round moves the cursor to its actor: keys typed meanwhile wait for it.
        hold = tracker is not None and (tracker.round, tracker.turn) != (
            self.tracker.round,
            self.tracker.turn,
        )
        return self._write(job, label, then, hold=hold)

    def _log(
        self, actor: str | None, text: str, data: dict[str, Any] | None = None, step: str = ""
    ) -> None:
        payload = {"system": self.system, "round": self.tracker.round, **(data or {})}
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def _announce(self, notices: list[Notice], step: str = "") -> None:
        self.announce(notices, self._names(), step)

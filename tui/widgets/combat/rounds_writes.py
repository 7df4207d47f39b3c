"""Writing the round tracker: the tracker, the effects and characters as one store step.

The write is a delta against the documents the pane showed (``rounds``, ``effects``), run in
the app's writer (a worker); the status line says when it waits or why it failed. Here too:
the Журнал lines of the fight and the effects' notices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.effects import EffectSet, Notice
from rules.errors import RulesError
from rules.rounds import Tracker
from tui.bridge.effects import EFFECTS_DOC, ROUNDS_DOC
from tui.store import Character, StoreError

NOT_SAVED = "ход боя не записан"
#: Seconds a write runs before the status line says it is being saved.
SHOW_WAITING_AFTER = 0.15


class RoundsWrites:
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
        if self._pending is not None:
            self.app.notify(
                f"Подождите: ещё сохраняется «{self._pending}» — повторите, когда сохранится.",
                severity="warning",
                timeout=5,
            )
            return False
        docs: dict[str, Any] = {}
        if tracker is not None:
            docs[ROUNDS_DOC] = tracker.to_dict()
        if effects is not None:
            docs[EFFECTS_DOC] = effects.to_dict()
        store, changed = self.store, list(upsert)
        # A delta against what the pane showed: another window's change to the fight or the
        # effects stays, and a change to the same part is refused with a message.
        bases = {name: self._read.get(name) for name in docs}
        self._pending, self._failed, self._waiting = label, "", False
        self._writes += 1
        self._show_waiting_later()

        def job() -> str:
            try:
                store.apply(label, upsert=changed, docs=docs, bases=bases, what=NOT_SAVED)
            except (StoreError, RulesError):
                raise
            except Exception as err:  # noqa: BLE001 - the pane must not stay «pending»
                raise StoreError(f"Ошибка при записи: {err}. Кампания не изменилась.") from err
            return str(store.take_last_step() or "")  # the writer thread's step

        def done(step: str) -> None:
            self._pending, self._waiting = None, False
            self._redraw()
            if then is not None:
                then(step)

        def failed(err: Exception) -> None:
            self._pending, self._waiting = None, False
            self._failed = f"Не сохранено «{label}»: {err}"
            self.app.notify(str(err), severity="error", timeout=10)
            self._redraw()

        self.app.write(job, done, failed=failed)  # type: ignore[attr-defined]
        self._redraw()
        return True

    def _show_waiting_later(self) -> None:
        """Say «Сохраняется…» only for a write that waits (for another kubik's lock): most
        take milliseconds, and the status line should not flicker for them."""
        token = self._writes

        def waiting() -> None:
            if self._pending is not None and self._writes == token:
                self._waiting = True
                self._redraw()

        self.set_timer(SHOW_WAITING_AFTER, waiting)

    def _log(
        self, actor: str | None, text: str, data: dict[str, Any] | None = None, step: str = ""
    ) -> None:
        payload = {"system": self.system, "round": self.tracker.round, **(data or {})}
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def _announce(self, notices: list[Notice], step: str = "") -> None:
        self.announce(notices, self._names(), step)

"""One write at a time from a Бой pane, in the app's writer: pending, waiting, failed.

Both Бой panes (the Древо fight and the other systems' round tracker) hand their store
writes to the app's writer (a worker thread; writes keep their order). The UI never waits
for the campaign's lock: while another kubik holds it, the status line says the write is
being saved, and the pane keeps showing what the store has. The pane changes only through
the store's notification, so a write that fails (the lock not had in time, a full disk,
another window's change) changes nothing on screen: the GM is told why, and the status line
says what was not saved. While one write is pending, the next is refused: it would be made
from a state that is not the store's yet, and a key pressed twice must not apply twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.errors import RulesError
from tui.services import lent
from tui.store import StoreError
from tui.widgets.common.part import WidgetPart

#: Seconds a write runs before the status line says it is being saved.
SHOW_WAITING_AFTER = 0.15


class PendingWrites(WidgetPart):
    """The pane's one pending write (mixed into ``CombatPane`` and ``RoundsPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def _draw_status(self) -> None: ...
        def _redraw(self) -> None: ...

    # The services it uses (tui/services/lent.py).
    store = lent.store
    writer = lent.writer
    keys = lent.keys

    # Provided by the pane.
    _pending: str | None
    _failed: str
    _waiting: bool
    _writes: int

    def _write(
        self,
        job: Callable[[], object],
        label: str,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
        hold: bool = False,
    ) -> bool:
        """Hand ``job`` (one store write) to the app's writer; False if one is pending.

        Once stored, ``then(step)`` runs with the id of the step written (for its Журнал
        lines); ``failed(err)`` runs when the write fails (after the GM is told). ``hold``:
        the write changes what the pane shows (a new phase, a new round), so the keys typed
        meanwhile wait for it (or for «Сохраняется») and reach the new controls, not the old.
        """
        if self._pending is not None:
            self.app.notify(
                f"Подождите: ещё сохраняется «{self._pending}» — повторите, когда сохранится.",
                severity="warning",
                timeout=5,
            )
            return False
        self._pending, self._failed, self._waiting = label, "", False
        self._writes += 1
        if hold:
            self.keys.hold_keys()
        self._show_waiting_later()
        store = self.store

        def run() -> str:
            try:
                job()
            except (StoreError, RulesError):
                raise
            except Exception as err:  # noqa: BLE001 - the pane must not stay «pending»
                raise StoreError(f"Ошибка при записи: {err}. Кампания не изменилась.") from err
            return str(store.take_last_step() or "")  # this worker thread's step

        def done(step: str) -> None:
            self._pending, self._waiting = None, False
            # The store's notice of this write redrew the pane already (the worker hands it
            # on before this): only the status line is left to change (its «Сохраняется»).
            self._draw_pending()
            try:
                if then is not None:
                    then(step)  # the focus moves to the new phase's control here
            finally:
                if hold:
                    self.keys.release_keys()

        def not_saved(err: Exception) -> None:
            self._pending, self._waiting = None, False
            self._failed = f"Не сохранено «{label}»: {err}"
            self.app.notify(str(err), severity="error", timeout=10)
            self._draw_pending()  # nothing else changed: the store has what it had
            try:
                if failed is not None:
                    failed(err)
            finally:
                if hold:
                    self.keys.release_keys()

        self.writer.write(run, done, failed=not_saved)
        self._draw_pending()
        return True

    def _show_waiting_later(self) -> None:
        """Say «Сохраняется…» only for a write that waits (for another kubik's lock): most
        take milliseconds, and the status line should not flicker for them."""
        token = self._writes

        def waiting() -> None:
            if self._pending is not None and self._writes == token:
                self._waiting = True
                self._draw_pending()
                release_when_locked_out()

        def release_when_locked_out() -> None:
            """A write that waits for another kubik's lock lets the held keys go on (see
            _write); one merely slow (a busy machine) keeps them until it is drawn, or they
            would reach what it replaces."""
            if self._pending is None or self._writes != token:
                return
            if self.store.waiting_for_lock:
                self.keys.release_keys()
            else:
                self.set_timer(SHOW_WAITING_AFTER, release_when_locked_out)

        self.set_timer(SHOW_WAITING_AFTER, waiting)

    def _draw_pending(self) -> None:
        """Show where the write stands: it changes only the status line (the pane itself
        changes through the store's notification, the exchange keeps its scroll)."""
        self._draw_status()

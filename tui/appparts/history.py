"""Undo and redo (Ctrl+Z, Ctrl+Y): the campaign's last change, a fight exchange's steps
together, each done in the ordered writer and then named in a notice (the log is history and
stays)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.store import Store


class HistoryMixin:
    """``KubikApp``'s undo and redo keys (mixed into ``KubikApp``)."""

    # Set by KubikApp.__init__.
    store: Store
    # Provided by WriterMixin and Textual's App.
    write: Any
    notify: Any
    screen: Any
    screen_stack: Any
    focused: Any

    def undo_applies(self) -> bool:
        """Whether Ctrl+Z / Ctrl+Y are the campaign's (bound with priority: a dialog hides the
        app's other keys): not in a multi-line text field, which undoes its own text."""
        from textual.widgets import TextArea

        return not isinstance(self.focused, TextArea)

    def _refused_in_dialog(self) -> bool:
        """Refuse undo and redo in a dialog that would not follow them (it holds what it read
        and could write it back). A dialog (a modal screen) that follows the store says
        ``follows_undo = True``; a full screen (the settings) has always had the keys."""
        screen = self.screen
        if len(self.screen_stack) < 2 or getattr(screen, "follows_undo", not screen.is_modal):
            return False
        self.notify(
            "Отмена и возврат — вне этого окна: закройте его (Esc) и нажмите Ctrl+Z ещё раз.",
            severity="warning",
        )
        return True

    def action_undo(self) -> None:
        """Undo the last change of the campaign (the log is history and stays)."""
        if self._refused_in_dialog():
            return
        self._undo_redo(self.store.undo, "Отменено", "Нечего отменять.")

    def action_redo(self) -> None:
        """Redo the last undone change."""
        if self._refused_in_dialog():
            return
        self._undo_redo(self.store.redo, "Возвращено", "Нечего возвращать.")

    def _undo_redo(self, step: Callable[[], str | None], done: str, nothing: str) -> None:
        """Undo or redo in a worker (a fight exchange's steps together), then say what."""

        def whole() -> str | None:
            label = step()
            if label:  # the steps of one fight exchange go together (tui.bridge.combat)
                from tui.bridge.combat import whole_exchange

                label = whole_exchange(self.store, step, label)
            return label

        self.write(whole, lambda label: self.notify(f"{done}: {label}" if label else nothing))

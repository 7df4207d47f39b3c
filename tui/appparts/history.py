"""Undo and redo (Ctrl+Z, Ctrl+Y): this window's last change (never another window's or a
command's: :mod:`tui.store.undo`), a fight exchange's steps together, each done in the
ordered writer and then named in a notice (the log is history and stays). The key bar names
what Ctrl+Z will undo before it is pressed; an undo that a later change from elsewhere built on
is refused with the reason."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tui.appparts import AppPart

#: The longest name of a step the key bar shows for Ctrl+Z (cells).
UNDO_HINT = 18


class HistoryMixin(AppPart):
    """``KubikApp``'s undo and redo keys (mixed into ``KubikApp``)."""

    def undo_applies(self) -> bool:
        """Whether Ctrl+Z / Ctrl+Y are the campaign's (bound with priority: a dialog hides the
        app's other keys): not in a multi-line text field, which undoes its own text."""
        # Not imported here: the check runs on every key bar refresh, and importing TextArea
        # (~0.8 MiB) at start-up for it was the peak-RSS miss. No TextArea can be focused
        # before its module is loaded.
        text_area = sys.modules.get("textual.widgets._text_area")
        return text_area is None or not isinstance(self.focused, text_area.TextArea)

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

    def undo_hint(self) -> str:
        """What Ctrl+Z would undo now, short («схватка 2», «заявка Горан Рябой»), or ""."""
        labels = self.store.undo_labels(1)
        if not labels:
            return ""
        label = labels[0]
        # A fight exchange's steps are undone together (tui.bridge.combat.exchange_group, not
        # imported here: the bar asks at the first paint, before the rules are loaded).
        if label.startswith("Раунд ") and ", схватка " in label and ": " in label:
            label = label.split(": ", 1)[0].split(", ", 1)[-1]
        elif label.startswith("Бой: "):
            label = label[len("Бой: ") :]
        elif label.startswith("Проверка (") and "): " in label:
            # What the step did first, then whose: cut short, «бросок 4dF, Бо…» still says
            who, what = label[len("Проверка (") :].split("): ", 1)
            label = f"{what}, {who}"
        return label if len(label) <= UNDO_HINT else label[: UNDO_HINT - 1] + "…"

    def key_bar_text(self, binding: Any) -> tuple[str, str] | None:
        """The key bar's Ctrl+Z says what it will undo («^Z «схватка 2»»)."""
        if binding.action != "undo":
            return None
        hint = self.undo_hint()
        return ("^Z", f"«{hint}»") if hint else ("", "")  # nothing to undo: not on the bar

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

    def _undo_redo(self, step: Callable[..., str | None], done: str, nothing: str) -> None:
        """Undo or redo in a worker (a fight exchange's steps together, in one write), then
        say what."""
        from tui.bridge.combat import exchange_group

        def whole() -> str | None:
            return step(together=exchange_group)

        self.services.write(
            whole, lambda label: self.notify(f"{done}: {label}" if label else nothing)
        )

"""Copying to the GM's clipboard (OSC 52: works over SSH and in tmux): the newest Журнал entry
(``y``), and the notice of what was sent, with tmux's hint when it will not pass it on."""

from __future__ import annotations

from typing import Any

from tui.appparts import AppPart
from tui.sanitize import clean


class CopyingMixin(AppPart):
    """``KubikApp``'s copy keys (mixed into ``KubikApp``)."""

    def copy_to_clipboard(self, text: str) -> None:
        """Copy with OSC 52, never a control code inside it (it would end the sequence)."""
        super().copy_to_clipboard(clean(text))

    def action_copy_last(self) -> None:
        """Copy the newest Журнал entry (OSC 52: works over SSH and in tmux)."""
        from tui.clipboard import SENT

        entries = self.store.log(limit=1)
        if not entries:
            self.notify("Журнал пуст — копировать нечего.")
            return
        entry = entries[0]
        text = f"{entry.actor}: {entry.text}" if entry.actor else entry.text
        self.copy_to_clipboard(text)
        self._tell_copied(f"{SENT}: {text}")

    def _tell_copied(self, message: str, **kwargs: Any) -> None:
        """Say what was sent, with tmux's hint when it will not pass it on (asked off the UI
        thread: ``tmux show`` is a process)."""
        from tui.clipboard import tmux_hint

        def ask() -> None:
            hint = tmux_hint()
            full = f"{message}\n{hint}" if hint else message
            self.call_from_thread(self.notify, full, markup=False, **kwargs)

        self.run_worker(ask, thread=True, group="clipboard")

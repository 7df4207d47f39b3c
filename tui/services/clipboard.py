"""Copying to the GM's clipboard (OSC 52: works over SSH and in tmux): the newest Журнал entry
(``y``), and the notice of what was sent, with tmux's hint when it will not pass it on. The
copy itself is the app's (``KubikApp.copy_to_clipboard``: Textual writes the sequence)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.services import Notify, RunWorker
    from tui.store import Store


class Clipboard:
    """What the GM copies, and the notice that says what was sent."""

    def __init__(
        self,
        copy: Callable[[str], None],
        campaign: Callable[[], Store],
        notify: Notify,
        run_worker: RunWorker,
        call_from_thread: Callable[..., Any],
    ) -> None:
        #: Copy with OSC 52 (the app's, which never lets a control code inside it).
        self.copy = copy
        self._campaign = campaign
        self._notify = notify
        self._run_worker = run_worker
        self._call_from_thread = call_from_thread

    def copy_last(self) -> None:
        """Copy the newest Журнал entry (OSC 52: works over SSH and in tmux)."""
        from tui.clipboard import SENT

        entries = self._campaign().log(limit=1)
        if not entries:
            self._notify("Журнал пуст — копировать нечего.")
            return
        entry = entries[0]
        text = f"{entry.actor}: {entry.text}" if entry.actor else entry.text
        self.copy(text)
        self.tell_copied(f"{SENT}: {text}")

    def tell_copied(self, message: str, **kwargs: Any) -> None:
        """Say what was sent, with tmux's hint when it will not pass it on (asked off the UI
        thread: ``tmux show`` is a process)."""
        from tui.clipboard import tmux_hint

        def ask() -> None:
            hint = tmux_hint()
            full = f"{message}\n{hint}" if hint else message
            self._call_from_thread(self._notify, full, markup=False, **kwargs)

        self._run_worker(ask, thread=True, group="clipboard")

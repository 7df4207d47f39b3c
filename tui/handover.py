"""A thread's work handed to the app's UI thread, once the app is gone dropped at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy reads the mixin as a part of the app; at run time a plain class
    from textual.app import App

    _AppBase = App[None]
else:
    _AppBase = object


class UiHandOver(_AppBase):
    """Run a thread's callback on the app's UI thread (mixed into ``KubikApp`` and the
    players' ``ViewApp``)."""

    #: Set by the app as it starts (the thread that runs its event loop).
    _ui_thread: int

    def _on_ui(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` on the UI thread: now if this is it, else handed over (and waited
        for, so what a worker reports is on screen before its next write)."""
        if threading.get_ident() == self._ui_thread:
            callback()
            return
        if not self.is_running:  # closed: a hand-over would never be run
            return
        try:
            self.call_from_thread(callback)
        except RuntimeError:  # the app is closing: nothing left to draw on
            pass

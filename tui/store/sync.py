"""Following other kubiks: re-reading what they wrote, and telling the subscribers.

:meth:`Sync.refresh` is what a timer or the callback of :mod:`tui.store.watch` calls: cheap
when nothing changed, it picks up another process's write of the file or of the Журнал and
notifies.
"""

from __future__ import annotations

from collections.abc import Callable

from .files import load
from .state import StoreState
from .storage import file_sig


class Sync(StoreState):
    """Refresh from disk and the callbacks told of every change."""

    # -- other processes ------------------------------------------------------------------

    def refresh(self) -> bool:
        """Re-read what changed on disk since the last read; notify and return True if any.

        Cheap when nothing changed (two ``stat`` calls); meant for a timer or a file watcher.
        While this store is writing, it returns False at once (the write notifies).

        Raises:
            CampaignCorrupt: the file was damaged behind kubik's back (raised once per
                change on disk); the last good state stays in memory.
        """
        if not self._write_mutex.acquire(blocking=False):
            return False
        try:
            self._check_open()
            changed = False
            sig = file_sig(self.path)
            if sig is not None and sig != self._sig:
                self._sig = sig  # a damaged version is reported once, not on every tick
                loaded = load(self.path)
                if loaded is not None and loaded.up.tables != self._tables:
                    with self._mutex:
                        self._set_cache(loaded)
                    changed = True
                elif loaded is not None:
                    self._sig = loaded.sig
            with self._mutex:
                changed = self._journal.refresh() or changed
        finally:
            self._write_mutex.release()
        if changed:
            self._notify()
        return changed

    # -- notifications --------------------------------------------------------------------

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change, made here or picked up by :meth:`refresh`."""
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        """Stop calling ``callback``; unknown callbacks are ignored."""
        if callback in self._subscribers:
            self._subscribers.remove(callback)

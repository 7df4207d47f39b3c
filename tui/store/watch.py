"""Follow a campaign on disk: call back as soon as another kubik writes it.

The store replaces the campaign file atomically (a new inode each write) and appends to the
Журнал beside it, so the folder is what is watched, filtered to those two names. Through
``watchfiles`` (inotify on Linux, FSEvents on macOS, …) a change is seen within ~10 ms; where
it cannot watch (not installed, an unsupported file system, no inotify slots left) the thread
falls back to polling two ``stat`` calls every :data:`POLL_SECONDS`. Either way the callback
runs on the watcher's thread: :meth:`Store.refresh` is thread-safe and reads the file there,
off the UI thread; the app hands the redraw to its own thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from tui.store.journal import journal_path
from tui.store.storage import file_sig

#: How often the fallback polls (two ``stat`` calls): the players' view follows within this.
POLL_SECONDS = 0.1
#: How long watchfiles waits for more changes before it reports (ms): one write is one report.
STEP_MS = 10


class CampaignWatch:
    """Call ``changed()`` from a daemon thread after each change of ``path`` or its Журнал."""

    def __init__(self, path: Path, changed: Callable[[], None]) -> None:
        self.path = Path(path)
        self._changed = changed
        self._names = {self.path.name, journal_path(self.path).name}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: ``"watchfiles"`` or ``"poll"`` once the thread runs (tests, the benchmark).
        self.mode = ""

    def start(self) -> CampaignWatch:
        self._thread = threading.Thread(target=self._run, name="kubik-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        try:
            self._watch()
        except Exception:  # noqa: BLE001 - no watcher: polling still follows the file
            pass
        if not self._stop.is_set():
            self._poll()

    def _watch(self) -> None:
        import watchfiles  # lazy: the first screen does not wait for it

        names = self._names

        def wanted(_change: object, name: str) -> bool:
            return Path(name).name in names

        self.mode = "watchfiles"
        for _ in watchfiles.watch(
            self.path.parent,
            watch_filter=wanted,
            recursive=False,
            step=STEP_MS,
            debounce=1000,
            stop_event=self._stop,
            yield_on_timeout=False,
            raise_interrupt=False,
        ):
            self._call()

    def _poll(self) -> None:
        self.mode = "poll"
        paths = (self.path, journal_path(self.path))
        last = [file_sig(p) for p in paths]
        while not self._stop.wait(POLL_SECONDS):
            now = [file_sig(p) for p in paths]
            if now != last:
                last = now
                self._call()

    def _call(self) -> None:
        if self._stop.is_set():
            return
        try:
            self._changed()
        except Exception:  # noqa: BLE001 - a failed refresh is the callback's to report
            pass

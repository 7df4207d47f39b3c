"""The app's ordered store writer: every store write runs in a worker thread, one after another.

``write`` hands a job to a worker and reports its result (or the store's Russian reason it
failed) back on the UI thread; ``writes_done`` waits until every write handed so far is over.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from tui.handover import UiHandOver
from tui.store import StoreError

T = TypeVar("T")


class WriterMixin(UiHandOver):
    """The store writes of ``KubikApp``, in order, off the UI thread (mixed into ``KubikApp``)."""

    # Set by KubikApp.__init__ (and on_mount).
    #: Set when the newest store write handed to a worker is over (see :meth:`write`).
    _last_write: threading.Event | None
    # Provided by Textual's App.
    notify: Any
    run_worker: Any

    def write(
        self,
        job: Callable[[], T],
        done: Callable[[T], object] | None = None,
        *,
        failed: Callable[[Exception], object] | None = None,
    ) -> None:
        """Run a store write in a worker thread; writes run one after another, in order.

        The UI never waits for the campaign's lock: while another kubik holds it, the worker
        waits (up to the store's lock timeout) and the keys keep working. The screens change
        only through the store's notification, so a write that fails (the lock not had in
        time, a full disk, a change another window made stale) changes nothing on screen:
        the GM is told why (``failed`` gets the error instead, if given). ``done`` gets the
        job's result on the UI thread.
        """
        from rules.errors import RulesError

        before, mine = self._last_write, threading.Event()
        self._last_write = mine

        def run() -> None:
            try:
                if before is not None:
                    before.wait()
                try:
                    result = job()
                except (StoreError, RulesError) as err:
                    error: Exception = err
                    if failed is not None:
                        self._on_ui(lambda: failed(error))
                    else:
                        message = str(err)
                        self._on_ui(lambda: self.notify(message, severity="error", timeout=10))
                    return
                if done is not None:
                    self._on_ui(lambda: done(result))
            finally:
                mine.set()

        self.run_worker(run, thread=True, group="store-write", exit_on_error=False)

    async def writes_done(self) -> None:
        """Wait until every write handed to :meth:`write` so far is over (tests, quitting),
        and the writes those handed on once saved (a fight's damage after its acceptance)."""
        while True:
            last = self._last_write
            while last is not None and not last.is_set():
                await asyncio.sleep(0.002)
            if self._last_write is last:
                return

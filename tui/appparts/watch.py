"""The campaign file's watch: what other kubiks write shows here within milliseconds.

The watch thread (``tui.store.watch``) reads the file itself; a timer's refresh is the
fallback should the watch miss a change. Either way the store notifies and the app redraws.
"""

from __future__ import annotations

from tui.appparts import AppPart
from tui.store import StoreError


class WatchMixin(AppPart):
    """Following the open campaign's file (mixed into ``KubikApp``)."""

    def _refresh_store(self) -> None:
        """Pick up what other kubiks wrote to the campaign file."""
        try:
            self.store.refresh()
        except StoreError as err:
            self.notify(str(err), severity="error", timeout=15)

    def watch_store(self) -> None:
        """Follow the open campaign's file: another kubik's write shows within milliseconds.

        The watch thread reads the file itself (:meth:`Store.refresh` is thread-safe), so a
        big campaign is parsed off the UI thread; the redraw comes here through
        :meth:`_store_notified`.
        """
        from tui.store.watch import CampaignWatch

        self.stop_watch()
        store = self.store

        def changed() -> None:
            if store.closed:  # another campaign was opened meanwhile
                return
            try:
                store.refresh()
            except StoreError as err:
                if store.closed:
                    return
                message = str(err)
                self._on_ui(lambda: self.notify(message, severity="error", timeout=15))

        self._watch = CampaignWatch(store.path, changed).start()

    def stop_watch(self) -> None:
        """Stop following the campaign's file (before it is closed or another is opened)."""
        if self._watch is not None:
            self._watch.stop()
            self._watch = None

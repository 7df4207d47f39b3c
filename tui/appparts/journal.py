"""The Журнал entries the app records: stamped now, secret while secret rolls are on, each
linked to the undo step of the change it tells of, and written through the ordered writer."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from tui.bridge.luck_queue import LuckQueue
from tui.store import LogEntry, Store


class JournalMixin:
    """How ``KubikApp`` records Журнал entries (mixed into ``KubikApp``)."""

    # Set by KubikApp.__init__.
    store: Store
    clock: Callable[[], datetime]
    #: While True, every new Журнал entry is a secret roll (``data["hidden"]``).
    secret: bool
    #: The entries waiting for a slow roll's odds (the luck ledger keeps their order).
    luck_queue: LuckQueue
    # Provided by WriterMixin.
    write: Any

    def entry(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> LogEntry:
        """Return a new Журнал entry stamped now (secret while secret rolls are on)."""
        if self.secret and "hidden" not in data:
            data = {**data, "hidden": True}
        return LogEntry(
            id=uuid.uuid4().hex,
            at=self.clock().isoformat(timespec="seconds"),
            kind=kind,
            actor=actor,
            text=text,
            data=data,
        )

    def record(
        self, kind: str, actor: str | None, text: str, data: dict[str, Any], step: str = ""
    ) -> None:
        """Append one entry to the campaign's log (the store notifies the panes).

        An entry recorded right after a change made in the same key press tells of that
        change: it is linked to its undo step and marked «отменено» while the step is undone.
        ``step`` names that step instead (for the second entry of one change).
        """
        from tui.bridge.luck import stamp  # the luck ledger: each roll's percentile, computed once

        stamped = stamp(self, kind, actor, text, data)  # type: ignore[arg-type]  # KubikApp is the host
        if stamped is None:
            return  # a worker computes the odds of this dice notation, then records it
        entry = self.entry(kind, actor, text, stamped)
        step = step or self.store.take_last_step()  # this thread's: a worker's are its own
        store = self.store
        self.write(lambda: store.append_log(entry, step=step))

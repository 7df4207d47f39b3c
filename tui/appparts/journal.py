"""The Журнал entries the app records: stamped now, secret while secret rolls are on, each
linked to the undo step of the change it tells of, and written through the ordered writer."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from tui.bridge.luck_queue import LuckQueue
from tui.store import Character, LogEntry, Store


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

    def record_spend(
        self,
        actor: str | None,
        text: str,
        data: dict[str, Any],
        c: Character | None,
        entry_id: str,
        label: str = "",
        lines: tuple[tuple[str, dict[str, Any]], ...] = (),
        more: tuple[Character, ...] = (),
    ) -> None:
        """Write a check's step that pays from the sheet (Судьба, energy after the roll) and
        its log line as one undo step: undoing it marks the line «отменено». ``c`` None: a
        step that pays nothing (a reroll, Risk), undone all the same (``label``: the undo
        list's). ``lines``: earlier lines of the same step (a level raised on the way); ``more``:
        more sheets it pays (an opposed check's second side). If the
        store refuses it, the GM is told and the open check is put back (its
        ``spend_refused``)."""
        from tui.bridge.luck import stamp

        stamped = stamp(self, "check", actor, text, data)  # type: ignore[arg-type]  # KubikApp is the host
        store = self.store
        sheets = [s for s in (c, *more) if s is not None]
        if stamped is None:  # queued behind a slow roll's odds: the line follows on its own
            for sheet in sheets:
                self.write(lambda s=sheet: store.upsert_character(s, what="изменение не записано"))
            return
        entry = replace(self.entry("check", actor, text, stamped), id=entry_id)
        log = [*(self.entry("check", actor, t, d) for t, d in lines), entry]

        def failed(err: Exception) -> None:
            self.notify(str(err), severity="error", timeout=10)  # type: ignore[attr-defined]
            pane = getattr(self, "_panes", {}).get("check")
            for target in (pane, getattr(self, "screen", None)):  # the builder, its dialog
                if hasattr(target, "spend_refused"):
                    target.spend_refused(entry_id)

        def job() -> None:
            what = "изменение не записано"
            if c is None or more:
                store.apply(label or text, upsert=sheets, log=log, what=what)
            else:
                store.upsert_character(c, log=log, what=what)

        self.write(job, failed=failed)

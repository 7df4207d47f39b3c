"""The ledger's sessions and secrets as a machine: rolls (secret or not), reveals, session
marks, long pauses, reopening the campaign and a second kubik writing the same Журнал."""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tests.hypo import examples
from tui.bridge.luck import SESSION_KIND, read_sessions, session_count, with_luck
from tui.store import LogEntry, Store, new_id

START = datetime(2026, 11, 29, 19, 0, tzinfo=timezone(timedelta(hours=3)))


class LedgerMachine(RuleBasedStateMachine):
    """What must never happen: a secret roll counted for the players before its reveal, a roll
    lost or counted twice, an empty session before the newest, a session number skipped."""

    @initialize()
    def open(self) -> None:
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "c.json"
        self.store = Store.open(self.path)
        self.other: Store | None = None
        self.now = START
        self.rolls = 0
        self.secret: list[str] = []  # ids of secret rolls not revealed yet
        self.revealed = 0
        self.sessions = 0  # none until the first entry
        self.session_has_entries = False
        self.paused = 0  # hours paused since the last entry (which is 5 minutes on)

    def teardown(self) -> None:
        self.store.close()
        if self.other is not None:
            self.other.close()
        self.dir.cleanup()

    def _append(self, store: Store, kind: str, text: str, data: dict) -> str:
        """Append an entry five minutes on; the model numbers sessions as the GM would."""
        self.now += timedelta(minutes=5)
        if self.sessions == 0:
            self.sessions = 1
        elif (self.paused >= 6 or kind == SESSION_KIND) and self.session_has_entries:
            self.sessions += 1
            self.session_has_entries = False
        self.paused = 0
        if kind != SESSION_KIND:
            self.session_has_entries = True
        entry = LogEntry(new_id(), self.now.isoformat(), kind, None, text, data)
        store.append_log(entry)
        return entry.id

    def _roll(self, store: Store, secret: bool, total: int) -> None:
        data = with_luck("roll", None, {"expression": "2d6", "total": total, "parts": []})
        if secret:
            data = {**data, "hidden": True}
        entry_id = self._append(store, "roll", f"2d6 = {total}", data)
        self.rolls += 1
        if secret:
            self.secret.append(entry_id)

    @rule(secret=st.booleans(), total=st.integers(2, 12))
    def roll(self, secret: bool, total: int) -> None:
        self._roll(self.store, secret, total)

    @rule(total=st.integers(2, 12))
    def second_kubik_rolls(self, total: int) -> None:
        if self.other is None:
            self.other = Store.open(self.path)
        self._roll(self.other, False, total)
        self.store.refresh()

    @precondition(lambda self: self.secret)
    @rule(data=st.data())
    def reveal(self, data: st.DataObject) -> None:
        entry_id = data.draw(st.sampled_from(self.secret))
        self._append(self.store, "note", "Раскрыто", {"reveals": entry_id, "hidden": False})
        self.secret.remove(entry_id)
        self.revealed += 1

    @rule()
    def mark_session(self) -> None:
        current, _ = session_count(list(reversed(self.store.log())))
        self._append(self.store, SESSION_KIND, "— Сессия —", {"session": current + 1})

    @rule(hours=st.integers(1, 12))
    def pause(self, hours: int) -> None:
        self.now += timedelta(hours=hours)  # then the next entry is 5 minutes later still
        self.paused += hours  # 6 h and the 5 minutes to the next entry: more than six hours

    @rule()
    def reopen(self) -> None:
        self.store.close()
        self.store = Store.open(self.path)

    @invariant()
    def counts(self) -> None:
        entries = list(reversed(self.store.log()))
        gm = read_sessions(entries)
        players = read_sessions(entries, players=True)
        assert sum(len(s.rolls) for s in gm) == self.rolls
        assert sum(len(s.rolls) for s in players) == self.rolls - len(self.secret)
        assert [s.number for s in gm] == list(range(1, len(gm) + 1))
        assert len(gm) == self.sessions
        assert session_count(entries)[0] == max(self.sessions, 1)
        secret_ids = set(self.secret)
        assert not any(r.entry_id in secret_ids for s in players for r in s.rolls)
        ids = [r.entry_id for s in gm for r in s.rolls]
        assert len(ids) == len(set(ids))


LedgerMachine.TestCase.settings = settings(
    max_examples=examples(15), stateful_step_count=12, deadline=None
)
TestLedgerMachine = LedgerMachine.TestCase

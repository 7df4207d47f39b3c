"""A state machine over a player's requests about the GM's open IDE4 check, in the real GM's
app: sent (about the open check or a stale one), accepted, refused, the GM rolling and opening
a new check, the GM's own keys on the rolled check (a reroll, energy after, «p»), Ctrl+Z and
Ctrl+Y.

Invariants: no request stays half-written; a refusal has a reason; the Журнал holds a line
only for a request the GM accepted, once; a request the seat sees «undone» is one whose line
is undone; while a check is rolled, the sheet's energy is what that check left, and its steps
after the d100 are the lines since its roll that stand (the GM's and the seat's alike).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import uuid
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rules import ide4
from tests.seats.helpers import gm_app, short_folder, started
from tui.seats import protocol as proto
from tui.systems.ide4.check import steps

KINDS = {
    "expanded": {},
    "energy_before": {"when": "before", "amount": 1},
    "energy_after": {"when": "after", "amount": 1},
    "reroll": {},
}


class FakeWriter:
    def write(self, data: bytes) -> None:
        return None

    async def drain(self) -> None:
        return None


class CheckRequests(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._folder_cm = short_folder()
        folder = self._folder_cm.__enter__()
        self._tmp = tempfile.mkdtemp(prefix="kcheck")
        self.loop = asyncio.new_event_loop()
        self.app = gm_app(folder, Path(self._tmp) / "c.json", system="ide4")
        self.jobs: asyncio.Queue = asyncio.Queue()
        ready = self.loop.create_future()
        self.driver = self.loop.create_task(self._drive(ready))
        self.loop.run_until_complete(ready)
        self.hub = self.run(lambda: started(self.pilot, self.app))
        self.run(lambda: self.pilot.press("3"))  # the GM opens the Проверка tab
        self.builder = self.run(lambda: self.app.ensure_pane("check"))
        self.me = next(c for c in self.app.store.characters() if c.kind == "pc")
        self.call(lambda: self.builder.choose_character(self.me.id))
        self.settle()
        self.seen: list[str] = []  # the check ids the seat was offered

    async def _drive(self, ready) -> None:
        """The app runs in this one task; each rule's work is handed to it (as a key is)."""
        async with self.app.run_test(size=(80, 24)) as pilot:
            self.pilot = pilot
            ready.set_result(None)
            while (job := await self.jobs.get()) is not None:
                work, done = job
                try:
                    done.set_result(await work())
                except Exception as err:  # noqa: BLE001 - raised again in the rule
                    done.set_exception(err)

    def run(self, work):
        """Await ``work()`` inside the app's task; return its result."""
        done = self.loop.create_future()
        self.jobs.put_nowait((work, done))
        return self.loop.run_until_complete(done)

    def call(self, fn):
        async def now():
            return fn()

        return self.run(now)

    def settle(self) -> None:
        # One pause is enough: the harness's pause (tests/conftest.py) already waits for the
        # app's store writes and thread workers before and after it (this did it twice).
        self.run(self.pilot.pause)

    def teardown(self) -> None:
        self.jobs.put_nowait(None)
        self.loop.run_until_complete(self.driver)
        self.loop.close()
        self._folder_cm.__exit__(None, None, None)
        shutil.rmtree(self._tmp, ignore_errors=True)

    def offer(self) -> dict:
        offer = self.hub._state(self.me.name)["state"]["check"] or {}
        if offer.get("id") and offer["id"] not in self.seen:
            self.seen.append(offer["id"])
        return offer

    @rule(kind=st.sampled_from(sorted(KINDS)), stale=st.booleans())
    def send(self, kind, stale):
        self._send(kind, stale)

    @rule(kind=st.sampled_from(sorted(KINDS)))
    def send_and_accept(self, kind):
        rid = self._send(kind, False)
        if self.hub.requests[rid].status == "pending":
            self.call(lambda: self.hub.accept(rid))
            self.settle()
            assert self.hub.requests[rid].status in ("accepted", "refused")

    def _send(self, kind: str, stale: bool) -> str:
        offer = self.offer()
        check = self.seen[0] if stale and self.seen else offer.get("id")
        payload = dict(KINDS[kind])
        if check:
            payload["check"] = check
        real = "energy" if kind.startswith("energy") else kind
        rid = uuid.uuid4().hex[:12]
        line = proto.encode(proto.Request(rid, real, self.me.id, payload).to_dict())
        self.run(lambda: self.hub._received(self.me.name, FakeWriter(), line))
        item = self.hub.requests[rid]
        if stale and check != offer.get("id"):  # an old check: refused with what became of it
            assert item.status == "refused"
            assert "брошена" in item.reason or "закрыта" in item.reason
        return rid

    @rule(data=st.data())
    def accept(self, data):
        waiting = self.hub.pending()
        if waiting:
            rid = data.draw(st.sampled_from(waiting)).request.id
            self.call(lambda: self.hub.accept(rid))
            self.settle()

    @rule(data=st.data())
    def refuse(self, data):
        waiting = self.hub.pending()
        if waiting:
            self.hub.refuse(data.draw(st.sampled_from(waiting)).request.id, "нет")

    @rule()
    def gm_rolls(self):
        if self.builder.phase == "setup":
            self.call(self.builder.action_roll)
            self.settle()

    @rule()
    def gm_opens_a_new_check(self):
        if self.builder.phase != "setup":
            self.call(self.builder.action_new_check)
            self.settle()

    # -- the GM's own keys: the same steps (tui/systems/ide4/check/steps.py) ----------------

    def _rolled(self):
        check = self.builder.check
        ok = check is not None and self.builder.phase == "result" and check.status == "rolled"
        return check if ok else None

    @rule()
    def gm_rerolls(self):
        check = self._rolled()
        if check is None:
            return
        sources = [m.source for m in ide4.allowed_moves(check) if m.kind == "reroll" and m.allowed]
        if sources:
            self.call(lambda: self.builder.step(steps.reroll, sources[0]))
            self.settle()

    @rule()
    def gm_spends_energy_after(self):
        check = self._rolled()
        if check is not None and ide4.energy_after_refusal(check, 1) is None:
            self.call(lambda: self.builder.step(steps.energy_after, 1))
            self.settle()

    @rule()
    def gm_demands_expanded(self):
        if self.builder.check_action("demand_expanded", ()):
            self.call(self.builder.action_demand_expanded)
            self.settle()

    @rule()
    def undo(self):
        self.call(self.app.action_undo)
        self.settle()

    @rule()
    def redo(self):
        self.call(self.app.action_redo)
        self.settle()

    @invariant()
    def nothing_half_written(self):
        assert all(p.status != "writing" for p in self.hub.requests.values())

    @invariant()
    def refusals_have_reasons(self):
        assert all(p.status != "refused" or p.reason for p in self.hub.requests.values())

    @invariant()
    def lines_only_for_accepted_requests_once(self):
        lines = [e for e in self.app.store.log(limit=500) if "request" in e.data]
        ids = [e.data["request"] for e in lines]
        assert len(ids) == len(set(ids))
        for rid in ids:
            assert self.hub.requests[rid].status == "accepted"
        shown = {r["id"]: r["status"] for r in self.hub._state(self.me.name)["requests"]}
        undone = {e.data["request"] for e in lines if e.undone}
        assert {rid for rid, s in shown.items() if s == "undone"} == undone

    @invariant()
    def a_rolled_checks_moves_are_its_standing_lines(self):
        """Whoever made them (the GM's key, a seat's request), the rolled check's steps after
        the d100 are the Журнал lines since its roll that stand (not «отменено»)."""
        check = self._rolled()
        if check is None:
            return
        kinds = ("reroll", "energy_after", "level")
        since = []
        for e in self.app.store.log(limit=500):
            if e.data.get("event") == "roll":
                break
            since.append(e)
        standing = [e for e in since if e.data.get("event") in kinds and not e.undone]
        moves = [s for s in check.steps if s.kind in kinds]
        assert len(standing) == len(moves)

    @invariant()
    def a_rolled_check_and_the_sheet_agree_on_energy(self):
        check = self.builder.check
        if check is not None and self.builder.phase != "setup":
            stored = int(self.app.store.character(self.me.id).ide4.energy)
            assert stored == check.pool_after


CheckRequests.TestCase.settings = settings(max_examples=4, stateful_step_count=15, deadline=None)
TestCheckRequests = CheckRequests.TestCase

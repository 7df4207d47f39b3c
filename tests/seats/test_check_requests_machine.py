"""A state machine over a player's requests about the GM's open IDE4 check, on the seats' hub
and the table engine without the GM's app: sent (about the open check or a stale one),
accepted, refused, the GM rolling and opening a new check, the GM's own keys on the rolled
check (a reroll, energy after, «p») as the engine's steps, Ctrl+Z and Ctrl+Y.

Replaces the pilot test ``tests/seats/test_check_machine.py::TestCheckRequests`` (the same
rules, the same invariants; it drove the GM's app only to reach the builder's steps, which
are the table engine's).

Invariants: no request stays half-written; a refusal has a reason; the Журнал holds a line
only for a request the GM accepted, once; a request the seat sees «undone» is one whose line
is undone; while a check is rolled, the sheet's energy is what that check left, and its steps
after the d100 are the lines since its roll that stand (the GM's and the seat's alike).
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rules import ide4
from tests.hypo import examples
from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import short_folder
from tui.seats import protocol as proto
from tui.systems.ide4.check import steps

KINDS = {
    "expanded": {},
    "energy_before": {"when": "before", "amount": 1},
    "energy_after": {"when": "after", "amount": 1},
    "reroll": {},
}


class CheckRequests(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._folder_cm = short_folder()
        folder = self._folder_cm.__enter__()
        self._tmp = tempfile.mkdtemp(prefix="kcheck")
        self.gm = HeadlessGM(folder, Path(self._tmp) / "c.json", system="ide4")
        self.hub = self.gm.hub
        self.store = self.gm.store
        self.me = next(c for c in self.store.characters() if c.kind == "pc")
        self.gm.open_check(self.me.id)  # the GM opens the Проверка tab, chooses her
        self.seen: list[str] = []  # the check ids the seat was offered

    def teardown(self) -> None:
        self.gm.close()
        self._folder_cm.__exit__(None, None, None)
        shutil.rmtree(self._tmp, ignore_errors=True)

    @property
    def phase(self) -> str:
        return str(self.gm.table.state.phase)

    def offer(self) -> dict:
        offer = self.gm.offer(self.me.name)
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
            self.hub.accept(rid)
            assert self.hub.requests[rid].status in ("accepted", "refused")

    def _send(self, kind: str, stale: bool) -> str:
        offer = self.offer()
        check = self.seen[0] if stale and self.seen else offer.get("id")
        payload = dict(KINDS[kind])
        if check:
            payload["check"] = check
        real = "energy" if kind.startswith("energy") else kind
        rid = uuid.uuid4().hex[:12]
        item = self.gm.receive_now(self.me.name, proto.Request(rid, real, self.me.id, payload))
        if stale and check != offer.get("id"):  # an old check: refused with what became of it
            assert item.status == "refused"
            assert "брошена" in item.reason or "закрыта" in item.reason
        return rid

    @rule(data=st.data())
    def accept(self, data):
        waiting = self.hub.pending()
        if waiting:
            self.hub.accept(data.draw(st.sampled_from(waiting)).request.id)

    @rule(data=st.data())
    def refuse(self, data):
        waiting = self.hub.pending()
        if waiting:
            self.hub.refuse(data.draw(st.sampled_from(waiting)).request.id, "нет")

    @rule()
    def gm_rolls(self):
        if self.phase == "setup":
            self.gm.step(steps.roll)

    @rule()
    def gm_opens_a_new_check(self):
        if self.phase != "setup":
            self.gm.step(steps.new_check)

    # -- the GM's own keys: the same steps (tui/systems/ide4/check/steps.py) ----------------

    def _rolled(self):
        check = self.gm.table.view().check
        ok = check is not None and self.phase == "result" and check.status == "rolled"
        return check if ok else None

    @rule()
    def gm_rerolls(self):
        check = self._rolled()
        if check is None:
            return
        sources = [m.source for m in ide4.allowed_moves(check) if m.kind == "reroll" and m.allowed]
        if sources:
            self.gm.step(steps.reroll, sources[0])

    @rule()
    def gm_spends_energy_after(self):
        check = self._rolled()
        if check is not None and ide4.energy_after_refusal(check, 1) is None:
            self.gm.step(steps.energy_after, 1)

    @rule()
    def gm_demands_expanded(self):
        """«p», offered unless the player has demanded the expanded check already."""
        state = self.gm.table
        if not (state.state.inputs.player_demand and state.view().level == "expanded"):
            self.gm.step(steps.demand_expanded)

    @rule()
    def undo(self):
        self.gm.undo()

    @rule()
    def redo(self):
        self.gm.redo()

    @invariant()
    def nothing_half_written(self):
        assert all(p.status != "writing" for p in self.hub.requests.values())

    @invariant()
    def refusals_have_reasons(self):
        assert all(p.status != "refused" or p.reason for p in self.hub.requests.values())

    @invariant()
    def lines_only_for_accepted_requests_once(self):
        lines = [e for e in self.store.log(limit=500) if "request" in e.data]
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
        for e in self.store.log(limit=500):
            if e.data.get("event") == "roll":
                break
            since.append(e)
        standing = [e for e in since if e.data.get("event") in kinds and not e.undone]
        moves = [s for s in check.steps if s.kind in kinds]
        assert len(standing) == len(moves)

    @invariant()
    def a_rolled_check_and_the_sheet_agree_on_energy(self):
        check = self.gm.table.view().check
        if check is not None and self.phase != "setup":
            stored = int(self.store.character(self.me.id).ide4.energy)
            assert stored == check.pool_after


CheckRequests.TestCase.settings = settings(
    max_examples=examples(8), stateful_step_count=15, deadline=None
)
TestCheckRequests = CheckRequests.TestCase

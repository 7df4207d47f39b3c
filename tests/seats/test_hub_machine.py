"""A state machine of the GM's requests: sent, sent again, accepted, refused, undone, redone.

Invariants: a request id is held once; a decided request never waits again; a refusal has
a reason; the campaign changes only by what the GM accepted (each accept one undo step).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rules.drevo.sheet import DrevoSheet
from tests.hypo import examples
from tests.seats.headless_gm import Lines
from tests.seats.helpers import short_folder
from tui.seats import protocol as proto
from tui.seats.hub import Hub
from tui.seats.rules_check import DOC
from tui.store import LogEntry, Store


class FakeApp:
    """What the hub uses of the GM's app: the store, its write path (here synchronous)."""

    #: No open check here: the requests of the fight and the sheets only.
    check_table = None

    def __init__(self, store: Store) -> None:
        self.store = store
        self.notes: list[str] = []

    def write(self, job, done=None, *, failed=None):
        from rules.errors import RulesError
        from tui.store import StoreError

        try:
            result = job()
        except (RulesError, StoreError) as err:
            if failed:
                failed(err)
            return
        if done:
            done(result)

    def run_worker(self, work, **_kw):
        asyncio.new_event_loop().run_until_complete(work)

    async def ensure_pane(self, tab):
        """The Бой tab as the fight's requests read it: no fight is ever started here."""
        from types import SimpleNamespace

        from rules.encounter import Encounter

        doc = self.store.get_doc("encounter")
        enc = Encounter.from_dict(doc) if doc else Encounter()
        return SimpleNamespace(encounter=enc, _pairing=lambda: None)

    @property
    def journal(self):
        """The Журнал an accepted request writes through (its store, its entries): this."""
        return self

    def entry(self, kind, actor, text, data):
        return LogEntry(uuid.uuid4().hex, "2026-01-01T10:00:00", kind, actor, text, data)

    def notify(self, message, **_kw):
        self.notes.append(message)


class Requests(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._folder_cm = short_folder()
        folder = self._folder_cm.__enter__()
        self.store = Store.open(Path(folder) / "c.json")
        self.app = FakeApp(self.store)
        self.hub = Hub(self.app, folder)
        self.writer = Lines()
        self.loop = asyncio.new_event_loop()
        chars = self.store.characters()
        self.mine = next(c for c in chars if c.name == "Милава").id
        self.other = next(c for c in chars if c.name == "Горан Рябой").id
        self.sent: list[str] = []
        self.decided: dict[str, str] = {}

    def teardown(self) -> None:
        self.loop.close()
        self.store.close()
        self._folder_cm.__exit__(None, None, None)

    def _receive(self, message: dict) -> None:
        line = proto.encode(message)
        self.loop.run_until_complete(self.hub._received("Милава", self.writer, line))

    @rule(
        own=st.booleans(),
        kind=st.sampled_from(["note", "fate", "energy", "risk", "reroll", "expanded"]),
        about_check=st.booleans(),
    )
    def send(self, own, kind, about_check):
        rid = uuid.uuid4().hex[:12]
        payload = {
            "note": {"text": "след"},
            "fate": {"use": "before"},
            "energy": {"when": "before", "amount": 5},
        }.get(kind, {})
        if about_check and kind != "note":  # a check the GM's app does not have open
            payload = {**payload, "check": "c" + rid}
        character = self.mine if own else self.other
        self._receive(proto.Request(rid, kind, character, payload).to_dict())
        self.sent.append(rid)
        item = self.hub.requests[rid]
        if not own or kind not in ("note", "fate"):  # another's; not a choice of Древо
            assert item.status == "refused" and item.reason
        elif kind == "fate" and about_check:  # no open check of hers (no Проверка tab here)
            assert item.status == "refused" and "нет открытой проверки" in item.reason

    @rule(data=st.data())
    def send_again(self, data):
        if not self.sent:
            return
        rid = data.draw(st.sampled_from(self.sent))
        if rid not in self.hub.requests:
            return
        before = (self.hub.requests[rid].status, len(self.hub.requests))
        item = self.hub.requests[rid]
        self._receive(item.request.to_dict())
        assert (self.hub.requests[rid].status, len(self.hub.requests)) == before

    @rule(data=st.data())
    def accept(self, data):
        waiting = self.hub.pending()
        if not waiting:
            return
        item = data.draw(st.sampled_from(waiting))
        steps = len(self.store.undo_labels(100))
        self.hub.accept(item.request.id)
        if item.request.kind == "fate":  # it applies in a fight's dice only: none here
            assert item.status == "pending" and "не применить" in item.reason
            assert len(self.store.undo_labels(100)) == steps  # nothing written
            return
        assert item.status == "accepted"
        assert len(self.store.undo_labels(100)) == steps + 1  # one step
        self.decided[item.request.id] = "accepted"

    @rule(data=st.data())
    def refuse(self, data):
        waiting = self.hub.pending()
        if not waiting:
            return
        item = data.draw(st.sampled_from(waiting))
        before = self.store.get_doc(DOC)
        self.hub.refuse(item.request.id, "нет")
        assert self.store.get_doc(DOC) == before
        self.decided[item.request.id] = "refused"

    @rule()
    def undo(self):
        self.store.undo()

    @rule()
    def redo(self):
        self.store.redo()

    @invariant()
    def decided_stay_decided(self):
        for rid, status in self.decided.items():
            if rid in self.hub.requests:
                assert self.hub.requests[rid].status == status

    @invariant()
    def refusals_have_reasons(self):
        for item in self.hub.requests.values():
            assert item.status != "refused" or item.reason

    @invariant()
    def the_campaign_holds_only_accepted_requests(self):
        doc = self.store.get_doc(DOC) or {}
        accepted = {r["id"] for r in doc.get("accepted", [])}
        assert accepted <= {rid for rid, s in self.decided.items() if s == "accepted"}


Requests.TestCase.settings = settings(
    max_examples=examples(10), stateful_step_count=12, deadline=None
)
TestRequests = Requests.TestCase


lines = st.one_of(
    st.binary(max_size=200),
    st.fixed_dictionaries(
        {"v": st.just(1), "type": st.sampled_from(["request", "write", "hello", "stats"])},
        optional={
            "id": st.sampled_from(["q1", "r-2"]) | st.text(max_size=70),
            "kind": st.sampled_from([*proto.KINDS, "write_file", "set"]),
            "character": st.text(max_size=40),
            "payload": st.dictionaries(
                st.sampled_from(
                    ["text", "use", "action", "amount", "path", "check", "price", "die", "source"]
                ),
                st.none() | st.integers() | st.text(max_size=30),
                max_size=4,
            ),
        },
    ).map(lambda m: proto.encode(m)),
)


def asked_ids(batch: list[bytes]) -> set[object]:
    """The ids of the ``stats`` questions among the lines a seat sent (those that parse)."""
    ids = set()
    for line in batch:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("type") == "stats":
            ids.add(message.get("id"))
    return ids


@settings(max_examples=examples(60), deadline=None)
@given(batch=st.lists(lines, max_size=6))
@example(batch=[proto.encode({"v": 1, "type": "stats", "id": "q1"})])
@example(batch=[proto.encode({"v": 1, "type": "stats", "id": "0"})])  # found: any id is asked
def test_fuzz_no_line_a_seat_sends_writes_the_campaign_or_crashes_the_hub(batch):
    """Malformed or hostile lines: each gets an answer or a refusal; the file never changes.
    A ``stats`` question is answered with the players' sessions (the seat reads them back) or
    refused with a reason; it holds no request."""
    from tui.seats.stats import sessions_from

    with short_folder() as folder:
        store = Store.open(Path(folder) / "c.json")
        app = FakeApp(store)
        hub = Hub(app, folder)
        writer = Lines()
        before = store.path.read_bytes()
        loop = asyncio.new_event_loop()
        try:
            for line in batch:
                loop.run_until_complete(hub._received("Милава", writer, line + b"\n"))
        finally:
            loop.close()
        assert store.path.read_bytes() == before
        assert all(p.status in ("pending", "refused") for p in hub.requests.values())
        for answer in map(proto.decode, writer.lines):
            assert answer["type"] in ("error", "stats", "state"), answer
            if answer["type"] == "error":
                assert any("а" <= ch <= "я" for ch in answer["reason"].lower())
            if answer["type"] == "stats":  # the answer to a question asked, by its id
                assert answer["id"] in asked_ids(batch), answer
                sessions_from(answer)
        asked = sum(b'"type": "stats"' in line or b'"type":"stats"' in line for line in batch)
        assert len(hub.requests) <= len(batch) - asked
        store.close()


def test_fate_without_points_is_refused():
    """«Судьба» with no point left: refused at once, with the reason (nothing waits)."""

    with short_folder() as folder:
        store = Store.open(Path(folder) / "c.json")
        milava = next(c for c in store.characters() if c.name == "Милава")
        store.upsert_character(milava.edit_sheet(DrevoSheet, fate=0))
        hub = Hub(FakeApp(store), folder)
        loop = asyncio.new_event_loop()
        request = proto.Request("f1", "fate", milava.id, {"use": "before", "note": ""})
        loop.run_until_complete(hub._received("Милава", Lines(), proto.encode(request.to_dict())))
        loop.close()
        assert hub.requests["f1"].status == "refused"
        assert hub.requests["f1"].reason == "Судьбы не осталось."
        store.close()

"""A seat's request about a character who has left the party (removed here, in another window
or by `kubik party remove`) is refused with the reason, so the GM's Ctrl+P list holds only what
can still be accepted (a playtest's leftover: the list kept «Милава: заметка» after she was
removed, and Enter on it could only fail)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from tests.seats.helpers import short_folder
from tests.seats.test_hub_machine import FakeApp, FakeWriter
from tui.seats import protocol as proto
from tui.seats.hub import Hub
from tui.store import Store


def test_a_removed_characters_pending_request_is_refused_with_the_reason() -> None:
    with short_folder() as folder:
        store = Store.open(Path(folder) / "c.json")
        hub = Hub(FakeApp(store), folder)
        loop = asyncio.new_event_loop()
        try:
            chars = {c.name: c.id for c in store.characters()}
            rid, other = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
            for request_id, seat, name in (
                (rid, "Милава", "Милава"),
                (other, "Горан Рябой", "Горан Рябой"),
            ):
                request = proto.Request(request_id, "note", chars[name], {"text": "след"})
                line = proto.encode(request.to_dict())
                loop.run_until_complete(hub._received(seat, FakeWriter(), line))
            assert {p.request.id for p in hub.pending()} == {rid, other}

            store.delete_character(chars["Милава"])
            hub._changed()  # what the store's notice runs on the hub's loop
            assert [p.request.id for p in hub.pending()] == [other]  # Горан's still waits
            gone = hub.requests[rid]
            assert gone.status == "refused"
            assert gone.reason == "Персонажа больше нет в партии."
            assert any("больше нет в партии" in line for line in hub.log)

            store.undo()  # she is back: the refusal stands, as every decided request does
            hub._changed()
            assert hub.requests[rid].status == "refused"
        finally:
            loop.close()
            store.close()

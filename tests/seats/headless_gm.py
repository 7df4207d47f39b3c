"""The GM's side of the seats without the GM's app: the tests of what the hub does with a
seat's request (applied, refused with a reason, one undo step) run here, one level below the
screens.

:class:`HeadlessGM` holds what the app composes for its seats (``KubikApp.__init__``): the
campaign's store, the app's own :class:`~tui.services.Services` (its writer, Журнал, undo and
redo, open check) with the writes run at once and in order, and a :class:`~tui.seats.hub.Hub`
over them. The hub may listen on its real Unix socket (:meth:`HeadlessGM.start`, on the
running loop: a :class:`~tests.seats.helpers.RawSeat` or a seat's app talks to it) or take a
request line directly (:meth:`HeadlessGM.receive`). The GM's open check is driven through
the table engine's steps, as the Проверка tab's keys drive it (:meth:`HeadlessGM.open_check`,
:meth:`HeadlessGM.step`); the store's changes are followed as the tab follows them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from random import Random
from typing import Any

from tests.conftest import frozen_clock
from tui.seats import protocol as proto
from tui.seats.hub import Hub
from tui.seats.tokens import seats_dir
from tui.services import Services
from tui.store import Store


def _run_now(work: Callable[[], object], **_kwargs: Any) -> None:
    """The app's ``run_worker`` for a thread's work, run here and now (writes stay in order)."""
    work()


class Lines:
    """A stand-in for a seat's connection: keeps what the hub writes to it."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.lines.append(data)

    async def drain(self) -> None:
        return None


class HeadlessGM:
    """The campaign, the app's services and the seats' hub, without Textual's app."""

    def __init__(self, folder: Path, campaign: Path, system: str = "drevo", seed: int = 7):
        from tui.app import usable_tables

        self.store = Store.open(campaign, system=system)
        #: The GM's toasts (the hub's log lines are told here).
        self.notes: list[str] = []
        self.services = Services(
            self.store,
            rng=Random(seed),
            clock=frozen_clock,
            notify=lambda message, **_kw: self.notes.append(message),
            run_worker=_run_now,
            on_ui=lambda fn: fn(),
            call_from_thread=lambda fn, *args: fn(*args),
            post=lambda _message: None,
            copy=lambda _text: None,
            check_tables=usable_tables,
        )
        self.hub = Hub(self.services, seats_dir(folder))
        self.services.seat_hub = self.hub
        self.store.subscribe(self._follow)

    # -- the seats -----------------------------------------------------------------------------

    async def start(self) -> Hub:
        """Listen for seats on the running loop (as the GM's app does once started)."""
        await self.hub.start()
        return self.hub

    def close(self) -> None:
        self.hub.close()
        self.store.close()

    async def receive(self, seat: str, request: proto.Request) -> Any:
        """``seat`` sends ``request`` (its line, as read from the socket); return its item."""
        line = proto.encode({"v": proto.VERSION, "type": "request", **request.to_dict()})
        await self.hub._received(seat, Lines(), line)
        return self.hub.requests[request.id]

    def receive_now(self, seat: str, request: proto.Request) -> Any:
        """:meth:`receive` outside a running loop."""
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(self.receive(seat, request))
        finally:
            loop.close()

    def shown(self, seat: str, request_id: str) -> dict[str, Any]:
        """The request as ``seat``'s state shows it (its status: pending, accepted, refused,
        undone)."""
        requests = self.hub._state(seat)["requests"]
        return next(r for r in requests if r["id"] == request_id)

    def send(self, me: Any, rid: str, kind: str, payload: dict[str, Any]) -> Any:
        """``me``'s seat (a player character's, named after it) sends a request about ``me``."""
        return self.receive_now(me.name, proto.Request(rid, kind, me.id, payload))

    def status(self, me: Any, rid: str) -> str:
        """The status ``me``'s seat shows for its request ``rid``."""
        return self.shown(me.name, rid)["status"]

    def offer(self, seat: str) -> dict[str, Any]:
        """What ``seat``'s state says of the GM's open check ({} for none)."""
        return self.hub._state(seat)["state"].get("check") or {}

    # -- the GM's keys, one level down -----------------------------------------------------------

    @property
    def table(self) -> Any:
        """The campaign's open check (the Проверка tab's)."""
        return self.services.check_table

    def open_check(self, character_id: str) -> Any:
        """The GM has the Проверка tab on screen and chooses ``character_id`` there (the
        builder's ``on_show`` and ``choose_character``)."""
        table = self.table
        table.opened = True
        if str(table.state.phase) != "setup":
            table.new()
        self.step(table.engine.steps.set_input, "character", character_id)
        return table

    def step(self, step: Callable[..., Any], *args: Any) -> Any:
        """The GM's key on the open check: the engine's step, written now; the seats are
        told (the builder's ``_seat_changed``). Returns the outcome (refused or made)."""
        outcome = self.table.run(step, *args)
        self.hub.check_changed()
        return outcome

    def undo(self) -> None:
        """Ctrl+Z (the app's history: one undo step)."""
        self.services.history.undo()

    def redo(self) -> None:
        """Ctrl+Y."""
        self.services.history.redo()

    def _follow(self) -> None:
        """The store changed: the open check is the store's (the builder's ``set_characters``)."""
        table = self.services._check_table
        if table is not None and table.store is self.store:
            table.follow()


@asynccontextmanager
async def serving(folder: Path, campaign: Path, system: str = "drevo") -> AsyncIterator[HeadlessGM]:
    """A :class:`HeadlessGM` listening for seats on the running loop while in the block."""
    gm = HeadlessGM(folder, campaign, system)
    await gm.start()
    try:
        yield gm
    finally:
        gm.close()

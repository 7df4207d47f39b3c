"""Shared helpers of the seat tests: a fight in the declaration phase, and a raw seat client."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from rules.encounter import Combatant, Encounter
from tui.seats import protocol as proto
from tui.seats.tokens import seat_key, seats_dir, socket_path


@contextmanager
def short_folder():
    """A private folder with a short path (a Unix socket's path is at most ~100 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="kseat", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start_fight(store, first: str = "Отряд") -> Encounter:
    """Put the demo party against the NPCs and start round 1 (``first`` side declares first)."""
    enc = Encounter()
    for c in store.characters():
        enc = enc.with_combatant(
            Combatant(c.id, c.name, "Отряд" if c.kind == "pc" else "Противники")
        )
    sides = [first, "Противники" if first == "Отряд" else "Отряд"]
    enc = enc.with_initiative(sides, [])
    store.put_doc("encounter", enc.to_dict(), label="Бой: инициатива")
    return enc


def by_name(store, name: str):
    return next(c for c in store.characters() if c.name == name)


def seat_token(folder: Path, campaign: Path, seat: str) -> str:
    """The key of ``seat`` in ``campaign`` (made, as ``kubik seat`` makes it, if it has none)."""
    from tui.store import Store

    store = Store.open(campaign, read_only=True)
    try:
        return seat_key(seats_dir(folder), store.path, store.characters(), seat)
    finally:
        store.close()


class RawSeat:
    """A seat speaking the protocol by hand (what any program on the machine could send)."""

    def __init__(self, folder: Path, campaign: Path, seat: str, token: str | None = None):
        self.path = socket_path(folder / "seats", campaign)
        self.token = token if token is not None else seat_token(folder, campaign, seat)
        self.seat = seat
        self.messages: list[dict] = []

    async def connect(self, hello: dict | None = None) -> dict:
        self.reader, self.writer = await asyncio.open_unix_connection(str(self.path), limit=1 << 22)
        msg = hello or {"v": 1, "type": "hello", "seat": self.seat, "token": self.token}
        await self.send_raw(proto.encode(msg))
        return await self.read()

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, **request) -> None:
        await self.send_raw(proto.encode({"v": 1, "type": "request", **request}))

    async def read(self, timeout: float = 5) -> dict:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            return {}
        message = json.loads(line)
        self.messages.append(message)
        return message

    async def until(self, predicate, timeout: float = 5) -> dict:
        """Read state lines until one satisfies ``predicate``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.read(max(end - loop.time(), 0.01))
            if message.get("type") == "state" and predicate(message):
                return message
            if not message:
                raise AssertionError("the GM's app closed the connection")

    async def seen(self, predicate, timeout: float = 5) -> dict:
        """The newest state line read so far if it satisfies ``predicate``, else the next one
        that does (a change and its Журнал line may arrive in one state line)."""
        states = [m for m in self.messages if m.get("type") == "state"]
        if states and predicate(states[-1]):
            return states[-1]
        return await self.until(predicate, timeout)

    def close(self) -> None:
        self.writer.close()


async def until_seen(pilots, check, what: str, tries: int = 300):
    """Let the apps of ``pilots`` run until ``check()`` holds (each pausing 10 ms a try)."""
    for _ in range(tries):
        if check():
            return
        for p in pilots:
            await p.pause(0.01)
    raise AssertionError(f"never happened: {what}")


async def started(pilot, app):
    """Wait until the GM's app listens for seats; return its hub."""
    for _ in range(200):
        hub = app.services.seat_hub
        if hub is not None and hub._server is not None:
            return hub
        await pilot.pause(0.02)
    raise AssertionError("the seats did not start")


def gm_app(folder, campaign_path, system: str = "drevo"):
    """The GM's app on ``campaign_path`` (seeded dice, frozen clock, a new campaign of
    ``system``) serving seats from ``folder``."""
    from tests.conftest import frozen_clock
    from tui.app import make_app
    from tui.seats.tokens import seats_dir

    app = make_app(campaign_path, system=system, seed=7, clock=frozen_clock)
    app.seats_folder = seats_dir(folder)
    return app


def first_pc(store):
    """The campaign's first player character."""
    return next(c for c in store.characters() if c.kind == "pc")


def check_offer(message) -> dict:
    """What a seat's state says of the GM's open check of its character ({} for none)."""
    return message["state"].get("check") or {}


async def open_check(pilot, app, character_id: str):
    """The GM opens the Проверка tab and chooses ``character_id`` there; return the builder."""
    await pilot.press("3")
    builder = await app.ensure_pane("check")
    builder.choose_character(character_id)
    await pilot.pause()
    return builder

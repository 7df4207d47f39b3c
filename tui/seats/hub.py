"""The GM's side of the seats: a Unix socket served inside the GM's app, and the requests.

The server is an asyncio server on the app's own loop (no thread, nothing blocks the UI).
It listens only on a Unix socket in the private seats folder (0600 in a 0700 folder);
nothing listens on the network. A seat must say its name and its key first — a key of this
campaign, of a PC still in the party (:mod:`tui.seats.tokens`), checked again at every change
and every request, so a revoked one ends its connection; then it
gets :func:`tui.seats.state.seat_state` after every change and may send requests about
its own characters, or ask for the players' luck stats (:mod:`tui.seats.stats`, counted
only when asked). A request waits until the GM accepts (one key, or «всегда принимать»
for its kind), edits or refuses it; an accepted one is one undo step written through the
app's write worker (:func:`tui.seats.rules_check.apply`). Anything else a seat sends gets
a refusal with a reason, and the GM's app logs a line (:attr:`Hub.log`, and a notice).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.errors import RulesError
from tui import registry
from tui.seats import protocol as proto
from tui.seats.check import Later, applies_to_check, apply_to_check, check_refusal, offer_for
from tui.seats.rules_check import apply, refusal
from tui.seats.state import own_characters, public_names, seat_of, seat_state
from tui.seats.tokens import (
    MAX_SOCKET_PATH,
    forget_stale,
    keep_only,
    keys_path,
    read_keys,
    revoke,
    socket_path,
)

if TYPE_CHECKING:
    from tui.services import Services

#: Requests kept per seat (pending or decided), newest last; more pending ones are refused.
MAX_REQUESTS = 20
#: A seat that stops reading is dropped once this much waits for it (bytes).
MAX_BACKLOG = 1 << 20
#: A line the GM was told is not told again within this many seconds.
QUIET_SECONDS = 300.0
#: What a seat whose key was revoked gets before the GM's app hangs up.
REVOKED = {
    "v": proto.VERSION,
    "type": "refused",
    "reason": "Ключ места отозван: попросите у ведущего новую ссылку.",
}


#: The reason a waiting request is refused when its character has left the party.
GONE = "Персонажа больше нет в партии."


@dataclass
class Pending:
    """A request and what became of it."""

    seat: str
    request: proto.Request
    status: str = "pending"
    reason: str = ""
    #: The fight's round when it came (0: no fight): a seat shows this round's requests.
    round: int = 0

    def to_dict(self, names: dict[str, str] | None = None) -> dict[str, Any]:
        return {
            "id": self.request.id,
            "kind": self.request.kind,
            "character": self.request.character,
            "text": proto.describe(self.request.kind, self.request.payload, names),
            "status": self.status,
            "reason": self.reason,
            "round": self.round,
        }


class Hub:
    """Serve the seats of the app's campaign; hold their requests until the GM decides."""

    def __init__(
        self, services: Services, folder: Path, *, on_change: Callable[[], None] | None = None
    ):
        self.services = services
        self.folder = folder
        self.campaign = services.store.path
        self.path = socket_path(folder, self.campaign)
        self.requests: dict[str, Pending] = {}
        #: Kinds the GM accepts without asking («всегда принимать»).
        self.always: set[str] = set()
        #: Refusals of the boundary and bad input, newest last (the GM's log lines).
        self.log: list[str] = []
        self._writers: dict[str, set[asyncio.StreamWriter]] = {}
        #: The key each connected seat greeted with (checked again at every change).
        self._keys: dict[asyncio.StreamWriter, str] = {}
        self._keys_read: tuple[Any, dict[str, str]] = (None, {})
        self._players: tuple[str, ...] | None = None
        self._server: asyncio.AbstractServer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_change = on_change or (lambda: None)
        self._sending = False
        #: When each line of :meth:`_note` was last told (monotonic seconds).
        self._told: dict[str, float] = {}

    # -- lifetime -------------------------------------------------------------------------

    async def start(self) -> None:
        """Drop the keys of characters gone and of campaigns gone, and listen; raises OSError
        with a Russian reason."""
        if len(os.fsencode(self.path)) > MAX_SOCKET_PATH:
            raise OSError(f"Путь сокета мест слишком длинный: {self.path}")
        forget_stale(self.folder)
        self._drop_keys_of_the_gone()
        if self.path.exists():
            if await _alive(self.path):
                raise OSError("Места этой кампании уже обслуживает другое окно kubik.")
            self.path.unlink()
        self._loop = asyncio.get_running_loop()
        old = os.umask(0o177)  # the socket is born 0600
        try:
            self._server = await asyncio.start_unix_server(
                self._serve, path=str(self.path), limit=proto.MAX_LINE + 2
            )
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        self.services.store.subscribe(self._store_changed)

    def close(self) -> None:
        """Stop listening, drop the seats (they keep their requests and reconnect later)."""
        with contextlib.suppress(Exception):
            self.services.store.unsubscribe(self._store_changed)
        if self._server is not None:
            self._server.close()
            for writers in self._writers.values():
                for w in writers:
                    w.close()
            self._server = None
            with contextlib.suppress(OSError):
                self.path.unlink()

    # -- the GM's decisions -----------------------------------------------------------------

    def pending(self) -> list[Pending]:
        return [p for p in self.requests.values() if p.status == "pending"]

    def accept(self, request_id: str, request: proto.Request | None = None) -> None:
        """Accept (with the GM's edit, if given): one undo step, written by the app's worker.

        A choice about the GM's open check (IDE4 energy, rerolls, the expanded check,
        Старатели Risk, Судьба outside a fight) is the builder's own step
        (:mod:`tui.seats.check`): refused with the reason when the check or the rules refuse
        it, pending while it waits for the GM's part (Risk's price, a shift's points).
        Судьба in a Древо fight applies as the Бой tab's own step (the system's
        ``fight_requests``: :mod:`tui.systems.drevo.seats`);
        where it cannot apply now, the request stays pending with the reason (the GM's log
        line, the seat's panel) and nothing is written.
        """
        item = self.requests.get(request_id)
        if item is None or item.status != "pending":
            return
        if request is not None:
            item.request = request
        item.status, item.reason = "writing", ""

        def done(_label: str) -> None:
            item.status, item.reason = "accepted", ""
            self._changed(item.seat)

        def failed(err: Exception) -> None:
            item.status, item.reason = "refused", str(err)
            self._changed(item.seat)

        if applies_to_check(self.services, item.request):  # the open check's own step
            try:
                apply_to_check(self.services, item.seat, item.request, done, failed)
            except Later as err:  # the GM adds a price or the points, then accepts again
                item.status, item.reason = "pending", str(err)
                self._note(f"Заявка места {item.seat}: {err}")
                self._changed(item.seat)
            except RulesError as err:
                failed(err)
            except Exception as err:  # noqa: BLE001 - a request must never stay «writing»
                failed(RulesError(f"Сейчас не применить: {err}"))
            return
        fight = self._fight_requests()
        if fight is not None and fight.applies_in_fight(self.services, item.request):
            self._accept_in_fight(fight, item, done, failed)
            return
        self.services.write(
            lambda: apply(self.services.journal, item.seat, item.request), done, failed=failed
        )

    def _fight_requests(self) -> Any:
        """The module applying a request in the campaign's fight (``System.fight_requests``),
        or None: its system has none."""
        name = registry.get(self.services.store.campaign.system).fight_requests
        return registry.load(name) if name else None

    def _accept_in_fight(
        self,
        fight: Any,
        item: Pending,
        done: Callable[[str], None],
        failed: Callable[[Exception], None],
    ) -> None:
        why = refusal(self.services.store, item.seat, item.request)
        if why:
            failed(RulesError(why))
            return
        try:  # the engine's step on the stored fight, written by the app's writer
            why = fight.apply_in_fight(self.services, item.seat, item.request, done, failed)
        except Exception as err:  # noqa: BLE001 - a request must never stay «writing»
            why = f"Сейчас не применить: {err}"
        if why:
            item.status, item.reason = "pending", why
            self._note(f"Заявка места {item.seat}: {why}")
            self._changed(item.seat)

    def check_changed(self) -> None:
        """The GM's open check changed (another character, rolled, a choice made): the seats
        see its new offer."""
        self._changed()

    def refuse(self, request_id: str, reason: str) -> None:
        item = self.requests.get(request_id)
        if item is None or item.status != "pending":
            return
        from tui.sanitize import clean_line

        item.status, item.reason = "refused", clean_line(reason).strip() or "Ведущий отказал."
        self._changed(item.seat)

    def always_accept(self, kind: str) -> None:
        """Accept this kind from now on without asking (and the ones waiting now)."""
        self.always.add(kind)
        for item in self.pending():
            if item.request.kind == kind:
                self.accept(item.request.id)

    # -- serving ------------------------------------------------------------------------------

    def _note(self, line: str) -> None:
        """Log ``line`` and tell the GM (a toast), unless the same line was told in the last
        ``QUIET_SECONDS``: a refused seat tries again every few seconds while it stays open."""
        self.log.append(line)
        del self.log[:-100]
        now = time.monotonic()
        if now - self._told.get(line, -QUIET_SECONDS) < QUIET_SECONDS:
            return
        self._told = {k: t for k, t in self._told.items() if now - t < QUIET_SECONDS}
        self._told[line] = now
        with contextlib.suppress(Exception):
            self.services.notify(line, severity="warning", timeout=6)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seat = ""
        try:
            seat = await self._greet(reader, writer)
            if not seat:
                return
            self._writers.setdefault(seat, set()).add(writer)
            await self._send(writer, self._state(seat))
            while True:
                line = await _line(reader)
                if line is None:
                    return
                if not line.endswith(b"\n"):
                    self._note(f"Место {seat}: отказано — слишком длинное сообщение.")
                    return
                if not self._key_valid(seat, self._keys.get(writer, "")):
                    self._note(f"Место {seat}: ключ отозван — отключено.")
                    await self._send(writer, REVOKED)
                    return
                await self._received(seat, writer, line)
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            if seat:
                self._writers.get(seat, set()).discard(writer)
            self._keys.pop(writer, None)
            writer.close()

    async def _greet(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> str:
        try:
            line = await asyncio.wait_for(_line(reader), 10)
        except TimeoutError:
            line = None
        if line is None:
            return ""
        try:
            hello = proto.parse_hello(proto.decode(line))
        except proto.ProtocolError as err:
            self._note(f"Места: отказано в подключении — {err}")
            await self._send(writer, {"v": proto.VERSION, "type": "refused", "reason": str(err)})
            return ""
        if not self._key_valid(hello.seat, hello.token):
            reason = f"Места «{hello.seat}» нет или ключ неверен."
            self._note(f"Места: отказано в подключении — {reason}")
            await self._send(writer, {"v": proto.VERSION, "type": "refused", "reason": reason})
            return ""
        self._keys[writer] = hello.token
        await self._send(writer, {"v": proto.VERSION, "type": "welcome", "seat": hello.seat})
        return hello.seat

    # -- keys: one campaign, one character (tui/seats/tokens.py) ---------------------------------

    def _key_owner(self, key: str) -> str | None:
        """Return the id of the character ``key`` belongs to (the file is read when changed)."""
        from tui.store.storage import file_sig

        sig = file_sig(keys_path(self.folder, self.campaign))
        if sig is None or sig != self._keys_read[0]:
            self._keys_read = (sig, read_keys(self.folder, self.campaign) if sig else {})
        import hmac  # here, not at start: it loads hashlib (tui/seats/tokens.py, _sha256_hex)

        owner = None
        for character, known in self._keys_read[1].items():
            if hmac.compare_digest(known.encode(), key.encode()):
                owner = character
        return owner

    def _key_valid(self, seat: str, key: str) -> bool:
        """Whether ``key`` is a key of this campaign, of a PC still in the party whose seat is
        ``seat`` (a key outlives neither its character nor a new key the GM made)."""
        owner = self._key_owner(key)
        c = self.services.store.character(owner) if owner else None
        return c is not None and c.kind == "pc" and seat_of(c).casefold() == seat.casefold()

    def _drop_keys_of_the_gone(self) -> None:
        """Revoke the keys of characters no longer among the party's players."""
        players = tuple(c.id for c in self.services.store.characters() if c.kind == "pc")
        if players != self._players:
            self._players = players
            with contextlib.suppress(OSError):
                keep_only(self.folder, self.campaign, players)

    def _refuse_for_the_gone(self) -> None:
        """Refuse the waiting requests about characters no longer in the party (removed here,
        in another window, from the shell): the GM's list holds only what can be accepted. A
        refusal stands should an undo bring the character back, as every decision does."""
        waiting = self.pending()
        if not waiting:
            return
        present = {c.id for c in self.services.store.characters()}
        for item in waiting:
            if item.request.character not in present:
                item.status, item.reason = "refused", GONE
                self._note(f"Место {item.seat}: заявка отклонена — персонажа больше нет в партии.")

    def new_key(self, seat: str) -> int:
        """Revoke the keys of ``seat`` (the GM's «новый ключ»): its links open nothing, its
        connections end; the next ``kubik seat`` / ``kubik serve --seat`` makes a new key.
        Returns how many keys went."""
        mine = own_characters(self.services.store.characters(), seat)
        gone = revoke(self.folder, self.campaign, [c.id for c in mine])
        self._changed()
        return len(gone)

    async def _received(self, seat: str, writer: asyncio.StreamWriter, line: bytes) -> None:
        try:
            message = proto.decode(line)
            asked = proto.parse_stats(message) if message.get("type") == "stats" else None
            request = proto.parse_request(message) if asked is None else None
        except proto.ProtocolError as err:
            self._note(f"Место {seat}: отказано — {err}")
            await self._send(writer, {"v": proto.VERSION, "type": "error", "reason": str(err)})
            return
        if request is None:
            await self._answer_stats(writer, str(asked))
            return
        known = self.requests.get(request.id)
        if known is not None:  # sent again after a reconnect: the same request, once
            if known.seat != seat:
                self._note(f"Место {seat}: отказано — чужой номер заявки.")
                await self._send(
                    writer, {"v": proto.VERSION, "type": "error", "reason": "Чужой номер заявки."}
                )
                return
            await self._send(writer, self._state(seat))
            return
        fight = self.services.store.get_doc("encounter") or {}
        item = Pending(seat, request, round=int(fight.get("round", 0) or 0))
        why = refusal(self.services.store, seat, request)
        if not why and applies_to_check(self.services, request):
            try:
                why = check_refusal(self.services, request)
            except Later:
                why = ""  # it waits for the GM's part
        if not why and len([p for p in self.pending() if p.seat == seat]) >= MAX_REQUESTS:
            why = "Слишком много заявок ждут ведущего."
        if why:
            item.status, item.reason = "refused", why
            self._note(f"Место {seat}: отказано — {why}")
        self.requests[request.id] = item
        self._trim(seat)
        if item.status == "pending" and request.kind in self.always:
            self.accept(request.id)
        self._changed(seat)

    async def _answer_stats(self, writer: asyncio.StreamWriter, asked: str) -> None:
        """Answer a seat's ``stats``: the players' luck stats, counted now (in a thread)."""
        from tui.seats.stats import MAX_ANSWER, players_stats  # lazy: it loads the ledger

        store = self.services.store
        try:
            entries = list(reversed(store.log()))
            stats = await asyncio.to_thread(players_stats, entries, store.characters())
            line = proto.encode({"v": proto.VERSION, "type": "stats", "id": asked, **stats})
            if len(line) > MAX_ANSWER:
                raise ValueError("Журнал слишком велик для места; удача — в kubik --view")
        except Exception as err:  # noqa: BLE001 - the seat gets the reason, the hub goes on
            reason = f"Удача бросков не посчитана: {err}"
            await self._send(
                writer, {"v": proto.VERSION, "type": "error", "id": asked, "reason": reason}
            )
            return
        writer.write(line)
        with contextlib.suppress(ConnectionError):
            await writer.drain()

    def _trim(self, seat: str) -> None:
        mine = [k for k, p in self.requests.items() if p.seat == seat and p.status != "pending"]
        for key in mine[:-MAX_REQUESTS]:
            del self.requests[key]

    def _state(self, seat: str) -> dict[str, Any]:
        state = seat_state(self.services.store, seat)
        state["check"] = offer_for(self.services, {doc["id"] for doc in state["mine"]})
        store = self.services.store
        names = public_names(store)
        requests = [p.to_dict(names) for p in self.requests.values() if p.seat == seat]
        undone = {
            e.data["request"]
            for e in store.log(limit=200)
            if e.undone and isinstance(e.data.get("request"), str)
        }
        for r in requests:
            if r["status"] == "writing":
                r["status"] = "pending"
            elif r["status"] == "accepted" and r["id"] in undone:
                r["status"] = "undone"  # the GM took the step back (Ctrl+Z)
        return {"v": proto.VERSION, "type": "state", "state": state, "requests": requests}

    async def _send(self, writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
        writer.write(proto.encode(message))
        with contextlib.suppress(ConnectionError):
            await writer.drain()

    def _changed(self, seat: str | None = None) -> None:
        """A request changed (or the campaign): tell the seats, and the GM's indicator."""
        self._refuse_for_the_gone()
        self._on_change()
        seats = [seat] if seat else list(self._writers)
        for s in seats:
            for writer in list(self._writers.get(s, ())):
                with contextlib.suppress(Exception):
                    if not self._key_valid(s, self._keys.get(writer, "")):
                        self._note(f"Место {s}: ключ отозван — отключено.")
                        writer.write(proto.encode(REVOKED))
                        writer.close()
                        self._writers[s].discard(writer)
                        continue
                    if writer.transport.get_write_buffer_size() > MAX_BACKLOG:
                        self._note(f"Место {s}: не читает — отключено.")
                        writer.close()
                        self._writers[s].discard(writer)
                        continue
                    writer.write(proto.encode(self._state(s)))

    def _store_changed(self) -> None:
        self._drop_keys_of_the_gone()  # a character left the party: its key goes with it
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._changed)


async def _line(reader: asyncio.StreamReader) -> bytes | None:
    """Return the next line, None at the end; a line over the limit ends the connection."""
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError:
        return None
    except asyncio.LimitOverrunError:
        return b"-"  # not a line: the caller refuses it and hangs up
    return line


async def _alive(path: Path) -> bool:
    try:
        _r, w = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 1)
    except (OSError, TimeoutError):
        return False
    w.close()
    return True

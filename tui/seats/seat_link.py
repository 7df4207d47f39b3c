"""The seat's link to the GM's app: the Unix-socket session, what comes over it, what goes.

The seat says hello with its token; the GM's app welcomes it (or refuses it: the reason stands
in the title, and the seat drops all it was shown — its character may have left the party, so
nothing of it stays on screen and nothing can be asked) and then sends a ``state`` line at
each change, a ``stats`` line when the seat asked, an ``error`` line when it refused one. A
request the player makes is kept in the outbox until the GM decides it, and sent again, by the
same id, after a dropped connection.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

from tui.seats import protocol as proto

RETRY_SECONDS = 1.0


class LinkMixin:
    """``SeatApp``'s connection to the GM's app (mixed into ``SeatApp``)."""

    # Set by SeatApp.__init__.
    seat: str
    socket: Path | None
    token: str
    state: dict[str, Any]
    requests: list[dict[str, Any]]
    outbox: dict[str, dict[str, Any]]
    link: str
    #: The GM's app refused the seat (it shows nothing of its own and asks nothing).
    refused: bool = False
    _writer: asyncio.StreamWriter | None
    # Provided by DrawMixin, StatsMixin and Textual's App.
    redraw: Any
    _draw_title: Any
    stats_answered: Any
    _stats_refused: Any
    _stats_dropped: Any
    _refresh_stats: Any
    notify: Any

    async def _link(self) -> None:
        """Stay connected: on a drop, try again every second; re-send what is undecided."""
        while True:
            try:
                await self._session()
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                pass
            self._writer = None
            self._stats_dropped()
            if self.refused:
                await asyncio.sleep(RETRY_SECONDS * 3)
            else:
                self._set_link("нет связи — переподключаюсь…")  # one line at 80 columns
                await asyncio.sleep(RETRY_SECONDS)

    async def _session(self) -> None:
        assert self.socket is not None
        reader, writer = await asyncio.open_unix_connection(
            str(self.socket), limit=proto.MAX_STATE_LINE + 2
        )
        try:
            hello = {"v": proto.VERSION, "type": "hello", "seat": self.seat, "token": self.token}
            writer.write(proto.encode(hello))
            await writer.drain()
            line = await reader.readline()
            if not line:
                return
            answer = proto.decode(line, proto.MAX_STATE_LINE)
            if answer.get("type") != "welcome":
                self._refuse(answer)
                return
            self._writer = writer
            self.refused = False
            self._set_link("на связи с ведущим")
            for message in list(self.outbox.values()):  # the same ids: the GM keeps them once
                writer.write(proto.encode(message))
            await writer.drain()
            while line := await reader.readline():
                message = proto.decode(line, proto.MAX_STATE_LINE)
                if message.get("type") == "state":
                    self.apply_state(message)
                elif message.get("type") == "stats":
                    self.stats_answered(message)
                elif message.get("type") == "error":
                    self._error(message)
                elif message.get("type") == "refused":  # the key was revoked: it hangs up
                    self._refuse(message)
                    return
        finally:
            writer.close()

    def _refuse(self, message: dict[str, Any]) -> None:
        """The GM's app refused the seat: say why, and drop what it showed — its character's
        sheet, the fight's form, the requests no one will decide now (a refused seat sends
        nothing; welcomed again, it is sent the state and its requests anew)."""
        self.refused = True
        self.state = {"campaign": self.state.get("campaign", "")}
        self.requests = []
        self.outbox.clear()
        self._set_link(f"отказано: {message.get('reason', '')}")
        self.redraw()

    def _error(self, message: dict[str, Any]) -> None:
        reason = str(message.get("reason", ""))
        self._stats_refused(message.get("id"))
        self.notify(reason, severity="error", markup=False)

    def _set_link(self, text: str) -> None:
        self.link = text
        self._draw_title()

    def send(self, kind: str, character: str, payload: dict[str, Any]) -> None:
        """Send a request (kept until the GM decides; sent again after a reconnect); not from
        a refused seat (a prompt opened before the refusal is answered with why)."""
        if self.refused:
            self.notify(
                f"Заявка не отправлена: {self.link}", severity="error", timeout=8, markup=False
            )
            return
        try:
            payload = proto.check_payload(kind, payload)
        except proto.ProtocolError as err:
            self.notify(str(err), severity="error", markup=False)
            return
        rid = uuid.uuid4().hex
        message = proto.Request(rid, kind, character, payload).to_dict()
        self.outbox[rid] = message
        self.requests.append(
            {"id": rid, "kind": kind, "character": character, "status": "pending",
             "text": proto.describe(kind, payload, self._names()), "reason": ""}
        )  # fmt: skip
        if self._writer is not None:
            self._writer.write(proto.encode(message))
        self.redraw()

    def _names(self) -> dict[str, str]:
        """The targets' names as the seat was given them (for its own pending lines)."""
        offer = self.state.get("declare") or {}
        return {cid: name for name, cid in offer.get("targets", [])}

    def apply_state(self, message: dict[str, Any]) -> None:
        """Show a ``state`` line of the GM's app."""
        self.state = message.get("state") or {}
        known = {r["id"] for r in message.get("requests") or []}
        waiting = [r for r in self.requests if r["id"] in self.outbox and r["id"] not in known]
        self.requests = [*(message.get("requests") or []), *waiting]
        for r in self.requests:
            if r["status"] != "pending":
                self.outbox.pop(r["id"], None)
        self.redraw()
        self._refresh_stats()

"""``kubik seat NAME``: the players' view, and a private panel for the player's characters.

The seat never opens the campaign: it reads only what the GM's app sends it over the private
Unix socket (:mod:`tui.seats.hub`) — the players' view and its own sheets. During the Древо
declarations, when its character declares, it shows the Бой tab's own
:class:`~tui.widgets.combat.drevo_forms.DeclarationForm` (the same legality checks); the other
choices the rules give a player are one key each. Every choice is a request the GM accepts,
edits or refuses; the panel shows each one's state and the GM's reason. A request not yet
decided is kept here and sent again, by the same id, after a dropped connection. ``s`` asks
the GM's app for the luck stats the players' view shows and opens the view's own stats screen
with them (asked again while it is open and the Журнал changes).
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Static

from tui.crash import CrashReporting
from tui.sanitize import plain
from tui.seats import protocol as proto
from tui.store.codec import character_from_doc
from tui.widgets.combat.drevo_forms import DeclarationForm
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.table import Table
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.log.pane import UNDONE_MARK, UNDONE_STYLE, clock_text

RETRY_SECONDS = 1.0
#: The choices of each kind: (key, action, label) — one key per request.
CHOICE_KEYS = {
    "fate": [("f", "fate('before')", "Судьба +4"), ("p", "fate('shift')", "Судьба ±")],
    "energy": [("e", "energy('before')", "Энергия до"), ("E", "energy('after')", "Энергия после")],
    "expanded": [("x", "expanded", "Развёрнутая")],
    "reroll": [("r", "reroll", "Переброс")],
    "risk": [("k", "risk", "Риск")],
    "note": [("n", "note", "Заметка ведущему")],
}


class SeatApp(CrashReporting, App[None]):
    """A player's seat: what the players see, plus requests about their own characters."""

    TITLE = "kubik — место игрока"
    ENABLE_COMMAND_PALETTE = False
    DEFAULT_CSS = """
    #seat-title { height: 1; background: $panel; padding: 0 1; }
    #seat-top { height: auto; max-height: 7; }
    #seat-party { width: 1fr; height: auto; max-height: 7; }
    #seat-combat { width: 1fr; height: auto; max-height: 7; padding: 0 1; }
    #seat-mine { height: auto; border-top: solid $accent; padding: 0 1; }
    #seat-requests { height: auto; max-height: 4; }
    #seat-log { height: 1fr; border-top: solid $primary; overflow-x: hidden; }
    """
    BINDINGS = [
        Binding("enter", "declare", "Объявить", id="seat-declare", priority=True),
        *[
            Binding(k, a, label, id=f"seat-{a.split('(')[0]}-{k}")
            for c in CHOICE_KEYS.values()
            for k, a, label in c
        ],
        Binding("ctrl+q", "quit", "Выход", id="seat-quit", priority=True),
        Binding("s", "stats", "Удача", id="seat-stats", tooltip="Удача бросков: статистика"),
    ]

    def __init__(self, seat: str, socket: Path | None, token: str, *, connect: bool = True) -> None:
        super().__init__()
        self.seat = seat
        self.socket = socket
        self.token = token
        self.connect = connect
        self.state: dict[str, Any] = {}
        self.requests: list[dict[str, Any]] = []
        #: Requests sent and not yet decided (id → message): sent again after a reconnect.
        self.outbox: dict[str, dict[str, Any]] = {}
        self.link = "подключение…"
        self._offer: dict[str, Any] | None = None
        self._writer: asyncio.StreamWriter | None = None
        #: The luck stats asked of the GM's app: the question's id (None: none waits), whether
        #: its answer opens the screen (the player's «s») or only refreshes it, and the Журнал
        #: lines the seat had when it asked (another question once they change).
        self._stats_asked: str | None = None
        self._stats_open = False
        self._stats_seen: object = None
        quiet_animations(self)

    def compose(self) -> ComposeResult:
        yield Static(id="seat-title")
        with Horizontal(id="seat-top"):
            yield DataTable(id="seat-party", cursor_type="none", show_cursor=False)
            yield Static(id="seat-combat")
        with Vertical(id="seat-mine"):
            yield Static(id="seat-head")
            yield DeclarationForm(id="seat-form")
            yield Static(id="seat-requests")
        yield Table(
            id="seat-log", cursor_type="none", show_cursor=False, zebra_stripes=True, wrap_last=True
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#seat-log", DataTable).add_columns("Время", "Кто", "Бросок")
        for table in self.query(DataTable):
            table.can_focus = False
        self.query_one(DeclarationForm).display = False
        self.redraw()
        if self.connect:
            self.run_worker(self._link(), group="seat-link", exit_on_error=False)
        guard_size(self, self.size)

    def on_resize(self, event: events.Resize) -> None:
        guard_size(self, event.size)

    # -- the connection -----------------------------------------------------------------------

    async def _link(self) -> None:
        """Stay connected: on a drop, try again every second; re-send what is undecided."""
        while True:
            try:
                await self._session()
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                pass
            self._writer = None
            self._stats_dropped()
            if self.link.startswith("отказано"):
                await asyncio.sleep(RETRY_SECONDS * 3)
            else:
                self._set_link("нет связи с ведущим — переподключаюсь…")
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
                self._set_link(f"отказано: {answer.get('reason', '')}")
                return
            self._writer = writer
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
        finally:
            writer.close()

    def _error(self, message: dict[str, Any]) -> None:
        reason = str(message.get("reason", ""))
        if message.get("id") in (None, self._stats_asked):  # (an older GM's: no id)
            self._stats_asked, self._stats_open = None, False
        self.notify(reason, severity="error", markup=False)

    def _set_link(self, text: str) -> None:
        self.link = text
        self._draw_title()

    def send(self, kind: str, character: str, payload: dict[str, Any]) -> None:
        """Send a request (kept until the GM decides; sent again after a reconnect)."""
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

    # -- what the GM sends --------------------------------------------------------------------

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

    def _names(self) -> dict[str, str]:
        """The targets' names as the seat was given them (for its own pending lines)."""
        offer = self.state.get("declare") or {}
        return {cid: name for name, cid in offer.get("targets", [])}

    def mine(self) -> list[Any]:
        return [character_from_doc(doc) for doc in self.state.get("mine") or []]

    def redraw(self) -> None:
        state = self.state
        party = self.query_one("#seat-party", DataTable)
        columns = tuple(state.get("columns") or ["Персонаж"])
        if columns != getattr(self, "_columns", None):
            party.clear(columns=True)
            party.add_columns(*columns)
            self._columns = columns
        party.clear()
        from tui.view import fit_last_column  # the view's wrapping: nothing cut at 80 columns

        rows = [(str(i), tuple(row)) for i, row in enumerate(state.get("party") or [])]
        width = party.size.width or self.size.width // 2
        for _i, cells in fit_last_column(columns, rows, width):
            party.add_row(*map(Text, cells), height=None)
        self.query_one("#seat-combat", Static).update(state.get("combat") or "")
        log = self.query_one("#seat-log", DataTable)
        log.clear()
        for at, actor, text, secret, undone in state.get("log") or []:
            if undone:
                cells = (clock_text(at), actor, UNDONE_MARK + text)
                log.add_row(*(Text(c, style=UNDONE_STYLE) for c in cells))
            else:
                style = "italic" if secret else ""
                log.add_row(clock_text(at), Text(actor), Text(text, style=style))
        self._draw_mine()
        self._draw_title()
        self.refresh_bindings()

    def _draw_title(self) -> None:
        name = plain(self.state.get("campaign", ""))
        self.query_one("#seat-title", Static).update(
            f"[b]{name}[/b] · место [b]{plain(self.seat)}[/b] · {plain(self.link)}"
        )

    def _declaring(self) -> bool:
        offer = self.state.get("declare")
        if not offer:
            return False
        return not any(
            r["kind"] == "declare" and r["status"] == "pending" and r["character"] == offer["actor"]
            for r in self.requests
        )

    def _draw_mine(self) -> None:
        mine = self.mine()
        names = ", ".join(c.name for c in mine) or "нет персонажа — спросите ведущего"
        head = f"[b]Мои:[/b] {plain(names)}"
        form = self.query_one(DeclarationForm)
        offer = self.state.get("declare")
        if offer and self._declaring():
            if offer != self._offer:
                actor = next(c for c in mine if c.id == offer["actor"])
                form.display = True
                form.prepare(actor, list(offer["weapons"]), [tuple(t) for t in offer["targets"]])
                self._offer = offer
                self.call_after_refresh(self._focus_form)
        else:
            form.display = False
            self._offer = None
            if offer:
                head += " · заявка отправлена — ждём ведущего"
        check = self.state.get("check")
        if check and not offer:
            who = next((c.name for c in mine if c.id == check["character"]), "?")
            stage = "брошена" if check.get("stage") == "rolled" else "до броска"
            choices = "; ".join(check.get("choices") or []) or "выбора нет"
            head += f"\n[b]Проверка у ведущего:[/b] {plain(who)}, {stage} · {plain(choices)}"
        self.query_one("#seat-head", Static).update(head)
        lines = []
        for r in self.requests[-3:]:
            status = proto.STATUS_NAMES.get(r["status"], r["status"])
            line = f"{r['text']} — {status}"
            if r.get("reason"):
                line += f": {r['reason']}"
            lines.append(line)
        self.query_one("#seat-requests", Static).update(Text("\n".join(lines)))

    def _focus_form(self) -> None:
        form = self.query_one(DeclarationForm)
        if form.display:
            first = form.query("Stepper").first()
            first.focus()

    # -- keys ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if is_too_small(self):
            return action == "quit"  # the size notice: only the way out
        kinds = proto.SYSTEM_KINDS.get(self.state.get("system", ""), ("note",))
        if action == "declare":  # not in a dialog: its Enter is its own
            return self._declaring() and len(self.screen_stack) == 1
        if action in ("quit", "focus_step"):
            return True
        if self._stats_screen() is not None:
            return False  # open already; the choices wait behind it
        if action == "stats":
            return not isinstance(self.focused, Input)  # «s» is a letter in a text field
        if isinstance(self.focused, Input):
            return False  # letters are typed there
        kind = {"fate": "fate", "energy": "energy", "expanded": "expanded", "reroll": "reroll",
                "risk": "risk", "note": "note"}.get(action)  # fmt: skip
        if kind not in kinds or not self.mine():
            return False
        system = self.state.get("system", "")
        if kind in proto.CHECK_KINDS.get(system, ()) and not (system == "drevo" and kind == "fate"):
            check = self.state.get("check")  # only what the GM's open check offers now
            if not check or kind not in check.get("kinds", ()):
                return False
            if kind == "energy":  # before the roll, or after it: the check's stage says
                return (parameters[:1] == ("before",)) == (check.get("stage") == "before")
            return True
        return True

    def action_stats(self) -> None:
        """Ask the GM's app for the luck stats the players' view shows; open them on answer."""
        if self._writer is None:
            self.notify(
                "Нет связи с ведущим: удача бросков откроется, когда место снова будет на связи "
                "(в заголовке — «на связи с ведущим»); тогда нажмите s ещё раз.",
                severity="error",
                timeout=8,
                markup=False,
            )
            return
        self._ask_stats(open_screen=True)

    def _ask_stats(self, *, open_screen: bool) -> None:
        if self._writer is None:
            return
        self._stats_asked = uuid.uuid4().hex
        self._stats_open = open_screen or self._stats_open
        self._stats_seen = self.state.get("log")
        self._writer.write(
            proto.encode({"v": proto.VERSION, "type": "stats", "id": self._stats_asked})
        )

    def _stats_screen(self) -> Any:
        """Return the stats screen when it is on top, else None."""
        screen = self.screen
        return screen if type(screen).__name__ == "StatsScreen" else None

    def stats_answered(self, message: dict[str, Any]) -> None:
        """Show the GM's answer: open the stats screen (after «s») or refresh the open one."""
        if self._stats_asked is None or message.get("id") != self._stats_asked:
            return  # an older question's answer
        self._stats_asked = None
        from tui.seats.stats import StatsError, sessions_from  # lazy: it loads the ledger
        from tui.widgets.log.stats import StatsScreen

        try:
            sessions = sessions_from(message)
        except StatsError as err:
            self._stats_open = False
            self.notify(f"Удача бросков не показана: {err}", severity="error", markup=False)
            return
        screen = self._stats_screen()
        if screen is not None:
            screen.feed(sessions)
        elif self._stats_open:
            self.push_screen(StatsScreen(sessions=sessions))
        self._stats_open = False
        self._refresh_stats()  # the Журнал changed while the GM counted

    def _refresh_stats(self) -> None:
        """The stats screen is open and the Журнал changed: ask again (one question at a time)."""
        if self._stats_asked is not None or self._stats_screen() is None:
            return
        if self.state.get("log") != self._stats_seen:
            self._ask_stats(open_screen=False)

    def _stats_dropped(self) -> None:
        """The connection dropped: a question waiting for its answer fails, with the reason."""
        asked, wanted = self._stats_asked, self._stats_open
        self._stats_asked, self._stats_open = None, False
        if asked is not None and wanted:
            self.notify(
                "Связь с ведущим прервалась: удача бросков не получена. "
                "Нажмите s, когда место снова будет на связи.",
                severity="error",
                timeout=8,
                markup=False,
            )
        elif self._stats_screen() is not None:
            self.notify(
                "Нет связи с ведущим: удача показана на момент разрыва.",
                severity="warning",
                timeout=8,
                markup=False,
            )

    def action_focus_step(self, delta: int) -> None:
        if delta > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_declare(self) -> None:
        offer = self.state.get("declare")
        if not offer or not self._declaring():
            return
        form = self.query_one(DeclarationForm)
        from rules.errors import RulesError

        try:
            d = form.declaration(offer["actor"])
        except RulesError as err:
            form.show_problem(str(err), False)
            return
        problem, _ = form.problem()
        if problem:  # the same check as the GM's form; only the GM may make an exception
            form.show_problem(problem + " (исключение — только ведущий)", False)
            return
        payload = {
            "action": d.action,
            "target": d.target,
            "weapon": d.weapon,
            "distance": d.distance,
            "turns": d.turns,
            "note": d.note,
        }
        self.send("declare", offer["actor"], payload)

    @on(Input.Submitted, "#declare-note")
    def _note_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_declare()

    def _who(self) -> str | None:
        mine = self.mine()
        offer = self.state.get("declare")
        if offer:
            return str(offer["actor"])
        check = self.state.get("check")
        if check:
            return str(check["character"])
        return mine[0].id if mine else None

    def _about_check(self, kind: str, who: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Name the GM's open check in a request about it (the GM refuses it once that check
        is rolled or closed)."""
        check = self.state.get("check")
        kinds = proto.CHECK_KINDS.get(self.state.get("system", ""), ())
        if check and check["character"] == who and kind in kinds:
            return {**payload, "check": check["id"]}
        return payload

    def action_fate(self, use: str) -> None:
        who = self._who()
        if not who:
            return
        if use == "before":
            self.send("fate", who, self._about_check("fate", who, {"use": use}))
            return
        from tui.widgets.common.prompt import TextPrompt

        def typed(text: str | None) -> None:  # the shift's points, signed
            if text is None:
                return
            try:
                points = int(text.strip().replace("−", "-"))
            except ValueError:
                points = 0
            if not 1 <= abs(points) <= 3:
                self.notify("Сдвиг Судьбой: от −3 до +3, не 0.", severity="error", markup=False)
                return
            self.send("fate", who, self._about_check("fate", who, {"use": use, "points": points}))

        self.push_screen(
            TextPrompt("Сдвиг Судьбой после броска: очки", "например: +1 или −2"), typed
        )

    def action_reroll(self) -> None:
        who = self._who()
        if who:
            self.send("reroll", who, self._about_check("reroll", who, {}))

    def action_expanded(self) -> None:
        who = self._who()
        if who:
            self.send("expanded", who, self._about_check("expanded", who, {}))

    def _ask_number(self, title: str, kind: str, extra: dict[str, Any]) -> None:
        from tui.widgets.common.prompt import TextPrompt

        who = self._who()
        if not who:
            return

        def typed(text: str | None) -> None:
            if text is None:
                return
            try:
                amount = int(text.strip())
            except ValueError:
                self.notify("Введите целое число.", severity="error", markup=False)
                return
            self.send(kind, who, self._about_check(kind, who, {**extra, "amount": amount}))

        self.push_screen(TextPrompt(title, "например: 2"), typed)

    def action_energy(self, when: str) -> None:
        title = f"Энергия {proto.ENERGY_WHEN[when]}: сколько кубов (номинала)"
        self._ask_number(title, "energy", {"when": when})

    def action_risk(self) -> None:
        """Ask for Risk on the failed check (the GM names its price)."""
        who = self._who()
        if who:
            self.send("risk", who, self._about_check("risk", who, {}))

    def action_note(self) -> None:
        from tui.widgets.common.prompt import TextPrompt

        who = self._who()
        if not who:
            return

        def typed(text: str | None) -> None:
            if text:
                self.send("note", who, {"text": text})

        self.push_screen(TextPrompt("Заметка ведущему", "например: Милава ищет следы"), typed)

    def on_key(self, event: events.Key) -> None:
        if event.key != "q" or isinstance(self.focused, Input) or self._declaring():
            return
        if len(self.screen_stack) == 1:  # on the stats screen «q» closes it, as in the view
            self.exit()

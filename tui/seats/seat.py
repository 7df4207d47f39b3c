"""``kubik seat NAME``: the players' view, and a private panel for the player's characters.

The seat never opens the campaign: it reads only what the GM's app sends it over the private
Unix socket (:mod:`tui.seats.hub`) — the players' view and its own sheets. In a fight of
exchanges (Древо's), when its character declares, it shows the form the campaign's system
declares with (``System.declaration_form``: the Бой tab's own, the same legality checks),
mounted once the GM's state names that system; the other choices the rules give a player are
one key each. Every choice is a request the GM accepts,
edits or refuses; the panel shows each one's state and the GM's reason. A request not yet
decided is kept here and sent again, by the same id, after a dropped connection. ``s`` asks
the GM's app for the luck stats the players' view shows and opens the view's own stats screen
with them (asked again while it is open and the Журнал changes).

The app composes, binds and routes; its parts are mixed in, one concept each:
:mod:`~tui.seats.seat_link` (the connection, the state in, the requests out),
:mod:`~tui.seats.seat_draw` (the view and the panel, drawn from the state),
:mod:`~tui.seats.seat_choices` (the choice keys and the declaration) and
:mod:`~tui.seats.seat_stats` (the luck stats of «s»).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Static

from tui.crash import CrashReporting
from tui.seats.seat_choices import CHOICE_KEYS, ChoicesMixin
from tui.seats.seat_draw import DrawMixin
from tui.seats.seat_link import LinkMixin
from tui.seats.seat_stats import StatsMixin
from tui.store.codec import character_from_doc
from tui.store.models import Character, sheet_kind
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.table import Table
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.log.pane import LOG_COLUMNS


class SeatApp(LinkMixin, DrawMixin, ChoicesMixin, StatsMixin, CrashReporting, App[None]):
    """A player's seat: what the players see, plus requests about their own characters."""

    TITLE = "kubik — место игрока"
    ENABLE_COMMAND_PALETTE = False
    DEFAULT_CSS = """
    #seat-title { height: auto; max-height: 2; background: $panel; padding: 0 1; }
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
            # A system that declares (Древо) gets its form here with the first state (seat_draw)
            yield Static(id="seat-requests")
        yield Table(
            id="seat-log", cursor_type="none", show_cursor=False, zebra_stripes=True, wrap_last=True
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#seat-log", DataTable).add_columns(*LOG_COLUMNS)
        for table in self.query(DataTable):
            table.can_focus = False
        self.redraw()
        if self.connect:
            self.run_worker(self._link(), group="seat-link", exit_on_error=False)
        guard_size(self, self.size)

    def on_resize(self, event: events.Resize) -> None:
        guard_size(self, event.size)

    # -- the state, read --------------------------------------------------------------------

    def mine(self) -> list[Character]:
        """The seat's own characters, read with the campaign's system's sheet."""
        system = sheet_kind(self.state.get("system")).SYSTEM
        return [character_from_doc(doc, system) for doc in self.state.get("mine") or []]

    def _declaring(self) -> bool:
        offer = self.state.get("declare")
        if not offer:
            return False
        return not any(
            r["kind"] == "declare" and r["status"] == "pending" and r["character"] == offer["actor"]
            for r in self.requests
        )

    # -- keys ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if is_too_small(self):
            return action == "quit"  # the size notice: only the way out
        if action == "declare":  # not in a dialog: its Enter is its own
            return self._declaring() and len(self.screen_stack) == 1
        if action in ("quit", "focus_step"):
            return True
        if self.refused:
            return False  # no character of its own now: nothing to ask, nothing to answer
        if self._stats_screen() is not None:
            return False  # open already; the choices wait behind it
        if action == "stats":
            return not isinstance(self.focused, Input)  # «s» is a letter in a text field
        if isinstance(self.focused, Input):
            return False  # letters are typed there
        return self._choice_applies(action, parameters)

    def action_focus_step(self, delta: int) -> None:
        if delta > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    @on(Input.Submitted, "#declare-note")
    def _note_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_declare()

    def on_key(self, event: events.Key) -> None:
        if event.key != "q" or isinstance(self.focused, Input) or self._declaring():
            return
        if len(self.screen_stack) == 1:  # on the stats screen «q» closes it, as in the view
            self.exit()

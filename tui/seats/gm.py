"""The seats in the GM's app: the indicator of waiting requests and the dialog that decides.

``attach(app)`` starts the :class:`~tui.seats.hub.Hub` when the app has a ``seats_folder``
(``kubik`` sets it; a test gives a temporary one). Ctrl+P opens :class:`RequestsScreen`:
Enter accepts, «e» edits (the note, an energy's dice, a shift's points, Risk's price) then
accepts (Enter on a Risk without its price asks for it), «r» refuses
with a reason the player sees, «w» accepts this kind from now on («всегда принимать»), «k»
revokes a seat's key (its links open nothing; the next ``kubik serve --seat`` prints a new one).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tui.services import services
from tui.words import plural

if TYPE_CHECKING:  # the hub loads the fight's rules: after the first screen
    from tui.seats.hub import Hub

INDICATOR = "seat-indicator"


def hub_of(app: App[Any]) -> Hub | None:
    """The seats' hub the app's services hold (only a :class:`Hub` is ever put there)."""
    return cast("Hub | None", services(app).seat_hub)


def attach(app: App[Any], folder: Path | None, *, view_only: bool) -> None:
    """Start serving seats if the app has a seats folder and may write the campaign."""
    lent = services(app)
    if folder is None or view_only or lent.store.read_only:
        return
    indicator = Static(id=INDICATOR)
    indicator.display = False
    indicator.styles.height = 1
    indicator.styles.background = "darkorange"
    indicator.styles.color = "black"
    indicator.styles.padding = (0, 1)
    from tui.widgets.common.keybar import KeyBar

    bars = app.query(KeyBar)
    app.mount(indicator, before=bars.first() if bars else None)  # a line above the key bar

    async def start() -> None:
        from tui.seats.hub import Hub

        hub = Hub(lent, folder, on_change=lambda: show_indicator(app))
        lent.seat_hub = hub
        try:
            await hub.start()
        except OSError as err:
            lent.seat_hub = None
            app.notify(f"Места игроков не открыты: {err}", severity="error", timeout=10)

    app.call_after_refresh(lambda: app.run_worker(start(), group="seats", exit_on_error=False))


def detach(app: App[Any]) -> None:
    hub = hub_of(app)
    if hub is not None:
        hub.close()


def show_indicator(app: App[Any]) -> None:
    hub = hub_of(app)
    try:
        indicator = app.query_one(f"#{INDICATOR}", Static)
    except Exception:  # noqa: BLE001 - the app is closing
        return
    waiting = len(hub.pending()) if hub else 0
    indicator.display = waiting > 0
    count = plural(waiting, "заявка", "заявки", "заявок")
    indicator.update(f"Игроки ждут решения: {count} · Ctrl+P — заявки игроков")
    screen = app.screen
    if isinstance(screen, RequestsScreen):
        screen.redraw()


def open_requests(app: App[Any]) -> None:
    hub = hub_of(app)
    if hub is None:
        app.notify("Места игроков не открыты (kubik seat ИМЯ подключается к kubik ведущего).")
        return
    app.push_screen(RequestsScreen(hub))


class RequestsScreen(ModalScreen[None]):
    """The players' requests: accept, edit, refuse with a reason, or always accept a kind."""

    DEFAULT_CSS = """
    RequestsScreen { align: center middle; }
    RequestsScreen > Vertical {
        width: 78; max-width: 100%; height: auto; max-height: 22; border: round $accent;
        background: $surface; padding: 0 1;
    }
    RequestsScreen DataTable { height: auto; max-height: 12; }
    RequestsScreen #requests-log { color: $text-muted; height: auto; }
    """

    BINDINGS = [
        Binding("enter", "accept", "Принять", id="requests-accept", priority=True),
        Binding("e", "edit", "Изменить", id="requests-edit"),
        Binding("r", "refuse", "Отказать", id="requests-refuse"),
        Binding("w", "always", "Всегда принимать", id="requests-always"),
        Binding(
            "k",
            "new_key",
            "Новый ключ",
            id="requests-new-key",
            tooltip="Отозвать ключ места: старые ссылки больше его не откроют",
            show=False,  # the bar is full at 80 columns (Esc fell off): «?» lists it
        ),
        Binding("escape", "dismiss(None)", "Закрыть", id="requests-close"),
    ]

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub

    def compose(self) -> ComposeResult:
        from tui.widgets.common.keybar import KeyBar

        with Vertical():
            yield Static("[b]Заявки игроков[/b]", id="requests-title")
            yield DataTable(id="requests-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="requests-log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("Игрок", "Персонаж", "Заявка")
        self.redraw()

    def redraw(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        store = self.hub.services.store
        names = {c.id: c.name for c in store.characters()}  # the GM sees every name
        rows = []
        for item in self.hub.pending():
            c = store.character(item.request.character)
            rows.append((item, c.name if c else "?", item.to_dict(names)["text"]))
        # the request wraps in what the other columns leave (at 80 columns a note was cut)
        seat_width = max([len("Игрок"), *(len(item.seat) for item, _n, _t in rows)])
        name_width = max([len("Персонаж"), *(len(name) for _i, name, _t in rows)])
        room = table.size.width or self.app.size.width - 6  # before the first layout: 80 − 6
        width = max(20, room - seat_width - name_width - 2 * 3)  # each cell's padding
        wrapped = [textwrap.wrap(text, width) or [text] for _i, _n, text in rows]
        if sum(map(len, wrapped)) > 11:  # beyond the table's 12 lines: a scrollbar takes 2
            wrapped = [textwrap.wrap(text, width - 2) or [text] for _i, _n, text in rows]
        for (item, name, _text), lines in zip(rows, wrapped, strict=True):
            table.add_row(
                Text(item.seat),
                Text(name),
                Text("\n".join(lines)),
                key=item.request.id,
                height=None,
            )
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1))
        from tui.seats.protocol import KIND_NAMES

        always = ", ".join(KIND_NAMES[k] for k in sorted(self.hub.always))
        lines = [f"Всегда принимать: {always}"] if always else []
        if not table.row_count:
            lines.insert(0, "Заявок нет.")
        lines += self.hub.log[-3:]
        self.query_one("#requests-log", Static).update(Text("\n".join(lines)))

    def _current(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value)

    def action_accept(self) -> None:
        rid = self._current()
        if rid is None:
            return
        request = self.hub.requests[rid].request
        if request.kind == "risk" and not request.payload.get("price"):
            self.action_edit()  # the rules: the GM names Risk's price before the retry
            return
        if rid is not None:
            self.hub.accept(rid)
            self.redraw()

    def action_refuse(self) -> None:
        rid = self._current()
        if rid is None:
            return
        from tui.widgets.common.prompt import TextPrompt

        def refused(reason: str | None) -> None:
            if reason is not None:
                self.hub.refuse(rid, reason)
                self.redraw()

        prompt = TextPrompt("Отказать: причина (её увидит игрок)", "например: сначала ход врага")
        self.app.push_screen(prompt, refused)

    def action_edit(self) -> None:
        rid = self._current()
        if rid is None:
            return
        item = self.hub.requests[rid]
        from tui.widgets.common.prompt import TextPrompt

        shift = item.request.kind == "fate" and item.request.payload.get("use") == "shift"
        amount = item.request.kind == "energy"
        price = item.request.kind == "risk"
        title = "Изменить: число кубов энергии" if amount else "Изменить заметку и принять"
        if shift:
            title = "Сдвиг Судьбой: очки со знаком (например +1 или −2)"
        if price:
            title = "Цена Риска (платится при любом исходе; её увидит игрок)"
        if item.request.kind == "reroll":
            title = "Источник переброса (навык, еда, спокойствие, снаряжение…) или заметка"

        def changed(text: str | None) -> None:
            if text is None:
                return
            from tui.seats.protocol import ProtocolError
            from tui.seats.rules_check import edited

            try:
                request = edited(item.request, text)
            except ProtocolError as err:
                self.app.notify(str(err), severity="error")
                return
            self.hub.accept(rid, request)
            self.redraw()

        payload = item.request.payload
        if amount or shift:  # the number to edit (a shift's points may not be asked yet)
            current = str(payload.get("amount" if amount else "points", "") or "")
        elif price:
            current = str(payload.get("price", ""))
        else:
            current = str(payload.get("text" if item.request.kind == "note" else "note", ""))
        required = amount or shift or price
        prompt = TextPrompt(title, item.to_dict()["text"], required=required, value=current)
        self.app.push_screen(prompt, changed)

    def action_always(self) -> None:
        rid = self._current()
        if rid is None:
            return
        from tui.seats.protocol import KIND_NAMES

        kind = self.hub.requests[rid].request.kind
        self.hub.always_accept(kind)
        self.app.notify(
            f"«{KIND_NAMES[kind].capitalize()}»: такие заявки теперь принимаются без вопроса."
        )
        self.redraw()

    def action_new_key(self) -> None:
        """Ask which seat's key to revoke (the one of the request under the cursor, offered)."""
        rid = self._current()
        seat = self.hub.requests[rid].seat if rid is not None else ""
        from tui.widgets.common.prompt import TextPrompt

        def revoke(name: str | None) -> None:
            if name is None:
                return
            try:
                gone = self.hub.new_key(name)
            except OSError as err:
                self.app.notify(f"Ключ не отозван: {err}", severity="error")
                return
            if not gone:
                self.app.notify(f"У места «{name}» нет ключа в этой кампании.")
                return
            self.app.notify(
                f"Ключ места «{name}» отозван: его ссылки больше не открывают место. "
                f"Новую ссылку напечатает kubik serve --seat {name}."
            )
            self.redraw()

        prompt = TextPrompt("Новый ключ места: чьё место (имя игрока или персонажа)", value=seat)
        self.app.push_screen(prompt, revoke)

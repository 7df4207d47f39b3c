"""What the seat shows, redrawn whole from the state the GM's app sent: the players' view (the
party, the fight, the Журнал) and the player's own panel — their characters, the declaration
form while one of them declares, the GM's open check of theirs, the last requests and the
GM's answers."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Static

from tui.sanitize import plain
from tui.seats import protocol as proto
from tui.seats.protocol import SeatForm, declaration_form
from tui.widgets.log.pane import UNDONE_MARK, UNDONE_STYLE, clock_text


class DrawMixin:
    """``SeatApp``'s drawing (mixed into ``SeatApp``)."""

    # Set by SeatApp.__init__.
    seat: str
    state: dict[str, Any]
    requests: list[dict[str, Any]]
    link: str
    refused: bool
    _offer: dict[str, Any] | None
    #: The form the campaign's system declares with (:meth:`_declaration_form`).
    _form: SeatForm | None = None
    _form_ready = False
    # Provided by SeatApp and Textual's App.
    query: Any
    call_later: Any
    mine: Any
    _declaring: Any
    query_one: Any
    size: Any
    call_after_refresh: Any
    refresh_bindings: Any

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

    def _draw_mine(self) -> None:
        mine = self.mine()
        names = ", ".join(c.name for c in mine) or "нет персонажа — спросите ведущего"
        if self.refused:
            names = "место больше не подключено к персонажу — спросите у ведущего новую ссылку"
        head = f"[b]Мои:[/b] {plain(names)}"
        form = self._declaration_form()
        offer = self.state.get("declare")
        if offer and self._declaring() and form is None:
            pass  # the form is being mounted: drawn again once it is
        elif offer and self._declaring() and form is not None:
            if offer != self._offer:
                actor = next(c for c in mine if c.id == offer["actor"])
                form.display = True
                form.prepare(actor, list(offer["weapons"]), [tuple(t) for t in offer["targets"]])
                self._offer = offer
                self.call_after_refresh(self._focus_form)
        else:
            if form is not None:
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
        for r in shown_requests(self.requests, int(self.state.get("round", 0) or 0)):
            status = proto.STATUS_NAMES.get(r["status"], r["status"])
            at = int(r.get("round", 0) or 0)
            line = (f"Раунд {at}: " if at else "") + f"{r['text']} — {status}"
            if r.get("reason"):
                line += f": {r['reason']}"
            lines.append(line)
        self.query_one("#seat-requests", Static).update(Text("\n".join(lines)))

    def _focus_form(self) -> None:
        form = self._declaration_form()
        if form is not None and form.display:
            first = self.query("#seat-form Stepper").first()
            first.focus()

    def _declaration_form(self) -> SeatForm | None:
        """Return the form the campaign's system declares with, once mounted; None: the
        system has none (it fights in rounds), or it is being mounted (the seat draws again
        when it is). The first state naming a system that declares mounts it, hidden."""
        found = self.query("#seat-form")
        if found:
            return self._form if self._form_ready else None
        make = declaration_form(self.state.get("system"))
        if make is None:
            return None
        form = make(id="seat-form", ask_others=False)
        form.display = False
        self._form, self._form_ready = form, False
        mounting = self.query_one("#seat-mine").mount(form, before="#seat-requests")
        self.call_later(self._form_mounted, mounting)
        return None

    async def _form_mounted(self, mounting: Awaitable[None]) -> None:
        await mounting
        self._form_ready = True
        self.redraw()


def shown_requests(requests: list[dict[str, Any]], now: int) -> list[dict[str, Any]]:
    """The seat's last three requests worth showing in round ``now``: last round's settled
    ones give way (a «принято» from round 1 beside round 2's «ждёт ведущего» read as if both
    were now); a request still waiting always shows."""
    shown = [
        r
        for r in requests
        if r["status"] == "pending" or not now or int(r.get("round", now) or 0) >= now
    ]
    return shown[-3:]

"""Risk in the Старатели builder: after a failure ``r`` shows what Risk is worth (the retry's
exact odds) and asks the GM for its price (required, paid whatever comes), or lets them forbid
it. The retry is the table engine's step (:func:`tui.systems.starately.check.steps.risk`), one
undo step with its Журнал line; a player's Risk from a seat is the same step.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from rules import starately
from tui.present.rolls import plain
from tui.systems.starately.builder.parts import MODAL_CSS
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.styled import StyledOnce


class RiskScreen(StyledOnce, ModalScreen[tuple[str, bool] | None]):
    """Ask the GM for the price of Risk (required), or let them forbid it."""

    DEFAULT_CSS = MODAL_CSS.format(name="RiskScreen")
    ENTER_TEXT = {"risk-price": "Рискнуть"}  # the key bar says what Enter does in the field
    BINDINGS = [Binding("escape", "cancel", "Отмена", id="risk-cancel")]

    def __init__(self, first: Any, worth: str = "") -> None:
        super().__init__()
        self.first = first
        self.worth = worth  # what Risk is worth: the retry's exact odds

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "[b]Риск[/b]: проверка бросается ещё раз. Цену ведущий назначает заранее, "
                "и она платится при любом исходе (потеря снаряжения, урон…). "
                "Если значимой цены нет — Риск можно запретить."
            )
            if self.worth:
                yield Static(f"[dim]{plain(self.worth.removeprefix('r — '))}[/]", id="risk-odds")
            yield ReadyInput(
                placeholder="цена, например: тратится единственная аптечка", id="risk-price"
            )
            with Horizontal():
                yield Button("Рискнуть (Enter)", id="risk-go", variant="warning")
                yield Button("Запретить", id="risk-forbid", variant="error")
                yield Button("Отмена (Esc)", id="risk-cancel")

    @on(Input.Submitted, "#risk-price")
    @on(Button.Pressed, "#risk-go")
    def _go(self) -> None:
        price = self.query_one("#risk-price", Input).value
        refusal = starately.risk_refusal(self.first, price)
        if refusal is not None:
            self.app.notify(refusal, severity="error")
            return
        self.dismiss((price, False))

    @on(Button.Pressed, "#risk-forbid")
    def _forbid(self) -> None:
        self.dismiss(("", True))

    @on(Button.Pressed, "#risk-cancel")
    def action_cancel(self) -> None:
        """Close without Risk."""
        self.dismiss(None)

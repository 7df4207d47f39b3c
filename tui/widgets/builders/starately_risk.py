"""Risk in the Старатели builder: after a failure ``r`` asks the GM for Risk's price (required,
paid whatever comes), or lets them forbid it, then rolls the failed check again.
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
from rules.errors import RulesError
from tui.widgets.builders.dicefaces import d6_faces
from tui.widgets.builders.starately_parts import MODAL_CSS, result_lines, summary


class RiskScreen(ModalScreen[tuple[str, bool] | None]):
    """Ask the GM for the price of Risk (required), or let them forbid it."""

    DEFAULT_CSS = MODAL_CSS.format(name="RiskScreen")
    ENTER_TEXT = {"risk-price": "Рискнуть"}  # the key bar says what Enter does in the field
    BINDINGS = [Binding("escape", "cancel", "Отмена", id="risk-cancel")]

    def __init__(self, first: Any) -> None:
        super().__init__()
        self.first = first

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "[b]Риск[/b]: проверка бросается ещё раз. Цену ведущий назначает заранее, "
                "и она платится при любом исходе (потеря снаряжения, урон…). "
                "Если значимой цены нет — Риск можно запретить."
            )
            yield Input(
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


class RiskMixin:
    """The Risk key of ``StaratelyBuilder``."""

    app: Any
    _last: Any
    _risk_closed: bool
    # Provided by the builder (and Textual): _show(), refresh_bindings().

    def action_risk(self) -> None:
        """Ask the GM for Risk's price, then roll the failed check again."""
        first = self._last
        if first is None:
            self.app.notify("Сначала бросьте проверку.", severity="error")
            return
        refusal = starately.risk_refusal(first, "-", forbidden=self._risk_closed)
        if refusal is not None:
            self.app.notify(refusal, severity="error")
            return
        self.app.push_screen(RiskScreen(first), self._risk_answered)

    def _risk_answered(self, answer: tuple[str, bool] | None) -> None:
        if answer is None:
            return
        price, forbidden = answer
        first = self._last
        try:
            risky = starately.roll_risk(first, price, self.app.rng, forbidden=forbidden)  # type: ignore[attr-defined]
        except RulesError as err:
            self._risk_closed = True
            self.refresh_bindings()
            self.app.notify(str(err), severity="warning" if forbidden else "error")
            return
        self._last = risky.retry
        lines = [
            f"[b]Риск[/b] — цена: {risky.price}",
            f"[dim]Первый бросок: {d6_faces(first.dice)} → {first.total}, провал[/]",
            *result_lines(risky.retry, "Повторно"),
        ]
        text = f"Риск (цена: {risky.price}): {summary(first)}; повторно: {summary(risky.retry)}"
        self._show(lines, first.check.side.name or None, text, risky.to_dict())

"""Risk in the Старатели builder: after a failure ``r`` asks the GM for Risk's price (required,
paid whatever comes), or lets them forbid it, then rolls the failed check again.

The retry is one undo step with its Журнал line — Ctrl+Z puts the failed check back (the line
is marked «отменено»), Ctrl+Y brings the same retry again. A player may ask for Risk from their
seat (:mod:`tui.seats.check`): the same refusals, the GM names the price, the same step.
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
from tui.widgets.builders.base import CheckRolled, SeatCheck, SeatLater, SpendTrail
from tui.widgets.builders.dicefaces import d6_faces
from tui.widgets.builders.starately_parts import MODAL_CSS, result_lines, summary
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.styled import StyledOnce
from tui.words import number


class RiskScreen(StyledOnce, ModalScreen[tuple[str, bool] | None]):
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


class RiskMixin:
    """The Risk key of ``StaratelyBuilder``."""

    app: Any
    _last: Any
    _risk_closed: bool
    _shown: str
    seat: SeatCheck
    _seat_trail: SpendTrail
    # Provided by the builder (and Textual): character, _show(), _shown_rolled(),
    # refresh_bindings(), query_one().

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
        self.post_message(self._risk_step(first, risky))

    def _risk_step(self, first: Any, risky: Any) -> CheckRolled:
        """Show the retry and return its line as one undo step: the GM's «r» posts it, a
        seat's accepted Risk is written by the seats' hub; Ctrl+Z puts the failed check back
        (the dice stay as rolled), Ctrl+Y brings the retry again."""
        before = self._risk_state()
        message = self._risk_shown(first, risky)
        message.step = f"Риск: {first.check.side.name or 'проверка'}"
        self._seat_trail.add(self.app, message.entry_id, before, self._risk_state())
        return message

    def _risk_shown(self, first: Any, risky: Any) -> CheckRolled:
        self._last = risky.retry
        lines = [
            f"[b]Риск[/b] — цена: {risky.price}",
            f"[dim]Первый бросок: {d6_faces(first.dice)} → {number(first.total)}, провал[/]",
            *result_lines(risky.retry, "Повторно"),
        ]
        text = f"Риск (цена: {risky.price}): {summary(first)}; повторно: {summary(risky.retry)}"
        return self._shown_rolled(lines, first.check.side.name or None, text, risky.to_dict())  # type: ignore[attr-defined]

    # -- a player's Risk from their seat ----------------------------------------------------------

    def seat_check(self) -> dict[str, Any] | None:
        """The open check as its character's seat sees it (see ``SeatCheck``)."""
        c = self.character  # type: ignore[attr-defined]
        if c is None:
            return None
        last = self._last
        risk = last is not None and not last.success and not last.risk and not self._risk_closed
        return {
            "id": self.seat.id,
            "character": c.id,
            "stage": "before" if last is None else "rolled",
            "kinds": ["risk"] if risk else [],
            "choices": ["Риск: бросить снова за цену от ведущего"] if risk else [],
        }

    def seat_closed(self, check_id: str) -> str:
        return self.seat.closed(check_id)

    def seat_refusal(self, kind: str, payload: dict[str, Any]) -> str:
        """Why a player's ``kind`` cannot apply to this check now ("" if it can); raises
        ``SeatLater`` while Risk waits for the GM's price."""
        first = self._last
        if kind != "risk":
            return "В этой проверке такой заявки нет."
        if first is None:
            return "Проверка ещё не брошена: Риск заявляют после провала."
        price = str(payload.get("price") or "")
        why = starately.risk_refusal(first, price or "-", forbidden=self._risk_closed)
        if why:
            return why
        if not price:
            raise SeatLater(
                "Цену Риска назначает ведущий: «e» — цена (или «r» — отказать), затем Enter."
            )
        return ""

    def seat_apply(self, kind: str, payload: dict[str, Any], seat: str) -> CheckRolled:
        """Roll a player's Risk like the «r» key (the price the GM named); return its line."""
        first = self._last
        risky = starately.roll_risk(first, str(payload["price"]), self.app.rng)
        return self._risk_step(first, risky)

    def _risk_state(self) -> tuple[Any, bool, str]:
        return self._last, self._risk_closed, self._shown

    def _follow_seat_trail(self) -> None:
        """Risk (the GM's or a player's) undone or redone (Ctrl+Z, Ctrl+Y): the check follows."""
        has, state = self._seat_trail.state(self.app)
        if has and state != self._risk_state():
            self._restore_risk(state)

    def spend_refused(self, entry_id: str) -> None:
        """The store refused Risk's step: the check goes back to its state before."""
        state = self._seat_trail.refused(entry_id)
        if state is not None:
            self._restore_risk(state)

    def _restore_risk(self, state: tuple[Any, bool, str]) -> None:
        from tui.widgets.common.text import show_markup

        self._last, self._risk_closed, self._shown = state
        show_markup(self.query_one("#check-result"), self._shown)  # type: ignore[attr-defined]
        self.refresh_bindings()  # type: ignore[attr-defined]
        self.seat.changed(self)

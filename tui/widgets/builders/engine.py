"""What every builder does with the table engine: make a step on the open check (a step with
Журнал lines handed to the app's writer, the screen following the store once it is written),
and take the open check as the store has it when the store changes; and what its dialogs on
the open check's state share (:class:`EngineDialog`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Input

from tui.services import lent
from tui.store import Character
from tui.table.core import Outcome
from tui.widgets.common.focus import focus_now
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.part import WidgetPart
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce

#: «n» after a roll: the next check (IDE4's «Новая»); the builders' ``check_action`` offers it
#: once the check is rolled.
NEW_CHECK = Binding(
    "n", "new_check", "Новая", id="check-new", tooltip="Новая проверка: та же форма, новый бросок"
)


class EngineBuilder(WidgetPart):
    """A builder driving its open check through ``self.table`` (a ``CheckTable``): mixed into
    the four builders, which provide ``table``, ``app`` and ``redraw``."""

    table: Any
    # The services it uses (tui/services/lent.py).
    writer = lent.writer
    #: The label of the step being written by the app's writer, else "".
    _pending = ""
    #: The row a rolled check's keys are pressed from when the roll came from a text field
    #: ("": the builder has its own way, as IDE4's result pane).
    FIRST_ROW = ""

    def redraw(self) -> None:  # pragma: no cover - each builder draws its own
        raise NotImplementedError

    def step(self, step: Callable[..., Outcome[Any]], *args: Any, quiet: bool = False) -> bool:
        """Make an engine step on the open check; a step with lines is handed to the app's
        writer (the screen follows the store once it is written). Returns whether it was
        made; a refused one is told (unless ``quiet``) and changes nothing."""
        if self._pending:  # a key pressed twice applies once
            self.app.notify(f"Подождите: ещё сохраняется «{self._pending}».", severity="warning")
            return False
        outcome, job = self.table.make(step, *args)
        if not outcome.ok:
            if not quiet:
                self.app.notify(outcome.refused, severity="error")
            if self.rolled_again_refused():
                self._leave_field()  # Enter in a field of a rolled check: «n» is a key now
            return False
        for notice in outcome.notices:
            self.app.notify(notice, timeout=5)
        if job is None:
            self.redraw()
            return True
        self._pending = outcome.label or "шаг проверки"

        def done(_step: str) -> None:
            self._pending = ""
            self.redraw()
            if self.rolled_again_refused():
                self._leave_field()

        def failed(err: Exception) -> None:
            self._pending = ""
            self.app.notify(str(err), severity="error", timeout=10)
            self.redraw()

        self.writer.write(job, done, failed=failed)
        return True

    def after_form(self, action: Callable[[], object]) -> None:
        """Run ``action`` after the form's changes already on their way to this builder.

        A row's change reaches the builder as a message (a stepper's, a field's), while a key's
        action runs at once: arrows and Enter arriving in one burst (keys over SSH) rolled
        the form as it stood before the arrows, which then changed a check already rolled.
        Handed on from the focused row up to the builder, each queue in turn (the way a
        change bubbles: IDE4's steppers report to its form, which passes them on), the
        action comes after them."""
        path: list[Any] = []
        node: DOMNode | None = self.app.focused
        while node is not None and node is not self:
            path.append(node)
            node = node.parent
        if node is None:  # the focus is not in the form (a dialog's, the tab bar)
            path = []

        def hop(at: int) -> None:
            if at == len(path):
                self.call_later(action)
            elif not path[at].call_later(hop, at + 1):  # a row gone meanwhile: the next
                hop(at + 1)

        hop(0)

    def step_typed(
        self, event: Input.Changed, step: Callable[..., Outcome[Any]], *args: Any
    ) -> bool:
        """Make ``step``, which puts a field's text (its Changed message's) in the open check:
        while the field's later text is on its way, the redraws leave the field as it is
        typed (:meth:`ReadyInput.follow`). Returns whether it was made."""
        if isinstance(event.input, ReadyInput):
            event.input.took(event.value)  # before the step: it redraws within
        return self.step(step, *args)

    def _leave_field(self) -> None:
        """Once the check is rolled, the focus leaves the form's text field (Enter there
        rolled it) for its first row: the keys of a rolled check — «n», Судьба, Risk — are
        letters in a field, and a change typed there would start the next check."""
        focused = self.app.focused
        if self.FIRST_ROW and isinstance(focused, Input) and self in focused.ancestors:
            focus_now(self.query_one(self.FIRST_ROW))  # before an «n» typed right behind

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """The key bar's Enter on a rolled check: not offered (the key says why — the check
        is never rolled again — and that «n» starts the next); else the binding's own. (IDE4's
        builder says more of its Enter and keeps its own.)"""
        if binding.action != "roll" or not self.rolled_again_refused():
            return None
        return "", ""

    def rolled_again_refused(self) -> bool:
        """Whether the open check's roll is refused now: it is rolled already. «n», the next
        check, is offered exactly then (the builders' ``check_action``)."""
        return self.table.state.rolled is not None

    def set_characters(self, characters: list[Character]) -> None:
        """The store changed: take the open check as it has it, and draw it."""
        for notice in self.table.follow():
            self.app.notify(notice, severity="warning", timeout=8)
        self.redraw()


class EngineDialog(StyledOnce, ModalScreen[Any]):
    """A builder's dialog on the open check's state (IDE4's opposed check, the other systems'
    second character): it draws the engine's view (:meth:`redraw`, once composed) and makes
    its steps through the ``builder``, so Ctrl+Z and Ctrl+Y apply under it — the builder
    follows the store, and the dialog with it."""

    STEPPER_FORM = True  # its steppers' Changed messages come here directly
    follows_undo = True
    _ready = False  # composed: its rows can be drawn

    def __init__(self, builder: Any) -> None:
        super().__init__()
        self.builder = builder

    def on_mount(self) -> None:
        self._ready = True
        self.redraw()
        self.focus_first()

    def focus_first(self) -> None:
        """Focus the first row."""
        steppers = self.query(Stepper)
        if steppers:
            steppers.first().focus()

    def redraw(self) -> None:  # pragma: no cover - each dialog draws its own
        raise NotImplementedError

    _told_swapped = ""

    def tell_swapped(self, swapped: str) -> None:
        """Say once, as a notice too, that the side chosen was removed in another window and
        whom the dialog shows instead (its view's ``swapped``; the dialog's own text says it)."""
        if swapped and swapped != self._told_swapped:
            self.app.notify(swapped, severity="warning", timeout=10)
        if swapped != self._told_swapped:
            self.refresh_bindings()  # Enter confirms now, or rolls again
        self._told_swapped = swapped

    def key_bar_text(self, binding: Any) -> tuple[str, str] | None:
        """Enter says what it does: while the side shown stands in for one removed in another
        window, it confirms that side (the next Enter rolls)."""
        if binding.action == "go" and self._told_swapped:
            return "⏎", "Подтвердить"
        return None

"""The quick-roll bar: type ``3d6!``, ``4dF+2`` or ``d100 vs 50`` and press Enter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from rules.errors import DiceSyntaxError, RulesError
from tui.render import plain, roll_summary
from tui.widgets.focus import focus_now

if TYPE_CHECKING:
    from rules.dice import RollResult


class QuickRoll(Vertical):
    """A bar docked above the footer; Escape hides it."""

    BINDINGS = [Binding("escape", "close", "Закрыть", id="quick-close")]

    @dataclass
    class Rolled(Message):
        """A quick roll was made."""

        result: RollResult

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Бросок: 3d6!, 4dF+2, d100 vs 50, 2к6+1", id="quick-input")
        yield Static("Enter — бросить, Esc — закрыть.", id="quick-output")

    def open(self) -> None:
        """Show the bar and focus its input."""
        self.display = True
        focus_now(self.query_one("#quick-input", Input))

    def action_close(self) -> None:
        """Hide the bar and give focus back to the tab."""
        self.display = False
        self.app.action_focus_tab()  # type: ignore[attr-defined]

    @on(Input.Submitted, "#quick-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        output = self.query_one("#quick-output", Static)
        text = event.value.strip()
        if not text:
            output.update("Введите выражение, например [b]3d6![/b] или [b]4dF+2[/b].")
            return
        from rules.dice import roll  # the dice parser loads on the first roll, not at start

        try:
            result = roll(text, self.app.rng)  # type: ignore[attr-defined]
        except DiceSyntaxError as err:
            caret = " " * err.position + "^"
            output.update(f"[$error]{plain(str(err))}[/]\n[$error]{caret}[/]")
            return
        except RulesError as err:
            output.update(f"[$error]{plain(str(err))}[/]")
            return
        output.update(f"[b]Итог {result.total}[/b] · {plain(roll_summary(result))}")
        self.post_message(self.Rolled(result))

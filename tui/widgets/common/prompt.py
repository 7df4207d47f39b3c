"""A one-field modal: ask the GM for a short text (a note, a price); Esc cancels."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.present.rolls import plain
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.withdrawn import Withdrawable


class TextPrompt(StyledOnce, Withdrawable, ModalScreen[str | None]):
    """Return the typed text (stripped, non-empty when ``required``) or None."""

    DEFAULT_CSS = """
    TextPrompt { align: center middle; }
    TextPrompt > Vertical {
        width: 70; max-width: 95%; height: auto; border: round $accent;
        background: $surface; padding: 0 1;
    }
    TextPrompt #prompt-error { color: $error; height: auto; }
    """

    ENTER_TEXT = "Готово"  # the key bar says what Enter does
    BINDINGS = [Binding("escape", "dismiss(None)", "Отмена", id="prompt-cancel")]

    def __init__(
        self,
        title: str,
        placeholder: str = "",
        *,
        required: bool = True,
        value: str = "",
        check: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.required = required
        self.value = value  # the text to edit (a placeholder is a hint, never a value)
        #: Why the typed text is refused ("" when it is taken): the prompt stays open with the
        #: reason under the text, so nothing typed is lost.
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            title = plain(self.title_text)  # a title may name a character
            yield Static(f"[b]{title}[/b]  [dim](Enter — готово, Esc — отмена)[/dim]")
            yield ReadyInput(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Static(id="prompt-error")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.required and not text:
            self.query_one("#prompt-error", Static).update("Поле не может быть пустым.")
            return
        problem = self.check(text) if self.check is not None and text else ""
        if problem:
            self.query_one("#prompt-error", Static).update(plain(problem))
            return
        self.dismiss(text)

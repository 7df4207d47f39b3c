"""A small modal chooser: a title and a list; unavailable options stay visible with the reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.present.rolls import plain
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.withdrawn import Withdrawable


@dataclass(frozen=True)
class Choice:
    """One option: what to show, what to return, and why it is unavailable (if it is)."""

    label: str
    value: Any
    refused: str = ""
    #: A letter that picks this option at once (shown after the label), "" for none.
    key: str = ""


class ChoiceScreen(StyledOnce, Withdrawable, ModalScreen[Any]):
    """Pick one option with ↑/↓ and Enter; Esc returns None."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: 70; max-width: 95%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen OptionList { height: auto; max-height: 16; }
    """

    BINDINGS = [Binding("escape", "dismiss(None)", "Отмена", id="choice-cancel")]

    def __init__(self, title: str, choices: Sequence[Choice], *, preselect: bool = True) -> None:
        """``preselect=False``: no option is highlighted at first, so Enter picks nothing
        until the GM moves to one (↓) or presses its letter — for a question whose every
        answer changes the campaign, which a GM going on with Enter must not answer."""
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.preselect = preselect

    def compose(self) -> ComposeResult:
        with Vertical():
            title = plain(self.title_text)  # titles and options name characters
            how = "Enter — выбрать" if self.preselect else "↓ и Enter или буква — выбрать"
            yield Static(f"[b]{title}[/b]  [dim]({how}, Esc — отмена)[/dim]")
            yield OptionList(
                *[
                    Option(
                        plain(c.label)
                        + (f" ({plain(c.key)})" if c.key else "")
                        + (f"  [dim]— {plain(c.refused)}[/dim]" if c.refused else ""),
                        id=str(i),
                        disabled=bool(c.refused),
                    )
                    for i, c in enumerate(self.choices)
                ]
            )

    def on_mount(self) -> None:
        if not self.preselect:
            self.query_one(OptionList).highlighted = None

    def on_key(self, event: Any) -> None:
        for c in self.choices:
            if c.key and not c.refused and event.character == c.key:
                event.stop()
                self.dismiss(c.value)
                return

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[int(event.option.id or 0)].value)

"""A chooser for a long list: type to filter, ↑/↓ to move, Enter to pick, Esc to close."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.present.rolls import plain
from tui.widgets.common.choice import Choice
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.styled import StyledOnce


def matches(text: str, filter_text: str) -> bool:
    """Whether every word typed is in ``text`` (letter case aside)."""
    folded = text.casefold()
    return all(word in folded for word in filter_text.casefold().split())


class FilterChoiceScreen(StyledOnce, ModalScreen[Any]):
    """Pick one of many: the typed words filter the list; Esc returns None."""

    DEFAULT_CSS = """
    FilterChoiceScreen { align: center middle; }
    FilterChoiceScreen > Vertical {
        width: 76; max-width: 95%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    FilterChoiceScreen OptionList { height: auto; max-height: 14; }
    FilterChoiceScreen #filter-choice-empty { color: $text-muted; height: auto; }
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Отмена", id="filter-choice-cancel"),
        Binding("down", "move(1)", "Ниже", show=False, priority=True),
        Binding("up", "move(-1)", "Выше", show=False, priority=True),
    ]

    def __init__(self, title: str, choices: Sequence[Choice], *, empty: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.empty = empty or "Ничего не найдено: измените фильтр."
        self.shown: list[int] = list(range(len(self.choices)))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"[b]{plain(self.title_text)}[/b]  "
                "[dim](буквы — фильтр, Enter — выбрать, Esc — отмена)[/dim]"
            )
            yield ReadyInput(placeholder="фильтр: часть названия", id="filter-choice-input")
            yield OptionList(*self._options(), id="filter-choice-list")
            yield Static(id="filter-choice-empty")

    def on_mount(self) -> None:
        self._refill("")
        self.query_one(Input).focus()

    def _options(self) -> list[Option]:
        return [
            Option(
                plain(self.choices[i].label)
                + (
                    f"  [dim]— {plain(self.choices[i].refused)}[/dim]"
                    if self.choices[i].refused
                    else ""
                ),
                id=str(i),
                disabled=bool(self.choices[i].refused),
            )
            for i in self.shown
        ]

    def _refill(self, text: str) -> None:
        self.shown = [i for i, c in enumerate(self.choices) if matches(c.label, text)]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options())
        first = next((n for n, i in enumerate(self.shown) if not self.choices[i].refused), None)
        options.highlighted = first
        note = "" if self.shown else self.empty
        self.query_one("#filter-choice-empty", Static).update(plain(note))

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        self._refill(event.value)

    def action_move(self, by: int) -> None:
        options = self.query_one(OptionList)
        if by > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is None or highlighted >= len(self.shown):
            self.notify(self.empty, severity="warning")
            return
        choice = self.choices[self.shown[highlighted]]
        if not choice.refused:
            self.dismiss(choice.value)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = self.choices[int(event.option.id or 0)]
        if not choice.refused:
            self.dismiss(choice.value)

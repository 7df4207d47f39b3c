"""The ``?`` screen: every key of the app, grouped by where it works."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "enter": "Enter",
    "escape": "Esc",
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "ctrl+q": "Ctrl+Q",
}


def key_label(key: str) -> str:
    """Return a key as a person types it."""
    return ", ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in key.split(","))


class KeysScreen(ModalScreen[None]):
    """List all keys; any of Esc, q, ? closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Закрыть", id="keys-close"),
    ]

    def __init__(self, groups: list[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with Vertical(id="keys-box"):
            yield Static("[b]Клавиши kubik[/b]  (Esc — закрыть)")
            yield DataTable(id="keys-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one("#keys-table", DataTable)
        table.add_columns("Где", "Клавиша", "Действие")
        for where, bindings in self.groups:
            for binding in bindings:
                table.add_row(where, key_label(binding.key), binding.tooltip or binding.description)
        table.focus()

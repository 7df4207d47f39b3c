"""The ``?`` screen: every key of the app, grouped by where it works.

One row per key and place: a key bound twice there (Ctrl+S on and off, the Бой tab's Enter
at each phase) is listed once with each of its meanings. Descriptions wrap instead of being
cut at the box's edge.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.common.keynames import key_label
from tui.widgets.common.styled import StyledOnce

#: The keys that move the focus (tui.widgets.common.focus), listed under «Везде».
FOCUS_HELP = [
    Binding("tab,shift+tab", "", "Следующее / предыдущее поле вкладки (по кругу)"),
    Binding("up,down", "", "Строки формы (по кругу); в таблице — строки таблицы"),
    Binding("escape", "", "Назад: к первому полю вкладки; в окне — закрыть его"),
]


def key_rows(bindings: list[Binding]) -> list[tuple[str, str]]:
    """Return (key, what it does) once per key, joining the meanings of a key bound twice."""
    rows: dict[str, list[str]] = {}
    for binding in bindings:
        text = binding.tooltip or binding.description
        meanings = rows.setdefault(key_label(binding.key), [])
        if text and text not in meanings:
            meanings.append(text)
    return [(key, " / ".join(meanings)) for key, meanings in rows.items()]


def keys_table(groups: list[tuple[str, list[Binding]]]) -> Table:
    """Return every group's keys as one table whose descriptions wrap."""
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1), pad_edge=False)
    table.add_column("Клавиша", no_wrap=True, style="bold")
    table.add_column("Действие", ratio=1, overflow="fold")
    for index, (where, bindings) in enumerate(groups):
        if index:
            table.add_row("", "")
        table.add_row(Text(where, style="bold underline"), "")
        for key, text in key_rows(bindings):
            table.add_row(Text(key), Text(text))
    return table


class KeysScreen(StyledOnce, ModalScreen[None]):
    """List all keys; any of Esc, q, ? closes it; ↑/↓ and PgUp/PgDn scroll."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Закрыть", id="keys-close"),
    ]

    def __init__(self, groups: list[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with Vertical(id="keys-box"):
            yield Static("[b]Клавиши kubik[/b]  (Esc — закрыть, ↑↓ PgUp PgDn — листать)")
            with VerticalScroll(id="keys-list"):
                yield Static(keys_table(self.groups), id="keys-table")

    def on_mount(self) -> None:
        self.query_one("#keys-list", VerticalScroll).focus()

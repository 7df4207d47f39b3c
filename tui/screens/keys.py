"""The ``?`` screen: every key of the app, grouped by where it works.

One row per key and place: a key bound twice there (Ctrl+S on and off, the Бой tab's Enter
at each phase) is listed once with each of its meanings. Descriptions wrap instead of being
cut at the box's edge.
"""

from __future__ import annotations

from typing import Any

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


#: Each group's name and its rows (:func:`key_rows`): all that the table of keys shows.
GroupRows = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def group_rows(groups: list[tuple[str, list[Binding]]]) -> GroupRows:
    """Return each group's name with its rows (:func:`key_rows`)."""
    return tuple((where, tuple(key_rows(bindings))) for where, bindings in groups)


def keys_table(groups: list[tuple[str, list[Binding]]]) -> Table:
    """Return every group's keys as one table whose descriptions wrap."""
    return _table(group_rows(groups))


def _table(rows: GroupRows) -> Table:
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1), pad_edge=False)
    table.add_column("Клавиша", no_wrap=True, style="bold")
    table.add_column("Действие", ratio=1, overflow="fold")
    for index, (where, keys) in enumerate(rows):
        if index:
            table.add_row("", "")
        table.add_row(Text(where, style="bold underline"), "")
        for key, text in keys:
            table.add_row(Text(key), Text(text))
    return table


#: The height of each list shown so far, by (its rows, the width): measuring it renders the
#: whole table (~10 ms at 80 columns), and each opening measures it twice, before and after its
#: scrollbar appears. The rows are all the table holds; the width is all the rest it depends on.
_HEIGHTS: dict[tuple[GroupRows, int], int] = {}
#: Lists kept measured (a key's groups differ by tab and focused widget; a few dozen at most).
_HEIGHTS_KEPT = 64


class KeysTable(Static):
    """The table of keys, measured once per width for the same rows."""

    def __init__(self, groups: list[tuple[str, list[Binding]]], *, id: str) -> None:  # noqa: A002
        self._rows = group_rows(groups)
        super().__init__(_table(self._rows), id=id)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        key = (self._rows, width)
        height = _HEIGHTS.get(key)
        if height is None:
            if len(_HEIGHTS) >= _HEIGHTS_KEPT:
                _HEIGHTS.clear()
            height = _HEIGHTS[key] = super().get_content_height(container, viewport, width)
        return height


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
                yield KeysTable(self.groups, id="keys-table")

    def on_mount(self) -> None:
        self.query_one("#keys-list", VerticalScroll).focus()

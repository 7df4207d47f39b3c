"""The Журнал tab: every roll, newest first, with the highlighted entry in full below."""

from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import DataTable, Static

from tui.store import LogEntry


def when_text(iso: str) -> str:
    """Return ``DD.MM.YYYY HH:MM:SS`` of an ISO timestamp (the raw text if it does not parse)."""
    try:
        return datetime.fromisoformat(iso).strftime("%d.%m.%Y %H:%M:%S")
    except ValueError:
        return iso


def clock_text(iso: str) -> str:
    """Return ``HH:MM:SS`` of an ISO timestamp (the raw text if it does not parse)."""
    try:
        return datetime.fromisoformat(iso).strftime("%H:%M:%S")
    except ValueError:
        return iso


class LogPane(Vertical):
    """Show the roll log as a table."""

    _entries: dict[str, LogEntry] = {}

    def compose(self) -> ComposeResult:
        yield DataTable(id="log-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="log-detail")

    def on_mount(self) -> None:
        self.query_one("#log-table", DataTable).add_columns("Время", "Кто", "Запись")

    def show(self, entries: list[LogEntry]) -> None:
        """Redraw from the store's log (already newest first)."""
        table = self.query_one("#log-table", DataTable)
        table.clear()
        self._entries = {entry.id: entry for entry in entries}
        for entry in entries:
            table.add_row(clock_text(entry.at), entry.actor or "—", entry.text, key=entry.id)
        self._show_detail()

    @on(DataTable.RowHighlighted, "#log-table")
    def _show_detail(self) -> None:
        table = self.query_one("#log-table", DataTable)
        detail = self.query_one("#log-detail", Static)
        if table.row_count == 0:
            detail.update("Журнал пуст: бросьте проверку (3) или быстрый бросок (/).")
            return
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        entry = self._entries.get(key.value or "")
        if entry is not None:
            who = f"{entry.actor}: " if entry.actor else ""
            detail.update(f"{when_text(entry.at)} — {escape(who + entry.text)}")

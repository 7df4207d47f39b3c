"""The Партия tab: the party in a table and the highlighted character's sheet."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from tui.sheets import columns, row, sheet_text
from tui.store import Character


class PartyPane(Vertical):
    """List the campaign's characters; Enter opens the check builder for one."""

    BINDINGS = [
        Binding("enter", "check", "Проверка", id="party-check", tooltip="Проверка персонажа"),
    ]

    @dataclass
    class CheckRequested(Message):
        """The GM wants a check for this character."""

        character_id: str

    def compose(self) -> ComposeResult:
        table: DataTable[str] = DataTable(id="party-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="party-sheet")

    def on_mount(self) -> None:
        table = self.query_one("#party-table", DataTable)
        table.add_columns(*columns(self.app.store.campaign.system))  # type: ignore[attr-defined]

    def show(self, characters: list[Character]) -> None:
        """Redraw the table from the store's characters, keeping the cursor on the same one."""
        table = self.query_one("#party-table", DataTable)
        current = self.highlighted_id()
        table.clear()
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        for c in characters:
            table.add_row(*row(system, c), key=c.id)
        self._characters = {c.id: c for c in characters}
        if current in self._characters:
            table.move_cursor(row=table.get_row_index(current))
        self._show_sheet()

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#party-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    @on(DataTable.RowHighlighted, "#party-table")
    def _highlighted(self) -> None:
        self._show_sheet()

    @on(DataTable.RowSelected, "#party-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_check()

    def _show_sheet(self) -> None:
        sheet = self.query_one("#party-sheet", Static)
        character = getattr(self, "_characters", {}).get(self.highlighted_id())
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        sheet.update(sheet_text(system, character) if character else "В партии пока никого нет.")

    def action_check(self) -> None:
        """Open the check builder for the highlighted character."""
        character_id = self.highlighted_id()
        if character_id:
            self.post_message(self.CheckRequested(character_id))

"""The Журнал tab: every roll, newest first, with the highlighted entry in full below."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.bridge.public import is_secret, revealed_ids
from tui.sanitize import cell, cut_long_words
from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.services import lent
from tui.store import LogEntry
from tui.widgets.common.table import Table

#: How the GM sees secret entries: the players' view shows «скрытый бросок» instead.
SECRET_MARK = "(скрыто) "
REVEALED_MARK = "(раскрыто) "
#: An entry whose change was undone (Ctrl+Z) and not redone: it stays, struck and dimmed.
UNDONE_MARK = "(отменено) "
UNDONE_STYLE = "dim strike"
#: The Журнал's columns, the GM's tab and the players' view and seats alike (an entry is a
#: roll, a note, a step of the fight: «Запись», not «Бросок»).
LOG_COLUMNS = ("Время", "Кто", "Запись")


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

    BINDINGS = [
        Binding(
            "r", "reveal", "Раскрыть", id="log-reveal", tooltip="Показать скрытый бросок игрокам"
        ),
        # The luck ledger (tui/bridge/luck.py, tui/widgets/log/stats.py).
        Binding("s", "stats", "Удача", id="log-stats", tooltip="Статистика удачи по сессиям"),
        Binding("n", "new_session", "Сессия", id="log-session", tooltip="Начать новую сессию"),
    ]

    store = lent.store
    journal = lent.journal
    view_only = lent.view_only

    _entries: dict[str, LogEntry] = {}
    _revealed: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Table(id="log-table", cursor_type="row", zebra_stripes=True, wrap_last=True)
        yield Static(id="log-detail")

    def on_mount(self) -> None:
        self.query_one("#log-table", DataTable).add_columns(*LOG_COLUMNS)

    def show(self, entries: list[LogEntry]) -> None:
        """Redraw from the store's log (already newest first)."""
        table = self.query_one("#log-table", DataTable)
        table.clear()
        self._entries = {entry.id: entry for entry in entries}
        self._revealed = revealed_ids(entries)
        starts = _session_starts(entries)
        for entry in entries:
            # a 10,000-letter name would push the text off screen, or fold it over every row
            text, actor = cut_long_words(entry.text), cell(entry.actor or "—")
            if entry.data.get("hidden"):
                mark = SECRET_MARK if is_secret(entry, self._revealed) else REVEALED_MARK
                text = mark + text
            if entry.undone:
                cells = [clock_text(entry.at), actor, UNDONE_MARK + text]
                table.add_row(*(Text(c, style=UNDONE_STYLE) for c in cells), key=entry.id)
                continue
            table.add_row(clock_text(entry.at), actor, text, key=entry.id)
            if entry.id in starts:  # a session the GM did not mark: a pause started it
                style = "dim italic"
                started = ("", "", starts[entry.id])
                table.add_row(*(Text(c, style=style) for c in started), key=f"start-{entry.id}")
        self._show_detail()

    def _highlighted(self) -> LogEntry | None:
        table = self.query_one("#log-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return self._entries.get(key.value or "")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal":
            entry = self._highlighted()
            writable = not self.store.read_only and not self.view_only
            return writable and entry is not None and is_secret(entry, self._revealed)
        if action == "new_session":
            return not self.store.read_only and not self.view_only
        return True

    def action_stats(self) -> None:
        """Open the luck stats: each character's rolls against their exact odds."""
        from tui.widgets.log.stats import open_stats

        open_stats(self.app, self.store, locked=self.view_only)

    def action_new_session(self) -> None:
        """Mark the start of a game session in the Журнал."""
        from tui.bridge.luck import mark_session

        mark_session(self.journal, self.app.notify)

    def action_reveal(self) -> None:
        """Show the highlighted secret roll to the players (a new «Раскрыто» entry)."""
        from tui.bridge.luck import reveal

        entry = self._highlighted()
        if entry is not None and reveal(self.journal, entry, self._revealed):
            self.app.notify("Бросок раскрыт: игроки его видят.")

    @on(DataTable.RowHighlighted, "#log-table")
    def _show_detail(self) -> None:
        table = self.query_one("#log-table", DataTable)
        detail = self.query_one("#log-detail", Static)
        self.refresh_bindings()
        if table.row_count == 0:
            detail.update("Журнал пуст: бросьте проверку (3) или быстрый бросок (/).")
            return
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        entry = self._entries.get(key.value or "")
        if entry is None and (key.value or "").startswith("start-"):
            line = str(table.get_row(key)[2])
            detail.update(escape(f"{line.strip('— ').capitalize()} между бросками."))
            return
        if entry is not None:
            who = f"{entry.actor}: " if entry.actor else ""
            from tui.present.luck import entry_text  # the luck ledger: where the dice landed

            luck = entry_text(entry.data)
            luck = f"\n{luck}" if luck else ""
            undone = " [dim](отменено)[/dim]" if entry.undone else ""
            detail.update(f"{when_text(entry.at)} — {escape(who + entry.text + luck)}{undone}")


def _session_starts(entries: list[LogEntry]) -> dict[str, str]:
    """Return the first entry of each session no «новая сессия» mark starts (a pause in the
    rolls did), with the line that says so (``entries`` newest first, maybe not the whole
    Журнал: no session number, only where one begins)."""
    from rules.ledger.stats import settings
    from tui.bridge.luck import SESSION_KIND, session_of  # the luck ledger's sessions

    oldest_first = list(reversed(entries))
    numbers = session_of(oldest_first)
    try:
        hours = settings().gap.total_seconds() / 3600
    except Exception:  # noqa: BLE001 - a broken table: session_of said so already
        return {}
    line = f"— новая сессия: перерыв больше {hours:g} ч —".replace(".", ",")
    starts: dict[str, str] = {}
    previous = None
    for entry in oldest_first:
        number = numbers.get(entry.id)
        if previous is not None and number != previous and entry.kind != SESSION_KIND:
            starts[entry.id] = line
        previous = number
    return starts

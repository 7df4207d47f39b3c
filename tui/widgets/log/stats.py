"""The luck stats screen (``s`` in the Журнал): how lucky each character was, against the exact
odds of the rolls they made, this session or over all of them.

The GM sees every roll; ``p`` shows the numbers as the players may see them (a secret roll
counts only once revealed, hidden NPCs are «???»). ``m`` writes the shown stats as Markdown.
A player's seat, which has no campaign, shows the sessions the GM's app sent it
(``sessions=``, then :meth:`StatsScreen.feed`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from rules.ledger import summarise
from tui.bridge.luck import Session, read_sessions
from tui.present import luck as lt
from tui.store import Store
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.table import Table

SPARK_WIDTH = 60


class StatsScreen(Screen[None]):
    """Per character and for the table: rolls, mean percentile, top and bottom, the verdict."""

    DEFAULT_CSS = """
    StatsScreen { layout: vertical; }
    StatsScreen #stats-box { height: 1fr; padding: 0 1; }
    StatsScreen #stats-title { height: 1; text-style: bold; }
    StatsScreen #stats-table-lines { height: auto; }
    StatsScreen #stats-characters { height: auto; max-height: 7; margin-top: 1; }
    StatsScreen #stats-chart { height: auto; margin-top: 1; }
    """

    BINDINGS = [
        Binding("escape,q", "close", "Закрыть", id="stats-close"),
        # Priority: the characters' table would take ← and → (and hide them from the key bar).
        Binding(
            "left",
            "session(-1)",
            "Раньше",
            id="stats-prev",
            tooltip="Предыдущая сессия",
            priority=True,
        ),
        Binding(
            "right",
            "session(1)",
            "Позже",
            id="stats-next",
            tooltip="Следующая сессия",
            priority=True,
        ),
        Binding("a", "all", "Все сессии", id="stats-all", tooltip="Все сессии / одна"),
        Binding("p", "players", "Для игроков", id="stats-players", tooltip="Без скрытых бросков"),
        Binding("m", "markdown", "Markdown", id="stats-markdown", tooltip="Сохранить в Markdown"),
    ]

    def __init__(
        self,
        store: Store | None = None,
        *,
        players: bool = False,
        locked: bool = False,
        sessions: list[Session] | None = None,
    ) -> None:
        """``locked``: a view without the GM's rights keeps the players' numbers, writes no file.

        ``store``: the campaign whose Журнал it reads. ``sessions``: the players' sessions,
        already read (a seat: the GM's app sent them); the screen then reads no store, is
        locked, and follows :meth:`feed`.
        """
        super().__init__()
        self.store = store
        self.fed = sessions is not None
        self.locked = locked or self.fed
        self.players = players or self.locked
        self.show_all = False
        self.index: int | None = None  # the session shown (None: the newest)
        self.sessions: list[Session] = list(sessions or [])

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            yield Static(id="stats-title")
            yield Static(id="stats-table-lines")
            yield Table(id="stats-characters", cursor_type="row", zebra_stripes=True)
            yield Static(id="stats-chart")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#stats-characters", Table)
        table.add_columns("Кто", "Бросков", "Средний", "Верх", "Низ", "Вердикт")
        if self.fed:
            self.redraw()
        else:
            self._store().subscribe(self._changed)
            self.reload()
        table.focus()

    def on_unmount(self) -> None:
        if not self.fed:
            self._store().unsubscribe(self._changed)

    def _store(self) -> Store:
        assert self.store is not None, "a screen not fed reads a campaign"
        return self.store

    def feed(self, sessions: list[Session]) -> None:
        """Show these sessions (a seat: the GM's app sent them again after a change)."""
        self.sessions = list(sessions)
        if self.is_attached:
            self.redraw()

    def _changed(self) -> None:
        if self.is_attached:
            self.reload()

    def reload(self) -> None:
        """Read the Журнал again and redraw."""
        store = self._store()
        entries = list(reversed(store.log()))
        self.sessions = read_sessions(entries, players=self.players, characters=store.characters())
        self.redraw()

    def chosen(self) -> list[Session]:
        """Return the sessions shown now."""
        if self.show_all or not self.sessions:
            return list(self.sessions)
        index = len(self.sessions) - 1 if self.index is None else self.index
        return [self.sessions[max(0, min(index, len(self.sessions) - 1))]]

    def redraw(self) -> None:
        """Draw the shown scope: numbers, characters, histogram and the run."""
        chosen = self.chosen()
        total = len(self.sessions)
        whose = " · для игроков" if self.players else ""
        title = f"Удача · {lt.scope_title(chosen, total)}{whose}"
        if len(chosen) == 1:
            title += f" · с {_short_time(chosen[0].start)}"
        self.query_one("#stats-title", Static).update(escape(title))
        lines = lt.table_lines(chosen)
        self.query_one("#stats-table-lines", Static).update(escape("\n".join(lines)))
        table = self.query_one("#stats-characters", Table)
        table.clear()
        for row in lt.character_rows(chosen):
            table.add_row(*row)
        table.display = table.row_count > 0
        samples = [r.sample for s in chosen for r in s.rolls]
        chart: list[str] = []
        if samples:
            summary = summarise(samples)
            chart.append("Перцентили по десяткам, %:")
            chart += lt.histogram_rows(summary.histogram, height=3)
            chart.append(f"Ход: {lt.sparkline(samples, SPARK_WIDTH)}")
        chart += lt.spent_lines(chosen)
        self.query_one("#stats-chart", Static).update(escape("\n".join(chart)))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "session":
            if self.show_all or len(self.sessions) < 2:
                return False
            index = len(self.sessions) - 1 if self.index is None else self.index
            step = parameters[0] if parameters else 0
            return isinstance(step, int) and 0 <= index + step < len(self.sessions)
        if action == "markdown":
            return bool(self.sessions) and not self.locked
        if action == "players":
            return not self.locked
        return True

    def action_close(self) -> None:
        """Go back to the Журнал."""
        self.app.pop_screen()

    def action_session(self, step: int) -> None:
        """Show the previous or the next session."""
        index = len(self.sessions) - 1 if self.index is None else self.index
        self.index = max(0, min(index + step, len(self.sessions) - 1))
        self.redraw()

    def action_all(self) -> None:
        """Switch between one session and all of them."""
        self.show_all = not self.show_all
        self.redraw()

    def action_players(self) -> None:
        """Switch between the GM's numbers (every roll) and the players' (no secrets)."""
        self.players = not self.players
        self.reload()

    def action_markdown(self) -> None:
        """Ask where, then write the shown stats as Markdown (beside the Журнал export)."""
        from tui.widgets.common.prompt import TextPrompt

        store = self._store()
        chosen = self.chosen()
        part = "all" if len(chosen) != 1 else f"s{chosen[0].number}"
        default = Path.home() / f"{store.path.stem}-luck-{part}.md"

        def typed(text: str | None) -> None:
            if text is None:
                return
            path = Path(text or str(default)).expanduser()
            body = lt.markdown(store.campaign.name, chosen, len(self.sessions))
            try:
                path.write_text(body, encoding="utf-8")
            except OSError as err:
                self.notify(
                    f"Не удалось записать {path}: {err.strerror or err}. "
                    "Проверьте папку и свободное место на диске.",
                    severity="error",
                    timeout=15,
                    markup=False,
                )
                return
            self.notify(f"Записано: {path}", markup=False)

        self.app.push_screen(
            TextPrompt("Удача в Markdown: путь к файлу", str(default), required=False), typed
        )


def _short_time(iso: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).strftime("%d.%m %H:%M")
    except ValueError:
        return iso


def open_stats(app: App[Any], store: Store, *, locked: bool) -> None:
    """Open the stats screen of ``store``'s Журнал (the GM's: every roll; ``locked``: the
    players' numbers only)."""
    app.push_screen(StatsScreen(store, locked=locked))

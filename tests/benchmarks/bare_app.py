"""The reference for the start and key benchmarks: a bare Textual app with kubik's widget kinds.

A TabbedContent with four TabPanes, a DataTable of seven rows, a Footer, and on the third tab
one focusable row that ←/→ change and a line that shows a derived percent (the smallest
stand-in for a check builder). It does no work of its own, so its start is what importing and
starting Textual costs, and its keys are what one Textual repaint costs.

Run: ``python tests/benchmarks/bare_app.py``.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane

ROWS = [
    ("Первый Игрок", "Игрок", "2", "—", "Кинжал"),
    ("Второй Игрок", "Игрок", "3", "—", "Топор"),
    ("Третий Игрок", "Игрок", "4", "—", "Лук"),
    ("Четвёртый Игрок", "Игрок", "3", "—", "Меч"),
    ("Первый НИП", "НИП", "1", "—", "Сабля"),
    ("Второй НИП", "НИП", "0", "—", "Ружьё"),
    ("Третий НИП", "НИП", "2", "—", "Булава"),
]


class Row(Widget, can_focus=True):
    """One focusable row: ←/→ change a number (what kubik's stepper does)."""

    DEFAULT_CSS = "Row { height: 1; } Row:focus { text-style: bold; }"
    BINDINGS = [Binding("left", "step(-1)", show=False), Binding("right", "step(1)", show=False)]

    value: reactive[int] = reactive(0)

    def render(self) -> str:
        return f"Сложность  ◀ {self.value:+d} ▶"

    def action_step(self, delta: int) -> None:
        self.value += delta

    def watch_value(self, value: int) -> None:
        if self.is_mounted:
            percent = max(0, min(100, 50 - 10 * value))
            self.app.query_one("#bare-odds", Static).update(f"Успех {percent},0%")


class BareApp(App[None]):
    """Tabs, a table and a footer; ``1``–``4`` switch tabs."""

    BINDINGS = [
        Binding("1", "tab('one')", "Первая", show=False),
        Binding("2", "tab('two')", "Вторая", show=False),
        Binding("3", "tab('three')", "Третья", show=False),
        Binding("4", "tab('four')", "Четвёртая", show=False),
        Binding("ctrl+q", "quit", "Выход"),
    ]

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs"):
            with TabPane("1 Первая", id="one"):
                yield DataTable(id="table", cursor_type="row")
            with TabPane("2 Вторая", id="two"):
                yield Static("Вторая вкладка: здесь был бы бой.")
            with TabPane("3 Третья", id="three"):
                yield Row(id="bare-row")
                yield Static("Успех 50,0%", id="bare-odds")
            with TabPane("4 Четвёртая", id="four"):
                yield Static("Четвёртая вкладка: здесь был бы журнал.")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Имя", "Кто", "Судьба", "Раны", "Оружие")
        table.add_rows(ROWS)
        table.focus()

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        if tab == "three":
            self.query_one(Row).focus()


if __name__ == "__main__":
    BareApp().run()

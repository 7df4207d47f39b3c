"""The campaign picker: open, create (demo or empty), rename and delete campaigns."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tui import registry
from tui.sanitize import cell, safe_text
from tui.screens.campaign_files import CampaignFile, list_campaigns
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.prompt import TextPrompt
from tui.widgets.common.styled import StyledOnce
from tui.words import plural

#: The longest campaign name the picker takes (it heads the app, the view and the exports).
MAX_CAMPAIGN_NAME = 100


def new_campaign_choices() -> list[Choice]:
    """Return what a new campaign may start from: each system's demo, then each empty."""
    choices = [Choice(f"Демо: {registry.title(s)}", ("demo", s)) for s in registry.names()]
    return choices + [
        Choice(f"Пустая: {registry.title(s)}", ("empty", s)) for s in registry.names()
    ]


def name_problem(name: str) -> str:
    """Return why a new campaign name is refused, or "" when it is taken."""
    if len(name) <= MAX_CAMPAIGN_NAME:
        return ""
    return (
        f"Слишком длинное название: {plural(len(name), 'символ', 'символа', 'символов')}, "
        f"можно не больше {MAX_CAMPAIGN_NAME}."
    )


class CampaignsScreen(StyledOnce, ModalScreen[tuple[str, object] | None]):
    """List the campaign files; return what the GM asked for, the app does it.

    Results: ``("open", path)``, ``("create", (source, system, name))`` where source is
    ``"demo"`` or ``"empty"``, ``("rename", name)`` of the open campaign,
    ``("delete", path)`` (confirmed by typing the name), or None.
    """

    DEFAULT_CSS = """
    CampaignsScreen { align: center middle; }
    CampaignsScreen > Vertical {
        width: 90%; height: 80%; border: round $accent; background: $surface; padding: 0 1;
    }
    CampaignsScreen #campaigns-table { height: 1fr; }
    CampaignsScreen #campaigns-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "open", "Открыть", id="campaigns-open"),
        Binding("n", "create", "Новая", id="campaigns-create"),
        Binding("r", "rename", "Переименовать", id="campaigns-rename"),
        Binding("x,delete", "delete", "Удалить", id="campaigns-delete"),
        Binding("escape", "dismiss(None)", "Закрыть", id="campaigns-close"),
    ]

    def __init__(self, current: Path, current_name: str, folders: list[Path]) -> None:
        super().__init__()
        self.current = current
        self.current_name = current_name
        self.folders = folders
        self.campaigns: list[CampaignFile] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Кампании[/b]", id="campaigns-title")
            table: DataTable[str] = DataTable(id="campaigns-table", cursor_type="row")
            yield table
            folders = ", ".join(str(f) for f in self.folders)
            yield Static(safe_text("Папки: " + folders), id="campaigns-note")
            yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#campaigns-table", DataTable)
        table.add_columns(" ", "Название", "Система", "Файл")
        self.campaigns = list_campaigns(self.folders)
        for i, c in enumerate(self.campaigns):
            mark = "▶" if c.path.resolve() == self.current.resolve() else " "
            system = registry.title(c.system)
            name = c.name + (" — повреждён" if c.problem else "")
            # Names and file names come from files: text, never markup or control codes.
            cells = (mark, name, system, c.path.name)
            table.add_row(*map(safe_text, cells), key=str(i))
            if mark == "▶":
                table.move_cursor(row=i)
        table.focus()

    def _highlighted(self) -> CampaignFile | None:
        table = self.query_one("#campaigns-table", DataTable)
        if not self.campaigns:
            return None
        return self.campaigns[table.cursor_row]

    def _is_current(self, c: CampaignFile) -> bool:
        return c.path.resolve() == self.current.resolve()

    @on(DataTable.RowSelected, "#campaigns-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open the highlighted campaign (a damaged one: offer its newest good backup)."""
        c = self._highlighted()
        if c is None:
            return
        if self._is_current(c):
            self.dismiss(None)
            return
        self.dismiss(("open", c.path))

    def action_create(self) -> None:
        """Create a campaign from a system's demo or empty, then name it."""
        choices = new_campaign_choices()

        def chosen(source: tuple[str, str] | None) -> None:
            if source is None:
                return

            def named(name: str | None) -> None:
                if name:
                    self.dismiss(("create", (source[0], source[1], name)))

            prompt = TextPrompt("Название новой кампании", "например: Застава", check=name_problem)
            self.app.push_screen(prompt, named)

        self.app.push_screen(ChoiceScreen("Новая кампания: с чего начать?", choices), chosen)

    def action_rename(self) -> None:
        """Rename the open campaign (others: open them first)."""
        c = self._highlighted()
        if c is None or not self._is_current(c):
            self.notify("Переименовать можно открытую кампанию (▶): сначала откройте её.")
            return

        def named(name: str | None) -> None:
            if name:
                self.dismiss(("rename", name))

        title = f"Новое название для «{cell(c.name, 40)}»"
        self.app.push_screen(TextPrompt(title, c.name, check=name_problem), named)

    def action_delete(self) -> None:
        """Delete the highlighted campaign after the GM types its name."""
        c = self._highlighted()
        if c is None:
            return
        if self._is_current(c):
            self.notify(
                "Открытую кампанию удалить нельзя: сначала откройте другую.", severity="warning"
            )
            return

        def typed(text: str | None) -> None:
            if text is None:
                return
            if text != c.name:
                self.notify("Название не совпало — кампания не удалена.", severity="warning")
                return
            self.dismiss(("delete", c.path))

        self.app.push_screen(
            TextPrompt(
                f"Удалить «{c.name}» вместе с журналом и резервными копиями? "
                "Введите название, чтобы подтвердить",
                c.name,
            ),
            typed,
        )

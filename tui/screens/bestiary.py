"""The bestiary screen (Партия, `l`): the campaign's templates — kubik's starter set and its
own — with their tags, the sheet of the one under the cursor, and N of it into the party.

It follows the store (a template saved with `B`, an undo, another kubik): the list is derived
from the campaign on every change. Each change is the bestiary's engine step, one undo step.
"""

from __future__ import annotations

from typing import Any, Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from tui import registry
from tui.numbers import read_typed_whole
from tui.sanitize import safe_text
from tui.services import OnUi
from tui.store.bestiary import COUNT_RANGE, Template
from tui.widgets.common.bestiary_writes import StepNeeds, run_step
from tui.widgets.common.filter_choice import matches
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.prompt import TextPrompt
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup

ORIGIN = {True: "kubik", False: "своя"}


def count_of(text: str) -> int | None:
    """The count of 1–50 typed in ``text`` (the digits 0–9 only), else None."""
    low, high = COUNT_RANGE
    value = read_typed_whole(text)
    return value if value is not None and low <= value <= high else None


def count_problem(text: str) -> str:
    """Why ``text`` is not a count of 1–50 ("" when it is)."""
    low, high = COUNT_RANGE
    return "" if count_of(text) is not None else f"Нужно число от {low} до {high}."


class BestiaryNeeds(StepNeeds, Protocol):
    """What the bestiary screen is handed of the services: ``run_step``'s, and the UI thread
    for the store's notice (the app hands it its ``Services``)."""

    @property
    def on_ui(self) -> OnUi: ...


class BestiaryScreen(StyledOnce, ModalScreen[None]):
    """The templates of the campaign's system; Esc closes."""

    DEFAULT_CSS = """
    BestiaryScreen { align: center middle; }
    BestiaryScreen > Vertical {
        width: 100%; height: 100%; border: round $accent; background: $surface; padding: 0 1;
    }
    BestiaryScreen #bestiary-filter { height: 3; }
    BestiaryScreen Horizontal { height: 1fr; }
    BestiaryScreen #bestiary-table { width: 1fr; height: 1fr; }
    BestiaryScreen #bestiary-sheet { width: 1fr; height: 1fr; padding: 0 0 0 1; }
    BestiaryScreen #bestiary-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("a", "add", "В партию", id="bestiary-add", tooltip="Добавить N НИП из шаблона"),
        Binding(
            "b",
            "add_to_fight",
            "В бой",
            id="bestiary-fight",
            tooltip="N НИП сразу в бой (Противники)",
        ),
        Binding("e", "edit", "Правка", id="bestiary-edit", tooltip="Изменить шаблон в форме"),
        Binding(
            "x,delete", "remove", "Удалить", id="bestiary-remove", tooltip="Удалить свой шаблон"
        ),
        Binding("f", "filter", "Фильтр", id="bestiary-filter-key", tooltip="Фильтр: имя или метка"),
        Binding("escape", "close", "Закрыть", id="bestiary-close"),
    ]

    def __init__(self, host: BestiaryNeeds) -> None:
        super().__init__()
        self.host = host
        self.templates: list[Template] = []
        self.shown: list[Template] = []
        self.problem = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="bestiary-title")
            yield ReadyInput(placeholder="фильтр: имя или метка (f)", id="bestiary-filter")
            with Horizontal():
                table: DataTable[Any] = DataTable(id="bestiary-table", cursor_type="row")
                yield table
                with VerticalScroll(id="bestiary-sheet", can_focus=False):
                    yield Static(id="bestiary-sheet-text")
            yield Static(id="bestiary-note")
            yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#bestiary-table", DataTable).add_columns("Шаблон", "Метки", "Чей")
        self.host.store.subscribe(self._store_changed)
        self.reload()
        self.query_one("#bestiary-table", DataTable).focus()

    def on_unmount(self) -> None:
        self.host.store.unsubscribe(self._store_changed)

    def _store_changed(self) -> None:
        """The campaign changed (here, in a worker, in another kubik): redraw on the UI thread."""
        self.host.on_ui(self._reload_if_open)

    def _reload_if_open(self) -> None:
        if self.is_attached:
            self.reload()

    # -- drawing ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the bestiary from the campaign and draw it."""
        from tui.store.bestiary_toml import campaign_bestiary
        from tui.store.schema import SchemaError

        store = self.host.store
        try:
            self.templates = list(campaign_bestiary(store).templates)
            self.problem = ""
        except SchemaError as err:
            self.templates, self.problem = [], f"Бестиарий кампании повреждён: {err}"
        system = registry.title(store.campaign.system)
        own = sum(1 for t in self.templates if not t.default)
        self.query_one("#bestiary-title", Static).update(
            f"[b]Бестиарий[/b] — {system}: шаблонов {len(self.templates)}, своих {own}"
        )
        self._draw()

    def _draw(self) -> None:
        text = self.query_one("#bestiary-filter", Input).value
        self.shown = [t for t in self.templates if matches(f"{t.name} {' '.join(t.tags)}", text)]
        table = self.query_one("#bestiary-table", DataTable)
        row = table.cursor_row
        table.clear()
        for i, t in enumerate(self.shown):
            cells = (t.name, ", ".join(t.tags) or "—", ORIGIN[t.default])
            table.add_row(*map(safe_text, cells), key=str(i))
        if self.shown:
            table.move_cursor(row=min(row, len(self.shown) - 1))
        note = self.problem or (
            "Свой шаблон с именем стартового заменяет его. Файл шаблонов: kubik bestiary add."
            if self.shown
            else "Ничего не найдено: измените фильтр."
        )
        self.query_one("#bestiary-note", Static).update(safe_text(note))
        self._show_sheet()

    def _highlighted(self) -> Template | None:
        table = self.query_one("#bestiary-table", DataTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    @on(DataTable.RowHighlighted, "#bestiary-table")
    def _show_sheet(self) -> None:
        from tui.bridge.sheets import sheet_text
        from tui.present.rolls import plain

        t = self._highlighted()
        sheet = self.query_one("#bestiary-sheet-text", Static)
        if t is None:
            sheet.update("")
            return
        text = sheet_text(self.host.store.campaign.system, t.sheet)
        tags = f"\n[b]Метки:[/b] {plain(', '.join(t.tags))}" if t.tags else ""
        show_markup(sheet, text + tags)

    @on(Input.Changed, "#bestiary-filter")
    def _filtered(self) -> None:
        self._draw()

    @on(Input.Submitted, "#bestiary-filter")
    def _filter_done(self) -> None:
        self.query_one("#bestiary-table", DataTable).focus()

    @on(DataTable.RowSelected, "#bestiary-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_add()

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add", "add_to_fight", "edit"):
            return self._highlighted() is not None
        if action == "remove":
            t = self._highlighted()
            return t is not None and not t.default
        return True

    def action_filter(self) -> None:
        """Type a filter: part of a name or a tag."""
        self.query_one("#bestiary-filter", Input).focus()

    def action_close(self) -> None:
        """Close (Esc in the filter goes back to the list first)."""
        if self.focused is self.query_one("#bestiary-filter", Input):
            self.query_one("#bestiary-table", DataTable).focus()
            return
        self.dismiss(None)

    def action_add(self, side: str | None = None) -> None:
        """Ask how many and add them to the party: «Разбойник 1» … «Разбойник N»."""
        from tui.table.bestiary import steps

        t = self._highlighted()
        if t is None:
            return

        def counted(text: str | None) -> None:
            count = count_of(text or "")
            if count is not None:
                run_step(self.host, steps.add_from_template, t.name, count, side=side)

        where = f"в бой ({side})" if side else "в партию"
        prompt = TextPrompt(
            f"Сколько НИП «{t.name}» добавить {where}? (1–50)",
            "например: 5",
            value="1",
            check=count_problem,
        )
        self.app.push_screen(prompt, counted)

    def action_add_to_fight(self) -> None:
        """Ask how many and add them to the party and straight into the fight being set up."""
        from tui.store.bestiary import DEFAULT_SIDE

        self.action_add(DEFAULT_SIDE)

    def action_edit(self) -> None:
        """Edit the template in the character form; a starter one becomes the campaign's own
        (under its name it stands in the starter's place)."""
        from dataclasses import replace

        from tui.store import new_id
        from tui.table.bestiary import steps
        from tui.widgets.party.fields import weapon_names
        from tui.widgets.party.form import CharacterForm

        t = self._highlighted()
        if t is None:
            return
        system = self.host.store.campaign.system
        others = {o.name for o in self.templates if o.id != t.id}

        def saved(c: Any) -> None:
            if c is None:
                return
            tid = new_id() if t.default else t.id
            sheet = replace(c, id=tid, kind="npc", origin=None)
            run_step(self.host, steps.put_template, replace(t, id=tid, sheet=sheet))

        form = CharacterForm(
            system,
            t.sheet,
            title=f"Шаблон: {t.name}",
            taken=lambda: others,
            weapons=weapon_names(system),
        )
        self.app.push_screen(form, saved)

    def action_remove(self) -> None:
        """Remove the campaign's own template under the cursor."""
        from tui.table.bestiary import steps

        t = self._highlighted()
        if t is not None:
            run_step(self.host, steps.remove_template, t.name)

"""The Партия tab: the party in a table and the highlighted character's sheet."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from tui import registry, words
from tui.bridge.sheets import columns, row, sheet_text
from tui.store import Character
from tui.widgets.common.effect_keys import EffectKeys, effect_bindings, effects_sheet_line
from tui.widgets.common.focus import focus_now
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.table import Table
from tui.widgets.common.text import show_markup
from tui.widgets.party.bestiary_keys import BINDINGS as BESTIARY_BINDINGS
from tui.widgets.party.bestiary_keys import BestiaryKeys
from tui.widgets.party.editing import PartyEditing
from tui.widgets.party.saved_rolls import SavedRolls

__all__ = ["PartyPane", "party_pane"]

#: The most rows the table holds: a campaign of 5,000 characters took seconds to lay out
#: before the first screen (every cell measured) and is browsed by the filter anyway.
MAX_ROWS = 300


class PartyPane(EffectKeys, PartyEditing, SavedRolls, BestiaryKeys, Vertical):
    """List the campaign's characters; Enter opens the check builder for one.

    The keys' actions live with their concern: a system's own (its ``party_keys``, mixed in
    by :func:`party_pane`: Древо's wounds and Судьба), saved rolls (``saved_rolls.py``), adding
    and editing characters (``editing.py``), and the writes and store-following dialogs they
    share (``writes.py``). This module holds the table, the sheet, the filter and the order.
    """

    #: The binding a system's own keys follow (:func:`party_pane`), in the footer and «?».
    SYSTEM_KEYS_AFTER = "party-save-roll"
    BINDINGS = [
        Binding("enter", "check", "Проверка", id="party-check", tooltip="Проверка персонажа"),
        Binding("a", "add", "Новый", id="party-add", tooltip="Новый персонаж"),
        Binding("e", "edit", "Правка", id="party-edit", tooltip="Изменить персонажа"),
        Binding("c", "duplicate", "Копия", id="party-copy", tooltip="Копия персонажа", show=False),
        Binding(
            "x,delete",
            "delete",
            "Удалить",
            id="party-delete",
            tooltip="Удалить персонажа",
            show=False,
        ),
        Binding("s", "sort", "Сортировка", id="party-sort", tooltip="Сменить порядок", show=False),
        # Priority, as «/» in the app: the field takes the keys typed right after «f».
        Binding(
            "f",
            "filter",
            "Фильтр",
            id="party-filter",
            tooltip="Поиск по партии",
            show=False,
            priority=True,
        ),
        Binding(
            "r",
            "saved_roll",
            "Бросок",
            id="party-roll",
            tooltip="Сохранённый бросок персонажа",
            show=False,
        ),
        Binding(
            "b",
            "save_roll",
            "Сохранить бросок",
            id="party-save-roll",
            tooltip="Сохранить бросок персонажа: «Название: выражение»",
            show=False,
        ),
        # A system's own keys go here (System.party_keys: party_pane below).
        *effect_bindings("party", "plus", "minus", None, show=False),  # effects, scene clock
        *BESTIARY_BINDINGS,  # `B` a template of the character, `l` the bestiary
        # The table takes them itself (PartyTable); here for «?» and any other focus.
        Binding(
            "home",
            "edge_row(0)",
            "Первый",
            id="party-first",
            tooltip="Первый персонаж таблицы",
            show=False,
        ),
        Binding(
            "end",
            "edge_row(-1)",
            "Последний",
            id="party-last",
            tooltip="Последний персонаж таблицы",
            show=False,
        ),
    ]

    @dataclass
    class CheckRequested(Message):
        """The GM wants a check for this character."""

        character_id: str

    def compose(self) -> ComposeResult:
        table: Table = PartyTable(
            id="party-table", cursor_type="row", zebra_stripes=True, wrap_last=True
        )  # the last column wraps: «Сабля, Пистолет» was cut beside long wounds
        table.add_columns(*columns(self.store.campaign.system))
        # The rows go in before the first layout, so the first frame already shows the party
        # (added on mount they came one frame — ≥ 17 ms — later).
        self._fill(table, self.store.characters())
        yield table
        more = Static(self._more_text(), id="party-more")
        more.display = bool(self._more_text())
        yield more
        # The filter field (``#party-filter``) is built by the first «f», between the line
        # above and the sheet: most starts never filter, and a text field is one of the
        # costliest widgets of a start to style.
        yield Static(id="party-sheet")

    def on_mount(self) -> None:
        self._show_sheet()

    def show(self, characters: list[Character]) -> None:
        """Redraw the table from the store's characters, keeping the cursor on the same one."""
        table = self.query_one("#party-table", DataTable)
        current, row_at = self.highlighted_id(), table.cursor_row
        shown = self._fill(table, characters)
        if current in {c.id for c in shown}:
            table.move_cursor(row=table.get_row_index(current))
        elif shown:  # removed (or filtered out): the row that took its place
            table.move_cursor(row=min(max(row_at, 0), len(shown) - 1))
        self._show_sheet()
        self._follow_dialog()

    def _fill(self, table: DataTable[Any], characters: list[Character]) -> list[Character]:
        """Put the shown characters' rows into ``table`` (untouched when they are the same)."""
        system = self.store.campaign.system
        self._all = list(characters)
        self._characters = {c.id: c for c in characters}
        found = self._shown(system)
        shown = found[:MAX_ROWS]
        self._hidden = len(found) - len(shown)
        rows = [(c.id, _with_state(system, c, row(system, c))) for c in shown]
        if rows != getattr(self, "_rows", None):
            table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._rows = rows
        if self.is_mounted:
            more = self.query_one("#party-more", Static)
            text = self._more_text()
            if more.content != text:  # the same line: no layout of the screen
                more.update(text)
            more.display = bool(self._hidden)
        return shown

    def _more_text(self) -> str:
        """Say how many characters the table leaves out, and how to find them."""
        hidden = getattr(self, "_hidden", 0)
        if not hidden:
            return ""
        count = words.plural(hidden, "персонаж", "персонажа", "персонажей")
        return f"Ещё {count} не в таблице: «f» — фильтр по имени найдёт любого."

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#party-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    @on(DataTable.RowHighlighted, "#party-table")
    def _row_highlighted(self) -> None:
        self._show_sheet()
        self.refresh_bindings()

    @on(DataTable.RowSelected, "#party-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_check()

    def _show_sheet(self) -> None:
        sheet = self.query_one("#party-sheet", Static)
        character = getattr(self, "_characters", {}).get(self.highlighted_id())
        system = self.store.campaign.system
        text = sheet_text(system, character) if character else "В партии пока никого нет."
        # unchanged (a store change elsewhere, the same row): no layout, no repaint
        show_markup(sheet, text + effects_sheet_line(self.store, character))

    # -- which keys apply (a system's own keys: its party_keys, party_pane) -----------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter" and isinstance(self.app.focused, Input):
            return False  # «f» is a letter in the filter field and the other text fields
        return True

    def action_edge_row(self, row: int) -> None:
        """Move the table's cursor to its first (0) or last (-1) row."""
        table = self.query_one("#party-table", DataTable)
        if table.row_count:
            table.move_cursor(row=row % table.row_count)

    def _highlighted(self) -> Character | None:
        return getattr(self, "_characters", {}).get(self.highlighted_id())

    def action_check(self) -> None:
        """Open the check builder for the highlighted character."""
        character_id = self.highlighted_id()
        if character_id:
            self.post_message(self.CheckRequested(character_id))

    # -- the table's filter and order -------------------------------------------------------

    SORTS = ("default", "name", "stat")

    def _sort_names(self, system: str) -> dict[str, str]:
        stat = registry.get(system).sort_label
        return {"default": "игроки, затем НИП", "name": "по имени", "stat": stat}

    def _shown(self, system: str) -> list[Character]:
        """Return the characters the table shows: filtered, in the chosen order."""
        found = list(getattr(self, "_all", []))
        needle = getattr(self, "_filter", "").casefold()
        if needle:
            found = [c for c in found if needle in _haystack(c)]
        sort = getattr(self, "_sort", "default")
        if sort == "name":
            found.sort(key=lambda c: c.name.casefold())
        elif sort == "stat":
            found.sort(key=lambda c: (-_stat(system, c), c.name.casefold()))
        return found

    def _redraw(self) -> None:
        self.show(list(getattr(self, "_all", [])))

    def action_sort(self) -> None:
        """Cycle the table's order: store order, by name, by the system's main number."""
        current = getattr(self, "_sort", "default")
        self._sort = self.SORTS[(self.SORTS.index(current) + 1) % len(self.SORTS)]
        self._redraw()
        system = self.store.campaign.system
        self.app.notify(f"Порядок: {self._sort_names(system)[self._sort]}", timeout=2)

    def _filter_field(self) -> Input | None:
        """Return the filter field, None before the first «f» built it."""
        found = self.query("#party-filter")
        return found.first(Input) if found else None

    def action_filter(self) -> None:
        """Show the filter field (built the first time); Enter keeps the filter, Esc clears
        it."""
        field = self._filter_field()
        if field is None:
            field = ReadyInput(
                placeholder="Фильтр: часть имени, навыка или заметки", id="party-filter"
            )
            self.mount(field, before="#party-sheet")
        field.display = True
        focus_now(field)

    @on(Input.Changed, "#party-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._filter = event.value.strip()
        self._redraw()

    @on(Input.Submitted, "#party-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        field = self.query_one("#party-filter", Input)
        field.display = bool(field.value.strip())
        self.query_one("#party-table", DataTable).focus()

    def on_key(self, event: events.Key) -> None:
        field = self._filter_field() if event.key == "escape" else None
        if field is not None and field.has_focus:
            event.stop()
            field.value = ""
            field.display = False
            self.query_one("#party-table", DataTable).focus()


@cache
def party_pane(system: str) -> type[PartyPane]:
    """Return the Партия tab's pane class for a campaign of ``system``: :class:`PartyPane`,
    with the system's own keys (:attr:`~tui.registry.System.party_keys`, a mixin with
    ``BINDINGS``) mixed in before it and their bindings after :attr:`PartyPane.SYSTEM_KEYS_AFTER`
    (where the footer and «?» list them)."""
    target = registry.get(system).party_keys
    if target is None:
        return PartyPane
    keys = registry.load(target)
    own = list(PartyPane.BINDINGS)
    at = next(i for i, b in enumerate(own) if getattr(b, "id", None) == PartyPane.SYSTEM_KEYS_AFTER)
    bindings = [*own[: at + 1], *keys.BINDINGS, *own[at + 1 :]]
    # Its own bindings only: PartyPane's are in the list already, in their order.
    namespace = {"BINDINGS": bindings, "__module__": __name__, "__doc__": PartyPane.__doc__}
    pane: type[PartyPane] = type(
        PartyPane.__name__, (keys, PartyPane), namespace, inherit_bindings=False
    )
    return pane


class PartyTable(Table):
    """The party's table: Home and End go to the first and the last character (a DataTable's
    go to the first and last column, which a row cursor does not show)."""

    BINDINGS = [
        Binding("home", "scroll_top", "Первый", show=False),
        Binding("end", "scroll_bottom", "Последний", show=False),
    ]


def _haystack(c: Character) -> str:
    skills = " ".join(s.name for s in c.skills)
    return f"{c.name} {skills} {' '.join(c.weapons)} {c.notes}".casefold()


def _stat(system: str, c: Character) -> int:
    return registry.get(system).sort_value(c)


def _with_state(system: str, c: Character, cells: tuple[str, ...]) -> tuple[str, ...]:
    """Mark the character's state (Древо: «тяжело ранен» / «погиб» in the wounds cell) on a
    line of its own: on one line «Тяжёлая×1, Царапина×1 — тяжело ранен» left Оружие six
    columns at 80."""
    kind = registry.get(system)
    state = kind.state(c)
    if not state or kind.state_column is None:
        return cells
    at = columns(system).index(kind.state_column)
    return (*cells[:at], f"{cells[at]}\n— {state}", *cells[at + 1 :])

"""The campaign settings screen: every [default] table of the system, editable as TOML."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from rules import data
from tui.sanitize import safe_text
from tui.screens.settings_tables import (
    SETTINGS_DOC,
    TABLES,
    TEXT_DOC,
    SettingsError,
    Table,
    check_table,
    current_text,
)
from tui.sheets import SYSTEM_NAMES
from tui.store import Store, StoreError
from tui.widgets.choice import Choice, ChoiceScreen
from tui.widgets.keybar import KeyBar


class SettingsScreen(Screen[None]):
    """Edit the campaign's tables; Ctrl+S checks and saves all, Ctrl+R resets one."""

    DEFAULT_CSS = """
    SettingsScreen #settings-head { height: auto; padding: 0 1; background: $panel; }
    SettingsScreen #settings-tables { width: 26; height: 1fr; }
    SettingsScreen #settings-editor-box { width: 1fr; height: 1fr; }
    SettingsScreen #settings-editor { height: 1fr; }
    SettingsScreen #settings-error { height: auto; max-height: 4; color: $error; padding: 0 1; }
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Сохранить", id="settings-save", tooltip="Проверить и сохранить"),
        Binding(
            "ctrl+r",
            "reset",
            "Сбросить к умолчанию",
            id="settings-reset",
            tooltip="Вернуть таблицу kubik по умолчанию",
        ),
        Binding("escape", "close", "Закрыть", id="settings-close"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.tables: tuple[Table, ...] = TABLES.get(store.campaign.system, ())
        self.saved_tables: dict[str, Any] = store.get_doc(SETTINGS_DOC) or {}
        self.saved_texts: dict[str, str] = store.get_doc(TEXT_DOC) or {}
        self.texts = {
            t.relpath: current_text(t.relpath, self.saved_texts, self.saved_tables)
            for t in self.tables
        }
        self.errors: dict[str, str] = {}
        self.current = self.tables[0].relpath if self.tables else ""

    def compose(self) -> ComposeResult:
        system = SYSTEM_NAMES.get(self.store.campaign.system, self.store.campaign.system)
        yield Static(
            f"[b]Настройки кампании[/b] — {system}. Значения kubik по умолчанию, не слова книги; "
            "* — изменено в кампании.",
            id="settings-head",
        )
        with Horizontal():
            yield OptionList(*self._options(), id="settings-tables")
            with Vertical(id="settings-editor-box"):
                yield TextArea(
                    self.texts.get(self.current, ""),
                    language=None,
                    id="settings-editor",
                    show_line_numbers=False,
                    soft_wrap=True,
                )
                yield Static(id="settings-error")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#settings-tables", OptionList).focus()

    def _options(self) -> list[Option]:
        options = []
        for t in self.tables:
            mark = "✗" if t.relpath in self.errors else ("*" if self._overridden(t) else " ")
            if self._edited(t.relpath):
                mark = "✗" if t.relpath in self.errors else "●"
            options.append(Option(f"{mark} {t.title}", id=t.relpath))
        return options

    def _overridden(self, t: Table) -> bool:
        return t.relpath in self.saved_tables

    def _edited(self, relpath: str) -> bool:
        saved = current_text(relpath, self.saved_texts, self.saved_tables)
        return self.texts.get(relpath, saved) != saved

    def _redraw_list(self) -> None:
        table_list = self.query_one("#settings-tables", OptionList)
        highlighted = table_list.highlighted
        table_list.clear_options()
        table_list.add_options(self._options())
        table_list.highlighted = highlighted

    def _show(self, relpath: str) -> None:
        self.current = relpath
        editor = self.query_one("#settings-editor", TextArea)
        with self.prevent(TextArea.Changed):
            editor.load_text(self.texts[relpath])
        self._show_error()

    def _show_error(self) -> None:
        error = self.errors.get(self.current, "")
        self.query_one("#settings-error", Static).update(safe_text(error))  # quotes the TOML

    @on(OptionList.OptionHighlighted, "#settings-tables")
    def _table_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.current:
            self._show(event.option.id)

    @on(OptionList.OptionSelected, "#settings-tables")
    def _table_selected(self) -> None:
        self.query_one("#settings-editor", TextArea).focus()

    @on(TextArea.Changed, "#settings-editor")
    def _edited_text(self, event: TextArea.Changed) -> None:
        self.texts[self.current] = event.text_area.text
        if self.current in self.errors:
            del self.errors[self.current]
            self._show_error()
        self._redraw_list()

    # -- actions ---------------------------------------------------------------------------

    def action_save(self) -> None:
        """Check every edited table; save all of them as one step only if all are valid."""
        parsed: dict[str, dict[str, Any]] = {}
        self.errors.clear()
        for t in self.tables:
            if not self._edited(t.relpath):
                continue
            try:
                parsed[t.relpath] = check_table(t.relpath, self.texts[t.relpath])
            except SettingsError as err:
                self.errors[t.relpath] = str(err)
        self._redraw_list()
        if self.errors:
            first = next(t for t in self.tables if t.relpath in self.errors)
            self.query_one("#settings-tables", OptionList).highlighted = self.tables.index(first)
            self._show(first.relpath)
            self.notify(f"Не сохранено: ошибки в таблицах ({len(self.errors)}).", severity="error")
            return
        if not parsed:
            self.notify("Изменений нет.")
            return
        titles = ", ".join(t.title for t in self.tables if t.relpath in parsed)
        self._write(parsed, f"Настройки: {titles}")

    def action_reset(self) -> None:
        """Put the highlighted table back to kubik's default and save that."""
        t = next((t for t in self.tables if t.relpath == self.current), None)
        if t is None:
            return
        self.texts[t.relpath] = data.packaged_text(t.relpath)
        self.errors.pop(t.relpath, None)
        self._show(t.relpath)
        self._write(
            {t.relpath: data.packaged_table(t.relpath)}, f"Настройки: «{t.title}» по умолчанию"
        )

    def _write(self, parsed: dict[str, dict[str, Any]], label: str) -> bool:
        tables = dict(self.saved_tables)
        texts = dict(self.saved_texts)
        for relpath, table in parsed.items():
            if table == data.packaged_table(relpath):
                tables.pop(relpath, None)  # the default needs no override
                texts.pop(relpath, None)
            else:
                tables[relpath] = table
                texts[relpath] = self.texts[relpath]
        try:
            self.store.apply(label, docs={SETTINGS_DOC: tables or None, TEXT_DOC: texts or None})
        except StoreError as err:
            self.notify(str(err), severity="error", timeout=10)
            return False
        data.set_overrides(tables)
        self.saved_tables, self.saved_texts = tables, texts
        self._redraw_list()
        self.notify(f"Сохранено. {label}")
        return True

    def action_close(self) -> None:
        """Close; unsaved edits are not dropped without asking."""
        if not any(self._edited(t.relpath) for t in self.tables):
            self.dismiss(None)
            return

        def answered(choice: str | None) -> None:
            if choice == "save":
                self.action_save()
                if not self.errors and not any(self._edited(t.relpath) for t in self.tables):
                    self.dismiss(None)
            elif choice == "drop":
                self.dismiss(None)

        self.app.push_screen(
            ChoiceScreen(
                "Есть несохранённые изменения",
                [
                    Choice("Сохранить и закрыть", "save"),
                    Choice("Закрыть без сохранения", "drop"),
                    Choice("Вернуться к правке", None),
                ],
            ),
            answered,
        )

"""The campaign settings screen: every [default] table of the system as a form.

Each value has its Russian name, its range and whose word it is (the book's or kubik's), and
is checked as it is typed. The tables stay TOML: Ctrl+G shows the table's TOML to add or
drop rows; the campaign keeps the TOML it saved.
"""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from rules import data
from tui import registry
from tui.registry.tables import Table
from tui.sanitize import safe_text
from tui.screens.settings_form import SettingsForm
from tui.screens.settings_tables import (
    SETTINGS_DOC,
    TEXT_DOC,
    SettingsError,
    check_table,
    current_text,
    default_text,
    docs_to_save,
    dump_toml,
    is_edited,
    list_mark,
)
from tui.services import lent
from tui.store import Store
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.focus import focus_now
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.styled import StyledOnce

NOT_TOML = "Это не TOML: исправьте текст, чтобы вернуться к форме."


class SettingsScreen(StyledOnce, Screen[None]):
    """Edit the campaign's tables; Ctrl+S checks and saves all, Ctrl+R resets one."""

    DEFAULT_CSS = """
    SettingsScreen #settings-head { height: auto; padding: 0 1; background: $panel; }
    SettingsScreen #settings-tables { width: 26; height: 1fr; }
    SettingsScreen #settings-editor-box { width: 1fr; height: 1fr; }
    SettingsScreen #settings-editor { height: 1fr; display: none; }
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
        Binding(
            "ctrl+g",  # not Ctrl+E: the TOML editor takes it for «end of line»
            "toggle_toml",
            "TOML",
            id="settings-toml",
            tooltip="Таблица как текст TOML (добавить или убрать строки) / снова форма",
        ),
        Binding("escape", "close", "Закрыть", id="settings-close"),
        # Priority: Enter on the list moves the focus before the next key is handed out (the
        # list's own Enter posts a message, and keys typed right after it hit the list).
        Binding("enter", "open_table", "Править", show=False, priority=True),
        Binding("up", "app.focus_step(-1)", "Выше", show=False),
        Binding("down", "app.focus_step(1)", "Ниже", show=False),
    ]

    # The services it uses (tui/services/lent.py); the store it edits is handed to it.
    writer = lent.writer

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.tables: tuple[Table, ...] = registry.get(store.campaign.system).tables
        self.saved_tables: dict[str, Any] = store.get_doc(SETTINGS_DOC) or {}
        self.saved_texts: dict[str, str] = store.get_doc(TEXT_DOC) or {}
        self.texts = {
            t.relpath: current_text(t.relpath, self.saved_texts, self.saved_tables)
            for t in self.tables
        }
        self.errors: dict[str, str] = {}
        self.current = self.tables[0].relpath if self.tables else ""
        #: The label of the save handed to the app's writer and not over yet, else None.
        self._saving: str | None = None
        #: Whether the current table is shown as its TOML (Ctrl+G), not as its form.
        self.as_toml = False

    def compose(self) -> ComposeResult:
        system = registry.title(self.store.campaign.system)
        yield Static(
            f"[b]Настройки кампании[/b] — {system}. У каждого значения: диапазон и чьё это "
            "слово (книга или kubik); * — изменено в кампании.",
            id="settings-head",
        )
        with Horizontal():
            yield OptionList(*self._options(), id="settings-tables")
            with Vertical(id="settings-editor-box"):
                yield SettingsForm(id="settings-form")
                yield TextArea(
                    self.texts.get(self.current, ""),
                    language=None,
                    id="settings-editor",
                    show_line_numbers=False,
                    soft_wrap=True,
                )
                yield Static(id="settings-error")
        yield KeyBar()

    async def on_mount(self) -> None:
        self.query_one("#settings-tables", OptionList).focus()
        await self._show_form()

    async def _show_form(self) -> None:
        """Show the current table as a form (its TOML when that does not parse)."""
        if not self.current:
            return
        form = self.query_one("#settings-form", SettingsForm)
        if not await form.show(self.current, self.texts[self.current]):
            self._show_toml(True)

    @work(group="settings-form", exclusive=True)
    async def _show_form_later(self) -> None:
        """:meth:`_show_form` in the form's worker: a newer table cancels it. The worker makes
        the coroutine when it runs, so one cancelled before it ran leaves none unawaited."""
        await self._show_form()

    def _show_toml(self, toml: bool) -> None:
        """Show the TOML editor (``toml``) or the form: the two widgets, not a class on the
        screen (a screen's class restyles every field of the form; ~0.1 s a switch)."""
        self.as_toml = toml
        self.query_one("#settings-editor", TextArea).display = toml
        self.query_one("#settings-form", SettingsForm).display = not toml

    def _in(self, box: str) -> bool:
        focused = self.focused
        return focused is not None and any(
            isinstance(n, Widget) and n.id == box for n in focused.ancestors_with_self
        )

    def _options(self) -> list[Option]:
        return [Option(f"{self._mark(t.relpath)} {t.title}", id=t.relpath) for t in self.tables]

    def _mark(self, relpath: str) -> str:
        return list_mark(
            refused=relpath in self.errors,
            edited=self._edited(relpath),
            overridden=relpath in self.saved_tables,
        )

    def _edited(self, relpath: str) -> bool:
        """Whether the table differs from the saved one (:func:`is_edited`)."""
        return is_edited(relpath, self.texts, self.saved_texts, self.saved_tables)

    def _redraw_list(self) -> None:
        """Draw the list's marks anew, when one changed (not at each key: the same marks)."""
        table_list = self.query_one("#settings-tables", OptionList)
        options = self._options()
        if [str(o.prompt) for o in options] == [str(o.prompt) for o in table_list.options]:
            return
        highlighted = table_list.highlighted
        table_list.clear_options()
        table_list.add_options(options)
        table_list.highlighted = highlighted

    def _sync_form(self) -> None:
        """Take the form's fields as they are now, before an action reads the tables (the
        form's messages about keys typed just before the action may still be on the way)."""
        if self.as_toml:
            return
        form = self.query_one("#settings-form", SettingsForm)
        if not form.relpath:
            return
        changed = form.sync()
        if form.refused:
            self.errors[form.relpath] = next(iter(form.refused.values()))
        elif changed:
            self.texts[form.relpath] = dump_toml(form.table)
            self.errors.pop(form.relpath, None)
        else:
            return
        self._show_error()
        self._redraw_list()

    def _show(self, relpath: str) -> None:
        self._sync_form()
        self._load(relpath)

    def _load(self, relpath: str) -> None:
        """Show the table ``relpath`` as :attr:`texts` has it (its TOML and its form)."""
        self.current = relpath
        editor = self.query_one("#settings-editor", TextArea)
        with self.prevent(TextArea.Changed):
            editor.load_text(self.texts[relpath])
        self._show_error()
        if not self.as_toml:
            self._show_form_later()

    def store_changed(self) -> None:
        """Follow the store (Ctrl+Z / Ctrl+Y here, another window): show the tables it has
        now. A table the GM is editing here keeps the edits; a save is judged against what
        the store has."""
        tables = self.store.get_doc(SETTINGS_DOC) or {}
        texts = self.store.get_doc(TEXT_DOC) or {}
        if self._saving is not None or (tables, texts) == (self.saved_tables, self.saved_texts):
            return  # a save of this screen's own takes what the store has once it is done
        self._sync_form()
        edited = {t.relpath for t in self.tables if self._edited(t.relpath)}
        self.saved_tables, self.saved_texts = tables, texts
        for t in self.tables:
            if t.relpath not in edited:
                self.texts[t.relpath] = current_text(t.relpath, texts, tables)
                self.errors.pop(t.relpath, None)
        self._redraw_list()
        if self.current and self.current not in edited:
            self._load(self.current)  # not _show: its sync would take the old fields back

    def _show_error(self) -> None:
        error = self.errors.get(self.current, "")
        self.query_one("#settings-error", Static).update(safe_text(error))  # quotes the TOML

    @on(OptionList.OptionHighlighted, "#settings-tables")
    def _table_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self.current:
            self._show(event.option.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_table":  # only on the list; Enter elsewhere is the field's own
            return self.focused is self.query_one("#settings-tables", OptionList)
        return True

    def action_open_table(self) -> None:
        """Go into the highlighted table's form (or its TOML)."""
        self._table_selected()

    @on(OptionList.OptionSelected, "#settings-tables")
    def _table_selected(self) -> None:
        if self.as_toml:
            focus_now(self.query_one("#settings-editor", TextArea))
        else:
            self.query_one("#settings-form", SettingsForm).focus_first()

    @on(SettingsForm.Edited)
    def _form_edited(self, event: SettingsForm.Edited) -> None:
        self.texts[event.relpath] = event.text
        self.errors.pop(event.relpath, None)
        self._show_error()
        self._redraw_list()

    @on(SettingsForm.Refused)
    def _form_refused(self, event: SettingsForm.Refused) -> None:
        self.errors[event.relpath] = event.reason
        self._show_error()
        self._redraw_list()

    @on(TextArea.Changed, "#settings-editor")
    def _edited_text(self, event: TextArea.Changed) -> None:
        self.texts[self.current] = event.text_area.text
        if self.current in self.errors:
            del self.errors[self.current]
            self._show_error()
        self._redraw_list()
        if not self.as_toml:  # the text changed behind the form: show it anew
            self._show_form_later()

    # -- actions ---------------------------------------------------------------------------

    async def action_toggle_toml(self) -> None:
        """Switch the current table between its form and its TOML."""
        if self.as_toml:
            if not await self.query_one("#settings-form", SettingsForm).show(
                self.current, self.texts[self.current]
            ):
                self.notify(NOT_TOML, severity="error")
                return
            self._show_toml(False)
            self.query_one("#settings-form", SettingsForm).focus_first()
        else:
            self._sync_form()
            editor = self.query_one("#settings-editor", TextArea)
            if editor.text != self.texts[self.current]:  # the form's edits, as TOML
                with self.prevent(TextArea.Changed):
                    editor.load_text(self.texts[self.current])
            self._show_toml(True)
            editor.focus()

    def action_save(self, close: bool = False) -> None:
        """Check every edited table; save all of them as one step only if all are valid
        (``close``: then close the screen, once it is saved)."""
        self._sync_form()
        parsed: dict[str, dict[str, Any]] = {}
        form = self.query_one("#settings-form", SettingsForm)
        if form.refused and not self.as_toml:
            self.errors = {form.relpath: next(iter(form.refused.values()))}
            self._show_error()
            self._redraw_list()
            self.notify("Не сохранено: значение вне правил (см. под формой).", severity="error")
            return
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
        self._write(parsed, f"Настройки: {titles}", close)

    def action_reset(self) -> None:
        """Put the highlighted table back to kubik's default and save that."""
        t = next((t for t in self.tables if t.relpath == self.current), None)
        if t is None:
            return
        self.texts[t.relpath] = default_text(t.relpath)
        self.errors.pop(t.relpath, None)
        self._show(t.relpath)
        self._write(
            {t.relpath: data.packaged_table(t.relpath)}, f"Настройки: «{t.title}» по умолчанию"
        )

    def _write(self, parsed: dict[str, dict[str, Any]], label: str, close: bool = False) -> None:
        """Save the tables in the app's writer (a worker: the screen never waits for the lock).

        Only what this screen changed is applied: another window's settings saved meanwhile
        stay. Once saved the screen shows what the store has (and closes, with ``close``);
        a refused save is explained and changes nothing. While one save is on its way, the
        next is refused: it would be made from what the screen read before the first.
        """
        if self._saving is not None:
            self.notify(f"Подождите: ещё сохраняется «{self._saving}».", severity="warning")
            return
        store = self.store
        docs = docs_to_save(parsed, self.texts, self.saved_texts, self.saved_tables)
        bases = {SETTINGS_DOC: self.saved_tables, TEXT_DOC: self.saved_texts}

        def job() -> None:
            store.apply(label, docs=docs, bases=bases, what="настройки не записаны")

        def done(_: None) -> None:
            self._saving = None
            saved_tables = store.get_doc(SETTINGS_DOC) or {}
            data.set_overrides(saved_tables)
            self.saved_tables, self.saved_texts = saved_tables, store.get_doc(TEXT_DOC) or {}
            if not self.is_attached:
                return  # closed meanwhile: the campaign has it, nothing left to draw
            self._redraw_list()
            self.notify(f"Сохранено. {label}")
            if close and not any(self._edited(t.relpath) for t in self.tables):
                self.dismiss(None)

        def failed(err: Exception) -> None:
            self._saving = None
            self.notify(f"Не сохранено «{label}»: {err}", severity="error", timeout=10)

        self._saving = label
        self.writer.write(job, done, failed=failed)

    def action_close(self) -> None:
        """One level out: from a field back to the list of tables; from the list, close
        (unsaved edits are not dropped without asking)."""
        self._sync_form()
        form = self.query_one("#settings-form", SettingsForm)
        if form.focus_pending:  # Enter into a form still being built, then Esc: out of it
            form.focus_pending = False
            return
        if self._in("settings-form") or self._in("settings-editor"):
            self.query_one("#settings-tables", OptionList).focus()
            return
        if not any(self._edited(t.relpath) for t in self.tables):
            self.dismiss(None)
            return

        def answered(choice: str | None) -> None:
            if choice == "save":
                self.action_save(close=True)  # closes once saved
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

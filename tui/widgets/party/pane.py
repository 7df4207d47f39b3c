"""The Партия tab: the party in a table and the highlighted character's sheet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Static
from textual.widgets.data_table import RowDoesNotExist

from rules import drevo  # loads each part on first use (PEP 562)
from rules.errors import RulesError
from tui import words
from tui.bridge.sheets import columns, row, sheet_text, track_of, wounds_text
from tui.store import Character, Edit, new_id
from tui.widgets.common.effect_keys import EffectKeys, effect_bindings, effects_sheet_line
from tui.widgets.common.focus import focus_now
from tui.widgets.common.table import Table


class PartyPane(EffectKeys, Vertical):
    """List the campaign's characters; Enter opens the check builder for one."""

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
        Binding("w", "wound", "Рана", id="party-wound", tooltip="Нанести рану (Древо)"),
        Binding("h", "heal", "Лечить", id="party-heal", tooltip="Вылечить рану (Древо)"),
        Binding(
            "g", "grant_fate", "+Судьба", id="party-fate-grant", tooltip="Ведущий даёт очко Судьбы"
        ),
        Binding(
            "o",
            "fate_circumstance",
            "Судьба: обстоятельство",
            id="party-fate-note",
            tooltip="Потратить очко Судьбы на благоприятное стечение обстоятельств",
            show=False,
        ),
        *effect_bindings("party", "plus", "minus", None, show=False),  # effects, scene clock
    ]

    @dataclass
    class CheckRequested(Message):
        """The GM wants a check for this character."""

        character_id: str

    def compose(self) -> ComposeResult:
        table: Table = Table(id="party-table", cursor_type="row", zebra_stripes=True)
        table.add_columns(*columns(self.app.store.campaign.system))  # type: ignore[attr-defined]
        # The rows go in before the first layout, so the first frame already shows the party
        # (added on mount they came one frame — ≥ 17 ms — later).
        self._fill(table, self.app.store.characters())  # type: ignore[attr-defined]
        yield table
        yield Input(placeholder="Фильтр: часть имени, навыка или заметки", id="party-filter")
        yield Static(id="party-sheet")

    def on_mount(self) -> None:
        self.query_one("#party-filter", Input).display = False
        self._show_sheet()

    def show(self, characters: list[Character]) -> None:
        """Redraw the table from the store's characters, keeping the cursor on the same one."""
        table = self.query_one("#party-table", DataTable)
        current = self.highlighted_id()
        shown = self._fill(table, characters)
        if current in {c.id for c in shown}:
            table.move_cursor(row=table.get_row_index(current))
        self._show_sheet()
        self._follow_dialog()

    def _fill(self, table: DataTable[Any], characters: list[Character]) -> list[Character]:
        """Put the shown characters' rows into ``table`` (untouched when they are the same)."""
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        self._all = list(characters)
        self._characters = {c.id: c for c in characters}
        shown = self._shown(system)
        rows = [(c.id, _with_state(system, c, row(system, c))) for c in shown]
        if rows != getattr(self, "_rows", None):
            table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._rows = rows
        return shown

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
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        text = sheet_text(system, character) if character else "В партии пока никого нет."
        sheet.update(text + effects_sheet_line(self.app.store, character))  # type: ignore[attr-defined]

    # -- Древо: wounds and Судьба ------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter" and isinstance(self.app.focused, Input):
            return False  # «f» is a letter in the filter field and the other text fields
        if action in ("wound", "heal", "grant_fate", "fate_circumstance"):
            if self.app.store.campaign.system != "drevo":  # type: ignore[attr-defined]
                return False
            c = self._highlighted()
            if c is None:
                return False
            if action == "heal":
                return any(c.wounds.values()) or bool(c.extra.get("dead"))
            if action == "fate_circumstance":
                return c.fate > 0 and drevo.fate_rules().allows("circumstance")
        return True

    def _highlighted(self) -> Character | None:
        return getattr(self, "_characters", {}).get(self.highlighted_id())

    def _edit(
        self,
        c: Character,
        make: Callable[[Character], tuple[Character, str, str]],
        what: str,
        data: dict[str, Any] | None = None,
    ) -> None:
        """Save what ``make`` turns the *current* ``c`` into: ``(new, label, log text)``;
        ``data``: more of the Журнал entry's data (Судьба spent, for the luck ledger).

        The store runs ``make`` on the character as it is in the file now, so a wound given
        in this window is added to the track another window changed meanwhile; a character
        removed meanwhile is not written back («… удалён в другом окне — рана не записана»).
        """
        app = self.app

        def edit(current: Character) -> Edit:
            new, label, text = make(current)
            from tui.bridge.luck import with_luck

            more = with_luck("note", current.name, {"character": current.id, **(data or {})})
            entry = app.entry("note", current.name, text, more)  # type: ignore[attr-defined]
            return Edit(new, label, [entry])

        def write() -> None:
            app.store.update_character(c.id, edit, name=c.name, what=what)  # type: ignore[attr-defined]

        self._store_write(write)

    # -- saved rolls ----------------------------------------------------------------------------

    def action_saved_roll(self) -> None:
        """Roll one of the highlighted character's saved rolls (a list when there are several)."""
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return
        if not c.rolls:
            self.app.notify(
                f"У «{c.name}» нет сохранённых бросков — добавьте: b, «Атака: 2d6+3»",
                timeout=6,
            )
            return
        if len(c.rolls) == 1:
            self.app.roll_saved(c, c.rolls[0][0])  # type: ignore[attr-defined]
            return

        def chosen(name: str | None) -> None:
            if name is not None:
                self.app.roll_saved(c, name)  # type: ignore[attr-defined]

        choices = [Choice(f"{name}: {notation}", name) for name, notation in c.rolls]
        self.app.push_screen(ChoiceScreen(f"Бросок: {c.name}", choices), chosen)

    def action_save_roll(self) -> None:
        """Save a named roll on the highlighted character («Название:» alone removes it)."""
        from tui.widgets.common.prompt import TextPrompt

        c = self._highlighted()
        if c is None:
            return

        def typed(text: str | None) -> None:
            if text is None:
                return
            try:
                with_saved_roll(c.rolls, text)  # refuse a bad line before anything is written
            except RulesError as err:
                self.app.notify(str(err), severity="error", timeout=10)
                return
            name = text.partition(":")[0].strip()

            def saved(current: Character) -> tuple[Character, str, str]:
                rolls = with_saved_roll(current.rolls, text)  # onto the rolls as they are now
                gone = len(rolls) < len(current.rolls)
                return (
                    replace(current, rolls=rolls),
                    f"{current.name}: бросок «{name}»",
                    f"Бросок «{name}» {'удалён' if gone else 'сохранён'}",
                )

            self._edit(c, saved, "бросок не сохранён")

        self.app.push_screen(
            TextPrompt(f"Бросок для {c.name}", "Название: выражение, например «Атака: 2d6+3»"),
            typed,
        )

    def action_wound(self) -> None:
        """Give the highlighted character a wound (the cascade applies)."""
        from tui.bridge import combat as bridge  # lazy: not needed for the first screen
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return

        def wounded(current: Character, level: str) -> tuple[Character, str, str]:
            track = bridge.track_of(current).take(level)
            state = f" — {words.wound_state(track)}" if not track.can_act else ""
            return (
                bridge.with_track(current, track),
                f"{current.name}: {drevo.level_name(level)}",
                f"Рана: {drevo.level_name(level)}. Раны: {wounds_text(track.counts)}{state}",
            )

        def chosen(level: str | None) -> None:
            if level is not None:
                self._edit(c, lambda current: wounded(current, level), "рана не записана")

        choices = [Choice(drevo.level_name(level), level) for level in drevo.LEVELS]
        screen = ChoiceScreen(f"Рана для {c.name}", choices)
        now = "рана добавится к текущим ранам"
        self._open_dialog(c, screen, chosen, "рана не записана", changed=now)

    def action_heal(self) -> None:
        """Heal one wound of the highlighted character; each option says what it needs."""
        from tui.bridge import combat as bridge  # lazy: not needed for the first screen
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return
        track = bridge.track_of(c)

        def healed(current: Character, level: str) -> tuple[Character, str, str]:
            after = bridge.track_of(current).heal(level)
            return (
                bridge.with_track(current, after),
                f"{current.name}: вылечено — {drevo.level_name(level)}",
                f"Вылечено: {drevo.level_name(level)}. Раны: {wounds_text(after.counts)}",
            )

        def chosen(level: str | None) -> None:
            if level is not None:
                self._edit(c, lambda current: healed(current, level), "лечение не записано")

        choices = [
            Choice(f"{drevo.level_name(level)} — {need}", level) for level, need in track.needs()
        ]
        screen = ChoiceScreen(f"Лечить {c.name}", choices)
        self._open_dialog(c, screen, chosen, "лечение не записано", reopen=self._reopen_heal)

    def _reopen_heal(self) -> None:
        if len(self.app.screen_stack) == 1 and self.check_action("heal", ()):
            self.action_heal()

    def action_grant_fate(self) -> None:
        """The GM gives the highlighted character one point of Судьба."""
        c = self._highlighted()
        if c is not None:
            self._edit(
                c,
                lambda current: (
                    replace(current, fate=current.fate + 1),
                    f"{current.name}: +1 Судьба",
                    f"Ведущий даёт очко Судьбы: теперь {current.fate + 1}",
                ),
                "очко Судьбы не записано",
            )

    def action_fate_circumstance(self) -> None:
        """Spend one Судьба on a favourable circumstance, with the GM's consent and a note."""
        from tui.widgets.common.prompt import TextPrompt  # lazy: not needed for the first screen

        c = self._highlighted()
        if c is None:
            return

        def spent(current: Character, note: str) -> tuple[Character, str, str]:
            left = drevo.spend_fate("circumstance", current.fate)
            return (
                replace(current, fate=left),
                f"{current.name}: Судьба на обстоятельство",
                f"Судьба на благоприятное обстоятельство: {note} (осталось {left})",
            )

        def noted(note: str | None) -> None:
            if note:
                self._edit(
                    c,
                    lambda current: spent(current, note),
                    "очко Судьбы не потрачено",
                    {"fate_spent": 1},  # one point: spend_fate's cost below
                )

        prompt = TextPrompt(f"{c.name}: что складывается в его пользу?", "с согласия ведущего")
        now = "очко спишется с текущей Судьбы"
        self._open_dialog(c, prompt, noted, "очко Судьбы не потрачено", changed=now)

    def action_check(self) -> None:
        """Open the check builder for the highlighted character."""
        character_id = self.highlighted_id()
        if character_id:
            self.post_message(self.CheckRequested(character_id))

    # -- editing the party -------------------------------------------------------------------

    SORTS = ("default", "name", "stat")

    def _sort_names(self, system: str) -> dict[str, str]:
        stat = {"drevo": "по Судьбе", "ide4": "по энергии"}.get(system, "по лучшему навыку")
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
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        self.app.notify(f"Порядок: {self._sort_names(system)[self._sort]}", timeout=2)

    def action_filter(self) -> None:
        """Show the filter field; Enter keeps the filter, Esc clears it."""
        field = self.query_one("#party-filter", Input)
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
        field = self.query_one("#party-filter", Input)
        if event.key == "escape" and field.has_focus:
            event.stop()
            field.value = ""
            field.display = False
            self.query_one("#party-table", DataTable).focus()

    def _open_form(self, c: Character, title: str, on_saved: Callable[[Character], None]) -> None:
        from tui.widgets.party.form import CharacterForm

        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        taken = {o.name for o in getattr(self, "_all", []) if o.id != c.id}
        weapons = list(drevo.weapons()) if system == "drevo" else []

        def done(result: Character | None) -> None:
            if result is not None:
                on_saved(result)

        form = CharacterForm(system, c, title=title, taken=taken, weapons=weapons)
        if c.origin is None or c.origin.get("id") != c.id:  # a new character or a copy
            self.app.push_screen(form, done)
        else:
            self._open_dialog(c, form, done, "правка не записана")

    def _open_dialog(
        self,
        c: Character,
        screen: Any,
        done: Callable[[Any], None],
        what: str,
        reopen: Callable[[], None] | None = None,
        *,
        changed: str = "сохранится только то, что меняете вы",
    ) -> None:
        """Push a dialog about ``c`` that follows the store while it is open.

        Removed in another window (or by an undo): the dialog closes and says what was not
        written. Changed: ``reopen`` builds it anew from the current character (the heal
        dialog's options depend on the wounds), else the GM is told that only what is changed
        here will be saved.
        """
        self._dialog = _Dialog(screen, c, what, reopen, changed)

        def closed(result: Any) -> None:
            if self._dialog is not None and self._dialog.screen is screen:
                self._dialog = None
            done(result)

        self.app.push_screen(screen, closed)

    def _follow_dialog(self) -> None:
        """React to a change of the open dialog's character (see :meth:`_open_dialog`)."""
        dialog = getattr(self, "_dialog", None)
        if dialog is None:
            return
        if dialog.screen not in self.app.screen_stack:
            self._dialog = None
            return
        current = self._characters.get(dialog.character.id)
        if current is not None and current == dialog.character:
            return
        name = dialog.character.name
        if current is None or dialog.reopen is not None:
            self._dialog = None
            if dialog.screen.is_current:
                dialog.screen.dismiss(None)
            if current is None:
                self.app.notify(
                    f"Персонаж {name} удалён в другом окне — {dialog.what}.",
                    severity="warning",
                    timeout=10,
                )
            elif dialog.reopen is not None:
                self.app.notify(f"Персонаж {name} изменён в другом окне: окно обновлено.")
                self.call_after_refresh(dialog.reopen)
            return
        dialog.character = current
        self.app.notify(f"Персонаж {name} изменён в другом окне: {dialog.changed}.", timeout=8)

    def _store_write(
        self, write: Callable[[], object], done: Callable[[], object] | None = None
    ) -> None:
        """Hand the write to the app's writer (a worker: the UI never waits for the lock);
        ``done`` runs once it is saved. A refused write is explained and changes nothing."""
        self.app.write(write, None if done is None else lambda _: done())  # type: ignore[attr-defined]

    def _select(self, character_id: str) -> None:
        table = self.query_one("#party-table", DataTable)
        try:
            table.move_cursor(row=table.get_row_index(character_id))
        except RowDoesNotExist:  # filtered out: the cursor stays
            return

    def action_add(self) -> None:
        """Add a character through the form."""
        from tui.widgets.party.form import blank_character

        store = self.app.store  # type: ignore[attr-defined]
        system = store.campaign.system
        fate = drevo.fate_rules().starting_points if system == "drevo" else 0

        def saved(c: Character) -> None:
            self._store_write(
                lambda: store.upsert_character(c, label=f"Добавлен «{c.name}»"),
                lambda: self._select(c.id),
            )

        self._open_form(blank_character(system, fate), "Новый персонаж", saved)

    def action_edit(self) -> None:
        """Edit the highlighted character through the form."""
        c = self._highlighted()
        if c is None:
            return
        store = self.app.store  # type: ignore[attr-defined]

        def saved(new: Character) -> None:
            self._store_write(
                lambda: store.upsert_character(
                    new, label=f"Изменён «{new.name}»", what="правка не записана"
                )
            )

        self._open_form(c, f"Правка: {c.name}", saved)

    def action_duplicate(self) -> None:
        """Copy the highlighted character (a new id, no wounds) and open the copy's form."""
        c = self._highlighted()
        if c is None:
            return
        store = self.app.store  # type: ignore[attr-defined]
        taken = {o.name.casefold() for o in getattr(self, "_all", [])}
        name, n = f"{c.name} (копия)", 2
        while name.casefold() in taken:
            name, n = f"{c.name} (копия {n})", n + 1
        extra = {k: v for k, v in c.extra.items() if k != "dead"}
        copy = replace(c, id=new_id(), name=name, wounds={}, extra=extra)

        def saved(new: Character) -> None:
            self._store_write(
                lambda: store.upsert_character(new, label=f"Копия «{c.name}»: «{new.name}»"),
                lambda: self._select(new.id),
            )

        self._open_form(copy, f"Копия: {c.name}", saved)

    def action_delete(self) -> None:
        """Delete the highlighted character after a confirmation."""
        from tui.widgets.common.choice import (  # lazy: not needed for the first screen
            Choice,
            ChoiceScreen,
        )

        c = self._highlighted()
        if c is None:
            return
        store = self.app.store  # type: ignore[attr-defined]

        def answered(yes: bool | None) -> None:
            if yes:
                self._store_write(lambda: store.delete_character(c.id))

        choices = [Choice("Нет, оставить", False), Choice(f"Да, удалить «{c.name}»", True)]
        self.app.push_screen(
            ChoiceScreen(f"Удалить «{c.name}»? (Ctrl+Z вернёт)", choices), answered
        )


@dataclass
class _Dialog:
    """The open dialog about one character, and what it was opened on."""

    screen: Any
    character: Character
    what: str
    reopen: Callable[[], None] | None
    #: What saving does now that the character changed under the dialog.
    changed: str


def _haystack(c: Character) -> str:
    skills = " ".join(s.name for s in c.skills)
    return f"{c.name} {skills} {' '.join(c.weapons)} {c.notes}".casefold()


def _stat(system: str, c: Character) -> int:
    if system == "drevo":
        return c.fate
    if system == "ide4":
        return int(c.extra.get("energy", 100))
    return max((s.value for s in c.skills), default=-99)


def _with_state(system: str, c: Character, cells: tuple[str, ...]) -> tuple[str, ...]:
    """Mark «тяжело ранен» / «погиб» in a Древо row's wounds cell."""
    if system != "drevo":
        return cells
    state = words.wound_state(track_of(c))
    if not state:
        return cells
    return (*cells[:3], f"{cells[3]} — {state}", *cells[4:])


def with_saved_roll(rolls: tuple[tuple[str, str], ...], text: str) -> tuple[tuple[str, str], ...]:
    """Return ``rolls`` with «Название: выражение» added or replaced («Название:» removes it).

    Raises:
        RulesError: no name, or the expression does not parse (the message says where).
    """
    from rules.dice import parse

    name, colon, notation = text.partition(":")
    name, notation = name.strip(), notation.strip()
    if not colon or not name:
        raise RulesError("напишите «Название: выражение», например «Атака топором: 2d6+3»")
    kept = tuple((n, e) for n, e in rolls if n.casefold() != name.casefold())
    if not notation:
        return kept
    try:
        parse(notation)
    except RulesError as err:
        raise RulesError(f"«{name}»: {err}") from err
    if len(kept) == len(rolls):
        return (*rolls, (name, notation))
    return tuple((name, notation) if n.casefold() == name.casefold() else (n, e) for n, e in rolls)

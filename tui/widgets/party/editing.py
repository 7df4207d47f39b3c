"""Editing the party from the Партия tab: add a character, edit one, copy one, delete one
(the character form opens for the first three; a delete asks first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from textual.widgets import DataTable
from textual.widgets.data_table import RowDoesNotExist

from tui import registry
from tui.store import Character, new_id
from tui.widgets.party.writes import PartyWrites


class PartyEditing(PartyWrites):
    """The add / edit / copy / delete keys of ``PartyPane``."""

    _all: list[Character]
    # Provided by the pane (and Textual): _highlighted(), query_one().

    def _open_form(self, c: Character, title: str, on_saved: Callable[[Character], None]) -> None:
        from tui.widgets.party.fields import weapon_names
        from tui.widgets.party.form import CharacterForm

        system = self.store.campaign.system

        def taken() -> set[str]:  # the party now: the pane follows the store while it is open
            return {o.name for o in getattr(self, "_all", []) if o.id != c.id}

        weapons = weapon_names(system)

        def done(result: Character | None) -> None:
            if result is not None:
                on_saved(result)

        form = CharacterForm(system, c, title=title, taken=taken, weapons=weapons)
        if c.origin is None or c.origin.get("id") != c.id:  # a new character or a copy
            self.app.push_screen(form, done)
        else:
            self._open_dialog(c, form, done, "правка не записана")

    def _select(self, character_id: str) -> None:
        table = self.query_one("#party-table", DataTable)
        try:
            table.move_cursor(row=table.get_row_index(character_id))
        except RowDoesNotExist:  # filtered out: the cursor stays
            return

    def action_add(self) -> None:
        """Add a character through the form."""
        from tui.widgets.party.form import blank_character

        store = self.store
        system = store.campaign.system

        def saved(c: Character) -> None:
            self._store_write(
                lambda: store.upsert_character(c, label=f"Добавлен «{c.name}»"),
                lambda: self._select(c.id),
            )

        self._open_form(blank_character(system), "Новый персонаж", saved)

    def action_edit(self) -> None:
        """Edit the highlighted character through the form."""
        c = self._highlighted()
        if c is None:
            return
        store = self.store

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
        store = self.store
        taken = {o.name.casefold() for o in getattr(self, "_all", [])}
        name, n = f"{c.name} (копия)", 2
        while name.casefold() in taken:
            name, n = f"{c.name} (копия {n})", n + 1
        fresh = registry.get(store.campaign.system).fresh_copy(c)  # Древо: no wounds
        copy = replace(fresh, id=new_id(), name=name)

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
        store = self.store

        def answered(yes: bool | None) -> None:
            if yes:
                self._store_write(lambda: store.delete_character(c.id))

        choices = [Choice("Нет, оставить", False), Choice(f"Да, удалить «{c.name}»", True)]
        self.app.push_screen(
            ChoiceScreen(f"Удалить «{c.name}»? (Ctrl+Z вернёт)", choices), answered
        )

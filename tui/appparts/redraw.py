"""The redraw from the store: every built pane re-derives from the campaign after a change.

The store notifies (a write here, in a worker, in another kubik); the panes are given their
inputs again, and only those whose inputs changed are redrawn. The campaign's rules tables are
applied first, each refused one named once; the read-only banner follows the store too.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from rules.data import set_overrides
from tui.appparts import AppPart
from tui.store import Store
from tui.store.schema import rules_tables
from tui.widgets.common.text import show_markup


def read_only_text(store: Store) -> str:
    """Return the read-only banner; the screens behind it load only when one is shown."""
    if not store.read_only:
        return ""
    from tui.screens.actions import read_only_text as text  # lazy: ~10 ms of first paint

    return text(store)


class RedrawMixin(AppPart):
    """How ``KubikApp`` redraws its panes from the store (mixed into ``KubikApp``)."""

    def _store_notified(self) -> None:
        """The store changed (here, in a worker, in another kubik): redraw on the UI thread."""
        self._on_ui(self._store_changed)

    def usable_settings(self, settings: dict[str, Any] | None) -> dict[str, Any]:
        """Return the campaign's tables the rules accept; name each refused one once.

        A hand-edited file can hold a table the rules refuse (a ladder rung without a
        value); the app keeps kubik's default for it instead of stopping.
        """
        tables = rules_tables(settings)
        if not tables:
            return tables
        if self._settings_checked is not None and self._settings_checked[0] == tables:
            return self._settings_checked[1]
        from tui.screens.settings_tables import usable_tables  # only a campaign with tables

        accepted, refused = usable_tables(tables)
        self._settings_checked = (tables, accepted)
        for relpath, why in refused.items():
            self.notify(
                f"Настройки кампании: таблица {relpath} не принята — {why} Пока действует "
                "таблица kubik по умолчанию; исправьте её в Ctrl+T.",
                severity="error",
                timeout=20,
            )
        return accepted

    def redraw_all(self) -> None:
        """Redraw every pane from the store (after mount, or after the tabs were rebuilt)."""
        self._shown = {}
        self._store_changed()

    def _store_changed(self) -> None:
        settings = self.store.get_doc("settings") or {}
        set_overrides(self.usable_settings(settings))
        banner = self.query_one("#read-only-banner", Static)
        banner.display = self.store.read_only
        show_markup(banner, read_only_text(self.store))  # unchanged: no layout, no repaint
        # Redraw only what changed: a roll appends to the log, and the party table, the
        # builder's odds and the combat pane need not be rebuilt for that. The settings are
        # the campaign's rules tables: a change redraws every pane that applies them.
        characters = self.store.characters()
        effects = self.store.get_doc("effects")  # tui.bridge.effects: shown and in the odds
        given: dict[str, tuple[Any, ...]] = {
            "party": (characters, settings, effects),
            # the players' accepted requests: their undo moves the open check (tui/seats/check)
            "check": (characters, settings, effects, self.store.get_doc("seat_requests"))
            + (self.store.depth, self.store.get_doc("check")),  # the open check (tui/table/check)
            "combat": (characters, settings, self.store.get_doc("encounter"))
            + (self.store.get_doc("rounds"), effects),
        }
        if "log" in self._panes:  # the Журнал's 500 rows are rebuilt only when they changed
            entries = self.store.log(limit=500)
            given["log"] = (entries, settings)  # its session breaks follow a rules table
        redrawn = False
        for tab, pane in self._panes.items():
            if self._shown.get(tab) != given[tab]:
                redrawn = True
                if tab == "log":
                    pane.show(entries)
                elif tab == "check":
                    pane.set_characters(characters)
                else:
                    pane.show(characters)
                self._shown[tab] = given[tab]
        undo = self.store.undo_labels(1)  # the key bar names what Ctrl+Z will undo
        if getattr(self, "_undo_shown", None) != undo:
            self._undo_shown = undo
            if not redrawn:  # a pane redrawn refreshes the bar itself
                self.screen.refresh_bindings()
        for screen in self.screen_stack[1:]:  # a screen over the tabs that follows the store
            follow = getattr(screen, "store_changed", None)
            if callable(follow):
                follow()

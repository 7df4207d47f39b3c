"""What the panes are given from the store, and which of them a change redraws.

The store notifies (a write here, in a worker, in another kubik); each pane's inputs are read
again, and only the panes whose inputs changed are redrawn. The campaign's rules tables are
applied first, each refused one named once. The drawing itself is the app's
(``KubikApp._store_changed``: the panes, the read-only banner, the screens that follow)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.data import set_overrides
from tui.store.schema import rules_tables

if TYPE_CHECKING:
    from tui.services import Notify
    from tui.store import Character, LogEntry, Store

Tables = dict[str, Any]
#: Split stored tables into those the rules accept and why each other one is refused
#: (``tui.screens.settings_tables.usable_tables``, handed in by the app: loaded on first use).
CheckTables = Callable[[Tables], tuple[Tables, dict[str, str]]]


@dataclass
class Changes:
    """The panes a change redraws, with what they are drawn from."""

    tabs: list[str]
    characters: list[Character]
    #: The Журнал's newest entries (read only when its pane is built).
    entries: list[LogEntry] = field(default_factory=list)


class Redraw:
    """Each pane's inputs from the store, what each was last given, and the campaign's rules
    tables checked once a change."""

    def __init__(
        self, campaign: Callable[[], Store], notify: Notify, check_tables: CheckTables
    ) -> None:
        self._campaign = campaign
        self._notify = notify
        self._check_tables = check_tables
        #: What each pane was last given, to skip redraws that change nothing.
        self._shown: dict[str, tuple[Any, ...]] = {}
        #: The campaign's stored tables last checked, and those of them the rules accepted.
        self._settings_checked: tuple[Tables, Tables] | None = None

    def forget(self) -> None:
        """Forget what the panes were given: the next :meth:`changes` redraws every one (after
        mount, or after the tabs were rebuilt)."""
        self._shown = {}

    def usable_settings(self, settings: dict[str, Any] | None) -> Tables:
        """Return the campaign's tables the rules accept; name each refused one once.

        A hand-edited file can hold a table the rules refuse (a ladder rung without a
        value); the app keeps kubik's default for it instead of stopping.
        """
        tables = rules_tables(settings)
        if not tables:
            return tables
        if self._settings_checked is not None and self._settings_checked[0] == tables:
            return self._settings_checked[1]
        accepted, refused = self._check_tables(tables)
        self._settings_checked = (tables, accepted)
        for relpath, why in refused.items():
            self._notify(
                f"Настройки кампании: таблица {relpath} не принята — {why} Пока действует "
                "таблица kubik по умолчанию; исправьте её в Ctrl+T.",
                severity="error",
                timeout=20,
            )
        return accepted

    def apply_settings(self, settings: dict[str, Any] | None) -> None:
        """Put the campaign's accepted tables in place for the rules."""
        set_overrides(self.usable_settings(settings))

    def changes(self, built: Iterable[str]) -> Changes:
        """Apply the campaign's tables and return which of the ``built`` panes to redraw.

        Only what changed is redrawn: a roll appends to the log, and the party table, the
        builder's odds and the combat pane need not be rebuilt for that. The settings are
        the campaign's rules tables: a change redraws every pane that applies them.
        """
        store = self._campaign()
        settings = store.get_doc("settings") or {}
        self.apply_settings(settings)
        characters = store.characters()
        effects = store.get_doc("effects")  # tui.bridge.effects: shown and in the odds
        given: dict[str, tuple[Any, ...]] = {
            "party": (characters, settings, effects),
            # the players' accepted requests: their undo moves the open check (tui/seats/check)
            "check": (characters, settings, effects, store.get_doc("seat_requests"))
            + (store.depth, store.get_doc("check")),  # the open check (tui/table/check)
            "combat": (characters, settings, store.get_doc("encounter"))
            + (store.get_doc("rounds"), effects),
        }
        tabs = list(built)
        found = Changes([], characters)
        if "log" in tabs:  # the Журнал's 500 rows are rebuilt only when they changed
            found.entries = store.log(limit=500)
            given["log"] = (found.entries, settings)  # its session breaks follow a rules table
        for tab in tabs:
            if self._shown.get(tab) != given[tab]:
                found.tabs.append(tab)
                self._shown[tab] = given[tab]
        return found

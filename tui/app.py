"""The kubik Textual app and its one factory, ``make_app``."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Input, TabbedContent, TabPane

from rules.dice import make_rng
from tui.render import roll_summary
from tui.store import LogEntry, Store, StoreError
from tui.widgets.builder import CharacterChanged, CheckRolled, builder_class
from tui.widgets.combat import CombatPane
from tui.widgets.keys import KeysScreen
from tui.widgets.log import LogPane
from tui.widgets.party import PartyPane
from tui.widgets.quickroll import QuickRoll

Clock = Callable[[], datetime]
TABS = ("party", "combat", "check", "log")


def local_now() -> datetime:
    """Return the current local time with its offset."""
    return datetime.now().astimezone()


class KubikApp(App[None]):
    """A GM's table companion: party, combat rounds, check builder and the roll log."""

    CSS_PATH = "app.tcss"
    TITLE = "kubik"
    ENABLE_COMMAND_PALETTE = False

    BINDINGS = [
        Binding("1", "show_tab('party')", "Партия", id="tab-party", show=False),
        Binding("2", "show_tab('combat')", "Бой", id="tab-combat", show=False),
        Binding("3", "show_tab('check')", "Проверка", id="tab-check", show=False),
        Binding("4", "show_tab('log')", "Журнал", id="tab-log", show=False),
        Binding("slash", "quick_roll", "Бросок", id="quick-roll", tooltip="Быстрый бросок: 3d6!"),
        Binding("question_mark", "keys", "Клавиши", id="keys", tooltip="Все клавиши"),
        Binding(
            "ctrl+z",
            "undo",
            "Отменить",
            id="undo",
            tooltip="Отменить последнее изменение",
            show=False,
        ),
        Binding("ctrl+y", "redo", "Вернуть", id="redo", tooltip="Вернуть отменённое", show=False),
        Binding("ctrl+q", "quit", "Выход", id="quit", tooltip="Выйти из kubik"),
    ]

    def __init__(
        self, store: Store, *, rng: random.Random, clock: Clock, view_only: bool = False
    ) -> None:
        super().__init__()
        self.store = store
        self.rng = rng
        self.clock = clock
        self.view_only = view_only
        self.sub_title = store.campaign.name

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs"):
            with TabPane("1 Партия", id="party"):
                yield PartyPane(id="party-pane")
            with TabPane("2 Бой", id="combat"):
                yield CombatPane(id="combat-pane")
            with TabPane("3 Проверка", id="check"):
                yield builder_class(self.store.campaign.system)(id="check-pane")
            with TabPane("4 Журнал", id="log"):
                yield LogPane(id="log-pane")
        yield QuickRoll(id="quick")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.store.subscribe(self._store_changed)
        self._store_changed()
        self.action_focus_tab()

    def _store_changed(self) -> None:
        characters = self.store.characters()
        self.query_one(PartyPane).show(characters)
        self.query_one(CombatPane).show(characters)
        self.query_one("#check-pane").set_characters(characters)  # type: ignore[attr-defined]
        self.query_one(LogPane).show(self.store.log(limit=500))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.view_only and action == "quick_roll":
            return False
        if isinstance(self.focused, Input) and action in ("quick_roll", "keys"):
            return False  # the text field takes "/" and "?" as characters
        return True

    # -- actions -------------------------------------------------------------------------------

    def action_show_tab(self, tab: str) -> None:
        """Switch to a tab and focus its first control."""
        self.query_one(TabbedContent).active = tab
        self.action_focus_tab()

    def action_focus_tab(self) -> None:
        """Focus the first focusable widget of the active tab."""
        tabs = self.query_one(TabbedContent)
        pane = tabs.get_pane(tabs.active)
        content = pane.children[0] if pane.children else None
        if hasattr(content, "focus_first"):
            content.focus_first()
            return
        for widget in pane.query("*"):
            if widget.focusable:
                widget.focus()
                return

    def action_undo(self) -> None:
        """Undo the last change of the campaign (the log is history and stays)."""
        self._undo_redo(self.store.undo, "Отменено", "Нечего отменять.")

    def action_redo(self) -> None:
        """Redo the last undone change."""
        self._undo_redo(self.store.redo, "Возвращено", "Нечего возвращать.")

    def _undo_redo(self, step: Callable[[], str | None], done: str, nothing: str) -> None:
        try:
            label = step()
        except StoreError as err:
            self.notify(str(err), severity="error")
            return
        self.notify(f"{done}: {label}" if label else nothing)

    def action_quick_roll(self) -> None:
        """Open the quick-roll bar."""
        self.query_one(QuickRoll).open()

    def action_keys(self) -> None:
        """List every key of the app."""
        groups = [
            ("Везде", list(self.BINDINGS)),
            ("Партия", list(PartyPane.BINDINGS)),
            ("Бой", list(CombatPane.BINDINGS)),
            ("Проверка", [*type(self.query_one("#check-pane")).BINDINGS, *_STEPPER_HELP]),
            ("Быстрый бросок", [Binding("enter", "", "Бросить"), *QuickRoll.BINDINGS]),
        ]
        self.push_screen(KeysScreen(groups))

    # -- events --------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated)
    def _tab_activated(self) -> None:
        self.call_after_refresh(self.action_focus_tab)

    @on(PartyPane.CheckRequested)
    def _check_requested(self, event: PartyPane.CheckRequested) -> None:
        self.query_one(TabbedContent).active = "check"
        self.query_one("#check-pane").choose_character(event.character_id)  # type: ignore[attr-defined]

    @on(CheckRolled)
    def _check_rolled(self, event: CheckRolled) -> None:
        self.record("check", event.actor, event.text, event.data)

    @on(CharacterChanged)
    def _character_changed(self, event: CharacterChanged) -> None:
        self.store.upsert_character(event.character)

    @on(QuickRoll.Rolled)
    def _quick_rolled(self, event: QuickRoll.Rolled) -> None:
        self.record("roll", None, roll_summary(event.result), event.result.to_dict())

    def record(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> None:
        """Append one entry to the campaign's log (the store notifies the panes)."""
        entry = LogEntry(
            id=uuid.uuid4().hex,
            at=self.clock().isoformat(timespec="seconds"),
            kind=kind,
            actor=actor,
            text=text,
            data=data,
        )
        self.store.append_log(entry)


_STEPPER_HELP = [
    Binding("left,right", "", "Сменить значение строки"),
    Binding("up,down", "", "Перейти к другой строке"),
]


def make_app(
    path: Path | None = None,
    *,
    system: str = "drevo",
    seed: int | None = None,
    view_only: bool = False,
    clock: Clock | None = None,
) -> KubikApp:
    """Open the campaign at ``path`` (default: the user data folder) and build the app.

    Args:
        path: the campaign file; a path that does not exist yet gets the demo campaign.
        system: the rules system of a new campaign (an existing file keeps its own).
        seed: seed for the session's dice (tests and reproducible sessions).
        view_only: open without keys that change state.
        clock: time source for log entries (tests freeze it).

    Raises:
        tui.store.StoreError: the campaign file cannot be read; its message is Russian.
    """
    store = Store.open(path, system=system)
    return KubikApp(store, rng=make_rng(seed), clock=clock or local_now, view_only=view_only)

"""The kubik Textual app and its one factory, ``make_app``."""

from __future__ import annotations

import asyncio
import gc
import importlib
import random
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane

from rules.data import set_overrides
from rules.rng import make_rng
from tui.render import roll_summary
from tui.store import LogEntry, Store, StoreError
from tui.widgets.builder import CharacterChanged, CheckRolled, builder_class, builder_module
from tui.widgets.focus import focus_now
from tui.widgets.keybar import KeyBar
from tui.widgets.motion import quiet_animations
from tui.widgets.party import PartyPane
from tui.widgets.quickroll import QuickRoll
from tui.widgets.toosmall import guard_size, is_too_small

Clock = Callable[[], datetime]
TAB_TITLES = {"party": "1 Партия", "combat": "2 Бой", "check": "3 Проверка", "log": "4 Журнал"}
#: The modules behind the tabs that are built on their first visit (imported ahead, off the UI
#: thread, once the first screen is up).
LATER_MODULES = ("tui.widgets.combat", "tui.widgets.log", "tui.widgets.keys")


def read_only_text(store: Store) -> str:
    """Return the read-only banner; the screens behind it load only when one is shown."""
    if not store.read_only:
        return ""
    from tui.screens.actions import read_only_text as text  # lazy: ~10 ms of first paint

    return text(store)


def local_now() -> datetime:
    """Return the current local time with its offset."""
    return datetime.now().astimezone()


class MainScreen(Screen[None]):
    """The tabs' screen. A focus change repaints the widgets whose focus styles change, not
    the whole screen: Textual's ``Screen.focused`` repaints every line of it, which on a tab
    switch doubled the frame's work and the bytes sent to the terminal."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)


class TabbedPanes(TabbedContent):
    """``TabbedContent`` that does not repaint itself when the active tab changes: it draws
    only a background behind its panes, and repainting it drew ~25 blank lines anew on every
    tab switch (the panes and the tab bar repaint themselves)."""

    active: reactive[str] = reactive("", init=False, repaint=False)


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
        # Priority: the bar opens before the keys typed right after «/» are handed out (a
        # fast «/2d6⏎», or one that arrives in one SSH packet, would else switch to tab 2).
        Binding(
            "slash",
            "quick_roll",
            "Бросок",
            id="quick-roll",
            tooltip="Быстрый бросок: 3d6!",
            priority=True,
        ),
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
        Binding(
            "ctrl+o",
            "campaigns",
            "Кампании",
            id="campaigns",
            tooltip="Открыть, создать…",
            show=False,
        ),
        Binding(
            "ctrl+t",
            "settings",
            "Настройки",
            id="settings",
            tooltip="Настройки кампании",
            show=False,
        ),
        Binding(
            "ctrl+e",
            "transfer",
            "Экспорт",
            id="transfer",
            tooltip="Экспорт и импорт JSON, журнал в Markdown",
            show=False,
        ),
        # Sharing the table (tui/view.py): ctrl+s, not the suggested ctrl+h, which many
        # terminals send for Backspace.
        Binding(
            "ctrl+s",
            "secret(True)",
            "Скрытно",
            id="secret-on",
            tooltip="Следующие броски скрыты от игроков (ещё раз — выключить)",
            show=False,
        ),
        Binding(
            "ctrl+s", "secret(False)", "Скрытно: выкл.", id="secret-off", tooltip="", show=False
        ),
        Binding(
            "t",
            "toggle_hidden",
            "Скрыть НИП",
            id="hide-npc",
            tooltip="НИП: «???»",
            show=False,
        ),
        Binding("v", "view_command", "Вид игроков", id="view-command", show=False),
        Binding("y", "copy_last", "Копировать", id="copy-last", tooltip="Итог", show=False),
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
        #: While True, every new Журнал entry is a secret roll (``data["hidden"]``).
        self.secret = False
        self.sub_title = store.campaign.name
        #: What each pane was last given, to skip redraws that change nothing.
        self._shown: dict[str, Any] = {}
        #: The tab panes built so far (tab → pane widget); the first tab's at start, each other
        #: tab's on its first visit, so the first screen is drawn without them.
        self._panes: dict[str, Any] = {}
        self._building: dict[str, asyncio.Task[Any]] = {}
        #: Whether the collector was off for the start (``kubik``, not a test's app).
        self._collector_off = not gc.isenabled()
        quiet_animations(self)

    def notify(self, message: str, *, markup: bool = False, **kwargs: Any) -> None:  # type: ignore[override]
        """Notify as Textual does, but as plain text: messages quote names the GM typed."""
        super().notify(message, markup=markup, **kwargs)

    def get_default_screen(self) -> Screen[None]:
        return MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        self._panes = {"party": PartyPane(id="party-pane")}
        self._building = {}
        self._shown = {}
        yield Static(read_only_text(self.store), id="read-only-banner")
        yield Static(
            "СКРЫТНО: броски скрыты от игроков · Ctrl+S — выкл. · r в Журнале — раскрыть",
            id="secret-banner",
        )
        with TabbedPanes(id="tabs"):
            for tab, title in TAB_TITLES.items():
                with TabPane(title, id=tab):
                    if tab in self._panes:
                        yield self._panes[tab]
        yield QuickRoll(id="quick")
        yield KeyBar()

    def on_mount(self) -> None:
        self.store.subscribe(self._store_changed)
        self.redraw_all()
        self.action_focus_tab()
        self.set_interval(0.5, self._refresh_store)
        guard_size(self, self.size)
        self.call_after_refresh(self._import_later_tabs)

    def _import_later_tabs(self) -> None:
        """Import the other tabs' modules in a thread while the GM reads the first screen."""
        modules = (*LATER_MODULES, builder_module(self.store.campaign.system))
        self.run_worker(lambda: [importlib.import_module(m) for m in modules], thread=True)
        if self._collector_off:
            # ``kubik`` starts with the collector off (tui.cli). The start's objects are kept
            # for good (frozen), so later full collections do not walk them between two keys.
            gc.enable()
            self.set_timer(1.0, gc.freeze)

    def _make_pane(self, tab: str) -> Any:
        if tab == "combat":
            from tui.widgets.combat import CombatPane

            return CombatPane(id="combat-pane")
        if tab == "check":
            return builder_class(self.store.campaign.system)(id="check-pane")
        if tab == "log":
            from tui.widgets.log import LogPane

            return LogPane(id="log-pane")
        raise ValueError(f"no pane for tab {tab!r}")

    async def ensure_pane(self, tab: str) -> Any:
        """Return the pane of ``tab``, building and drawing it first if it is not built yet."""
        if tab not in self._panes:
            if tab not in self._building:
                self._building[tab] = asyncio.ensure_future(self._build_pane(tab))
            await asyncio.shield(self._building[tab])
        return self._panes[tab]

    async def _build_pane(self, tab: str) -> None:
        pane = self._make_pane(tab)
        await self.query_one(f"TabPane#{tab}", TabPane).mount(pane)
        self._panes[tab] = pane
        self._store_changed()

    def on_resize(self, event: events.Resize) -> None:
        guard_size(self, event.size)

    def _refresh_store(self) -> None:
        """Pick up what other kubiks wrote to the campaign file."""
        try:
            self.store.refresh()
        except StoreError as err:
            self.notify(str(err), severity="error", timeout=15)

    def redraw_all(self) -> None:
        """Redraw every pane from the store (after mount, or after the tabs were rebuilt)."""
        self._shown = {}
        self._store_changed()

    def _store_changed(self) -> None:
        settings = self.store.get_doc("settings") or {}
        set_overrides(settings)
        banner = self.query_one("#read-only-banner", Static)
        banner.display = self.store.read_only
        banner.update(read_only_text(self.store))
        # Redraw only what changed: a roll appends to the log, and the party table, the
        # builder's odds and the combat pane need not be rebuilt for that. The settings are
        # the campaign's rules tables: a change redraws every pane that applies them.
        characters = self.store.characters()
        given = {
            "party": (characters, settings),
            "check": (characters, settings),
            "combat": (characters, settings, self.store.get_doc("encounter")),
        }
        for tab, pane in self._panes.items():
            if tab == "log":
                pane.show(self.store.log(limit=500))
            elif self._shown.get(tab) != given[tab]:
                if tab == "check":
                    pane.set_characters(characters)
                else:
                    pane.show(characters)
                self._shown[tab] = given[tab]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if is_too_small(self):
            return action == "quit"
        if action == "secret":
            writable = not self.view_only and not self.store.read_only
            return writable and parameters == (not self.secret,)
        if action == "toggle_hidden":
            return not self.view_only and self._hideable_npc() is not None
        if action == "copy_last" and isinstance(self.focused, Input):
            return False  # "y" is a character there
        if self.view_only and action == "quick_roll":
            return False
        if isinstance(self.focused, Input) and action in ("quick_roll", "keys"):
            return False  # the text field takes "/" and "?" as characters
        if len(self.screen_stack) > 1 and action in (
            "quick_roll", "keys", "campaigns", "settings", "transfer", "show_tab"
        ):  # fmt: skip
            return False  # these act on the main screen, not on a form or the settings
        if self.view_only and action in ("campaigns", "settings", "transfer"):
            return False
        return True

    # -- actions -------------------------------------------------------------------------------

    async def action_show_tab(self, tab: str) -> None:
        """Switch to a tab (built on its first visit) and focus its first control."""
        await self.ensure_pane(tab)
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
                focus_now(widget)
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

    def action_campaigns(self) -> None:
        """Pick, create, rename or delete a campaign."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_campaigns(self)

    def action_settings(self) -> None:
        """Edit the campaign's settings (every [default] table)."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_settings(self)

    def action_transfer(self) -> None:
        """Export or import the campaign as JSON, or save the log as Markdown."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_transfer(self)

    def action_keys(self) -> None:
        """List every key of the app."""
        from tui.widgets.combat import CombatPane
        from tui.widgets.keys import KeysScreen
        from tui.widgets.log import LogPane

        groups = [
            ("Везде", list(self.BINDINGS)),
            ("Партия", list(PartyPane.BINDINGS)),
            ("Бой", list(CombatPane.BINDINGS)),
            ("Проверка", [*builder_class(self.store.campaign.system).BINDINGS, *_STEPPER_HELP]),
            ("Быстрый бросок", [Binding("enter", "", "Бросить"), *QuickRoll.BINDINGS]),
            ("Журнал", list(LogPane.BINDINGS)),
        ]
        self.push_screen(KeysScreen(groups))

    # -- sharing the table (players watch `kubik --view`) ----------------------------------------

    def action_secret(self, on: bool) -> None:
        """Turn secret rolls on or off: while on, the players' view shows «скрытый бросок»."""
        self.secret = on
        self.query_one("#secret-banner", Static).display = on
        self.sub_title = f"{self.store.campaign.name} · скрытно" if on else self.store.campaign.name
        self.refresh_bindings()
        if not on:  # while on, the banner at the top says so
            self.notify("Броски снова видны игрокам.")

    def _hideable_npc(self, character_id: str | None = None) -> Any:
        """Return the NPC to hide: ``character_id``'s, or the Партия tab's highlighted one."""
        if character_id is None:
            if self.query_one(TabbedContent).active != "party":
                return None
            character_id = self.query_one(PartyPane).highlighted_id()
        c = self.store.character(character_id) if character_id else None
        return c if c is not None and c.kind == "npc" else None

    def action_toggle_hidden(self, character_id: str | None = None) -> None:
        """Hide an NPC from the players' view («???»), or show it again."""
        from dataclasses import replace

        c = self._hideable_npc(character_id)
        if c is None:
            return
        hidden = not c.extra.get("hidden")
        label = f"НИП «{c.name}» {'скрыт от игроков' if hidden else 'показан игрокам'}"
        try:
            changed = replace(c, extra={**c.extra, "hidden": hidden})
            self.store.upsert_character(changed, label=label)
        except StoreError as err:
            self.notify(str(err), severity="error")
            return
        self.notify(label)

    def action_view_command(self) -> None:
        """Show (and copy) the command that opens the players' view of this campaign."""
        from tui.view import view_command

        command = view_command(self.store.path)
        self.copy_to_clipboard(command)
        self.notify(
            f"Вид для игроков — в другом окне или панели tmux:\n{command}\n(команда скопирована)",
            title="Вид для игроков",
            timeout=20,
            markup=False,
        )

    def action_copy_last(self) -> None:
        """Copy the newest Журнал entry (OSC 52: works over SSH and in tmux)."""
        entries = self.store.log(limit=1)
        if not entries:
            self.notify("Журнал пуст — копировать нечего.")
            return
        entry = entries[0]
        text = f"{entry.actor}: {entry.text}" if entry.actor else entry.text
        self.copy_to_clipboard(text)
        self.notify(f"Скопировано: {text}", markup=False)

    # -- events --------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated)
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id:
            await self.ensure_pane(event.pane.id)  # a tab chosen from the tab bar itself
        self.call_after_refresh(self._focus_tab_unless_typing)

    def _focus_tab_unless_typing(self) -> None:
        """Focus the active tab, unless the quick-roll bar opened meanwhile (a «/» pressed
        before the first frame): the keys typed after it are the roll."""
        if not self.query_one(QuickRoll).display:
            self.action_focus_tab()

    @on(PartyPane.CheckRequested)
    async def _check_requested(self, event: PartyPane.CheckRequested) -> None:
        builder = await self.ensure_pane("check")
        self.query_one(TabbedContent).active = "check"
        builder.choose_character(event.character_id)

    @on(CheckRolled)
    def _check_rolled(self, event: CheckRolled) -> None:
        self.record("check", event.actor, event.text, event.data)

    @on(CharacterChanged)
    def _character_changed(self, event: CharacterChanged) -> None:
        try:
            self.store.upsert_character(event.character)
        except StoreError as err:
            self.notify(str(err), severity="error", timeout=10)

    @on(QuickRoll.Rolled)
    def _quick_rolled(self, event: QuickRoll.Rolled) -> None:
        text = event.text or roll_summary(event.result)
        self.record("roll", event.actor, text, event.result.to_dict())

    def roll_saved(self, character: Any, name: str) -> None:
        """Roll a character's saved roll through the quick-roll bar (it logs under them)."""
        self.query_one(QuickRoll).roll_saved(character, name)

    def record(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> None:
        """Append one entry to the campaign's log (the store notifies the panes)."""
        if self.secret and "hidden" not in data:
            data = {**data, "hidden": True}
        entry = LogEntry(
            id=uuid.uuid4().hex,
            at=self.clock().isoformat(timespec="seconds"),
            kind=kind,
            actor=actor,
            text=text,
            data=data,
        )
        try:
            self.store.append_log(entry)
        except StoreError as err:
            self.notify(str(err), severity="error", timeout=10)


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

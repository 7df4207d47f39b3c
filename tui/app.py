"""The kubik Textual app and its one factory, ``make_app``."""

from __future__ import annotations

import asyncio
import gc
import importlib
import random
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane

from rules.data import set_overrides
from rules.rng import make_rng
from tui.crash import CrashReporting
from tui.present.rolls import roll_summary
from tui.sanitize import CleanPaste, clean
from tui.store import LogEntry, Store, StoreError
from tui.store.schema import rules_tables
from tui.widgets.builders.base import CharacterChanged, CheckRolled, builder_class, builder_module
from tui.widgets.common.focus import cycle_focus, focus_now, form_enter, form_of, pane_of
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.party.pane import PartyPane

Clock = Callable[[], datetime]
T = TypeVar("T")
TAB_TITLES = {"party": "1 Партия", "combat": "2 Бой", "check": "3 Проверка", "log": "4 Журнал"}
#: The modules behind the tabs that are built on their first visit (imported ahead, off the UI
#: thread, once the first screen is up).
LATER_MODULES = (
    "tui.widgets.combat.drevo",
    "tui.widgets.log.pane",
    "tui.screens.keys",
    "tui.bridge.luck",
)
#: The hidden tabs built ahead (``prebuild``), in this order, once their modules are imported.
PREBUILT_TABS = ("combat", "check", "log")
#: A tab is built ahead only after this long without a key: the build (up to ~90 ms for Бой)
#: is work on the UI thread, and a key pressed meanwhile would wait for it.
IDLE_BEFORE_BUILD = 0.4


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

    # The focus contract (tui.widgets.common.focus): keys a focused widget leaves unbound land here.
    BINDINGS = [
        Binding("escape", "app.focus_out(True)", "Назад", id="focus-out", tooltip="Выйти из поля"),
        Binding("escape", "app.focus_out(False)", "Назад", id="focus-out-quiet", show=False),
        Binding("up", "app.focus_step(-1)", "Выше", id="focus-up", show=False),
        Binding("down", "app.focus_step(1)", "Ниже", id="focus-down", show=False),
    ]

    @on(Input.Submitted)
    async def _field_submitted(self, event: Input.Submitted) -> None:
        """Enter in a form's text field that no one else took does the form's Enter."""
        found = form_enter(event.input)
        if found is not None:
            event.stop()
            node, binding, enabled = found
            if enabled:
                await self.app.run_action(binding.action, node)


class TabbedPanes(TabbedContent):
    """``TabbedContent`` that does not repaint itself when the active tab changes: it draws
    only a background behind its panes, and repainting it drew ~25 blank lines anew on every
    tab switch (the panes and the tab bar repaint themselves)."""

    active: reactive[str] = reactive("", init=False, repaint=False)


class KubikApp(CrashReporting, CleanPaste, App[None]):
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
            tooltip="Кампании: открыть, создать, переименовать, удалить",
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
            tooltip="Скрытные броски: следующие броски скрыты от игроков (ещё раз — выключить)",
            show=False,
        ),
        Binding(
            "ctrl+s",
            "secret(False)",
            "Скрытно: выкл.",
            id="secret-off",
            tooltip="Скрытные броски: следующие броски скрыты от игроков (ещё раз — выключить)",
            show=False,
        ),
        Binding(
            "t",
            "toggle_hidden",
            "Скрыть НИП",
            id="hide-npc",
            tooltip="Скрыть НИП от игроков («???») или показать снова",
            show=False,
        ),
        Binding(
            "v",
            "view_command",
            "Вид игроков",
            id="view-command",
            tooltip="Команда вида для игроков (kubik --view) — показать и скопировать",
            show=False,
        ),
        Binding(
            "y",
            "copy_last",
            "Копировать",
            id="copy-last",
            tooltip="Копировать последнюю запись Журнала",
            show=False,
        ),
        Binding(
            "ctrl+p",
            "seat_requests",
            "Заявки игроков",
            id="seat-requests",
            tooltip="Заявки игроков с их мест (kubik seat ИМЯ): принять, изменить, отказать",
            show=False,
        ),
        # Priority: Ctrl+Q quits from every screen, a dialog's or the size notice's too (a
        # modal screen hides the app's other bindings).
        Binding("ctrl+q", "quit", "Выход", id="quit", tooltip="Выйти из kubik", priority=True),
    ]

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random,
        clock: Clock,
        view_only: bool = False,
        prebuild: bool = False,
    ) -> None:
        super().__init__()
        #: Build the hidden tabs in idle time after the first paint, so no first visit waits.
        self.prebuild = prebuild
        self._last_key = 0.0
        self.store = store
        self.rng = rng
        self.clock = clock
        self.view_only = view_only
        #: The private folder where player seats meet this app (tui/seats); None: no seats.
        self.seats_folder: Path | None = None
        #: While True, every new Журнал entry is a secret roll (``data["hidden"]``).
        self.secret = False
        self.sub_title = store.campaign.name
        #: What each pane was last given, to skip redraws that change nothing.
        self._shown: dict[str, Any] = {}
        #: The tab panes built so far (tab → pane widget); the first tab's at start, each other
        #: tab's on its first visit, so the first screen is drawn without them.
        self._panes: dict[str, Any] = {}
        self._building: dict[str, asyncio.Task[Any]] = {}
        #: The campaign's stored tables last checked, and those of them the rules accepted.
        self._settings_checked: tuple[dict[str, Any], dict[str, Any]] | None = None
        #: Whether the collector was off for the start (``kubik``, not a test's app).
        self._collector_off = not gc.isenabled()
        #: Set when the newest store write handed to a worker is over (see :meth:`write`).
        self._last_write: threading.Event | None = None
        self._ui_thread = threading.get_ident()
        self._watch: Any = None
        quiet_animations(self)

    def notify(self, message: str, *, markup: bool = False, **kwargs: Any) -> None:  # type: ignore[override]
        """Notify as Textual does, but as plain text: messages quote names the GM typed.

        Always plain: a widget's ``notify`` passes ``markup=True`` by default, and its
        messages quote names too.
        """
        if "title" in kwargs:
            kwargs["title"] = clean(kwargs["title"])
        super().notify(clean(message), markup=False, **kwargs)

    def copy_to_clipboard(self, text: str) -> None:
        """Copy with OSC 52, never a control code inside it (it would end the sequence)."""
        super().copy_to_clipboard(clean(text))

    async def on_event(self, event: events.Event) -> None:
        """Give a key that arrives while nothing has the focus to the active tab's first
        control: a control that hid itself (IDE4's «n» after a roll) left the focus nowhere,
        and the keys typed right after it hit the app's keys instead of the tab's."""
        if isinstance(event, events.Key):
            self._last_key = time.monotonic()
            if not event.is_forwarded:
                self.store.take_last_step()  # a new key press: what was written before is done
        if (
            isinstance(event, events.Key)
            and isinstance(self.screen, MainScreen)
            and not _shown(self.screen.focused)
            and self._panes
        ):
            self.action_focus_tab()
        await super().on_event(event)

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
        self._ui_thread = threading.get_ident()
        self.store.subscribe(self._store_notified)
        self._last_key = time.monotonic()  # the start counts as activity: build after a pause
        self.redraw_all()
        self.action_focus_tab()
        self.set_interval(0.5, self._refresh_store)  # the fallback, should the watch miss one
        guard_size(self, self.size)
        self.call_after_refresh(self._import_later_tabs)
        from tui.seats.gm import attach  # players at their own seats (tui/seats, issue 20)

        attach(self)

    def _import_later_tabs(self) -> None:
        """Import the other tabs' modules in a thread while the GM reads the first screen."""
        modules = (*LATER_MODULES, builder_module(self.store.campaign.system))

        def import_them() -> None:
            for module in modules:
                importlib.import_module(module)
            if self.prebuild:
                self.call_from_thread(self._prebuild_next)

        self.run_worker(import_them, thread=True)
        if self._watch is None:  # after the first screen: the watch thread imports watchfiles
            self.watch_store()
        if self._collector_off:
            # ``kubik`` starts with the collector off (tui.cli.kubik). The start's objects are kept
            # for good (frozen), so later full collections do not walk them between two keys.
            gc.enable()
            self.set_timer(1.0, gc.freeze)

    def _prebuild_next(self) -> None:
        """Build the next hidden tab once the GM has not pressed a key for a moment."""
        tab = next((t for t in PREBUILT_TABS if t not in self._panes), None)
        if tab is None or not self.is_running:
            return
        quiet = time.monotonic() - self._last_key
        if quiet < IDLE_BEFORE_BUILD or len(self.screen_stack) > 1:
            self.set_timer(max(0.05, IDLE_BEFORE_BUILD - quiet), self._prebuild_next)
            return

        async def build() -> None:
            await self.ensure_pane(tab)
            self.set_timer(0.05, self._prebuild_next)

        self.run_worker(build(), group="prebuild")

    def _make_pane(self, tab: str) -> Any:
        if tab == "combat":
            return combat_class(self.store.campaign.system)(id="combat-pane")
        if tab == "check":
            return builder_class(self.store.campaign.system)(id="check-pane")
        if tab == "log":
            from tui.widgets.log.pane import LogPane

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

    def watch_store(self) -> None:
        """Follow the open campaign's file: another kubik's write shows within milliseconds.

        The watch thread reads the file itself (:meth:`Store.refresh` is thread-safe), so a
        big campaign is parsed off the UI thread; the redraw comes here through
        :meth:`_store_notified`.
        """
        from tui.store.watch import CampaignWatch

        self.stop_watch()
        store = self.store

        def changed() -> None:
            if store.closed:  # another campaign was opened meanwhile
                return
            try:
                store.refresh()
            except StoreError as err:
                if store.closed:
                    return
                message = str(err)
                self._on_ui(lambda: self.notify(message, severity="error", timeout=15))

        self._watch = CampaignWatch(store.path, changed).start()

    def on_unmount(self) -> None:
        self.stop_watch()
        from tui.seats.gm import detach

        detach(self)

    def action_seat_requests(self) -> None:
        """Open the players' requests (tui/seats)."""
        from tui.seats.gm import open_requests

        open_requests(self)

    def stop_watch(self) -> None:
        """Stop following the campaign's file (before it is closed or another is opened)."""
        if self._watch is not None:
            self._watch.stop()
            self._watch = None

    def _on_ui(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` on the UI thread: now if this is it, else handed over (and waited
        for, so what a worker reports is on screen before its next write)."""
        if threading.get_ident() == self._ui_thread:
            callback()
            return
        try:
            self.call_from_thread(callback)
        except RuntimeError:  # the app is closing: nothing left to draw on
            pass

    def _store_notified(self) -> None:
        """The store changed (here, in a worker, in another kubik): redraw on the UI thread."""
        self._on_ui(self._store_changed)

    def write(
        self,
        job: Callable[[], T],
        done: Callable[[T], object] | None = None,
        *,
        failed: Callable[[Exception], object] | None = None,
    ) -> None:
        """Run a store write in a worker thread; writes run one after another, in order.

        The UI never waits for the campaign's lock: while another kubik holds it, the worker
        waits (up to the store's lock timeout) and the keys keep working. The screens change
        only through the store's notification, so a write that fails (the lock not had in
        time, a full disk, a change another window made stale) changes nothing on screen:
        the GM is told why (``failed`` gets the error instead, if given). ``done`` gets the
        job's result on the UI thread.
        """
        from rules.errors import RulesError

        before, mine = self._last_write, threading.Event()
        self._last_write = mine

        def run() -> None:
            try:
                if before is not None:
                    before.wait()
                try:
                    result = job()
                except (StoreError, RulesError) as err:
                    error: Exception = err
                    if failed is not None:
                        self._on_ui(lambda: failed(error))
                    else:
                        message = str(err)
                        self._on_ui(lambda: self.notify(message, severity="error", timeout=10))
                    return
                if done is not None:
                    self._on_ui(lambda: done(result))
            finally:
                mine.set()

        self.run_worker(run, thread=True, group="store-write", exit_on_error=False)

    async def writes_done(self) -> None:
        """Wait until every write handed to :meth:`write` so far is over (tests, quitting),
        and the writes those handed on once saved (a fight's damage after its acceptance)."""
        while True:
            last = self._last_write
            while last is not None and not last.is_set():
                await asyncio.sleep(0.002)
            if self._last_write is last:
                return

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
        banner.update(read_only_text(self.store))
        # Redraw only what changed: a roll appends to the log, and the party table, the
        # builder's odds and the combat pane need not be rebuilt for that. The settings are
        # the campaign's rules tables: a change redraws every pane that applies them.
        characters = self.store.characters()
        effects = self.store.get_doc("effects")  # tui.bridge.effects: shown and in the odds
        given = {
            "party": (characters, settings, effects),
            "check": (characters, settings, effects),
            "combat": (characters, settings, self.store.get_doc("encounter"))
            + (self.store.get_doc("rounds"), effects),
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
        if action == "focus_out":  # shown in a text field (the bar is short there), quiet else
            return parameters == (isinstance(self.focused, Input),)
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

    def action_focus_next(self) -> None:
        """Focus the next control of the active tab (of a dialog), wrapping around."""
        self._cycle(1)

    def action_focus_previous(self) -> None:
        """Focus the previous control of the active tab (of a dialog), wrapping around."""
        self._cycle(-1)

    def _cycle(self, delta: int) -> None:
        screen = self.screen
        if isinstance(screen, MainScreen):
            tabs = self.query_one(TabbedContent)
            within = pane_of(tabs.get_pane(tabs.active), screen)
            if cycle_focus(screen, delta, within=within) is None:
                self.action_focus_tab()
        else:
            cycle_focus(screen, delta, within=screen)

    def action_focus_step(self, delta: int) -> None:
        """Move to the next or previous row of the form that has the focus, wrapping."""
        screen = self.screen
        if isinstance(screen, MainScreen) and screen.focused is None:
            self.action_focus_tab()
            return
        cycle_focus(screen, delta, within=form_of(screen.focused, screen))

    def action_focus_out(self, _shown: bool = False) -> None:
        """Go one level out: from any control of a tab to the tab's first control."""
        self.action_focus_tab()

    def action_help_quit(self) -> None:
        """Say how to quit when the GM presses Ctrl+C out of habit."""
        self.notify("Выход из kubik — Ctrl+Q.", title="Выйти?")

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
        """Undo or redo in a worker (a fight exchange's steps together), then say what."""

        def whole() -> str | None:
            label = step()
            if label:  # the steps of one fight exchange go together (tui.bridge.combat)
                from tui.bridge.combat import whole_exchange

                label = whole_exchange(self.store, step, label)
            return label

        self.write(whole, lambda label: self.notify(f"{done}: {label}" if label else nothing))

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
        from tui.screens.keys import FOCUS_HELP, KeysScreen
        from tui.widgets.log.pane import LogPane

        party_only = [b for b in self.BINDINGS if b.id == "hide-npc"]  # `t`: the Партия tab's
        everywhere = [b for b in self.BINDINGS if b.id != "hide-npc"]
        groups = [
            ("Везде", [*everywhere, *FOCUS_HELP]),
            ("Партия", [*PartyPane.BINDINGS, *party_only]),
            ("Бой", list(combat_class(self.store.campaign.system).BINDINGS)),
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
        changed = replace(c, extra={**c.extra, "hidden": hidden})
        what = "скрытие не записано" if hidden else "показ не записан"
        self.write(
            lambda: self.store.upsert_character(changed, label=label, what=what),
            lambda _: self.notify(label),
        )

    def action_view_command(self) -> None:
        """Show (and copy) the command that opens the players' view of this campaign."""
        from tui.clipboard import SENT
        from tui.view import view_command

        command = view_command(self.store.path)
        self.copy_to_clipboard(command)
        self._tell_copied(
            f"Вид для игроков — в другом окне или панели tmux:\n{command}\n{SENT}.",
            title="Вид для игроков",
            timeout=20,
        )

    def action_copy_last(self) -> None:
        """Copy the newest Журнал entry (OSC 52: works over SSH and in tmux)."""
        from tui.clipboard import SENT

        entries = self.store.log(limit=1)
        if not entries:
            self.notify("Журнал пуст — копировать нечего.")
            return
        entry = entries[0]
        text = f"{entry.actor}: {entry.text}" if entry.actor else entry.text
        self.copy_to_clipboard(text)
        self._tell_copied(f"{SENT}: {text}")

    def _tell_copied(self, message: str, **kwargs: Any) -> None:
        """Say what was sent, with tmux's hint when it will not pass it on (asked off the UI
        thread: ``tmux show`` is a process)."""
        from tui.clipboard import tmux_hint

        def ask() -> None:
            hint = tmux_hint()
            full = f"{message}\n{hint}" if hint else message
            self.call_from_thread(self.notify, full, markup=False, **kwargs)

        self.run_worker(ask, thread=True, group="clipboard")

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
        character = event.character
        self.write(lambda: self.store.upsert_character(character, what="изменение не записано"))

    @on(QuickRoll.Rolled)
    def _quick_rolled(self, event: QuickRoll.Rolled) -> None:
        text = event.text or roll_summary(event.result)
        self.record("roll", event.actor, text, event.result.to_dict())

    def roll_saved(self, character: Any, name: str) -> None:
        """Roll a character's saved roll through the quick-roll bar (it logs under them)."""
        self.query_one(QuickRoll).roll_saved(character, name)

    def entry(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> LogEntry:
        """Return a new Журнал entry stamped now (secret while secret rolls are on)."""
        if self.secret and "hidden" not in data:
            data = {**data, "hidden": True}
        return LogEntry(
            id=uuid.uuid4().hex,
            at=self.clock().isoformat(timespec="seconds"),
            kind=kind,
            actor=actor,
            text=text,
            data=data,
        )

    def record(
        self, kind: str, actor: str | None, text: str, data: dict[str, Any], step: str = ""
    ) -> None:
        """Append one entry to the campaign's log (the store notifies the panes).

        An entry recorded right after a change made in the same key press tells of that
        change: it is linked to its undo step and marked «отменено» while the step is undone.
        ``step`` names that step instead (for the second entry of one change).
        """
        from tui.bridge.luck import stamp  # the luck ledger: each roll's percentile, computed once

        stamped = stamp(self, kind, actor, text, data)
        if stamped is None:
            return  # a worker computes the odds of this dice notation, then records it
        entry = self.entry(kind, actor, text, stamped)
        step = step or self.store.take_last_step()  # this thread's: a worker's are its own
        store = self.store
        self.write(lambda: store.append_log(entry, step=step))


def _shown(widget: Widget | None) -> bool:
    """Return whether ``widget`` is there to take keys (not None, not inside a hidden box)."""
    if widget is None:
        return False
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


def combat_class(system: str) -> Any:
    """Return the Бой tab's pane: Древо's exchanges, or the round tracker of the others."""
    if system == "drevo":
        from tui.widgets.combat.drevo import CombatPane

        return CombatPane
    from tui.widgets.combat.rounds import RoundsPane

    return RoundsPane


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
    prebuild: bool = False,
) -> KubikApp:
    """Open the campaign at ``path`` (default: the user data folder) and build the app.

    Args:
        path: the campaign file; a path that does not exist yet gets the demo campaign.
        system: the rules system of a new campaign (an existing file keeps its own).
        seed: seed for the session's dice (tests and reproducible sessions).
        view_only: open without keys that change state.
        clock: time source for log entries (tests freeze it).
        prebuild: build the hidden tabs in idle time after the first paint (``kubik``
            does; tests build a tab on its first visit, as they press it).

    Raises:
        tui.store.StoreError: the campaign file cannot be read; its message is Russian.
    """
    store = Store.open(path, system=system)
    return KubikApp(
        store, rng=make_rng(seed), clock=clock or local_now, view_only=view_only, prebuild=prebuild
    )

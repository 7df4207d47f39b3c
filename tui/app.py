"""The kubik Textual app and its one factory, ``make_app``.

The app itself is compose, bindings and routing: which key runs which action, which message
goes where, what runs at mount and after the first paint. It composes the services it lends its
widgets, screens and seats (``tui/services/``: the store, the dice, the ordered writer, the
Журнал, the held keys, the toasts, the file watch, undo and redo, sharing the table, the
clipboard, the redraw's choice of panes, the deferred start) and keeps only what Textual must
find on the app: the actions (one line to a service where one holds the logic), the redraw's
drawing, the start's timers. The keys that switch tabs, move the focus and open screens are
in ``tui/appparts/``, a mixin each.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import random
import sys
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static, TabbedContent, TabPane

from rules.rng import make_rng
from rules.systems import exchanges
from tui import registry
from tui.appparts.dialogs import DialogsMixin
from tui.appparts.focus import FocusMixin, MainScreen
from tui.appparts.panes import PanesMixin
from tui.crash import CrashReporting
from tui.handover import UiHandOver
from tui.present.rolls import roll_summary
from tui.sanitize import CleanPaste, clean, cut_long_words
from tui.services import Services
from tui.services.startup import LATER_MODULES, RECHECK
from tui.store import Character, Store
from tui.widgets.builders.base import builder_module, open_turn
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.common.tabs import TabbedPanes
from tui.widgets.common.text import show_markup
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.common.turn import TurnCheck
from tui.widgets.common.warm import warm
from tui.widgets.party.pane import PartyPane, party_pane

Clock = Callable[[], datetime]
TAB_TITLES = {"party": "1 Партия", "combat": "2 Бой", "check": "3 Проверка", "log": "4 Журнал"}


def local_now() -> datetime:
    """Return the current local time with its offset."""
    return datetime.now().astimezone()


def read_only_text(store: Store) -> str:
    """Return the read-only banner; the screens behind it load only when one is shown."""
    if not store.read_only:
        return ""
    from tui.screens.actions import read_only_text as text  # lazy: ~10 ms of first paint

    return text(store)


def usable_tables(tables: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The campaign's stored tables the rules accept, and why each other one is refused."""
    from tui.screens.settings_tables import usable_tables as split  # only a campaign with tables

    return split(tables)


class KubikApp(
    CrashReporting,
    CleanPaste,
    UiHandOver,
    PanesMixin,
    FocusMixin,
    DialogsMixin,
    App[None],
):
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
        # Priority: a dialog (a modal screen) hides the app's other keys; Ctrl+Z must not
        # vanish there (_undo_applies says where it applies, _refused_in_dialog refuses why).
        Binding(
            "ctrl+z",
            "undo",
            "Отменить",
            id="undo",
            tooltip="Отменить последнее изменение этого окна",
            priority=True,
        ),
        Binding(
            "ctrl+y",
            "redo",
            "Вернуть",
            id="redo",
            tooltip="Вернуть отменённое",
            show=False,
            priority=True,
        ),
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
        #: What the app lends its widgets, screens and seats (tui/services/).
        self.services = Services(
            store,
            rng=rng,
            clock=clock,
            notify=self._toast,
            run_worker=self.run_worker,
            on_ui=self._on_ui,
            call_from_thread=self.call_from_thread,
            post=self.post_message,
            copy=self.copy_to_clipboard,
            check_tables=usable_tables,
            view_only=view_only,
        )
        #: The private folder where player seats meet this app (tui/seats); None: no seats.
        self.seats_folder: Path | None = None
        self.sub_title = store.campaign.name
        #: The folders of the campaigns opened before this one (the campaign picker lists them).
        self.campaign_folders: list[Path] = []
        #: The tab panes built so far (tab → pane widget); the first tab's at start, each other
        #: tab's on its first visit, so the first screen is drawn without them.
        self._panes: dict[str, Any] = {}
        self._building: dict[str, asyncio.Task[Any]] = {}
        self._ui_thread = threading.get_ident()
        quiet_animations(self)

    @property
    def store(self) -> Store:
        """The open campaign (the services' store: opening another replaces it)."""
        return self.services.store

    def notify(self, message: str, *, markup: bool = False, **kwargs: Any) -> None:
        """Notify as Textual does, but as plain text: messages quote names the GM typed (a
        character called «[b]x» stays that text, a control code never reaches the terminal).

        Always plain: a widget's ``notify`` passes ``markup=True`` by default, and its
        messages quote names too.
        """
        if "title" in kwargs:
            kwargs["title"] = clean(cut_long_words(kwargs["title"]))
        super().notify(clean(cut_long_words(message)), markup=False, **kwargs)

    def _toast(self, message: str, **kwargs: Any) -> None:
        """The services' toasts: this app's ``notify`` as it is when they speak."""
        self.notify(message, **kwargs)

    def copy_to_clipboard(self, text: str) -> None:
        """Copy with OSC 52, never a control code inside it (it would end the sequence)."""
        super().copy_to_clipboard(clean(text))

    def action_help_quit(self) -> None:
        """Say how to quit when the GM presses Ctrl+C out of habit."""
        self.notify("Выход из kubik — Ctrl+Q.", title="Выйти?")

    @property
    def view_only(self) -> bool:
        """Opened without the keys that change state (the services say it to the widgets)."""
        return self.services.view_only

    async def on_event(self, event: events.Event) -> None:
        """Note each key (the tabs built ahead wait for a pause, the last undo step is done)
        and give it to the active tab when nothing has the focus (FocusMixin). A key that
        comes while a fight's new phase or round is being saved waits for it (``hold``)."""
        if isinstance(event, events.Key):
            self.services.startup.key_pressed()
            if self.services.keys.hold(event):  # a fight's new phase is being saved: it waits
                return
            if not event.is_forwarded:
                self.store.take_last_step()  # a new key press: what was written before is done
            self.focus_for_key()
        await super().on_event(event)

    def get_default_screen(self) -> Screen[None]:
        return MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        self._panes = {"party": party_pane(self.store.campaign.system)(id="party-pane")}
        self._building = {}
        self.services.redraw.forget()
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
        self.services.startup.key_pressed()  # the start counts as activity: build after a pause
        self.redraw_all()
        self.action_focus_tab()
        self.set_interval(0.5, self._refresh_store)  # the fallback, should the watch miss one
        guard_size(self, self.size)
        self.call_after_refresh(self._import_later_tabs)
        if self._fight_in_progress():  # a restart opens on the fight where it was left
            self.call_after_refresh(self.run_action, "show_tab('combat')")
        from tui.seats.gm import attach  # players at their own seats (tui/seats, issue 20)

        attach(self, self.seats_folder, view_only=self.view_only)

    def _fight_in_progress(self) -> bool:
        """Whether the campaign holds a Древо fight past its setup (the Бой tab opens on it)."""
        enc = self.store.get_doc("encounter")
        return (
            exchanges(self.store.campaign.system)
            and isinstance(enc, dict)
            and enc.get("phase") in ("declare", "resolve")
        )

    # -- after the first paint (the services' Startup says what is next and when) --------------

    def _import_later_tabs(self) -> None:
        """Import the other tabs' modules in a thread while the GM reads the first screen."""
        system = registry.get(self.store.campaign.system)
        fight_pane = system.fight_pane.partition(":")[0]  # Древо's exchanges, or the rounds'
        modules = (*LATER_MODULES, fight_pane, builder_module(system.name))
        startup = self.services.startup

        def import_them() -> None:
            for module in modules:
                importlib.import_module(module)
            if self.prebuild:
                self.call_from_thread(self._prebuild_next)

        if self.prebuild:
            self.store.subscribe(startup.campaign_changed)
        self.run_worker(import_them, thread=True)
        if self.services.watch.current is None:  # after the first screen: watchfiles loads
            self.services.watch.start()
        if startup.collector_off:
            # ``kubik`` starts with the collector off (tui.cli.kubik). The start's objects are kept
            # for good (frozen), so later full collections do not walk them between two keys.
            gc.enable()
            self.set_timer(1.0, gc.freeze)

    def _prebuild_next(self) -> None:
        """Build the next hidden tab, or warm it a step, once the GM has not pressed a key for
        a moment; then look again now and then (a resize or a change of the campaign leaves a
        tab to warm anew)."""
        if not self.is_running or not self.screen_stack:
            return
        startup = self.services.startup
        tab = startup.next_tab(self._panes, self.screen_stack[0].size)
        if tab is None:
            if not startup.styles_primed:  # the tab bar's two looks of each tab, ahead
                startup.styles_primed = True
                self.query_one("#tabs", TabbedPanes).prime_tab_styles()
            self.set_timer(RECHECK, self._prebuild_next)
            return
        # A key already typed (in the queue, not yet handled) is answered first.
        wait = startup.wait(busy=len(self.screen_stack) > 1 or not self._message_queue.empty())
        if wait is not None:
            self.set_timer(wait, self._prebuild_next)
            return
        if tab in self._panes:
            self._warm_step(tab)
            self.set_timer(0.05, self._prebuild_next)
            return

        async def build() -> None:
            await self.ensure_pane(tab)
            self.set_timer(0.05, self._prebuild_next)

        self.run_worker(build(), group="prebuild")

    def _warm_step(self, tab: str) -> None:
        """Lay the hidden ``tab`` out, or draw it once its widgets have their sizes."""
        screen, startup = self.screen_stack[0], self.services.startup
        changes = startup.store_changes  # a change from now on is warmed again
        pane = self.query_one(f"TabPane#{tab}")
        try:
            done = warm(screen, pane, settled=startup.settled(tab))
        except Exception:  # noqa: BLE001 - it leans on Textual's internals; a visit still works
            startup.give_up()  # the tabs are drawn on their visits, as before
            return
        startup.warmed_step(tab, done, screen.size, changes)

    # -- the redraw from the store (the services' Redraw says which panes) --------------------

    def _store_notified(self) -> None:
        """The store changed (here, in a worker, in another kubik): redraw on the UI thread."""
        self._on_ui(self._store_changed)

    def redraw_all(self) -> None:
        """Redraw every pane from the store (after mount, or after the tabs were rebuilt)."""
        self.services.redraw.forget()
        self._store_changed()

    def _store_changed(self) -> None:
        """Redraw the panes whose inputs changed, the read-only banner, the key bar's Ctrl+Z and
        the screens over the tabs that follow the store."""
        changes = self.services.redraw.changes(self._panes)  # the rules tables applied first
        banner = self.query_one("#read-only-banner", Static)
        banner.display = self.store.read_only
        show_markup(banner, read_only_text(self.store))  # unchanged: no layout, no repaint
        for tab in changes.tabs:
            pane = self._panes[tab]
            if tab == "log":
                pane.show(changes.entries)
            elif tab == "check":
                pane.set_characters(changes.characters)
            else:
                pane.show(changes.characters)
        # the key bar names what Ctrl+Z will undo, dimmed when it would be refused (a pane
        # redrawn may not refresh the bar: its keys did not change; the bar's look is one
        # after the refresh however often it is asked for)
        if self.services.history.bar_changed():
            self.screen.refresh_bindings()
        for screen in self.screen_stack[1:]:  # a screen over the tabs that follows the store
            follow = getattr(screen, "store_changed", None)
            if callable(follow):
                follow()

    def _refresh_store(self) -> None:
        """Pick up what other kubiks wrote (the timer's fallback to the file watch)."""
        self.services.watch.refresh()

    def on_resize(self, event: events.Resize) -> None:
        guard_size(self, event.size)

    def on_unmount(self) -> None:
        self.services.watch.stop()
        from tui.seats.gm import detach

        detach(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if is_too_small(self):
            return action == "quit"
        if action in ("undo", "redo"):
            return self._undo_applies()
        if action == "focus_out":  # shown in a text field (the bar is short there), quiet else
            return parameters == (isinstance(self.focused, Input),)
        if action == "secret":
            writable = not self.view_only and not self.store.read_only
            return writable and parameters == (not self.services.sharing.secret,)
        if action == "toggle_hidden":
            return not self.view_only and self._hideable_npc(None) is not None
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

    def action_quick_roll(self) -> None:
        """Open the quick-roll bar."""
        self.query_one(QuickRoll).open()

    # Undo and redo (the services' History): bound with priority, so a dialog's keys do
    # not hide them; the app says where they apply.

    def _undo_applies(self) -> bool:
        """Whether Ctrl+Z / Ctrl+Y are the campaign's (bound with priority: a dialog hides the
        app's other keys): not in a multi-line text field, which undoes its own text."""
        # Not imported here: the check runs on every key bar refresh, and importing TextArea
        # (~0.8 MiB) at start-up for it was the peak-RSS miss. No TextArea can be focused
        # before its module is loaded.
        text_area = sys.modules.get("textual.widgets._text_area")
        return text_area is None or not isinstance(self.focused, text_area.TextArea)

    def _refused_in_dialog(self) -> bool:
        """Refuse undo and redo in a dialog that would not follow them (it holds what it read
        and could write it back). A dialog (a modal screen) that follows the store says
        ``follows_undo = True``; a full screen (the settings) has always had the keys."""
        screen = self.screen
        if len(self.screen_stack) < 2 or getattr(screen, "follows_undo", not screen.is_modal):
            return False
        self.notify(
            "Отмена и возврат — вне этого окна: закройте его (Esc) и нажмите Ctrl+Z ещё раз.",
            severity="warning",
        )
        return True

    def key_bar_text(self, binding: Any) -> tuple[str, str] | tuple[str, str, bool] | None:
        """The key bar's Ctrl+Z says what it will undo («^Z «схватка 2»»), dimmed when it
        would be refused."""
        return self.services.history.key_bar_text(binding)

    def action_undo(self) -> None:
        """Undo the last change of the campaign (the log is history and stays)."""
        if not self._refused_in_dialog():
            self.services.history.undo()

    def action_redo(self) -> None:
        """Redo the last undone change."""
        if not self._refused_in_dialog():
            self.services.history.redo()

    # Sharing the table with the players (the services' Sharing) and copying (Clipboard).

    def action_secret(self, on: bool) -> None:
        """Turn secret rolls on or off: while on, the players' view shows «скрытый бросок»."""
        self.sub_title = self.services.sharing.set_secret(on)
        self.query_one("#secret-banner", Static).display = on
        self.refresh_bindings()

    def _hideable_npc(self, character_id: str | None) -> Character | None:
        """Return the NPC to hide: ``character_id``'s, or the Партия tab's highlighted one."""
        if character_id is None:
            if self.query_one(TabbedContent).active != "party":
                return None
            character_id = self.query_one(PartyPane).highlighted_id()
        return self.services.sharing.hideable(character_id)

    def action_toggle_hidden(self, character_id: str | None = None) -> None:
        """Hide an NPC from the players' view («???»), or show it again."""
        c = self._hideable_npc(character_id)
        if c is not None:
            self.services.sharing.toggle_hidden(c)

    def action_view_command(self) -> None:
        """Show (and copy) the command that opens the players' view of this campaign."""
        self.services.sharing.give_view_command()

    def action_copy_last(self) -> None:
        """Copy the newest Журнал entry (OSC 52: works over SSH and in tmux)."""
        self.services.clipboard.copy_last()

    # -- events --------------------------------------------------------------------------------

    @on(TabbedContent.TabActivated)
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.close_idle_quick_roll()  # a saved roll's result belongs to the tab it was made in
        if event.pane.id:
            await self.ensure_pane(event.pane.id)  # a tab chosen from the tab bar itself
        self.call_after_refresh(self._focus_tab_unless_typing)

    @on(PartyPane.CheckRequested)
    async def _check_requested(self, event: PartyPane.CheckRequested) -> None:
        builder = await self.ensure_pane("check")
        self.query_one(TabbedContent).active = "check"
        builder.choose_character(event.character_id)

    @on(TurnCheck)
    async def _turn_check(self, event: TurnCheck) -> None:
        builder = await self.ensure_pane("check")
        self.query_one(TabbedContent).active = "check"
        open_turn(builder, self.store.campaign.system, event.turn, opposed=event.opposed)

    @on(QuickRoll.Rolled)
    def _quick_rolled(self, event: QuickRoll.Rolled) -> None:
        text = event.text or roll_summary(event.result)
        self.services.record("roll", event.actor, text, event.result.to_dict())


def make_app(
    path: Path | None = None,
    *,
    system: str = "drevo",
    seed: int | None = None,
    view_only: bool = False,
    clock: Clock | None = None,
    prebuild: bool = False,
    through_dangling_link: bool = False,
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
        through_dangling_link: ``path`` is a link to nothing and the GM agreed to a new
            campaign at its target.

    Raises:
        tui.store.StoreError: the campaign file cannot be read; its message is Russian.
    """
    store = Store.open(path, system=system, through_dangling_link=through_dangling_link)
    return KubikApp(
        store, rng=make_rng(seed), clock=clock or local_now, view_only=view_only, prebuild=prebuild
    )

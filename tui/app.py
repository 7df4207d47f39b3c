"""The kubik Textual app and its one factory, ``make_app``.

The app itself is compose, bindings and routing: which key runs which action, which message
goes where, what runs at mount. It composes the services it lends its widgets, screens and
seats (``tui/services.py``: the store, the dice, the ordered writer, the Журнал, the held keys,
the toasts); its own actions and its redraw live in ``tui/appparts/``, one concept a mixin (the
redraw, the file watch, the tab panes and the keys that switch them, the deferred start, the
focus moves, undo, sharing the table, copying, the screens the keys open).
"""

from __future__ import annotations

import asyncio
import gc
import random
import threading
import time
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
from tui.appparts.copying import CopyingMixin
from tui.appparts.dialogs import DialogsMixin
from tui.appparts.focus import FocusMixin, MainScreen
from tui.appparts.history import HistoryMixin
from tui.appparts.panes import PanesMixin
from tui.appparts.redraw import RedrawMixin, read_only_text
from tui.appparts.sharing import SharingMixin
from tui.appparts.startup import StartupMixin
from tui.crash import CrashReporting
from tui.handover import UiHandOver
from tui.present.rolls import roll_summary
from tui.sanitize import CleanPaste, clean
from tui.services import Services
from tui.store import Store
from tui.widgets.builders.base import open_turn
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.common.tabs import TabbedPanes
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.common.turn import TurnCheck
from tui.widgets.party.pane import PartyPane

Clock = Callable[[], datetime]
TAB_TITLES = {"party": "1 Партия", "combat": "2 Бой", "check": "3 Проверка", "log": "4 Журнал"}


def local_now() -> datetime:
    """Return the current local time with its offset."""
    return datetime.now().astimezone()


class KubikApp(
    CrashReporting,
    CleanPaste,
    UiHandOver,
    RedrawMixin,
    PanesMixin,
    StartupMixin,
    FocusMixin,
    HistoryMixin,
    SharingMixin,
    CopyingMixin,
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
        # vanish there (HistoryMixin says where it applies and refuses with a reason).
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
        self._last_key = 0.0
        #: What the app lends its widgets, screens and seats (tui/services.py).
        self.services = Services(
            store,
            rng=rng,
            clock=clock,
            notify=self.notify,
            run_worker=self.run_worker,
            on_ui=self._on_ui,
            call_from_thread=self.call_from_thread,
            post=self.post_message,
            view_only=view_only,
        )
        #: The private folder where player seats meet this app (tui/seats); None: no seats.
        self.seats_folder: Path | None = None
        self.sub_title = store.campaign.name
        #: The folders of the campaigns opened before this one (the campaign picker lists them).
        self.campaign_folders: list[Path] = []
        #: What each pane was last given, to skip redraws that change nothing.
        self._shown: dict[str, Any] = {}
        #: The tab panes built so far (tab → pane widget); the first tab's at start, each other
        #: tab's on its first visit, so the first screen is drawn without them.
        self._panes: dict[str, Any] = {}
        self._building: dict[str, asyncio.Task[Any]] = {}
        self._warmed: dict[str, Any] = {}  # the hidden tabs drawn ahead (appparts/startup.py)
        #: The campaign's stored tables last checked, and those of them the rules accepted.
        self._settings_checked: tuple[dict[str, Any], dict[str, Any]] | None = None
        #: Whether the collector was off for the start (``kubik``, not a test's app).
        self._collector_off = not gc.isenabled()
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
            kwargs["title"] = clean(kwargs["title"])
        super().notify(clean(message), markup=False, **kwargs)

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
            self._last_key = time.monotonic()
            if self.services.keys.hold(event):  # a fight's new phase is being saved: it waits
                return
            if not event.is_forwarded:
                self.store.take_last_step()  # a new key press: what was written before is done
            self.focus_for_key()
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
            return self.undo_applies()
        if action == "focus_out":  # shown in a text field (the bar is short there), quiet else
            return parameters == (isinstance(self.focused, Input),)
        if action == "secret":
            writable = not self.view_only and not self.store.read_only
            return writable and parameters == (not self.services.journal.secret,)
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

    def action_quick_roll(self) -> None:
        """Open the quick-roll bar."""
        self.query_one(QuickRoll).open()

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

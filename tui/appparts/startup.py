"""The deferred start: what the app does once its first screen is drawn, so that it is drawn
fast. The later tabs' modules are imported off the UI thread, the hidden tabs are built ahead in
idle time (``kubik``'s ``prebuild``) and warmed (laid out and drawn unseen,
``tui/widgets/common/warm.py``; again after a resize or a change of the campaign), the campaign
file's watch starts and the garbage collector, off for the start, comes back on."""

from __future__ import annotations

import gc
import importlib
import time

from tui.appparts import AppPart
from tui.widgets.builders.base import builder_module
from tui.widgets.common.tabs import TabbedPanes
from tui.widgets.common.warm import warm

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
#: How many layouts a hidden tab gets while its widgets still change size before its lines
#: are drawn all the same (a scrollbar that appears narrows what is beside it).
WARM_ROUNDS = 3
#: How often (seconds) an app with every tab warm looks again for one to warm.
RECHECK = 1.0


class StartupMixin(AppPart):
    """``KubikApp``'s work after the first paint (mixed into ``KubikApp``)."""

    #: How many times the store has changed since the start (``_campaign_changed``).
    _store_changes = 0
    #: Whether the tab bar's tabs have had their looks found ahead (tui/widgets/common/tabs.py).
    _tab_styles_primed = False

    def _import_later_tabs(self) -> None:
        """Import the other tabs' modules in a thread while the GM reads the first screen."""
        modules = (*LATER_MODULES, builder_module(self.store.campaign.system))

        def import_them() -> None:
            for module in modules:
                importlib.import_module(module)
            if self.prebuild:
                self.call_from_thread(self._prebuild_next)

        if self.prebuild:
            self.store.subscribe(self._campaign_changed)
        self.run_worker(import_them, thread=True)
        if self.services.watch.current is None:  # after the first screen: watchfiles loads
            self.services.watch.start()
        if self._collector_off:
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
        tab = next((t for t in PREBUILT_TABS if t not in self._panes or not self._is_warm(t)), None)
        if tab is None:
            if not self._tab_styles_primed:  # the tab bar's two looks of each tab, ahead
                self._tab_styles_primed = True
                self.query_one("#tabs", TabbedPanes).prime_tab_styles()
            self.set_timer(RECHECK, self._prebuild_next)
            return
        quiet = time.monotonic() - self._last_key
        # A key already typed (in the queue, not yet handled) is answered first.
        if quiet < IDLE_BEFORE_BUILD or len(self.screen_stack) > 1 or self._typed_ahead():
            self.set_timer(max(0.05, IDLE_BEFORE_BUILD - quiet), self._prebuild_next)
            return
        if tab in self._panes:
            self._warm_step(tab)
            self.set_timer(0.05, self._prebuild_next)
            return

        async def build() -> None:
            await self.ensure_pane(tab)
            self.set_timer(0.05, self._prebuild_next)

        self.run_worker(build(), group="prebuild")

    def _campaign_changed(self) -> None:
        """The store changed (any thread): the hidden panes redraw, so warm them again."""
        self._store_changes += 1

    def _typed_ahead(self) -> bool:
        return not self._message_queue.empty()

    def _is_warm(self, tab: str) -> bool:
        if self._warmed.get("") == "failed":
            return True  # warming is given up for this session (see _warm_step)
        return self._warmed.get(tab) == (self.screen_stack[0].size, self._store_changes)

    def _warm_step(self, tab: str) -> None:
        """Lay the hidden ``tab`` out, or draw it once its widgets have their sizes."""
        screen = self.screen_stack[0]
        rounds = self._warmed.get(tab)
        rounds = rounds if isinstance(rounds, int) else 0
        changes = self._store_changes  # a change from now on is warmed again
        pane = self.query_one(f"TabPane#{tab}")
        try:
            done = warm(screen, pane, settled=rounds + 1 >= WARM_ROUNDS)
        except Exception:  # noqa: BLE001 - it leans on Textual's internals; a visit still works
            self._warmed[""] = "failed"  # the tabs are drawn on their visits, as before
            return
        self._warmed[tab] = rounds + 1 if done == "resized" else (screen.size, changes)

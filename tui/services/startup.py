"""The deferred start's state and choices: what the app does once its first screen is drawn,
so that it is drawn fast. The later tabs' modules are imported off the UI thread, the hidden
tabs are built ahead in idle time (``kubik``'s ``prebuild``) and warmed (laid out and drawn
unseen, ``tui/widgets/common/warm.py``; again after a resize or a change of the campaign), the
campaign file's watch starts and the garbage collector, off for the start, comes back on.

This says which tab is next, whether to wait for the GM and what was warmed at which size; the
timers, workers and the drawing are the app's (``KubikApp._prebuild_next``)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Container
from typing import Any

#: The modules behind the tabs that are built on their first visit (imported ahead, off the UI
#: thread, once the first screen is up), beside the campaign's system's Бой pane and builder
#: (its ``System.fight_pane`` and ``builder``: ``KubikApp._import_later_tabs``).
LATER_MODULES = (
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


class Startup:
    """When the GM last pressed a key, how often the campaign changed, and which hidden tabs
    are warm at which screen size."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        #: When the GM last pressed a key (``time.monotonic``).
        self.last_key = 0.0
        #: How many times the store has changed since the start (:meth:`campaign_changed`).
        self.store_changes = 0
        #: The hidden tabs warmed: tab → the screen size and store change they were warmed at,
        #: or the layouts tried so far; ``""`` → "failed" once warming is given up.
        self.warmed: dict[str, Any] = {}
        #: Whether the tab bar's tabs have had their looks found ahead (tui/widgets/common/tabs.py).
        self.styles_primed = False
        #: Whether the collector was off for the start (``kubik``, not a test's app).
        self.collector_off = not gc.isenabled()

    def key_pressed(self) -> None:
        """Note a key (or the start): the tabs are built ahead only after a pause."""
        self.last_key = self._now()

    def campaign_changed(self) -> None:
        """The store changed (any thread): the hidden panes redraw, so warm them again."""
        self.store_changes += 1

    def is_warm(self, tab: str, size: Any) -> bool:
        """Whether ``tab`` was warmed at this screen size since the campaign last changed."""
        if self.warmed.get("") == "failed":
            return True  # warming is given up for this session (see give_up)
        return self.warmed.get(tab) == (size, self.store_changes)

    def next_tab(self, built: Container[str], size: Any) -> str | None:
        """Return the next hidden tab to build or warm, or None when all are warm."""
        return next((t for t in PREBUILT_TABS if t not in built or not self.is_warm(t, size)), None)

    def wait(self, *, busy: bool) -> float | None:
        """Return how long to wait before the next step (the GM pressed a key a moment ago, or
        is ``busy``: a dialog open, a key typed ahead), or None to go on now."""
        quiet = self._now() - self.last_key
        if quiet < IDLE_BEFORE_BUILD or busy:
            return max(0.05, IDLE_BEFORE_BUILD - quiet)
        return None

    def settled(self, tab: str) -> bool:
        """Whether ``tab``'s next warm step draws its lines (its layouts are used up)."""
        rounds = self.warmed.get(tab)
        return (rounds if isinstance(rounds, int) else 0) + 1 >= WARM_ROUNDS

    def warmed_step(self, tab: str, done: str, size: Any, changes: int) -> None:
        """Note a warm step of ``tab``: another layout (``done == "resized"``), or its lines
        drawn at ``size`` as of the store's ``changes``th change."""
        rounds = self.warmed.get(tab)
        rounds = rounds if isinstance(rounds, int) else 0
        self.warmed[tab] = rounds + 1 if done == "resized" else (size, changes)

    def give_up(self) -> None:
        """Give warming up for this session: the tabs are drawn on their visits, as before."""
        self.warmed[""] = "failed"

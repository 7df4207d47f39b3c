"""The tab panes: which pane each tab shows, each built and drawn on its first visit, and the
keys 1–4 that switch to them.

The first screen holds the Партия pane only; a tab's pane is built the first time the tab is
shown (or ahead of it, in idle time: ``KubikApp.prebuild``) and drawn from the store at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import TabbedContent, TabPane

from tui import registry
from tui.appparts import AppPart
from tui.widgets.builders.base import builder_class


def combat_class(system: str) -> Any:
    """Return the Бой tab's pane: the system's own (``System.fight_pane``: Древо's exchanges,
    the round tracker of the others)."""
    return registry.load(registry.get(system).fight_pane)


class PanesMixin(AppPart):
    """Building ``KubikApp``'s tab panes on demand (mixed into ``KubikApp``)."""

    async def action_show_tab(self, tab: str) -> None:
        """Switch to a tab (built on its first visit) and focus its first control."""
        if tab in self._panes:
            self.query_one(TabbedContent).active = tab
            self.action_focus_tab()
            return
        # A first visit: the screen is laid out once, for the built tab, not at each step of
        # the build (mount, compose, fill, switch: ~5 layouts of the whole screen).
        with self.batch_update():
            await self.ensure_pane(tab)
            self.query_one(TabbedContent).active = tab
            self.action_focus_tab()
        self.screen.check_idle()  # Screen._on_idle lays out what the batch held back

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

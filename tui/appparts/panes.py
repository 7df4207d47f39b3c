"""The tab panes: which pane each tab shows, each built and drawn on its first visit, and the
keys 1–4 that switch to them.

The first screen holds the Партия pane only; a tab's pane is built the first time the tab is
shown (or ahead of it, in idle time: ``KubikApp.prebuild``) and drawn from the store at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import TabbedContent, TabPane

from tui import systems
from tui.store import Store
from tui.widgets.builders.base import builder_class


def combat_class(system: str) -> Any:
    """Return the Бой tab's pane: the system's own (``System.fight_pane``: Древо's exchanges,
    the round tracker of the others)."""
    return systems.load(systems.get(system).fight_pane)


class PanesMixin:
    """Building ``KubikApp``'s tab panes on demand (mixed into ``KubikApp``)."""

    # Set by KubikApp.__init__ (and compose).
    store: Store
    #: The tab panes built so far (tab → pane widget).
    _panes: dict[str, Any]
    _building: dict[str, asyncio.Task[Any]]
    # Provided by RedrawMixin, FocusMixin and Textual's App.
    _store_changed: Any
    action_focus_tab: Any
    batch_update: Any
    query_one: Any
    screen: Any

    #: The open check's session, made on first use (see :attr:`check_table`).
    _check_table: Any = None

    @property
    def check_table(self) -> Any:
        """The campaign's open check (:class:`~tui.table.check.session.CheckTable`): the
        Проверка tab draws it, the players' seats ask about it; made anew for another
        campaign. None for a system whose check is not on the table engine yet."""
        from tui.table.check.session import CheckTable, engine_for

        table = self._check_table
        if table is None or table.store is not self.store:
            if engine_for(self.store.campaign.system) is None:
                return None
            from tui.table.core import Dice

            table = CheckTable(self.store, Dice(self.rng), make=self.entry)  # type: ignore[attr-defined]
            self._check_table = table
            for notice in table.notices:
                self.notify(notice, severity="error", timeout=10)  # type: ignore[attr-defined]
        return table

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

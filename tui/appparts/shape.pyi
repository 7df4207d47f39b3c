"""The app as its parts see it, for mypy alone: ``KubikApp``'s own attributes and the methods
one part calls on another, typed. Each part (a mixin of ``tui/appparts/``) derives from
:data:`AppPart`: this class while type-checking, ``object`` at run time (a part must stay a
plain class: Textual collects handlers and bindings only from its message pumps, and the app
keeps those). Nothing imports this module at run time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.app import App

from tui.services import Services
from tui.store import Store

class AppShape(App[None]):
    """What ``KubikApp`` (tui/app.py) sets and what its parts call of each other."""

    services: Services
    #: The folders of the campaigns opened before this one (a part hands the app on as a
    #: ``CampaignHost``: tui/host.py).
    campaign_folders: list[Path]
    #: The tab panes built so far (tab → pane widget); the first tab's at start.
    _panes: dict[str, Any]
    _building: dict[str, asyncio.Task[None]]

    @property
    def store(self) -> Store: ...

    # -- one part's methods that another part calls ------------------------------------------

    async def ensure_pane(self, tab: str) -> Any: ...
    def _store_changed(self) -> None: ...
    def _store_notified(self) -> None: ...
    def redraw_all(self) -> None: ...
    def action_focus_tab(self) -> None: ...

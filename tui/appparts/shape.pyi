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
    prebuild: bool
    seats_folder: Path | None
    campaign_folders: list[Path]
    #: When the GM last pressed a key (``time.monotonic``).
    _last_key: float
    #: Whether the collector was off for the start (``kubik``, not a test's app).
    _collector_off: bool
    #: The thread that runs the event loop (tui/handover.py).
    _ui_thread: int
    #: The tab panes built so far (tab → pane widget); the first tab's at start.
    _panes: dict[str, Any]
    _building: dict[str, asyncio.Task[None]]
    #: The hidden tabs warmed (tui/widgets/common/warm.py): tab → the screen size and store
    #: change they were warmed at, or the layouts tried so far.
    _warmed: dict[str, Any]
    #: What each pane was last given, to skip redraws that change nothing.
    _shown: dict[str, Any]
    #: The campaign's stored tables last checked, and those of them the rules accepted.
    _settings_checked: tuple[dict[str, Any], dict[str, Any]] | None

    @property
    def store(self) -> Store: ...
    @property
    def view_only(self) -> bool: ...

    # -- one part's methods that another part calls ------------------------------------------

    def _on_ui(self, callback: Any) -> None: ...
    async def ensure_pane(self, tab: str) -> Any: ...
    def _store_changed(self) -> None: ...
    def _store_notified(self) -> None: ...
    def redraw_all(self) -> None: ...
    def usable_settings(self, settings: dict[str, Any] | None) -> dict[str, Any]: ...
    def action_focus_tab(self) -> None: ...
    def _tell_copied(self, message: str, **kwargs: Any) -> None: ...

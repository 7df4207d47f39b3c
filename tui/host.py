"""What the screens ask of the app that shows them.

The campaign screens (``tui/screens/actions.py``) open, switch and export campaigns; for that
they need the app's services (``tui/services/``: the store, the writer, the toasts) and a few
of the app's own verbs. They name those here, as a :class:`~typing.Protocol` that
``tui.app.KubikApp`` fulfils by its own shape, so no screen or widget imports the app and the
app can import them without a circle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from textual.screen import Screen
    from textual.worker import Worker

    from tui.services import Services
    from tui.store import Store


class CampaignHost(Protocol):
    """The app as the campaign screens see it: one open campaign, its tabs, its messages."""

    services: Services
    sub_title: str
    #: The folders of the campaigns opened before this one (the campaign picker lists them).
    campaign_folders: list[Path]

    @property
    def store(self) -> Store:
        """The open campaign (the services' store)."""

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], Any] | None = ...) -> Any:
        """Show a screen; ``callback`` gets what it returns."""

    def push_screen_wait(self, screen: Screen[Any]) -> Awaitable[Any]:
        """Show a screen and wait for what it returns (from a worker)."""

    def run_worker(self, work: Any, *, exclusive: bool = ...) -> Worker[Any]:
        """Run ``work`` off the key handler."""

    async def recompose(self) -> None:
        """Rebuild the tabs (for another campaign's system)."""

    def _store_notified(self) -> None:
        """The store's subscriber: redraw the tabs after a change."""

    def redraw_all(self) -> None:
        """Redraw every tab from the store."""

    def action_focus_tab(self) -> None:
        """Focus the first control of the active tab."""

"""A full-screen notice while the terminal is smaller than kubik's 80×24.

``SystemModalScreen`` keeps ``app.query_one`` looking at the screen below, so the app's
panes go on redrawing from the store behind the notice and are current when it goes away.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import SystemModalScreen
from textual.widgets import Static

MIN_SIZE = Size(80, 24)


def too_small_text(size: Size) -> str:
    """Return the Russian notice for a terminal of ``size``."""
    return (
        f"Терминал слишком мал: нужно хотя бы {MIN_SIZE.width}×{MIN_SIZE.height}, "
        f"сейчас {size.width}×{size.height}.\n"
        "Увеличьте окно или уменьшите шрифт; Ctrl+Q или q — выход."
    )


class TooSmallScreen(SystemModalScreen[None]):
    """Cover the app with a notice; the app pops it once the terminal is big enough."""

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
        background: $background;
    }
    TooSmallScreen > Static {
        width: 100%;
        height: auto;
        content-align: center middle;
        text-align: center;
        color: $foreground;
        padding: 0 1;
    }
    """

    # A modal screen hides the app's own keys: the notice carries the ways out itself.
    BINDINGS = [
        Binding("ctrl+q,q,ctrl+c", "app.quit", "Выход", id="too-small-quit", priority=True),
    ]

    def compose(self) -> ComposeResult:
        yield Static(too_small_text(self.app.size), id="too-small")

    def show_size(self, size: Size) -> None:
        """Update the notice to the terminal's current size."""
        self.query_one("#too-small", Static).update(too_small_text(size))


def guard_size(app: App[Any], size: Size) -> None:
    """Show or hide the notice of ``app`` for a terminal of ``size`` (call on every resize)."""
    small = size.width < MIN_SIZE.width or size.height < MIN_SIZE.height
    notice = next((s for s in app.screen_stack if isinstance(s, TooSmallScreen)), None)
    if small and notice is None:
        app.push_screen(TooSmallScreen())
    elif small and notice is not None and notice.is_mounted:
        notice.show_size(size)
    elif not small and notice is not None:
        if app.screen is notice:
            app.pop_screen()
        else:
            notice.dismiss()


def is_too_small(app: App[Any]) -> bool:
    """Return whether the notice is up (the app's keys, but quitting, are off then)."""
    return any(isinstance(s, TooSmallScreen) for s in app.screen_stack)

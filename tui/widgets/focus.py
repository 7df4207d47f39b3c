"""Focus a widget before the next key is handled."""

from __future__ import annotations

from textual.widget import Widget


def focus_now(widget: Widget) -> None:
    """Give ``widget`` the focus at once.

    ``Widget.focus`` only queues the change, behind any keys the terminal has already sent:
    a fast «/2d6» switched to the Бой tab instead of rolling, and «f» then «a» opened the
    new-character form instead of filtering. A widget shown in the same handler can take the
    focus at once (Textual checks that it can be focused, not that it is laid out yet).
    """
    widget.screen.set_focus(widget)

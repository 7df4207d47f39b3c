"""Where the focus goes: at once (``focus_now``), and the keys that move it.

The focus contract (issue 16): Tab and Shift+Tab cycle through the controls of the active tab
(of a dialog: of the dialog); ↑ and ↓ move between the rows of a form and wrap around inside
it; Esc goes one level out (to the tab's first control); Ctrl+Q quits from every screen. So no
key leaves the focus where the key bar has nothing to offer.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, TabPane

#: Text fields whose Enter does what Enter does on the form around them (roll, declare): the
#: key bar shows that Enter while one of them has the focus.
ENTER_AS_FORM = frozenset({"check-mods", "declare-note", "quick-input"})


def focus_now(widget: Widget) -> None:
    """Give ``widget`` the focus at once.

    ``Widget.focus`` only queues the change, behind any keys the terminal has already sent:
    a fast «/2d6» switched to the Бой tab instead of rolling, and «f» then «a» opened the
    new-character form instead of filtering. A widget shown in the same handler can take the
    focus at once (Textual checks that it can be focused, not that it is laid out yet).
    """
    widget.screen.set_focus(widget)


def pane_of(widget: Widget | None, screen: Screen[Any]) -> Widget:
    """Return the tab pane that holds ``widget`` (the screen itself outside the tabs)."""
    for node in widget.ancestors_with_self if widget is not None else ():
        if isinstance(node, TabPane):
            return node
    return screen


def form_of(widget: Widget | None, screen: Screen[Any]) -> Widget:
    """Return the form (``STEPPER_FORM``) that holds ``widget``, else its pane."""
    for node in widget.ancestors_with_self if widget is not None else ():
        if getattr(node, "STEPPER_FORM", False) and isinstance(node, Widget):
            return node
        if isinstance(node, TabPane):
            return node
    return screen


def cycle_focus(screen: Screen[Any], delta: int, *, within: Widget) -> Widget | None:
    """Focus the next (``delta`` 1) or previous (−1) control inside ``within``, wrapping.

    Returns the widget focused, or None when ``within`` holds nothing focusable.
    """
    chain = [w for w in screen.focus_chain if within is screen or within in w.ancestors]
    if not chain:
        return None
    current = screen.focused
    if current in chain:
        target = chain[(chain.index(current) + delta) % len(chain)]
    else:
        target = chain[0 if delta > 0 else -1]
    screen.set_focus(target)
    return target


def form_enter(field: Widget | None) -> tuple[Any, Binding, bool] | None:
    """Return (owner, binding, enabled) of the Enter that a field of ``ENTER_AS_FORM`` hands
    its Enter to: the nearest shown, not hidden, ``enter`` binding around it."""
    if not isinstance(field, Input) or field.id not in ENTER_AS_FORM:
        return None
    for node in field.ancestors:
        for binding in node._bindings.key_to_bindings.get("enter", ()):
            if not binding.show:
                continue
            state = field.app._check_action_state(binding.action, node)
            if state is not False:
                return node, binding, bool(state)
    return None

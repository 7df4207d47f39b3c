"""The focus contract at the app's level: the tabs' screen and the keys that move the focus.

The keys a focused widget leaves unbound (``tui.widgets.common.focus``) land on
:class:`MainScreen`: Escape goes one level out, ↑/↓ step through the form's rows, Tab cycles
within the active tab (or the dialog), and Enter in a form's field does the form's Enter.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, TabbedContent

from tui.appparts import AppPart
from tui.widgets.common.exposed import KeptCompositor
from tui.widgets.common.focus import cycle_focus, focus_now, form_enter, form_of, pane_of
from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.common.styled import StyledOnce


class MainScreen(StyledOnce, Screen[None]):
    """The tabs' screen. A focus change repaints the widgets whose focus styles change, not
    the whole screen: Textual's ``Screen.focused`` repaints every line of it, which on a tab
    switch doubled the frame's work and the bytes sent to the terminal."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    # The focus contract (tui.widgets.common.focus): keys a focused widget leaves unbound land here.
    BINDINGS = [
        Binding("escape", "app.focus_out(True)", "Назад", id="focus-out", tooltip="Выйти из поля"),
        Binding("escape", "app.focus_out(False)", "Назад", id="focus-out-quiet", show=False),
        Binding("up", "app.focus_step(-1)", "Выше", id="focus-up", show=False),
        Binding("down", "app.focus_step(1)", "Ниже", id="focus-down", show=False),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A notice that times out is wiped from the terminal (tui/widgets/common/exposed.py).
        self._compositor = KeptCompositor()

    @on(Input.Submitted)
    async def _field_submitted(self, event: Input.Submitted) -> None:
        """Enter in a form's text field that no one else took does the form's Enter."""
        found = form_enter(event.input)
        if found is not None:
            event.stop()
            node, binding, enabled = found
            if enabled:
                await self.app.run_action(binding.action, node)


def takes_keys(widget: Widget | None) -> bool:
    """Return whether ``widget`` is there to take keys (not None, not inside a hidden box)."""
    if widget is None:
        return False
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


class FocusMixin(AppPart):
    """``KubikApp``'s focus moves (mixed into ``KubikApp``)."""

    def action_focus_next(self) -> None:
        """Focus the next control of the active tab (of a dialog), wrapping around."""
        self._cycle(1)

    def action_focus_previous(self) -> None:
        """Focus the previous control of the active tab (of a dialog), wrapping around."""
        self._cycle(-1)

    def _cycle(self, delta: int) -> None:
        screen = self.screen
        if isinstance(screen, MainScreen):
            tabs = self.query_one(TabbedContent)
            within = pane_of(tabs.get_pane(tabs.active), screen)
            if cycle_focus(screen, delta, within=within) is None:
                self.action_focus_tab()
        else:
            cycle_focus(screen, delta, within=screen)

    def action_focus_step(self, delta: int) -> None:
        """Move to the next or previous row of the form that has the focus, wrapping."""
        screen = self.screen
        if isinstance(screen, MainScreen) and screen.focused is None:
            self.action_focus_tab()
            return
        cycle_focus(screen, delta, within=form_of(screen.focused, screen))

    def action_focus_out(self, _shown: bool = False) -> None:
        """Go one level out: from any control of a tab to the tab's first control; the
        quick-roll bar a saved roll left open (its result read) closes too."""
        self.close_idle_quick_roll()
        self.action_focus_tab()

    def close_idle_quick_roll(self) -> None:
        """Hide the quick-roll bar unless the GM is typing in it: a saved roll's result stays
        until the tab changes or Esc, never over another tab's rows."""
        bar = self.query_one(QuickRoll)
        focused = self.focused
        if bar.display and (focused is None or bar not in focused.ancestors_with_self):
            bar.display = False

    def action_focus_tab(self) -> None:
        """Focus the first focusable widget of the active tab."""
        tabs = self.query_one(TabbedContent)
        pane = tabs.get_pane(tabs.active)
        content = pane.children[0] if pane.children else None
        focus_first = getattr(content, "focus_first", None)  # a pane that says where it starts
        if callable(focus_first):
            focus_first()
            return
        for widget in pane.query("*"):
            if widget.focusable:
                focus_now(widget)
                return

    def focus_for_key(self) -> None:
        """Give a key that arrives while nothing has the focus to the active tab's first
        control: a control that hid itself (IDE4's «n» after a roll) left the focus nowhere,
        and the keys typed right after it hit the app's keys instead of the tab's."""
        screen = self.screen
        if isinstance(screen, MainScreen) and not takes_keys(screen.focused) and self._panes:
            self.action_focus_tab()

    def _focus_tab_unless_typing(self) -> None:
        """Focus the active tab, unless the quick-roll bar opened meanwhile (a «/» pressed
        before the first frame): the keys typed after it are the roll."""
        if not self.query_one(QuickRoll).display:
            self.action_focus_tab()

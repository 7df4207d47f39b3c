"""The key bar at the bottom of every screen: one line of the keys that work right now.

It shows what Textual's ``Footer`` shows (each shown binding of the screen's active bindings,
its key then its description, a disabled one dimmed, in the theme's footer colours), but as one
widget that draws one line of text. ``Footer`` rebuilds a widget per key on every focus change:
at kubik's 8–12 keys that cost ~50 ms per keypress and leaked the old widgets (Textual issue
#6666), for mouse clicks a keyboard-driven app has no use for. The bar redraws only when the
line it would show changes. It names the keys as ``?`` does (``keynames.key_label``:
«Пробел», «Esc», «Tab»), with its short «⏎» and «^Q».

When the keys do not fit, the least important go first (the last of the focused widget's and
its tab's, then the app's) and ``?`` always stays: it lists the rest. In a form's text field
whose Enter does the form's Enter (``ENTER_AS_FORM``) the bar shows that Enter.

A widget whose key means different things in different states says so with
``key_bar_text(binding)``: it returns (key shown, description) for the state it is in, or None
for the binding's own (``KeyBar.relabelled`` asks the nearest such widget around the key's);
a third value False dims a key that works but will refuse now and say why (Ctrl+Z of a step
another window built on).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widget import Widget
from textual.widgets import OptionList

from tui.widgets.common.focus import form_enter
from tui.widgets.common.keynames import key_label

_ENABLED = Style()
_DISABLED = Style(dim=True)
#: Actions the bar never drops: the way out and the list of every key.
_KEPT = ("quit", "keys", "app.quit")
#: The app's keys dropped before any of the focused widget's (the quick roll has «/» in «?»).
_FIRST_DROPPED = ("quick_roll",)
#: The key that names what it will do (Ctrl+Z: «схватка 2»): shortened before any key goes,
#: never dropped while anything else can be (issue 30: the GM sees what Ctrl+Z will undo
#: before pressing it, on every tab at 80 columns).
_NAMED = "undo"
#: The fewest cells of that name kept before the focused widget's keys go («Лист: Богда…»).
_NAMED_MIN = 12

Key = tuple[str, str, bool]
#: Enter as the bar shows it (a widget's ``key_bar_text`` spells it so too).
_ENTER = key_label("enter", short=True)


class KeyBar(Widget, can_focus=False):
    """One line of the keys the focused widget, its screen and the app offer now."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: clip;
        color: $footer-foreground;
        background: $footer-background;
        & > .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        #: (key shown, description, enabled) of each key on the line now.
        self._keys: tuple[tuple[str, str, bool], ...] = ()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self._update()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)
        self.app.screen_change_signal.unsubscribe(self)

    def _source(self) -> Any:
        """Return the screen whose keys work now: a dialog over ours, else ours."""
        top = self.app.screen
        if top is not self.screen and top.is_modal and self.screen in self.app.screen_stack:
            return top
        return self.screen

    def _screen_changed(self, screen: Any) -> None:
        if not self.is_attached:
            return
        source = self._source()
        if source is not self.screen:  # a dialog: follow its keys while it is up
            source.bindings_updated_signal.subscribe(self, self._bindings_changed)
        # Always: a look due on the screen that just went was dropped with it.
        self._update_due = True
        self.call_after_refresh(self._update)

    def _bindings_changed(self, screen: Any) -> None:
        if self.is_attached and screen is self._source():
            # As Footer does: after the refresh, when a dialog just opened is on the stack.
            self._update_after_refresh()

    def _update_after_refresh(self) -> None:
        """Look at the keys again after the next refresh, once however often they changed
        before it: a focus change and a reactive's change each say so, and each look asks
        every binding of the screen whether it applies (~1 ms)."""
        if not self._update_due:
            self._update_due = self.call_after_refresh(self._update)

    _update_due = False

    def _update(self) -> None:
        self._update_due = False
        if not self.is_attached:
            return
        keys = self.current_keys()
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    def current_keys(self) -> tuple[tuple[str, str, bool], ...]:
        """Return (key shown, description, enabled) of each shown key, once per action."""
        seen: set[str] = set()
        keys = []
        actions: list[str] = []
        form_enter = self._form_enter()
        if form_enter is not None:
            seen.add(form_enter[0])
            keys.append(form_enter[1])
            actions.append(form_enter[0])
        source = self._source()
        for active in source.active_bindings.values():
            binding = active.binding
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            shown, description, enabled = self.relabelled(active.node, binding)
            if not shown:
                continue  # the widget says the key has nothing to do now (Ctrl+Z, no step)
            keys.append((shown, description, active.enabled and enabled))
            actions.append(binding.action)
        enter = self._dialog_enter(source, keys)
        if enter is not None:
            keys.insert(0, enter)
            actions.insert(0, "dialog-enter")
        if source.is_modal and not seen & {"quit", "app.quit"}:
            # A dialog hides the app's keys from its bindings, but Ctrl+Q (a priority key)
            # still quits: say so.
            for _key, binding in self.app._bindings:
                if binding.action == "quit" and binding.show:
                    keys.append((_shown(binding), binding.description, True))
                    actions.append("quit")
                    break
        if "keys" in actions[:-1]:  # «?» stays last (the list of every key)
            at = actions.index("keys")
            keys.append(keys.pop(at))
            actions.append(actions.pop(at))
        self._actions = tuple(actions)
        return tuple(keys)

    _actions: tuple[str, ...] = ()

    def _dialog_enter(self, source: Any, keys: list[Key]) -> Key | None:
        """Return the Enter of a dialog that handles it without a shown binding (a list's
        Enter chooses, a field's Enter submits), so the bar never hides what Enter does:
        the dialog's ``ENTER_TEXT``, else «Выбрать» in a list."""
        if not source.is_modal or any(key == _ENTER for key, _d, _e in keys):
            return None
        if getattr(source, "withdrawn", False):  # its subject is gone: Enter writes nothing
            return None
        text = getattr(source, "ENTER_TEXT", None)
        if isinstance(text, dict):  # per field: {field id: what Enter does there}
            focused = source.focused
            text = text.get(getattr(focused, "id", None) or "")
        if text is None and isinstance(source.focused, OptionList):
            text = "Выбрать"
        return (_ENTER, text, True) if text else None

    def relabelled(self, node: Any, binding: Any) -> tuple[str, str, bool]:
        """Return (key shown, description, not dimmed) of ``binding`` as the widgets around
        ``node`` say it works now (``key_bar_text``), else as the binding says."""
        for widget in getattr(node, "ancestors_with_self", ()):
            text = getattr(widget, "key_bar_text", None)
            if callable(text):
                found = text(binding)
                if found is not None:
                    return (found[0], found[1], True) if len(found) == 2 else found
                break
        return _shown(binding), binding.description, True

    def _form_enter(self) -> tuple[str, Key] | None:
        """Return (action, key) of the form's Enter while a form's text field has the focus
        (the field's own Enter is hidden; it hands the key on to the form)."""
        found = form_enter(self._source().focused)
        if found is None:
            return None
        node, binding, enabled = found
        shown, description, not_dimmed = self.relabelled(node, binding)
        if not shown:
            return None  # the form says its Enter has nothing to do now (a rolled check)
        return binding.action, (shown, description, enabled and not_dimmed)

    def fitted(self, width: int) -> tuple[Key, ...]:
        """Return the keys that fit in ``width`` cells, dropping the least important first:
        the quick roll; then Ctrl+Z's name is shortened (to :data:`_NAMED_MIN` cells); then
        the last key of the focused widget and its tab go, then the app's; Ctrl+Z's name is
        shortened further and Ctrl+Z goes last (never Ctrl+Q, ``?``)."""
        app_actions = {binding.action for _key, binding in self.app._bindings}
        shown = list(zip(self._keys, self._actions, strict=False))

        def over() -> int:
            return sum(_width(key) for key, _action in shown) - width

        def droppable(*spare: str) -> list[int]:
            return [i for i, (_k, a) in enumerate(shown) if a not in _KEPT and a not in spare]

        while over() > 0 and (quick := [i for i in droppable() if shown[i][1] in _FIRST_DROPPED]):
            del shown[quick[-1]]
        named = next((i for i, (_k, a) in enumerate(shown) if a == _NAMED), None)
        full = shown[named][0] if named is not None else None
        if named is not None and over() > 0:
            shown[named] = (_shortened(shown[named][0], over(), _NAMED_MIN), _NAMED)
        while over() > 0 and (others := droppable(_NAMED)):
            local = [i for i in others if shown[i][1] not in app_actions]
            del shown[(local or others)[-1]]
        if full is not None:  # its name as long as the room left allows
            at = next(i for i, (_k, a) in enumerate(shown) if a == _NAMED)
            shown[at] = (full, _NAMED)
            if over() > 0:
                shown[at] = (_shortened(full, over(), 1), _NAMED)
        while over() > 0 and (rest := droppable()):
            del shown[rest[-1]]
        return tuple(key for key, _action in shown)

    def on_resize(self) -> None:
        self.refresh()

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        description_style = self.get_component_rich_style("keybar--description")
        line = Text(no_wrap=True, overflow="crop", end="")
        for key, description, enabled in self.fitted(self.size.width):
            dim = _ENABLED if enabled else _DISABLED
            line.append(f" {key} ", key_style + dim)
            if description:
                line.append(f"{description} ", description_style + dim)
        return line


def _shown(binding: Any) -> str:
    """Return the key of ``binding`` as ``?`` names it («Пробел», «Esc»), short («⏎», «^Q»)."""
    return binding.key_display or key_label(binding.key, short=True)


def _shortened(key: Key, by: int, floor: int) -> Key:
    """Return ``key`` with its quoted name («…») ``by`` cells shorter, keeping ``floor``
    cells of it (an ellipsis ends a cut name)."""
    shown, description, enabled = key
    if not (description.startswith("«") and description.endswith("»")):
        return key
    name = description[1:-1]
    keep = max(floor, cell_len(name) - by)
    if keep >= cell_len(name):
        return key
    cut = name
    while cell_len(cut) + 1 > keep and cut:
        cut = cut[:-1]
    return shown, f"«{cut.rstrip()}…»", enabled


def _width(key: Key) -> int:
    """Return the cells one key takes on the bar (as ``render`` draws it)."""
    shown, description, _enabled = key
    return cell_len(f" {shown} ") + (cell_len(f"{description} ") if description else 0)

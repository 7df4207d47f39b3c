"""A text field whose editing keys act in the order they were typed.

Textual inserts a printable key the moment it reaches the field, but runs the field's own
bindings (Backspace, Delete, ←, →, Home, End, …) only after the key has bubbled up to the app
and back: a fast «End Backspace Backspace - 7» (tmux send-keys, a paste of keys) typed «-7»
first and then deleted it, leaving the old value. ``OrderedInput`` runs those editing keys at
once, as it does the characters.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

#: Input's own actions that edit the text or move in it (not Enter, copy or paste: the forms
#: around a field give those their meaning).
EDITING = frozenset(
    {
        "cursor_left",
        "cursor_right",
        "cursor_left_word",
        "cursor_right_word",
        "home",
        "end",
        "delete_left",
        "delete_right",
        "delete_left_word",
        "delete_right_word",
        "delete_left_all",
        "delete_right_all",
    }
)


class ReadyInput(Input):
    """``Input`` whose editing keys keep their place among the characters typed, styled once,
    when it is mounted. Every text field of kubik is one.

    Editing keys: see the module's doc; a fast «C-u 2d6 Enter» in the quick roll typed «2d6»,
    then cleared it, and rolled nothing.

    Styling: while it is being made, Textual's Input sets CSS classes on itself (``-valid``
    when a value is given, ``-textual-compact``). Inside a running app each class change
    applies the whole stylesheet at once to the widget, not yet mounted, and to its component
    parts (~3 ms of CPU each); mounting then applies it again, and only that one counts. This
    field skips the updates while it is not in the DOM. Leans on Textual 8's
    ``DOMNode.update_node_styles`` being the one way class changes restyle a node and on
    ``App._register`` styling a widget as it mounts: tests/tui/test_ready_input.py compares
    a mounted ReadyInput's classes and styles with a plain Input's.
    """

    def update_node_styles(self, animate: bool = True) -> None:
        if self.is_attached:
            super().update_node_styles(animate=animate)

    async def _on_key(self, event: events.Key) -> None:
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            action = binding.action.split("(", 1)[0]
            if action in EDITING:
                event.stop()
                event.prevent_default()
                self._restart_blink()
                await self.run_action(binding.action)
                return
        await super()._on_key(event)

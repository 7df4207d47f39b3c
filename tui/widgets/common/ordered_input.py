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


class OrderedInput(Input):
    """``Input`` whose editing keys keep their place among the characters typed."""

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

"""A text field whose editing keys act in the order they were typed, and whose text a state
it edits shows without undoing what was typed after.

Textual inserts a printable key the moment it reaches the field, but runs the field's own
bindings (Backspace, Delete, ←, →, Home, End, …) only after the key has bubbled up to the app
and back: a fast «End Backspace Backspace - 7» (tmux send-keys, a paste of keys) typed «-7»
first and then deleted it, leaving the old value. ``OrderedInput`` runs those editing keys at
once, as it does the characters.

A field that edits a state (a builder's «Модификаторы»: each Changed message a step, the state's
text written back into the field on every redraw) must not take back its own older text: a
burst «+1 высота, -2 темнота» queued its Changed messages, the step of «+» redrew the builder
while the field already held more, the field was given «+» again and the next key went in
after it — «+, -2 темнота1 высота». ``ReadyInput.took`` and ``ReadyInput.follow`` keep it
the source while its text is on its way to the state, and the state the source once it has
arrived (an undo, another window, «a — как прошлая»).

Every field also holds at most :data:`MAX_TEXT` characters (or its own ``max_length``): a key
or a paste past it inserts what fits and says so once.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.widgets import Input

from tui.words import genitive

#: The longest text a field takes unless it is given its own ``max_length`` (a player's note
#: from a seat is held to the same). Textual's Input measures its whole text on every key:
#: 10,000 characters arriving as keys (a paste over SSH, tmux's paste-buffer) kept kubik busy
#: 16–56 s — a fight's note, a modifier field, IDE4's «Обстановка» —, the Enter after them
#: waiting its turn.
MAX_TEXT = 300


def too_long(limit: int) -> str:
    """What a field says when a key or a paste would make its text longer than ``limit``."""
    return (
        f"В поле не больше {genitive(limit, 'знака', 'знаков')}: лишнее не вставлено — "
        "сократите текст."
    )


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

    A state's text: :meth:`follow` (each redraw) and :meth:`took` (each step made from its
    Changed message); see the module's doc.

    Styling: while it is being made, Textual's Input sets CSS classes on itself (``-valid``
    when a value is given, ``-textual-compact``). Inside a running app each class change
    applies the whole stylesheet at once to the widget, not yet mounted, and to its component
    parts (~3 ms of CPU each); mounting then applies it again, and only that one counts. This
    field skips the updates while it is not in the DOM. Leans on Textual 8's
    ``DOMNode.update_node_styles`` being the one way class changes restyle a node and on
    ``App._register`` styling a widget as it mounts: tests/tui/test_ready_input.py compares
    a mounted ReadyInput's classes and styles with a plain Input's.
    """

    def __init__(self, *args: Any, max_length: int = MAX_TEXT, **kwargs: Any) -> None:
        #: The texts of this field's Changed messages its state has not yet been stepped with
        #: (:meth:`took`), oldest first: the field's text on its way to the state. Kept once
        #: the field follows a state (:meth:`follow`); another field's Changed has no taker.
        self._sent: list[str] = []
        self._follows = False
        super().__init__(*args, max_length=max_length, **kwargs)

    def post_message(self, message: Message) -> bool:
        posted = super().post_message(message)
        if posted and self._follows and isinstance(message, Input.Changed):
            self._sent.append(message.value)
        return posted

    def took(self, text: str) -> None:
        """Say that the state this field edits is being stepped with ``text``, its Changed
        message's (made or refused): that message and every one before it have arrived. Say
        it before the step, whose redraw comes within it. A field that follows a state has
        each of its Changed messages taken so: one never taken keeps the state's text out of
        the field until a later one is."""
        if text in self._sent:
            del self._sent[: self._sent.index(text) + 1]

    def follow(self, text: str) -> None:
        """Show ``text``, the state's, unless this field's own text is still on its way to the
        state (keys typed since the step drawn have their Changed messages queued; their steps
        make the state what the field holds). Text the state has from elsewhere (an undo,
        another window, «a — как прошлая», a refused step's standing text) is written in, the
        cursor after it, no Changed message sent."""
        self._follows = True
        if self._sent or text == self.value:
            return
        with self.prevent(Input.Changed):
            self.value = text
            self.cursor_position = len(text)

    #: The text the field held when it last said it was full: a burst of keys past the limit,
    #: each refused at the same text, is told once.
    _told_full: str | None = None

    def restricted(self) -> None:
        """Say once that the field is full (Textual rings the bell for every key refused)."""
        if not self.max_length or len(self.value) < self.max_length:
            super().restricted()  # refused by ``type`` or ``restrict``, not by the length
            return
        if self._told_full == self.value:
            return
        self._told_full = self.value
        self.app.notify(too_long(self.max_length), severity="warning", timeout=6)

    def _on_paste(self, event: events.Paste) -> None:
        """Paste what fits (Textual refuses a paste too long for the field, all of it)."""
        line = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        limit = self.max_length or 0
        room = limit - (len(self.value) - (end - start))
        if not limit or len(line) <= room:
            return  # Input's own paste
        event.stop()
        event.prevent_default()
        if room > 0:
            self.replace(line[:room], start, end)
        self.restricted()

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

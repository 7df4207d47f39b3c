"""A one-line choice for keyboard use: ←/→ change the value, ↑/↓ move between the form's rows,
typing picks an option (``Вз`` → «Взлом»; digits on a number scale: ``12`` → «Подвиг 12+»)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any

from rich.cells import cell_len, set_cell_size
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Stepper(Widget, can_focus=True):
    """Pick one of a few options without a pop-up: the GM's hands stay on the arrows."""

    DEFAULT_CSS = """
    Stepper { height: 1; width: 1fr; }
    Stepper:focus { background: $accent 30%; text-style: bold; }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Назад", show=False),
        Binding("right", "step(1)", "Вперёд", show=False),
        # Within the form, wrapping: ↓ past the last row goes back to the first.
        Binding("up", "app.focus_step(-1)", "Выше", show=False),
        Binding("down", "app.focus_step(1)", "Ниже", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
    ]

    index: reactive[int] = reactive(0)
    #: Whether typing a digit picks an option (a row of numbers: a difficulty, a count).
    #: Elsewhere the digits stay the app's (1–4: the tabs); letters of the Latin alphabet
    #: always stay the keys' (the builders' r, e, b …).
    typed_digits = False
    #: Seconds after which typing starts a new word.
    TYPE_PAUSE = 1.0
    _typed = ""
    _typed_at = 0.0

    @dataclass
    class Changed(Message):
        """The chosen option changed."""

        stepper: Stepper
        value: Any

        @property
        def control(self) -> Stepper:
            """Return the stepper, so ``@on(Stepper.Changed, "#id")`` works."""
            return self.stepper

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[str, Any]] = (),
        *,
        id: str | None = None,  # noqa: A002 - Textual's own name
        wrap: bool = True,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        #: Whether ← on the first option goes to the last (a list) or stays (a scale).
        self.wrap = wrap
        self._options: list[tuple[str, Any]] = list(options)

    @property
    def value(self) -> Any:
        """Return the chosen option's value (None when there are no options)."""
        if not self._options:
            return None
        return self._options[self.index][1]

    @property
    def options(self) -> list[tuple[str, Any]]:
        """The options, ``(label, value)`` each."""
        return list(self._options)

    def set_options(self, options: Sequence[tuple[str, Any]], value: Any = None) -> None:
        """Replace the options and choose ``value`` (or the first) without a Changed message."""
        self._options = list(options)
        values = [v for _, v in self._options]
        new_index = values.index(value) if value in values else 0
        with self.prevent(Stepper.Changed):
            self.index = new_index
        self.refresh()

    def select(self, value: Any) -> None:
        """Choose the option with ``value`` (posts Changed if it differs)."""
        values = [v for _, v in self._options]
        if value in values:
            self.index = values.index(value)

    def render(self) -> Content:
        """Draw ``Label  ◀ value ▶`` as plain text (an option may hold a name the GM typed),
        the value cut to the row: a 10,000-character name wrapped below the one line, and the
        row read «Цель  ◀» with nothing after it."""
        return self.row(f"{self.label:<13} ◀ ")

    def row(self, head: str) -> Content:
        """``head``, the chosen option's label and «▶», the label cut to the row's width."""
        shown = self._options[self.index][0] if self._options else "—"
        room = self.size.width - cell_len(head) - 2
        if room > 0 and cell_len(shown) > room:
            shown = set_cell_size(shown, room - 1).rstrip() + "…"
        return Content(f"{head}{shown} ▶")

    def action_step(self, delta: int) -> None:
        """Move to the previous or next option: around a list, but a scale (``wrap=False``)
        stops at either end — a difficulty ladder jumped from its easiest rung to its hardest
        («[0]» to «[00]»). Home and End reach the ends at once."""
        if not self._options:
            return
        if self.wrap:
            self.index = (self.index + delta) % len(self._options)
        else:
            self.index = max(0, min(len(self._options) - 1, self.index + delta))

    def action_jump(self, where: int) -> None:
        """Jump to the first or last option."""
        if self._options:
            self.index = where % len(self._options)

    def on_key(self, event: events.Key) -> None:
        """Typing picks the first option a word of which starts with what was typed (the
        label's first word first): «Вз» → «Взлом — мастерство 65», «12» → «Подвиг 12+»; the
        same letter again goes on to the next option starting with it."""
        char = event.character
        if not char or len(char) != 1 or not self._options:
            return
        if char.isdigit():
            if not self.typed_digits:
                return
        elif not char.isalpha() or char.isascii():
            return
        now = monotonic()
        typed = (self._typed if now - self._typed_at < self.TYPE_PAUSE else "") + char
        found = typed_match(self._options, typed)
        if typed == char * len(typed) and len(typed) > 1 and found is None:
            found = typed_match(self._options, char, after=self.index)
            typed = char * len(typed)
        elif found is None and len(typed) > 1:
            typed, found = char, typed_match(self._options, char)
        if found is None:
            if char.isdigit():
                return  # no such number here: the digit is the app's
            event.stop()
            self.app.bell()
            return
        self._typed, self._typed_at = typed, now
        event.stop()
        event.prevent_default()
        self.index = found

    def watch_index(self, old: int, new: int) -> None:
        if old != new and self._options:
            self._listener().post_message(self.Changed(self, self.value))

    def _listener(self) -> Any:
        """Return the nearest ancestor marked ``STEPPER_FORM`` (else the stepper itself).

        Changed goes straight to the form that handles it (and bubbles on from there): had it
        bubbled from the stepper, the stepper's own repaint could reach the screen a frame
        before the form's new odds — measured in tmux, 45 ms a step instead of 14 ms.
        """
        for node in self.ancestors:
            if getattr(node, "STEPPER_FORM", False):
                return node
        return self


_WORD = re.compile(r"[\w]+", re.UNICODE)


def typed_match(options: Sequence[tuple[str, Any]], typed: str, after: int = -1) -> int | None:
    """The index of the option ``typed`` picks: the first (after ``after``, going round) whose
    label's first word starts with it, else the first with any word starting with it."""
    typed = typed.casefold()
    count = len(options)
    order = [(after + 1 + i) % count for i in range(count)]
    words = {i: _WORD.findall(options[i][0].casefold()) for i in order}
    for i in order:
        if words[i] and words[i][0].startswith(typed):
            return i
    for i in order:
        if any(w.startswith(typed) for w in words[i]):
            return i
    return None

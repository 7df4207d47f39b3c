"""A dialog whose subject is withdrawn while it is open (a character removed in another window):
it stays open and says so, its confirming key is refused with the reason, Esc closes it.

Kept open rather than closed under the GM's fingers: the keys meant for the dialog (↓, Enter,
typed text) still land in it, never on the table or the app behind it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.await_complete import AwaitComplete
from textual.widgets import Static

from tui.sanitize import plain

if TYPE_CHECKING:  # mypy reads the mixin as a part of the dialog; at run time a plain class
    from textual.screen import ModalScreen

    _ScreenBase = ModalScreen[Any]
else:
    _ScreenBase = object


class WithdrawnNote(Static):
    """The dialog's line saying why its confirming key writes nothing."""

    DEFAULT_CSS = """
    WithdrawnNote { color: $text-warning; text-style: bold; height: auto; }
    """


class Withdrawable(_ScreenBase):
    """Mixed into a modal screen (before ``ModalScreen``): :meth:`withdraw` refuses results."""

    _withdrawn: str | None = None

    def withdraw(self, note: str | None, refusal: str = "") -> None:
        """Refuse every result but Esc's ``None`` with ``refusal``, showing ``note`` on top;
        ``note=None`` takes it back (the subject returned: an undo in the other window)."""
        screen: Any = self
        for old in screen.query(WithdrawnNote):
            old.remove()
        self._withdrawn = None if note is None else refusal
        # The dialog's own box: the screen's first child that is not Textual's (toasts, tooltip).
        boxes = [w for w in screen.children if not w.has_class("-textual-system")]
        if note is not None and boxes:
            boxes[0].mount(WithdrawnNote(plain(note)), before=0)  # it names characters
        screen.refresh_bindings()  # the key bar: Enter is offered only while it writes

    @property
    def withdrawn(self) -> bool:
        """Whether the dialog's subject is gone (its results are refused)."""
        return self._withdrawn is not None

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._withdrawn is not None and result is not None:
            self.notify(self._withdrawn, severity="warning", timeout=6)
            return AwaitComplete.nothing()
        return super().dismiss(result)

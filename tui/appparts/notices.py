"""What the app says to the GM in its toasts: always plain text, for they quote names the GM
typed (a character called «[b]x» stays that text, a control code never reaches the terminal),
and the one line that tells how to quit when Ctrl+C is pressed out of habit."""

from __future__ import annotations

from typing import Any

from tui.sanitize import clean


class NoticesMixin:
    """``KubikApp``'s toasts (mixed into ``KubikApp``)."""

    def notify(self, message: str, *, markup: bool = False, **kwargs: Any) -> None:
        """Notify as Textual does, but as plain text: messages quote names the GM typed.

        Always plain: a widget's ``notify`` passes ``markup=True`` by default, and its
        messages quote names too.
        """
        if "title" in kwargs:
            kwargs["title"] = clean(kwargs["title"])
        super().notify(clean(message), markup=False, **kwargs)  # type: ignore[misc]

    def action_help_quit(self) -> None:
        """Say how to quit when the GM presses Ctrl+C out of habit."""
        self.notify("Выход из kubik — Ctrl+Q.", title="Выйти?")

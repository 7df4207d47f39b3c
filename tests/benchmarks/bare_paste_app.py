"""The reference for the paste benchmark: a bare Textual app with one text field of kubik's
length (300) in a tab, and the line a declaration changes.

The field refuses the keys past its length without a bell; Enter changes the line
«Заявляет Первый — …» to «Заявляет Второй — …», as a declaration moves the Бой tab's form on.
What it costs is what Textual itself costs for the same keys.

Run: ``python tests/benchmarks/bare_paste_app.py``.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane


class Field(Input):
    def restricted(self) -> None:
        """No bell for a key past the length (kubik says it once)."""


class BarePaste(App[None]):
    def compose(self) -> ComposeResult:
        with TabbedContent():
            with TabPane("Бой"):
                yield Static("Заявляет Первый — Enter: объявить", id="who")
                yield Field(max_length=300, id="note", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#note").focus()

    def on_input_submitted(self) -> None:
        self.query_one("#who", Static).update("Заявляет Второй — Enter: объявить")


if __name__ == "__main__":
    BarePaste().run()

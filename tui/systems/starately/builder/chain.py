"""The task chain in the Старатели builder: ``h`` picks a helper who rolls another skill a step
easier; the helper's Effect, even a negative one, becomes a modifier of the main roll.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from rules import starately
from tui.present.rolls import plain
from tui.systems.starately.builder.other import OtherSideDialog
from tui.systems.starately.builder.parts import MODAL_CSS, Row
from tui.widgets.common.text import show_markup


class ChainScreen(OtherSideDialog):
    """Choose the chain helper: character, characteristic and skill; Enter rolls both."""

    DEFAULT_CSS = MODAL_CSS.format(name="ChainScreen")
    PREFIX = "chain"
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="chain-go"),
        Binding("escape", "cancel", "Отмена", id="chain-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="chain-title")
            yield Row("Помощник", id="chain-character")
            yield Row("Характеристика", id="chain-characteristic")
            yield Row("Навык", id="chain-skill")
            yield Static(id="chain-odds")
            yield Static("[dim]Enter — бросить помощника, затем основной бросок · Esc — отмена[/]")

    def on_mount(self) -> None:
        main = self.shown.main
        if main is not None:
            helper_difficulty = starately.chain_difficulty(main.difficulty)
            show_markup(
                self.query_one("#chain-title", Static),
                f"[b]Цепочка[/b]: помощник бросает другой навык на {helper_difficulty}+ "
                f"(на шаг ниже {main.difficulty}+); его Эффект, даже отрицательный, "
                f"станет модификатором основного броска ({plain(main.side.name)}).",
            )
        super().on_mount()

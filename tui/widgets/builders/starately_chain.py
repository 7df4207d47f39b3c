"""The task chain in the Старатели builder: ``h`` picks a helper who rolls another skill a step
easier; the helper's Effect, even a negative one, becomes a modifier of the main roll.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from rules import starately
from rules.errors import RulesError
from tui.present.rolls import percent, plain
from tui.widgets.builders.base import SecondSideDialog, character_label
from tui.widgets.builders.starately_parts import (
    MODAL_CSS,
    UNSKILLED,
    Row,
    characteristic_options,
    side_for,
    skill_options,
)
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup


class ChainScreen(SecondSideDialog):
    """Choose the chain helper: character, characteristic and skill; Enter rolls both."""

    DEFAULT_CSS = MODAL_CSS.format(name="ChainScreen")
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
        main = self.main
        helper_difficulty = starately.chain_difficulty(main.difficulty)
        show_markup(
            self.query_one("#chain-title", Static),
            f"[b]Цепочка[/b]: помощник бросает другой навык на {helper_difficulty}+ "
            f"(на шаг ниже {main.difficulty}+); его Эффект, даже отрицательный, "
            f"станет модификатором основного броска ({plain(main.side.name)}).",
        )
        stepper = self.query_one("#chain-character", Row)
        stepper.set_options(
            [(character_label(c), c.id) for c in self.characters.values()], self.default
        )
        self._refresh_traits()
        stepper.focus()

    @on(Stepper.Changed, "#chain-character")
    def _refresh_traits(self) -> None:
        c = self.characters.get(self.query_one("#chain-character", Row).value)
        if c is None:
            return
        self.query_one("#chain-characteristic", Row).set_options(characteristic_options(c))
        self.query_one("#chain-skill", Row).set_options(skill_options(c))
        self._recompute()

    @on(Stepper.Changed, "#chain-characteristic")
    @on(Stepper.Changed, "#chain-skill")
    def _recompute(self) -> None:
        info = self.query_one("#chain-odds", Static)
        try:
            chain = starately.TaskChain(self.helper(), self.main)
        except RulesError as err:
            show_markup(info, f"[$error]{plain(str(err))}[/]")
            return
        helper = starately.check_odds(chain.helper_check).outcomes["success"]
        alone = starately.check_odds(self.main).outcomes["success"]
        helped = starately.chain_odds(chain).outcomes["success"]
        show_markup(
            info,
            f"Помощник: успех {percent(helper)} на {chain.helper_check.difficulty}+\n"
            f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью "
            f"(без неё {percent(alone)})",
        )

    @property
    def chosen_id(self) -> str:
        """The helper's character id."""
        return str(self.query_one("#chain-character", Row).value or "")

    def helper(self) -> Any:
        """Return the helper's side from the rows (raises RulesError)."""
        c = self.characters.get(self.query_one("#chain-character", Row).value)
        if c is None:
            raise RulesError("Выберите помощника.")
        return side_for(
            c,
            self.query_one("#chain-characteristic", Row).value,
            self.query_one("#chain-skill", Row).value or UNSKILLED,
        )

    def action_go(self) -> None:
        """Roll with the chosen helper."""
        try:
            helper = self.helper()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.dismiss(helper)

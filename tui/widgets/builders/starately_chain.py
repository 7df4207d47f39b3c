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
from tui.present.rolls import percent, plain, signed
from tui.store import Character
from tui.widgets.builders.base import SecondSideDialog, character_label
from tui.widgets.builders.starately_parts import (
    MODAL_CSS,
    UNSKILLED,
    Row,
    characteristic_options,
    result_lines,
    side_for,
    skill_options,
    summary,
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


class ChainMixin:
    """The task-chain key of ``StaratelyBuilder``."""

    app: Any
    _characters: dict[str, Character]
    # Provided by the builder: character, current_check(), _check_and_opponent(), _show(),
    # _remember().

    def action_chain(self) -> None:
        """Choose a helper for a task chain, then roll the helper and the main check."""
        chosen = self._check_and_opponent()
        if chosen is None:
            return
        check, default = chosen
        screen = ChainScreen(list(self._characters.values()), check, default)
        self.app.push_screen(screen, self._chain_answered)

    def _chain_answered(self, helper: Any) -> None:
        if helper is None:
            return
        try:
            chain = starately.TaskChain(helper, self.current_check())
            result = starately.roll_chain(chain, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        lines = [
            *result_lines(result.helper, f"Помощник {helper.name}"),
            f"→ Эффект помощника {signed(result.carried)} идёт в основной бросок",
            *result_lines(result.main),
        ]
        text = f"Цепочка: помощник {helper.name}: {summary(result.helper)}; " + summary(result.main)
        lines += self._remember(result.main)
        self._show(lines, chain.main.side.name or None, text, result.to_dict())

"""The Мир Тьмы builder's pop-ups: the chance die's question, the contested roll's opponent,
the extended roll's target. The text (what a character offers, a rolled pool) is the table
engine's (:mod:`tui.systems.wod.check.text`), re-exported here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from rules import wod
from rules.errors import RulesError
from tui.present.rolls import percent, plain, signed, successes
from tui.systems.wod.check import contest
from tui.widgets.builders.base import mods_hint

__all__ = [
    "AGAIN_OPTIONS",
    "CHANCE_RULE",
    "IDLE",
    "NO_SKILL",
    "OUTCOME_STYLE",
    "ROTE_OPTIONS",
    "ChanceScreen",
    "ContestScreen",
    "TargetScreen",
    "attribute_options",
    "pool_for",
    "pool_line",
    "result_lines",
    "skill_options",
    "success_rows",
    "summary",
]
from tui.systems.wod.check.text import (
    AGAIN_OPTIONS,
    CHANCE_RULE,
    IDLE,
    NO_SKILL,
    OUTCOME_STYLE,
    ROTE_OPTIONS,
    attribute_options,
    pool_for,
    pool_line,
    result_lines,
    skill_options,
    success_rows,
    summary,
)
from tui.widgets.builders.dicefaces import ModsInput
from tui.widgets.builders.engine import EngineDialog
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup
from tui.words import genitive

#: What the chance die's question returns when the form's pool is no longer a chance die.
STALE = object()


class ChanceScreen(StyledOnce, ModalScreen[Any]):
    """Ask before a chance die: go ahead (returns the pool) or withdraw (returns None); it
    follows the form (a sheet edited elsewhere, an undo) and goes away, saying why, when the
    pool is no longer a chance die (returns :data:`STALE`)."""

    DEFAULT_CSS = """
    ChanceScreen { align: center middle; }
    ChanceScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    ChanceScreen Horizontal { height: auto; margin: 1 0 0 0; }
    ChanceScreen Button { margin: 0 1 0 0; }
    """
    BINDINGS = [
        Binding("escape", "withdraw", "Отказаться", id="chance-withdraw"),
        Binding("x", "toggle_withdrawal", "Запретить/разрешить отказ", id="chance-toggle"),
    ]

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self.pool = pool

    def _text(self) -> str:
        odds = wod.pool_odds(self.pool).outcomes
        return (
            f"[b]Бросок на удачу[/b] — запас {signed(self.pool.size)}, бросается один куб.\n"
            "Успех только на 10; десятка перебрасывается, и каждая новая 10 — ещё успех; "
            "8 и 9 не успех даже при перебросе. 1 на первом броске — полный провал.\n"
            f"Успех {percent(1 - odds['failure'] - odds['dramatic_failure'])}, "
            f"полный провал {percent(odds['dramatic_failure'])}."
        )

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._text(), id="chance-text")
            yield Static(id="chance-reason")
            with Horizontal():
                yield Button("Бросить", id="chance-go", variant="warning")
                yield Button("Отказаться (Esc)", id="chance-withdraw")
            yield Static("[dim]x — Рассказчик запрещает или разрешает отказ[/]")

    def on_mount(self) -> None:
        self._show_reason()
        self.query_one("#chance-go", Button).focus()

    def _show_reason(self) -> None:
        verdict = wod.withdrawal(self.pool)
        show_markup(
            self.query_one("#chance-reason", Static),
            f"[{'$success' if verdict.allowed else '$warning'}]{verdict.reason}[/]",
        )
        # Forbidden: the button is not offered at all (not just greyed out).
        self.query_one("#chance-withdraw", Button).display = verdict.allowed

    @on(Button.Pressed, "#chance-go")
    def _go(self) -> None:
        self.dismiss(self.pool)

    @on(Button.Pressed, "#chance-withdraw")
    def action_withdraw(self) -> None:
        """Back out, if the Storyteller allows it."""
        verdict = wod.withdrawal(self.pool)
        if not verdict.allowed:
            self.app.notify(verdict.reason, severity="error")
            return
        self.dismiss(None)

    def follow(self, pool: Any) -> None:
        """The form changed under the question: ask it of the pool the form gives now (the
        Storyteller's call on withdrawing kept), or go away when that is no chance die."""
        if pool is None or not pool.chance:
            self.app.notify(
                "Запас больше не бросок на удачу (лист или форма изменились): "
                "бросьте его снова (Enter).",
                severity="warning",
            )
            self.dismiss(STALE)
            return
        self.pool = replace(pool, withdrawal_allowed=self.pool.withdrawal_allowed)
        show_markup(self.query_one("#chance-text", Static), self._text())
        self._show_reason()

    def action_toggle_withdrawal(self) -> None:
        """Flip the Storyteller's call on withdrawing."""
        self.pool = replace(self.pool, withdrawal_allowed=not self.pool.withdrawal_allowed)
        self._show_reason()


class ContestScreen(EngineDialog):
    """Choose the opponent of a contested roll; the exact odds of both sides; Enter rolls.

    The opponent is the open check's (:mod:`tui.systems.wod.check.contest`): every row and the
    odds are drawn from its view, every key is its step through the builder."""

    DEFAULT_CSS = ChanceScreen.DEFAULT_CSS.replace("ChanceScreen", "ContestScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="contest-go"),
        Binding("escape", "cancel", "Отмена", id="contest-cancel"),
    ]

    @property
    def shown(self) -> contest.ContestView:
        """The opponent as the engine derives it now."""
        table = self.builder.table
        return contest.contest_view(table.state, table.world())

    @property
    def chosen_id(self) -> str:
        """The opponent's character id."""
        c = self.shown.side.character
        return c.id if c is not None else ""

    def compose(self) -> ComposeResult:
        main = self.shown.main
        head = f"{plain(main.name)} ({main.size}d10)" if main is not None else "первая сторона"
        with Vertical():
            yield Static(
                f"[b]Состязание[/b]: {head} против "
                "соперника — оба бросают запас, больше успехов побеждает. "
                f"[dim]Равенство: {wod.TIES[wod.contest_rules().tie]} (настройка кампании).[/]"
            )
            yield Stepper("Соперник", id="contest-character")
            yield Stepper("Атрибут", id="contest-attribute")
            yield Stepper("Навык", id="contest-skill")
            with Horizontal(id="contest-mods-row"):
                yield Label("Модификаторы  ")
                yield ModsInput(
                    placeholder=mods_hint("−2 темнота"), id="contest-mods", compact=True
                )
            yield Static(id="contest-odds")
            yield Static("[dim]Enter — бросить обоих · Esc — отмена[/]")

    def redraw(self) -> None:
        """Draw the rows and the odds from the engine's view."""
        if not self._ready or self.builder.table.state.opponent is None:
            return
        shown = self.shown
        self.tell_swapped(shown.swapped)
        for name, (options, value) in shown.rows().items():
            stepper = self.query_one(f"#contest-{name}", Stepper)
            if stepper.options != list(options) or stepper.value != value:
                stepper.set_options(options, value)
        show_markup(self.query_one("#contest-odds", Static), shown.lines())

    def opponent(self) -> Any:
        """The opponent's pool (raises RulesError)."""
        shown = self.shown
        if shown.pool is None:
            raise RulesError(shown.error)
        return shown.pool

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        event.stop()
        self._set((event.stepper.id or "").removeprefix("contest-"), event.value)

    @on(Input.Changed, "#contest-mods")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._set("mods", event.value)

    def _set(self, name: str, value: Any) -> None:
        self.builder.step(contest.set_contest, name, value)
        self.redraw()

    @on(Input.Submitted, "#contest-mods")
    def action_go(self) -> None:
        """Roll both sides; refused: the dialog stays. The opponent shown in place of one
        removed elsewhere is first confirmed (the next Enter rolls)."""
        if self.shown.swapped:
            self.builder.step(contest.confirm_contest)
            self.redraw()
            return
        if self.builder.step(contest.roll_contest):
            self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.builder.step(contest.cancel_contest, quiet=True)
        self.dismiss(None)


class TargetScreen(StyledOnce, ModalScreen[int | None]):
    """Ask the Storyteller for an extended roll's target of successes."""

    DEFAULT_CSS = ChanceScreen.DEFAULT_CSS.replace("ChanceScreen", "TargetScreen")
    BINDINGS = [
        Binding("enter", "go", "Начать", id="target-go"),
        Binding("escape", "dismiss(None)", "Отмена", id="target-cancel"),
    ]

    def compose(self) -> ComposeResult:
        rolls = wod.contest_rules().max_rolls
        limit = (
            f"не больше {genitive(rolls, 'броска', 'бросков')}" if rolls else "без предела бросков"
        )
        with Vertical():
            yield Static(
                "[b]Продолжительное действие[/b]: успехи копятся от броска к броску до цели, "
                f"которую назначает Рассказчик; {limit} (настройка кампании)."
            )
            yield Stepper("Цель", [(successes(k), k) for k in range(1, 31)], id="target-value")
            yield Static("[dim]Enter — начать · потом Enter — очередной бросок · Esc — отмена[/]")

    def on_mount(self) -> None:
        stepper = self.query_one("#target-value", Stepper)
        stepper.select(5)
        stepper.focus()

    def action_go(self) -> None:
        """Start with the chosen target."""
        self.dismiss(self.query_one("#target-value", Stepper).value)

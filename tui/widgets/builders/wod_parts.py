"""The Мир Тьмы builder's pop-ups: the chance die's question, the contested roll's opponent,
the extended roll's target. The text (what a character offers, a rolled pool) is the table
engine's (:mod:`tui.table.check.wod_text`), re-exported here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from rules import wod
from rules.errors import RulesError
from tui.bridge.effects import effect_modifiers
from tui.present.rolls import percent, plain, signed, successes
from tui.widgets.builders.base import SecondSideDialog, mods_hint

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
from tui.table.check.wod_text import (
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
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup
from tui.words import genitive


class ChanceScreen(StyledOnce, ModalScreen[Any]):
    """Ask before a chance die: go ahead (returns the pool) or withdraw (returns None)."""

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
        Binding("x", "toggle", "Запретить/разрешить отказ", id="chance-toggle"),
    ]

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self.pool = pool

    def compose(self) -> ComposeResult:
        odds = wod.pool_odds(self.pool).outcomes
        with Vertical():
            yield Static(
                f"[b]Бросок на удачу[/b] — запас {signed(self.pool.size)}, бросается один куб.\n"
                "Успех только на 10; десятка перебрасывается, и каждая новая 10 — ещё успех; "
                "8 и 9 не успех даже при перебросе. 1 на первом броске — полный провал.\n"
                f"Успех {percent(1 - odds['failure'] - odds['dramatic_failure'])}, "
                f"полный провал {percent(odds['dramatic_failure'])}."
            )
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

    def action_toggle(self) -> None:
        """Flip the Storyteller's call on withdrawing."""
        self.pool = replace(self.pool, withdrawal_allowed=not self.pool.withdrawal_allowed)
        self._show_reason()


class ContestScreen(SecondSideDialog):
    """Choose the opponent of a contested roll; the exact odds of both sides; Enter rolls."""

    DEFAULT_CSS = ChanceScreen.DEFAULT_CSS.replace("ChanceScreen", "ContestScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="contest-go"),
        Binding("escape", "cancel", "Отмена", id="contest-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"[b]Состязание[/b]: {plain(self.main.name)} ({self.main.size}d10) против "
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

    def on_mount(self) -> None:
        stepper = self.query_one("#contest-character", Stepper)
        options = [(c.name, c.id) for c in self.characters.values()]
        stepper.set_options(options, self.default)
        self._traits()
        stepper.focus()

    @on(Stepper.Changed, "#contest-character")
    def _traits(self) -> None:
        c = self.characters.get(self.query_one("#contest-character", Stepper).value)
        if c is None:
            return
        self.query_one("#contest-attribute", Stepper).set_options(attribute_options(c))
        self.query_one("#contest-skill", Stepper).set_options(skill_options(c))
        self._recompute()

    @property
    def chosen_id(self) -> str:
        """The opponent's character id."""
        return str(self.query_one("#contest-character", Stepper).value or "")

    def opponent(self) -> Any:
        """Return the opponent's pool from the rows (raises RulesError)."""
        c = self.characters.get(self.query_one("#contest-character", Stepper).value)
        if c is None:
            raise RulesError("Выберите соперника.")
        pool = pool_for(
            c,
            self.query_one("#contest-attribute", Stepper).value,
            self.query_one("#contest-skill", Stepper).value or NO_SKILL,
            self.query_one("#contest-mods", Input).value,
        )
        # the opponent's active effects (health too), as the builder adds the actor's (issue 17)
        return replace(pool, modifiers=pool.modifiers + effect_modifiers(self, c))

    @on(Stepper.Changed, "#contest-attribute")
    @on(Stepper.Changed, "#contest-skill")
    @on(Input.Changed, "#contest-mods")
    def _recompute(self) -> None:
        info = self.query_one("#contest-odds", Static)
        try:
            other = self.opponent()
        except RulesError as err:
            show_markup(info, f"[$error]{escape(str(err))}[/]")
            return
        odds = wod.contested_odds(self.main, other)
        head = "на удачу" if other.chance else f"{other.size}d10"
        show_markup(
            info,
            f"{plain(other.name)}: {head}\n"
            f"Точные шансы: [b]{plain(self.main.name)}[/b] побеждает {percent(odds.a)} · "
            f"ничья {percent(odds.tie)} · [b]{plain(other.name)}[/b] {percent(odds.b)}",
        )

    @on(Input.Submitted, "#contest-mods")
    def action_go(self) -> None:
        """Roll both sides."""
        try:
            other = self.opponent()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.dismiss(other)


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

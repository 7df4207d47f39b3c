"""The Старатели opposed roll (встречный бросок) in the builder, outside fights as well.

The first side is what the builder's rows hold; this screen sets the opponent: character,
characteristic, skill (or none, −3), +d6 / −d6 counters and modifiers, and who started the
contest. The exact chances of each side winning are redrawn on every change; Enter rolls both.
[seed] «у такого броска нет сложности, кто бросит выше, тот и победил. В случае ничьёй
побеждает инициатор проверки, если такого нельзя определить однозначно – то персонаж игрока».
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Input, Label, Static

from rules import starately
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.bridge.effects import effect_modifiers
from tui.present.rolls import percent, plain, signed
from tui.table.check.starately_text import TIE_WINNERS
from tui.widgets.builders.base import SecondSideDialog, character_label, mods_hint
from tui.widgets.builders.dicefaces import ModsInput, StyledOddsBars
from tui.widgets.builders.starately_parts import (
    UNSKILLED,
    Row,
    characteristic_options,
    side_for,
    skill_options,
)
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

OPPOSED_STYLE = {"a": "$success", "b": "$error"}
COUNTS = [(str(k), k) for k in range(4)]


class OpposedScreen(SecondSideDialog):
    """Set the opponent of a встречный бросок; exact odds; Enter rolls both sides."""

    DEFAULT_CSS = """
    OpposedScreen { align: center middle; }
    OpposedScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    OpposedScreen #opp-mods-row { height: 1; }
    OpposedScreen #opp-mods-row Label { width: auto; }
    OpposedScreen #opp-mods { width: 1fr; }
    """
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="opposed-go"),
        Binding("escape", "cancel", "Отмена", id="opposed-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"[b]Встречный бросок[/b]: {plain(self.main.name)} "
                f"({plain(self.main.characteristic)}, {signed(self.main.bonus)}) против "
                "соперника. Сложности нет: выше итог — победа."
            )
            yield Row("Соперник", id="opp-character")
            yield Row("Характеристика", id="opp-characteristic")
            yield Row("Навык", id="opp-skill")
            yield Row("+d6", COUNTS, id="opp-boons")
            yield Row("−d6", COUNTS, id="opp-banes")
            with Horizontal(id="opp-mods-row"):
                yield Label("Модификаторы   ")
                yield ModsInput(placeholder=mods_hint("−1 ветер"), id="opp-mods", compact=True)
            yield Row("Инициатор", id="opp-initiator")
            yield Static(id="opp-formula")
            yield StyledOddsBars(OPPOSED_STYLE, id="opp-odds")
            yield Static(id="opp-tie")
            yield Static("[dim]Enter — бросить обоих · Esc — отмена[/]")

    def on_mount(self) -> None:
        stepper = self.query_one("#opp-character", Stepper)
        stepper.set_options(
            [(character_label(c), c.id) for c in self.characters.values()], self.default
        )
        self._traits()
        stepper.focus()

    @on(Stepper.Changed, "#opp-character")
    def _traits(self) -> None:
        c = self.characters.get(self.query_one("#opp-character", Stepper).value)
        if c is None:
            return
        same = self.main.characteristic if self.main.characteristic in c.qualities else None
        self.query_one("#opp-characteristic", Stepper).set_options(characteristic_options(c), same)
        self.query_one("#opp-skill", Stepper).set_options(skill_options(c))
        initiator = self.query_one("#opp-initiator", Stepper)
        chosen = initiator.value if initiator._options else "a"  # the builder's side first
        initiator.set_options(
            [
                (f"{self.main.name} (первая сторона)", "a"),
                (f"{c.name} (соперник)", "b"),
                ("не определить — тогда персонаж игрока", None),
            ],
            chosen,
        )
        self._recompute()

    @property
    def chosen_id(self) -> str:
        """The opponent's character id."""
        return str(self.query_one("#opp-character", Stepper).value or "")

    def opposed(self) -> Any:
        """Return the ``Opposed`` the rows describe (raises RulesError)."""
        c = self.characters.get(self.query_one("#opp-character", Stepper).value)
        if c is None:
            raise RulesError("Выберите соперника.")
        typed = parse_modifiers(self.query_one("#opp-mods", Input).value)
        other = side_for(
            c,
            self.query_one("#opp-characteristic", Stepper).value,
            self.query_one("#opp-skill", Stepper).value or UNSKILLED,
            boons=self.query_one("#opp-boons", Stepper).value or 0,
            banes=self.query_one("#opp-banes", Stepper).value or 0,
            # the opponent's active effects, as the builder adds the actor's (issue 17)
            modifiers=tuple(starately.Modifier(m.value, m.reason) for m in typed)
            + effect_modifiers(self, c),
        )
        if other.name == self.main.name:
            other = replace(other, name=f"{other.name} (соперник)")
        initiator = self.query_one("#opp-initiator", Stepper).value
        return starately.Opposed(self.main, other, initiator)

    @on(Stepper.Changed, "#opp-characteristic")
    @on(Stepper.Changed, "#opp-skill")
    @on(Stepper.Changed, "#opp-boons")
    @on(Stepper.Changed, "#opp-banes")
    @on(Stepper.Changed, "#opp-initiator")
    @on(Input.Changed, "#opp-mods")
    def _recompute(self) -> None:
        formula = self.query_one("#opp-formula", Static)
        tie = self.query_one("#opp-tie", Static)
        try:
            check = self.opposed()
        except RulesError as err:
            show_markup(formula, f"[$error]{escape(str(err))}[/]")
            show_markup(tie, "")
            return
        a, b = check.a, check.b
        show_markup(
            formula,
            f"{plain(a.name)} {signed(a.bonus)} — {plain(b.name)} {signed(b.bonus)} · "
            f"кубы соперника: +d6 ×{b.boons}, −d6 ×{b.banes}",
        )
        odds = starately.opposed_odds(check)
        names = {"a": plain(a.name), "b": plain(b.name)}  # OddsBars reads markup
        self.query_one("#opp-odds", StyledOddsBars).show(
            {"a": odds.a, "b": odds.b}, names, ("a", "b")
        )
        rule = TIE_WINNERS.get(check.tie_rule, "персонаж игрока")
        winner = (a if check.tie_winner == "a" else b).name
        naturals = "решают" if starately.settings().naturals_decide else "ничего не решают"
        show_markup(
            tie,
            f"[dim]Ничья {percent(odds.tie)} — побеждает {rule}: {plain(winner)}. "
            f"Натуральные 12 и 2 {naturals} (настройка кампании).[/]",
        )

    @on(Input.Submitted, "#opp-mods")
    def action_go(self) -> None:
        """Roll both sides."""
        try:
            check = self.opposed()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.dismiss(check)

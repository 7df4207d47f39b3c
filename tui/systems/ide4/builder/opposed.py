"""IDE4™ opposed checks in the builder, outside fights as well.

The first side is the builder's form; ``OpposedSetupScreen`` sets the second: character,
attribute, skill, base difficulty and modifiers, energy before (dice up to the nominal) and an
ally's help. The exact chances of win / tie / lose are shown before the roll. After the rolls
``OpposedResultScreen`` (``ide4_opposed_result``) lets each side take its rerolls, energy after
and mastery bonuses in the seed's order, and on a full tie the GM's choice (status quo, or a
price to both) is recorded. Both dialogs draw the open check's opposed check
(:mod:`tui.systems.ide4.check.opposed`) and make its steps: it is kept in the campaign as it is
rolled and as each move is made.

[seed] «Сравнение: 1. более высокий исход побеждает; 2. при одинаковом исходе побеждает тот,
у кого ниже итоговая сложность; 3. если равенство сохраняется, мастер оставляет положение без
изменения либо назначает цену обеим сторонам.»
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Input, Label, Static

from rules import ide4
from rules.errors import RulesError
from tui.sanitize import plain
from tui.systems.ide4.check import opposed as opp
from tui.systems.ide4.check import text as txt
from tui.systems.ide4.check.opposed import opposed_text, verdict
from tui.widgets.builders.base import mods_hint
from tui.widgets.builders.engine import EngineDialog
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

__all__ = ["OpposedSetupScreen", "odds_names", "opposed_text", "verdict"]

OPPOSED_STYLE = {"win": "$success", "tie": "$warning", "lose": "$error"}
CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 78; max-width: 100%; height: auto; max-height: 100%;
    border: round $warning; background: $surface; padding: 0 1;
}}
{name} .opp-field {{ height: 1; }}
{name} .opp-field Label {{ width: auto; }}
{name} .opp-field Input {{ width: 1fr; }}
{name} #opp-steps {{ height: auto; max-height: 14; }}
"""


def odds_names(a: str, b: str) -> dict[str, str]:
    """Name win / tie / lose from the first side's view."""
    # OddsBars reads its labels as markup: a name the GM typed stays text.
    return {"win": f"побеждает {plain(a)}", "tie": "равенство", "lose": f"побеждает {plain(b)}"}


class OpposedSetupScreen(EngineDialog):
    """The second side of an opposed check; the exact win / tie / lose odds; Enter rolls.

    The opposed check is the open check's (:mod:`tui.systems.ide4.check.opposed`): every row is
    drawn from its view — another opponent's energy die is his own nominal, a skill brings its
    attribute, the first side is not offered — and every key is its step, made through the
    builder (``step``); the builder shows and closes this dialog as the check's stage says."""

    DEFAULT_CSS = CSS.format(name="OpposedSetupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить обоих", id="ide4-opp-go"),
        Binding("escape", "cancel", "Отмена", id="ide4-opp-cancel"),
    ]

    @property
    def shown(self) -> opp.OpposedView:
        """The opposed check as the engine derives it now."""
        table = self.builder.table
        return opp.opposed_view(table.state, table.world())

    def compose(self) -> ComposeResult:
        first = self.shown.first
        said = (
            f"{plain(first.actor)} — {escape(ide4.resolve_difficulty(first).label)} (из формы)"
            if first is not None
            else "форма"
        )
        with Vertical():
            yield Static(
                f"[b]Противоборство[/b]: {said} против второй стороны. Каждый делает свою проверку."
            )
            yield Stepper("Соперник", id="opp-character")
            yield Stepper("Атрибут", id="opp-attribute")
            yield Stepper("Навык", id="opp-skill")
            yield Stepper("Сложность", txt.BASE_OPTIONS[:-1], id="opp-base", wrap=False)
            with Horizontal(classes="opp-field"):
                yield Label("Модификаторы  ")
                yield ReadyInput(placeholder=mods_hint("+1 темнота"), id="opp-mods", compact=True)
            yield Stepper("Куб энергии", id="opp-die")
            yield Stepper("Энергия до", id="opp-energy")
            yield Stepper("Помощь", list(opp.SIDE_HELP), id="opp-help")
            yield Static(id="opp-formula")
            yield OddsBars(OPPOSED_STYLE, id="opp-odds")
            yield Static("[dim]Enter — бросить обоих · Esc — отмена[/]")

    def on_mount(self) -> None:
        self.query_one("#opp-base", Stepper).typed_digits = True
        super().on_mount()

    def redraw(self) -> None:
        """Draw every row from the second side's derived view, then the odds."""
        if not self._ready or self.builder.table.state.opposed is None:
            return
        shown = self.shown
        self.tell_swapped(shown.swapped)
        for name, (options, value) in shown.rows().items():
            stepper = self.query_one(f"#opp-{name}", Stepper)
            if stepper.options != list(options) or stepper.value != value:
                stepper.set_options(options, value)
        self.query_one("#opp-mods", ReadyInput).follow(shown.opposed.inputs.mods)
        show_markup(self.query_one("#opp-formula", Static), shown.formula())
        bars = self.query_one("#opp-odds", OddsBars)
        odds = shown.odds()
        if odds is None or shown.first is None or shown.second is None:
            show_markup(bars, "")
        else:
            bars.show(
                odds, odds_names(shown.first.actor, shown.second.actor), ide4.OPPOSED_OUTCOMES
            )

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        event.stop()
        self._set((event.stepper.id or "").removeprefix("opp-"), event.value)

    @on(Input.Changed, "#opp-mods")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if not self.builder.step_typed(event, opp.set_opposed, "mods", event.value):
            self.redraw()  # refused: the field shows what stands

    def _set(self, name: str, value: Any) -> None:
        if not self.builder.step(opp.set_opposed, name, value):
            self.redraw()  # a refused choice: the row shows what stands

    def second(self) -> ide4.CheckInput:
        """The second side's inputs (raises RulesError)."""
        shown = self.shown
        if shown.second is None:
            raise RulesError(shown.error or "Выберите вторую сторону.")
        return shown.second

    @on(Input.Submitted, "#opp-mods")
    def action_go(self) -> None:
        """Roll both sides (the builder's step; the result dialog follows once written). The
        second side shown in place of one removed elsewhere is first confirmed."""
        if self.shown.swapped:
            self.builder.step(opp.confirm_opposed)
            self.redraw()
            return
        self.builder.step(opp.roll_opposed)

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.builder.step(opp.cancel_opposed)

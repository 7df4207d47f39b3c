"""The Проверка tab: the Древо check builder with live exact odds.

The open check is the table engine's (:mod:`tui.table.check`): this widget draws its view and
turns keys into its steps. Character → action → trait (preselected by the seed's trait
choice, with the reason) → difficulty → modifiers (wounds added automatically). Судьба: before
the roll (automatic critical success) and after it (±1 per point, what each point would do
shown first), each only when the campaign allows it. The roll and each point paid are one undo
step with their Журнал line, written to the campaign: a restart gives the same result back. A
player's Судьба from their seat (:mod:`tui.seats.check`) is the same step.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import drevo
from rules.errors import RulesError
from tui.present.rolls import signed
from tui.services import lent
from tui.store import Character
from tui.systems.drevo.builder.parts import CHECK_ACTIONS, IDLE
from tui.systems.drevo.check import steps
from tui.systems.drevo.check.view import ROWS, DrevoView
from tui.widgets.builders.base import mods_hint
from tui.widgets.builders.engine import NEW_CHECK, EngineBuilder
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

ROW_IDS = {
    "character": "#check-character",
    "action": "#check-action",
    "trait": "#check-trait",
    "difficulty": "#check-difficulty",
}
INPUT_OF = {wid.lstrip("#"): name for name, wid in ROW_IDS.items()}


class DrevoBuilder(EngineBuilder, Vertical):
    """Build a one-sided Древо check; odds update on every change; Enter rolls."""

    # The services it uses (tui/services/lent.py): its app's, the one it is mounted in.
    check_table = lent.check_table
    seat_hub = lent.seat_hub

    FIRST_ROW = "#check-action"
    STEPPER_FORM = True

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="check-roll", tooltip="Бросить 4dF"),
        NEW_CHECK,
        Binding(
            "f",
            "fate_auto",
            "Судьба: крит",
            id="check-fate-auto",
            tooltip="Судьба до броска: автоматический критический успех (1 очко)",
        ),
        Binding(
            "plus",
            "fate_shift(1)",
            "Судьба +1",
            id="check-fate-plus",
            tooltip="Судьба после броска: +1 к результату за очко",
        ),
        Binding(
            "minus",
            "fate_shift(-1)",
            "Судьба −1",
            id="check-fate-minus",
            tooltip="Судьба после броска: −1 к результату за очко",
        ),
        Binding(
            "a",
            "repeat",
            "Как прошлая",
            id="check-repeat",
            show=False,
            tooltip="Прошлая проверка этого персонажа (того же действия) — её условия в форму",
        ),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told: set[str] = set()
        self._offer: Any = None

    def compose(self) -> ComposeResult:
        yield Stepper("Персонаж", id="check-character")
        yield Stepper("Действие", list(CHECK_ACTIONS), id="check-action")
        yield Stepper("Черта", id="check-trait")
        yield Stepper(
            "Сложность",
            [(f"{signed(r.value)} {r.name}", r.value) for r in drevo.ladder()],
            id="check-difficulty",
            wrap=False,  # a scale: ← at its easiest rung stays there
        )
        with Horizontal(id="check-mods-row"):
            yield Label("Модификаторы  ")
            hint = mods_hint("+1 высота, −2 темнота")
            yield ReadyInput(placeholder=hint, id="check-mods", compact=True)
        yield Static(id="check-formula")
        yield Rule(line_style="heavy")
        yield OddsBars(id="check-odds")
        yield Rule(line_style="heavy")
        yield Static(IDLE, id="check-result")

    def on_mount(self) -> None:
        self.query_one("#check-difficulty", Stepper).typed_digits = True

    def on_show(self) -> None:
        """On screen: the seats may ask about this check."""
        if not self.table.opened:
            self.table.opened = True
            self.call_after_refresh(self._seat_changed)

    # -- the engine ----------------------------------------------------------------------------

    @property
    def table(self) -> Any:
        return self.check_table

    @property
    def shown(self) -> DrevoView:
        return self.table.view()

    @property
    def character(self) -> Character | None:
        return self.shown.character

    @property
    def _result(self) -> drevo.OneSidedResult | None:
        """The rolled check (with every point of Судьба after it), None before a roll."""
        return self.shown.result

    @property
    def _fate_auto(self) -> bool:
        """Судьба is declared before the roll."""
        return bool(self.table.state.inputs.fate_auto)

    def current_check(self) -> drevo.OneSidedCheck:
        """The check the form builds; raises RulesError for a bad modifier list."""
        shown = self.shown
        if shown.check is None:
            raise RulesError(shown.error)
        return shown.check

    # -- drawing -------------------------------------------------------------------------------

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        shown = self.shown
        for change in shown.changes:
            if change not in self._told:
                self._told.add(change)
                self.app.notify(change, severity="warning", timeout=8)
        for name in ROWS:
            row = shown.rows[name]
            stepper = self.query_one(ROW_IDS[name], Stepper)
            if stepper.options != list(row.options) or stepper.value != row.value:
                stepper.set_options(row.options, row.value)
        self.query_one("#check-mods", ReadyInput).follow(shown.state.inputs.mods)
        show_markup(self.query_one("#check-formula", Static), shown.formula())
        odds, bars = shown.odds(), self.query_one("#check-odds", OddsBars)
        if odds is None:
            bars.show_message(shown.odds_message())  # none of the last inputs that parsed
        else:
            bars.show(odds, drevo.OUTCOME_NAMES, drevo.OUTCOMES)
        show_markup(self.query_one("#check-result", Static), "\n".join(shown.result_lines()))
        self.refresh_bindings()
        self._seat_changed()

    def _seat_changed(self) -> None:
        hub = self.seat_hub
        if hub is None:
            return
        try:
            offer = self.table.offer()
        except Exception:  # noqa: BLE001 - a half-built check has no offer yet
            offer = None
        if offer != self._offer:
            self._offer = offer
            hub.check_changed()

    # -- the contract --------------------------------------------------------------------------

    def choose_character(self, character_id: str) -> None:
        self.step(steps.set_input, "character", character_id, quiet=True)
        self.query_one(self.FIRST_ROW).focus()

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        name = INPUT_OF.get(event.stepper.id or "")
        if name is not None:
            self.step(steps.set_input, name, event.value)

    @on(Input.Changed, "#check-mods")
    def _typed(self, event: Input.Changed) -> None:
        self.step_typed(event, steps.set_input, "mods", event.value)

    def on_input_submitted(self, event: Any) -> None:
        if event.input.id == "check-mods":
            event.stop()
            self.action_roll()

    # -- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_check":
            return self.rolled_again_refused()
        if (action.startswith("fate") or action == "repeat") and isinstance(
            self.app.focused, Input
        ):
            return False  # the modifier field takes "f", "+" and "-" as text
        if action not in ("fate_auto", "fate_shift"):
            return True  # (the engine's view is derived only for the keys that need it)
        if action == "fate_auto":  # offered where the step is taken: before any dice are seen
            return steps.declare_fate(self.table.state, self.table.world()).ok
        # fate_shift: offered where the view has a point to offer (its «+/−» words say which)
        return bool(self.shown.fate_offers())

    def action_fate_auto(self) -> None:
        """Declare (or take back) Судьба before the roll: an automatic critical success."""
        self.step(steps.declare_fate)

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, the outcome and the margin
        (the form as every key before Enter left it: :meth:`after_form`)."""
        self.after_form(lambda: self.step(steps.roll))

    def action_fate_shift(self, points: int) -> None:
        """Spend one Судьба point to move the last result by ±1."""
        self.step(steps.fate_shift, points)

    def action_repeat(self) -> None:
        self.step(steps.repeat_last)

    def action_new_check(self) -> None:
        """A new check of the same choices: the rolled one's result leaves the screen."""
        self.step(steps.new_check)

"""The Проверка tab for Старатели: the 2d6 check builder, Risk, the task chain, the group check.

The open check is the table engine's (:mod:`tui.table.check`): this widget draws its view and
turns keys into its steps, and keeps nothing else. Rows: character → characteristic → skill
(or none, −3) → difficulty → +d6/−d6 → modifiers; the odds (success/failure, natural 12/2,
with Risk) and the Effect distribution are exact and drawn on every change; Enter rolls. After
a failure ``r`` declares Risk (the GM names the price or forbids it; what it is worth is shown
before); ``h`` lets a helper prepare the way (task chain), ``g`` calls helpers with the same
skill (group check), ``o`` rolls against another character. Every roll and Risk are written
to the campaign with their Журнал line: a restart gives the same result back, Risk still open.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import starately
from rules.errors import RulesError
from tui.services import lent
from tui.store import Character
from tui.systems.starately.builder.chain import ChainScreen
from tui.systems.starately.builder.group import GroupScreen
from tui.systems.starately.builder.other import OtherSideDialog
from tui.systems.starately.builder.parts import COUNT_OPTIONS, IDLE, OUTCOME_STYLE, Row
from tui.systems.starately.builder.risk import RiskScreen
from tui.systems.starately.check import other, steps
from tui.systems.starately.check.view import ROWS, StaratelyView
from tui.widgets.builders.base import mods_hint, turn_opponent
from tui.widgets.builders.dicefaces import DistributionBars, ModsInput, StyledOddsBars
from tui.widgets.builders.engine import NEW_CHECK, EngineBuilder
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

__all__ = ["ChainScreen", "GroupScreen", "RiskScreen", "StaratelyBuilder"]

#: The engine's input behind each row (the rows keep the ids the tests and guides know).
ROW_IDS = {
    "character": "#check-character",
    "characteristic": "#st-characteristic",
    "skill": "#st-skill",
    "difficulty": "#st-difficulty",
    "boons": "#st-boons",
    "banes": "#st-banes",
}
INPUT_OF = {wid.lstrip("#"): name for name, wid in ROW_IDS.items()}


class StaratelyBuilder(EngineBuilder, Horizontal):
    """The 2d6 check builder: rows on the left, the Effect distribution on the right."""

    # The services it uses (tui/services/lent.py): its app's, the one it is mounted in.
    check_table = lent.check_table
    seat_hub = lent.seat_hub

    FIRST_ROW = "#st-characteristic"
    STEPPER_FORM = True  # its steppers' Changed messages come here directly

    DEFAULT_CSS = """
    StaratelyBuilder #st-form { width: 1fr; height: 1fr; }
    StaratelyBuilder #st-effect-box {
        width: 24; height: 1fr; padding: 0 0 0 1; border-left: solid $primary;
    }
    StaratelyBuilder #st-notes { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="starately-roll", tooltip="Бросить проверку 2d6"),
        NEW_CHECK,
        Binding(
            "r",
            "risk",
            "Риск",
            id="starately-risk",
            tooltip="После провала: бросить снова за цену, которую назначает ведущий",
        ),
        Binding(
            "h",
            "chain",
            "Помощник",
            id="starately-chain",
            tooltip="Цепочка: помощник бросает на шаг легче, его Эффект идёт в основной бросок",
        ),
        Binding(
            "o",
            "opposed",
            "Встречный",
            id="starately-opposed",
            tooltip="Встречный бросок: сложности нет, выше итог — победа",
        ),
        Binding(
            "g",
            "group",
            "Группа",
            id="starately-group",
            tooltip="Групповая проверка: +1 за каждый успех помощника с тем же навыком",
        ),
        Binding(
            "a",
            "repeat",
            "Как прошлая",
            id="starately-repeat",
            show=False,
            tooltip="Прошлая проверка этого персонажа (того же навыка) — её условия в форму",
        ),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told: set[str] = set()
        self._offer: Any = None

    def compose(self) -> ComposeResult:
        with Vertical(id="st-form"):
            yield Row("Персонаж", id="check-character")
            yield Row("Характеристика", id="st-characteristic")
            yield Row("Навык", id="st-skill")
            yield Row(
                "Сложность",
                [(f"{d.name} {d.value}+", d.value) for d in starately.difficulties()],
                id="st-difficulty",
            )
            with Horizontal(id="st-tried-row"):
                yield Label("Какой навык    ")
                yield ReadyInput(
                    placeholder="навык, которого нет (для Журнала)", id="st-tried", compact=True
                )
            yield Row("+d6", COUNT_OPTIONS, id="st-boons")
            yield Row("−d6", COUNT_OPTIONS, id="st-banes")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы   ")
                yield ModsInput(
                    placeholder=mods_hint("+1 прицел, −2 темнота", empty=False),
                    id="check-mods",
                    compact=True,
                )
            yield Static(id="check-formula")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Static(id="st-notes")
            yield Rule(line_style="heavy")
            yield Static(IDLE, id="check-result")
        with Vertical(id="st-effect-box"):
            yield DistributionBars(id="st-effect")

    def on_mount(self) -> None:
        for name in ("difficulty", "boons", "banes"):
            self.query_one(ROW_IDS[name], Stepper).typed_digits = True

    def on_show(self) -> None:
        """On screen: the seats may ask about this check."""
        if not self.table.opened:
            self.table.opened = True
            self.call_after_refresh(self._seat_changed)

    # -- the engine ----------------------------------------------------------------------------

    @property
    def table(self) -> Any:
        """The campaign's open check (:class:`~tui.table.check.session.CheckTable`)."""
        return self.check_table

    @property
    def shown(self) -> StaratelyView:
        return self.table.view()

    @property
    def character(self) -> Character | None:
        """The chosen character."""
        return self.shown.character

    @property
    def _characters(self) -> dict[str, Character]:
        return dict(self.table.world().characters)

    @property
    def _last(self) -> Any:
        """The main roll that stands (Risk's retry once declared), None before a roll."""
        found = self.shown.rolled
        return found.last if found is not None else None

    @property
    def _shown(self) -> str:
        """The result area's markup."""
        return "\n".join(self.shown.result_lines())

    def current_check(self) -> Any:
        """The check the form builds (raises RulesError for bad input)."""
        shown = self.shown
        if shown.check is None:
            raise RulesError(shown.error)
        return shown.check

    # -- drawing -------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw every row, the formula, the odds and the result from the engine's view."""
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
        self._set_text("#st-tried", shown.state.inputs.tried)
        self._set_text("#check-mods", shown.state.inputs.mods)
        self.query_one("#st-tried-row").display = shown.tried_shown
        show_markup(self.query_one("#check-formula", Static), shown.formula())
        odds, bars = shown.odds(), self.query_one("#check-odds", StyledOddsBars)
        if odds is None:
            bars.show_message(shown.odds_message())  # none of the last inputs that parsed
        else:
            bars.show(odds.outcomes, starately.OUTCOME_NAMES, starately.OUTCOMES)
        self.query_one("#st-effect", DistributionBars).show(
            "[b]Эффект[/b]\n[dim]итог − сложность[/]", shown.effect_rows()
        )
        show_markup(self.query_one("#st-notes", Static), shown.notes())
        show_markup(self.query_one("#check-result", Static), "\n".join(shown.result_lines()))
        self.refresh_bindings()  # «r» after a failure, «g» with a skill
        self._seat_changed()
        screen = self.app.screen
        if isinstance(screen, OtherSideDialog):
            screen.redraw()  # its rows follow the store (a sheet edited in another window)

    def _set_text(self, selector: str, text: str) -> None:
        self.query_one(selector, ReadyInput).follow(text)

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
        """Select a character (from the party tab) and focus the form's first row."""
        self.step(steps.set_input, "character", character_id, quiet=True)
        self.query_one(self.FIRST_ROW).focus()

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        name = INPUT_OF.get(event.stepper.id or "")
        if name is not None:
            self.step(steps.set_input, name, event.value)

    @on(Input.Changed, "#check-mods")
    @on(Input.Changed, "#st-tried")
    def _typed(self, event: Input.Changed) -> None:
        name = "mods" if event.input.id == "check-mods" else "tried"
        self.step_typed(event, steps.set_input, name, event.value)

    def on_input_submitted(self, event: Any) -> None:
        """Enter in a field rolls, as Enter does on every row."""
        if event.input.id in ("check-mods", "st-tried"):
            event.stop()
            self.action_roll()

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_check":
            return self.rolled_again_refused()
        if action in ("risk", "chain", "group", "opposed", "repeat") and isinstance(
            self.app.focused, Input
        ):
            return False  # the modifier field takes letters as text
        if action not in ("risk", "chain", "opposed", "group"):
            return True  # (the engine's view is derived only for the keys that need it)
        shown = self.shown
        if action == "risk":
            return shown.risk_refusal() is None
        if shown.state.rolled is not None:
            return False  # a chain, a group, an встречный бросок: of the next check («n»)
        if action in ("chain", "opposed"):
            return len(shown.world.characters) > 0
        if action == "group":
            skilled = shown.check is not None and shown.check.side.skill is not None
            return skilled and len(shown.world.characters) > 1
        return True

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, Effect and outcome (the form
        as every key before Enter left it: :meth:`after_form`)."""
        self.after_form(lambda: self.step(steps.roll))

    def action_new_check(self) -> None:
        """A new check of the same choices: the rolled one's result leaves the screen."""
        self.step(steps.new_check)

    def action_repeat(self) -> None:
        """The character's last check of the same skill: its choices in the form again."""
        self.step(steps.repeat_last)

    def action_risk(self) -> None:
        """Ask the GM for Risk's price (what it is worth shown first), then roll again."""
        shown = self.shown
        why = shown.risk_refusal()
        if why is not None:
            self.app.notify(why, severity="error")
            return
        first = shown.rolled.last if shown.rolled is not None else None

        def answered(answer: tuple[str, bool] | None) -> None:
            if answer is not None:
                price, forbidden = answer
                self.step(steps.risk, price, forbidden)

        self.app.push_screen(RiskScreen(first, shown.risk_words()), answered)

    def _default(self, opposed: bool = False) -> str | None:
        """The helper or opponent offered first: the turn's target while the builder checks
        that turn's actor, else (an opposed roll) the one this character last rolled
        against, else the first other character."""
        shown = self.shown
        me = shown.character
        others = [c for c in shown.world.characters.values() if me is None or c.id != me.id]
        default = turn_opponent(self, me.id if me else None, others)
        turn = getattr(self, "turn", None)
        if opposed and me is not None and (turn is None or turn.actor != me.id):
            default = steps.last_opponent(shown.world, me.id) or default
        return default

    def _open_other(self, kind: str, screen: Any) -> None:
        """Open the dialog of another character's side (the engine's state: its rows derive
        from it); refused — the reason, and nothing opens."""
        if self.step(other.open_other, kind, self._default(opposed=kind == "opposed")):
            self.app.push_screen(screen(self))

    def action_chain(self) -> None:
        """Choose a helper for a task chain, then roll the helper and the main check."""
        self._open_other("chain", ChainScreen)

    def action_opposed(self) -> None:
        """Set the opponent of a встречный бросок, then roll both sides."""
        from tui.systems.starately.builder.opposed import OpposedScreen

        self._open_other("opposed", OpposedScreen)

    def action_group(self) -> None:
        """Choose helpers with the same skill, then roll the group check."""
        self._open_other("group", GroupScreen)

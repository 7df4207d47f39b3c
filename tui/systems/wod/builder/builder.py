"""The Проверка tab for Мир Тьмы: the d10 pool builder and the chance die.

The open check is the table engine's (:mod:`tui.table.check`): this widget draws its view and
turns keys into its steps. Rows: character → attribute → skill → modifiers → n-again → rote;
a skill brings its usual attribute. The pool size, the four outcome chances and the
distribution of successes are exact and drawn on every change; Enter rolls. A pool of zero or
less is a chance die: before it rolls, the GM is asked whether the player goes ahead or
withdraws (when the Storyteller allows withdrawing); a withdrawal is logged. ``c`` rolls a
contested roll against another character, ``e`` starts an extended roll toward a target (each
Enter adds a roll, each one logged) — both [default], campaign settings. Every roll is written
to the campaign: a restart gives the same result — and an extended action — back.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import wod
from rules.errors import RulesError
from tui.services import lent
from tui.store import Character
from tui.systems.wod.builder.parts import (
    AGAIN_OPTIONS,
    IDLE,
    OUTCOME_STYLE,
    ROTE_OPTIONS,
    STALE,
    ChanceScreen,
    ContestScreen,
    TargetScreen,
    success_rows,
)
from tui.systems.wod.check import contest, steps
from tui.systems.wod.check.view import ROWS, WodView, character_gone_of
from tui.widgets.builders.base import mods_hint, turn_opponent
from tui.widgets.builders.dicefaces import DistributionBars, ModsInput, StyledOddsBars
from tui.widgets.builders.engine import NEW_CHECK, EngineBuilder
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

__all__ = ["OUTCOME_STYLE", "ChanceScreen", "ContestScreen", "TargetScreen", "WodBuilder"]

ROW_IDS = {
    "character": "#check-character",
    "attribute": "#wod-attribute",
    "skill": "#wod-skill",
    "again": "#wod-again",
    "rote": "#wod-rote",
}
INPUT_OF = {wid.lstrip("#"): name for name, wid in ROW_IDS.items()}


class WodBuilder(EngineBuilder, Horizontal):
    """The pool builder: rows on the left, the distribution of successes on the right."""

    # The services it uses (tui/services/lent.py): its app's, the one it is mounted in.
    check_table = lent.check_table

    FIRST_ROW = "#wod-attribute"
    STEPPER_FORM = True

    DEFAULT_CSS = """
    WodBuilder #wod-form { width: 1fr; height: 1fr; }
    WodBuilder #wod-dist-box {
        width: 20; height: 1fr; padding: 0 0 0 1; border-left: solid $primary;
    }
    WodBuilder #wod-notes { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="wod-roll", tooltip="Бросить запас d10"),
        NEW_CHECK,
        Binding(
            "c", "contest", "Состязание", id="wod-contest", tooltip="Оба бросают: больше успехов"
        ),
        Binding(
            "e",
            "extended",
            "Продолжительное",
            id="wod-extended",
            tooltip="Продолжительное действие: успехи копятся до цели",
        ),
        Binding(
            "e",
            "stop_extended",
            "Стоп",
            id="wod-extended-stop",
            tooltip="Остановить продолжительное действие",
        ),
        Binding(
            "a",
            "repeat",
            "Как прошлая",
            id="wod-repeat",
            show=False,
            tooltip="Прошлая проверка этого персонажа (того же навыка) — её условия в форму",
        ),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told: set[str] = set()

    def compose(self) -> ComposeResult:
        with Vertical(id="wod-form"):
            yield Stepper("Персонаж", id="check-character")
            yield Stepper("Атрибут", id="wod-attribute")
            yield Stepper("Навык", id="wod-skill")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы  ")
                yield ModsInput(
                    placeholder=mods_hint("+2 снаряжение, −3 рана", empty=False),
                    id="check-mods",
                    compact=True,
                )
            yield Stepper("n-снова", AGAIN_OPTIONS, id="wod-again")
            yield Stepper("Рутина", ROTE_OPTIONS, id="wod-rote")
            yield Static(id="check-formula")
            yield Static(id="wod-notes")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Rule(line_style="heavy")
            yield Static(IDLE, id="check-result")
        with Vertical(id="wod-dist-box"):
            yield DistributionBars(id="wod-successes")

    def on_show(self) -> None:
        self.table.opened = True

    # -- the engine ----------------------------------------------------------------------------

    @property
    def table(self) -> Any:
        return self.check_table

    @property
    def shown(self) -> WodView:
        return self.table.view()

    @property
    def character(self) -> Character | None:
        return self.shown.character

    @property
    def _characters(self) -> dict[str, Character]:
        return dict(self.table.world().characters)

    @property
    def _extended(self) -> Any:
        """The extended action in progress (None: none)."""
        from tui.systems.wod.check.state import extended_of

        state = self.table.state
        return extended_of(state.rolled) if state.extending else None

    def current_pool(self) -> Any:
        """The pool the form builds (raises RulesError for bad input)."""
        shown = self.shown
        if shown.pool is None:
            raise RulesError(shown.error)
        return shown.pool

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
        show_markup(self.query_one("#wod-notes", Static), shown.notes())
        odds, bars = shown.odds(), self.query_one("#check-odds", StyledOddsBars)
        title = "[b]Успехов[/b]\n[dim]сколько выпадет[/]"
        if odds is None:  # none of the last inputs that parsed
            bars.show_message(shown.odds_message())
            self.query_one("#wod-successes", DistributionBars).show(title, [])
        else:
            bars.show(odds.outcomes, wod.OUTCOME_NAMES, wod.OUTCOMES)
            self.query_one("#wod-successes", DistributionBars).show(title, success_rows(odds))
        show_markup(self.query_one("#check-result", Static), "\n".join(shown.result_lines()))
        self.refresh_bindings()  # «e Продолжительное» or «e Стоп»
        screen = self.app.screen
        if isinstance(screen, ContestScreen):
            screen.redraw()  # its rows follow the store (a sheet edited elsewhere)
        elif isinstance(screen, ChanceScreen):
            screen.follow(shown.pool)  # the question is about the pool the form gives now

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

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.table.state
        if action == "new_check":  # after the roll (an extended action: once it is over)
            return self.rolled_again_refused()
        extended = ("extended", "stop_extended")
        if action in ("contest", "repeat", *extended) and isinstance(self.app.focused, Input):
            return False  # the modifier field takes letters as text
        if action == "stop_extended":  # «e» stops the one going on
            return state.extending
        if action in ("contest", "extended") and state.rolled is not None:
            return False  # of the next check («n»)
        if action == "contest":
            return len(self._characters) > 1
        return True

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """Enter is not offered on a rolled check (:class:`EngineBuilder`), nor during an
        extended action whose character another window removed: that roll is refused, and
        «e» stops the action."""
        state = self.table.state
        if binding.action == "roll" and state.extending:
            if character_gone_of(state, self.table.world()):
                return "", ""
        return super().key_bar_text(binding)

    def rolled_again_refused(self) -> bool:
        """Whether Enter is refused now: the check is rolled, and no extended action of it
        is going on (its Enter is the action's next roll)."""
        state = self.table.state
        return state.rolled is not None and not state.extending

    def action_roll(self) -> None:
        """Roll the pool; a chance die asks first whether to go ahead (the form as every key
        before Enter left it: :meth:`after_form`)."""
        self.after_form(self._roll)

    def _roll(self) -> None:
        state = self.table.state
        if state.extending:
            self.step(steps.extend)
            return
        if state.rolled is not None:  # refused, with what to do (no chance die's question)
            self.step(steps.roll)
            return
        try:
            pool = self.current_pool()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        if pool.chance:

            def answered(go: Any) -> None:
                if go is STALE:
                    return  # the pool is a pool again: the GM rolls it with Enter
                if go is None:
                    self.step(steps.withdraw)
                else:  # the pool as the Storyteller left it (withdrawing allowed or not)
                    self.step(steps.roll, go.withdrawal_allowed)

            self.app.push_screen(ChanceScreen(pool), answered)
            return
        self.step(steps.roll)

    def action_repeat(self) -> None:
        self.step(steps.repeat_last)

    def action_new_check(self) -> None:
        """A new check of the same choices: the rolled one's result leaves the screen."""
        self.step(steps.new_check)

    def action_contest(self) -> None:
        """Choose an opponent (the turn's target first), then both roll their pools: more
        successes wins."""
        me = self.character
        others = [c for c in self._characters.values() if me is None or c.id != me.id]
        default = turn_opponent(self, me.id if me else None, others)
        if self.step(contest.open_contest, default):
            self.app.push_screen(ContestScreen(self))

    def action_stop_extended(self) -> None:
        """Stop the extended roll in progress (its successes are logged)."""
        self.step(steps.stop_extended)

    def action_extended(self) -> None:
        """Start an extended roll (ask the target), or end the one in progress."""
        if self.table.state.extending:
            self.action_stop_extended()
            return
        try:
            self.current_pool()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return

        def started(target: int | None) -> None:
            if target is not None:
                self.step(steps.start_extended, target)

        self.app.push_screen(TargetScreen(), started)

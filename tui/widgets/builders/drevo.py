"""The Проверка tab: the Древо check builder with live exact odds.

Character → action → trait (preselected by the seed's trait choice, with the reason) →
difficulty → modifiers (wounds added automatically). Судьба: before the roll (automatic
critical success) and after it (±1 per point), each only when the campaign allows it. Each
point paid is one undo step with its log line; Ctrl+Z / Ctrl+Y of it take the check back to
its state before / after that point (:class:`~tui.widgets.builders.base.SpendTrail`).
A player's Судьба from their seat (:mod:`tui.seats.check`) is the same step, and so is
undone (``drevo_seat``). The actions, what a character offers for them and the text of the
formula and the result are ``drevo_parts``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import drevo
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.bridge import combat as bridge
from tui.bridge.effects import drevo_note, effect_modifiers
from tui.present.rolls import one_sided_summary, signed
from tui.store import Character
from tui.widgets.builders.base import (
    CharacterPicker,
    CheckRolled,
    SeatCheck,
    SpendTrail,
    mods_hint,
)
from tui.widgets.builders.drevo_parts import (
    CHECK_ACTIONS,
    IDLE,
    WOUND_REASON,
    formula_lines,
    result_lines,
    trait_options,
    weapon_for,
)
from tui.widgets.builders.drevo_seat import SeatMixin
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup


class DrevoBuilder(SeatMixin, CharacterPicker, Vertical):
    """Build a one-sided Древо check; odds update on every change; Enter rolls."""

    FIRST_ROW = "#check-action"

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="check-roll", tooltip="Бросить 4dF"),
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
    ]

    _result: drevo.OneSidedResult | None = None
    _fate_auto: bool = False
    _reason: str = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The Судьба steps this check wrote: undone or redone, the check follows.
        self._trail = SpendTrail()
        #: The open check as the players' seats see it.
        self.seat = SeatCheck()

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
        self.query_one("#check-difficulty", Stepper).select(0)

    def on_show(self) -> None:
        """On screen: the seats may ask about this check (see ``SeatCheck``)."""
        self.seat.shown(self)

    def _refresh_traits(self, *, preselect: bool = False) -> None:
        trait = self.query_one("#check-trait", Stepper)
        character = self.character
        action = self.query_one("#check-action", Stepper).value
        self._reason = ""
        if character is None:
            trait.set_options([])
        elif action == "other":
            trait.set_options(trait_options(character), trait.value)
        else:
            ranked = drevo.rank_traits(character, action, weapon_for(character, action))
            options = [(f"{t.name} {signed(t.value)}", t.name) for t in ranked]
            trait.set_options(options, None if preselect else trait.value)
            chosen = next((t for t in ranked if t.name == trait.value), None)
            if chosen is not None:
                self._reason = chosen.reason
        self._recompute()

    @on(Stepper.Changed, "#check-character")
    def _character_changed(self) -> None:
        """Another character: the previous one's result leaves the screen."""
        self._fate_auto = False
        self._result = None
        self._trail.clear()
        self.seat.renew(SeatCheck.CLOSED)
        show_markup(self.query_one("#check-result", Static), IDLE)
        self._refresh_traits(preselect=True)

    @on(Stepper.Changed, "#check-action")
    def _action_changed(self) -> None:
        self._refresh_traits(preselect=True)

    @on(Stepper.Changed, "#check-trait")
    def _trait_changed(self) -> None:
        self._refresh_traits()

    @on(Stepper.Changed, "#check-difficulty")
    @on(Input.Changed, "#check-mods")
    def _inputs_changed(self) -> None:
        self._recompute()

    # -- the check -------------------------------------------------------------------------------

    def current_check(self) -> drevo.OneSidedCheck:
        """Build the check from the form; raises RulesError for a bad modifier list."""
        character = self.character
        if character is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        trait_name = self.query_one("#check-trait", Stepper).value
        value = character.trait(trait_name) if trait_name else None
        if value is None:
            value = drevo.settings().absent_skill
        track = bridge.track_of(character)
        automatic = []
        if track.penalty:
            automatic.append(drevo.Modifier(track.penalty, WOUND_REASON[track.penalty]))
        automatic += effect_modifiers(self, character)  # issue 17: active effects
        typed = parse_modifiers(self.query_one("#check-mods", Input).value)
        side = drevo.Side(
            trait=value,
            modifiers=(*automatic, *(drevo.Modifier(m.value, m.reason) for m in typed)),
            name=character.name,
            trait_name=trait_name or "без черты",
        )
        difficulty = self.query_one("#check-difficulty", Stepper).value
        return drevo.OneSidedCheck(side, difficulty, fate_auto=self._fate_auto)

    def _recompute(self) -> None:
        check = self._built_or_shown(self.current_check)
        if check is None:
            return
        character = self.character
        can_act = character is None or bridge.track_of(character).can_act
        note = drevo_note(self, check)  # active effects
        lines = formula_lines(check, self._reason, can_act=can_act, note=note)
        show_markup(self.query_one("#check-formula", Static), "\n".join(lines))
        self.query_one("#check-odds", OddsBars).show(
            drevo.one_sided_odds(check), drevo.OUTCOME_NAMES, drevo.OUTCOMES
        )
        self.refresh_bindings()
        self.seat.changed(self)

    # -- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("fate") and isinstance(self.app.focused, Input):
            return False  # the modifier field takes "f", "+" and "-" as text
        character = self.character
        rules = drevo.fate_rules()
        if action == "fate_auto":
            return (
                character is not None
                and rules.allows("auto_success")
                and (self._fate_auto or character.fate > 0)
            )
        if action == "fate_shift":
            return (
                self._result is not None
                and character is not None
                and character.name == self._result.check.side.name
                and character.fate > 0
                and rules.allows("shift")
            )
        return True

    def action_fate_auto(self) -> None:
        """Declare (or take back) Судьба before the roll: an automatic critical success."""
        self._fate_auto = not self._fate_auto
        self._recompute()

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, the outcome and the margin."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        character = self.character
        assert character is not None
        if not bridge.track_of(character).can_act:
            self.app.notify(
                f"{character.name} тяжело ранен и не может действовать.", severity="error"
            )
            return
        self._trail.clear()  # a new check: the steps of the last one no longer move it
        self.seat.renew(SeatCheck.CLOSED if self._result is not None else SeatCheck.ROLLED)
        before, spend = (self._result, self._fate_auto), None
        if check.fate_auto:
            try:
                left = drevo.spend_fate("auto_success", character.fate)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
            spend = replace(character, fate=left)
            self._fate_auto = False
        result = drevo.roll_one_sided(check, self.app.rng)  # type: ignore[attr-defined]
        self._show(result, "Проверка", spend, before)

    def action_fate_shift(self, points: int) -> None:
        """Spend one Судьба point to move the last result by ±1."""
        character, result = self.character, self._result
        if character is None or result is None:
            return
        try:
            left = drevo.spend_fate("shift", character.fate)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        shifted = drevo.shift_one_sided(result, points)
        before = (result, self._fate_auto)
        self._show(shifted, f"Судьба {signed(points)}", replace(character, fate=left), before)

    def _show(
        self,
        result: drevo.OneSidedResult,
        what: str,
        spend: Character | None = None,
        before: tuple[drevo.OneSidedResult | None, bool] | None = None,
    ) -> None:
        """Show ``result`` and log it; ``spend``: the sheet it paid from (one undo step with
        the log line), ``before``: the check's state before it (restored on its undo)."""
        self.post_message(self._shown(result, what, spend, before))

    def _shown(
        self,
        result: drevo.OneSidedResult,
        what: str,
        spend: Character | None = None,
        before: tuple[drevo.OneSidedResult | None, bool] | None = None,
    ) -> CheckRolled:
        """Show ``result``; return its log line (posted by a key, written by a seat's step)."""
        self._show_result(result)
        summary = one_sided_summary(result)
        if what != "Проверка":
            summary = f"{what}: {summary}"
        data = {"system": "drevo", **result.to_dict()}
        message = CheckRolled(result.check.side.name or None, summary, data, spend=spend)
        if spend is not None:
            self._trail.add(self.app, message.entry_id, before, (result, self._fate_auto))
        self._recompute()
        return message

    def _show_result(self, result: drevo.OneSidedResult | None) -> None:
        self._result = result
        if result is None:
            show_markup(self.query_one("#check-result", Static), IDLE)
            return
        show_markup(self.query_one("#check-result", Static), "\n".join(result_lines(result)))

    # -- undo and redo of the check's own steps --------------------------------------------------

    def set_characters(self, characters: list[Character]) -> None:
        """Offer ``characters``; a Судьба step of this check undone or redone (Ctrl+Z, Ctrl+Y,
        another window) puts the check in its state before or after that step."""
        super().set_characters(characters)
        has, state = self._trail.state(self.app)
        if has and state != (self._result, self._fate_auto):
            self._restore(state)

    def spend_refused(self, entry_id: str) -> None:
        """The store refused a Судьба step: the check goes back to its state before it."""
        state = self._trail.refused(entry_id)
        if state is not None:
            self._restore(state)

    def _restore(self, state: tuple[drevo.OneSidedResult | None, bool]) -> None:
        result, self._fate_auto = state
        self._show_result(result)
        self._recompute()

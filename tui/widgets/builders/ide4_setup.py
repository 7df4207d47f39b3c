"""The IDE4™ builder before the roll: the status line and the live exact odds from the form,
Enter (roll the d100, or record [0] / [00]), the need-a-roll checklist, the clear-risk card, and
an opposed check (the form is the first side; both are rolled and logged).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.widgets import Input, Static

from rules import ide4
from rules.errors import RulesError
from tui.table.check import ide4_steps as steps
from tui.table.check.ide4_view import Ide4View
from tui.widgets.builders.base import CheckRolled, turn_opponent
from tui.widgets.builders.ide4_dialogs import CardScreen, ChecklistScreen
from tui.widgets.builders.ide4_form import Ide4OddsBars
from tui.widgets.common.text import show_markup


class SetupMixin:
    """The ``setup`` phase of ``Ide4Builder``, split out to keep each file readable."""

    app: Any
    form: Any
    # Provided by the builder (and Textual): phase, shown, table, step(), current_input(),
    # action_conclude(), query_one(), post_message().

    def _show_setup(self, shown: Ide4View) -> None:
        """Draw the status line and the live odds from the engine's view."""
        show_markup(self.query_one("#ide4-status", Static), "\n".join(shown.status_lines()))
        odds = self.query_one("#ide4-odds", Ide4OddsBars)
        if shown.odds is not None:
            odds.show(shown.odds, ide4.OUTCOME_NAMES, ide4.OUTCOMES)
        else:
            odds.show_message(shown.odds_message())

    def action_roll(self) -> None:
        """Open the check: roll the d100 (after energy before), or record [0] / [00]."""
        if self.phase != "setup":
            if self.phase == "result":
                self.action_conclude()
            return
        if not self.step(steps.roll):
            shown = self.shown
            if shown.texts.get("reason") and not shown.text("reason").strip():
                self.query_one("#ide4-reason", Input).focus()

    def action_opposed(self) -> None:
        """Set the second side of an opposed check (the form is the first), then roll both."""
        from tui.widgets.builders.ide4_opposed import OpposedSetupScreen

        try:
            first = self.current_input()
            ide4.validate(first)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        first_id = self.form.value("character")
        others = [c for c in self.form.characters.values() if c.id != first_id]
        if not others:
            self.app.notify(
                "Противоборствовать не с кем: в партии один персонаж.", severity="error"
            )
            return
        default = turn_opponent(self, first_id, others)
        screen = OpposedSetupScreen(others, first, default, self.table.world)

        def rolled(second: ide4.CheckInput | None) -> None:
            if second is not None:
                self._roll_opposed(first, first_id, second, screen.character)

        self.app.push_screen(screen, rolled)

    def _roll_opposed(
        self, first: ide4.CheckInput, first_id: str, second: ide4.CheckInput, other: Any
    ) -> None:
        from tui.widgets.builders.ide4_opposed import opposed_text
        from tui.widgets.builders.ide4_opposed_result import OpposedResultScreen

        rng = self.app.rng  # type: ignore[attr-defined]
        try:
            checks = []
            for inp in (first, second):
                check = ide4.start(inp)
                checks.append(ide4.roll(check, rng) if check.status == "ready" else check)
            result = ide4.opposed(*checks)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        ids = (first_id, other.id if other is not None else None)
        paid: dict[str, Any] = {}  # the sheets energy before pays: one undo step with the line
        for cid, check in zip(ids, checks, strict=True):
            c = self.form.characters.get(cid or "")
            if c is not None and check.energy_spent:
                paid[c.id] = replace(c, extra={**c.extra, "energy": check.pool_after})
        data = {**result.to_dict(), "event": "roll"}
        message = CheckRolled(first.actor or None, opposed_text(result), data)
        if paid:  # undone, both sheets get their energy back and the line is «отменено»
            message.also_pays = tuple(paid.values())
            message.step = f"Противоборство: {first.actor or 'без имени'}"
        self.post_message(message)

        def done(final: ide4.OpposedResult | None) -> None:
            if final is None:
                return
            if final.to_dict() != result.to_dict():  # moves taken or a tie decided: the outcome
                data = {**final.to_dict(), "event": "conclude"}  # (the roll is logged above)
                self.post_message(CheckRolled(first.actor or None, opposed_text(final), data))
            self.app.notify(opposed_text(final), timeout=6)

        screen = OpposedResultScreen(*checks, ids, lambda: self.form.characters)
        self.app.push_screen(screen, done)

    def action_checklist(self) -> None:
        """Open the need-a-roll checklist."""
        inputs = self.table.state.inputs

        def done(result: tuple[tuple[str, ...], bool] | None) -> None:
            if result is not None:
                self.step(steps.checklist, *result)

        self.app.push_screen(ChecklistScreen(inputs.reasons, inputs.player_demand), done)

    def action_card(self) -> None:
        """Show the clear-risk card to read aloud."""
        try:
            check = self.check
            inp = check.input if check is not None else self.current_input()
            card = ide4.clear_risk(inp)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.app.push_screen(CardScreen(card))

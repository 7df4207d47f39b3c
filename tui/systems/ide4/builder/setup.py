"""The IDE4™ builder before the roll: the status line and the live exact odds from the form,
Enter (roll the d100, or record [0] / [00]), the need-a-roll checklist, the clear-risk card, and
an opposed check (the form is the first side; both are rolled and logged).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from rules import ide4
from rules.errors import RulesError
from tui.systems.ide4.builder.dialogs import CardScreen, ChecklistScreen
from tui.systems.ide4.builder.form import Ide4OddsBars
from tui.systems.ide4.builder.part import Ide4Part
from tui.systems.ide4.check import opposed as opp
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.view import Ide4View
from tui.widgets.builders.base import turn_opponent
from tui.widgets.common.text import show_markup


class SetupMixin(Ide4Part):
    """The ``setup`` phase of ``Ide4Builder``, split out to keep each file readable."""

    def _show_setup(self, shown: Ide4View) -> None:
        """Draw the status line and the live odds from the engine's view."""
        show_markup(self.query_one("#ide4-status", Static), "\n".join(shown.status_lines()))
        odds = self.query_one("#ide4-odds", Ide4OddsBars)
        if shown.odds is not None:
            odds.show(shown.odds, ide4.OUTCOME_NAMES, ide4.OUTCOMES)
        else:
            odds.show_message(shown.odds_message())

    def action_roll(self) -> None:
        """Open the check: roll the d100 (after energy before), or record [0] / [00] (the
        form as every key before Enter left it: :meth:`after_form`)."""
        self.after_form(self._roll)

    def _roll(self) -> None:
        if self.phase != "setup":
            if self.phase == "result":
                self.action_conclude()
            return
        if not self.step(steps.roll):
            shown = self.shown
            if shown.texts.get("reason") and not shown.text("reason").strip():
                self.query_one("#ide4-reason", Input).focus()

    def action_opposed(self) -> None:
        """Start an opposed check: the form is the first side, the dialog sets the second
        (the turn's target first, in a fight); the builder shows its dialogs."""
        first_id = self.table.state.inputs.character or None
        party = self.table.world().characters
        others = [c for cid, c in party.items() if cid != first_id]
        if self.step(opp.open_opposed, turn_opponent(self, first_id, others)):
            self._sync_opposed()

    def _sync_opposed(self) -> None:
        """Show the dialog of the opposed check's stage — the second side before the roll,
        both results after it — and close the one whose stage is over (concluded, undone,
        cancelled). On screen only while the Проверка tab is: a check restored after a crash
        opens its dialog when the GM comes to the tab."""
        from tui.systems.ide4.builder.opposed import OpposedSetupScreen
        from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

        opened = self.table.state.opposed
        want: Any = None
        if opened is not None and not opened.concluded:
            want = OpposedResultScreen if opened.rolled else OpposedSetupScreen
        kinds = (OpposedSetupScreen, OpposedResultScreen)
        current = next((s for s in self.app.screen_stack if isinstance(s, kinds)), None)
        if current is not None:
            if type(current) is want:
                current.redraw()
                return
            if self.app.screen is not current:
                return  # a chooser over it: followed when that closes
            self.app.pop_screen()
        if want is not None and self._on_tab():
            self.app.push_screen(want(self))

    def _on_tab(self) -> bool:
        """Whether the Проверка tab is the one shown (its dialogs open there only)."""
        from textual.widgets import TabbedContent

        try:
            tabs = self.screen.query_one(TabbedContent)
        except Exception:  # noqa: BLE001 - mounted alone (a test): always shown
            return True
        return bool(tabs.active == "check")

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

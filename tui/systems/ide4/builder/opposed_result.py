"""The result of an IDE4™ opposed check in the builder: both checks, the comparison, each side's
moves (rerolls, energy after, mastery bonuses in the seed's order, any side) and on a full tie
the GM's choice (status quo, or a price to both).

The opposed check is the open check's (:mod:`tui.systems.ide4.check.opposed`): this dialog draws
its view and turns keys into its steps through the builder; each move is written with its line
and the sheet it pays as one undo step, so Ctrl+Z, Ctrl+Y, a restart or a crash give the dialog
back exactly as the campaign has it. The second side's setup and the words: ``ide4_opposed``.
"""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.widgets import Input, Label, Static

from rules import ide4
from tui.systems.ide4.builder.dialogs import Choice, ChooserScreen
from tui.systems.ide4.builder.opposed import CSS, verdict
from tui.systems.ide4.check import opposed as opp
from tui.widgets.builders.engine import EngineDialog
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

TITLES = {
    "reroll": "Переброс d100: сторона и источник",
    "energy_after": "Энергия после броска: сторона и кубы (до номинала)",
    "bonus": "Бонус мастерства: сторона и бонус",
}


class OpposedResultScreen(EngineDialog):
    """Both checks, the comparison, each side's moves; on a full tie the GM's recorded choice."""

    DEFAULT_CSS = CSS.format(name="OpposedResultScreen")
    BINDINGS = [
        Binding("r", "move('reroll')", "Переброс", id="ide4-opp-reroll"),
        Binding("e", "move('energy_after')", "Энергия", id="ide4-opp-energy"),
        Binding("b", "move('bonus')", "Бонус", id="ide4-opp-bonus"),
        Binding("enter,escape", "done", "Итог", id="ide4-opp-done"),
    ]

    @property
    def shown(self) -> opp.OpposedView:
        """The opposed check as the engine derives it now."""
        table = self.builder.table
        return opp.opposed_view(table.state, table.world())

    @property
    def checks(self) -> dict[str, ide4.Check]:
        """Both sides' checks now."""
        return dict(self.shown.checks)

    @property
    def result(self) -> ide4.OpposedResult:
        """The comparison of the two checks now."""
        return self.shown.result

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Противоборство[/b]: обе стороны проверены", classes="dialog-title")
            with VerticalScroll(id="opp-steps"):
                yield Static(id="opp-lines")
            yield Static(id="opp-verdict")
            yield Stepper(
                "При равенстве",
                [("— выберите ←/→ —", "")]
                + [(name, key) for key, name in ide4.TIE_RESOLUTIONS.items()],
                id="opp-tie",
            )
            with Horizontal(classes="opp-field", id="opp-price-row"):
                yield Label("Цена обеим    ")
                yield ReadyInput(
                    placeholder="что теряет каждая сторона", id="opp-price", compact=True
                )
            yield Static(
                "[dim]r — переброс · e — энергия после · b — бонус (любой стороны) · "
                "Enter — записать итог[/]"
            )

    def focus_first(self) -> None:
        """Nothing first: on a full tie :meth:`redraw` focuses the choice the GM must make."""

    def redraw(self) -> None:
        """Draw both checks and the comparison from the engine's view."""
        state = self.builder.table.state
        if not self._ready or state.opposed is None or not state.opposed.rolled:
            return
        shown = self.shown
        show_markup(self.query_one("#opp-lines", Static), "\n".join(shown.result_lines()))
        result = shown.result
        tie = result.winner is None
        show_markup(self.query_one("#opp-verdict", Static), f"[b]{escape(verdict(result))}[/b]")
        self.query_one("#opp-tie").display = tie
        self.query_one("#opp-price-row").display = (
            tie and self.query_one("#opp-tie", Stepper).value == "price"
        )
        if tie and not isinstance(self.focused, Input):
            self.query_one("#opp-tie", Stepper).focus()

    def follow_trail(self) -> None:
        """The store changed (a move undone or redone, another window): draw it again."""
        self.redraw()

    @on(Stepper.Changed, "#opp-tie")
    def _tie_changed(self) -> None:
        self.redraw()
        if self.query_one("#opp-tie", Stepper).value == "price":
            self.query_one("#opp-price", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "move" and isinstance(self.focused, Input):
            return False  # the price field takes letters as text
        return True

    def _choices(self, kind: str) -> list[Choice]:
        """Each side's moves of ``kind``: allowed with what each is worth to that side (its
        exact chance to improve and to worsen its outcome), or the rule against it."""
        from tui.systems.ide4.builder.moves import choice

        shown = self.shown
        found = []
        for key, offer in shown.offers(kind):
            who = shown.checks[key].input.actor or key
            made = choice(offer, f"{who}: {offer.name}")
            found.append(replace(made, id=f"{key}:{kind}:{offer.source}"))
        return found

    def action_move(self, kind: str) -> None:
        """Choose a move for either side: each allowed, or the rule that forbids it."""
        self.app.push_screen(ChooserScreen(TITLES[kind], self._choices(kind)), self._chosen)

    def _chosen(self, choice: str | None) -> None:
        if not choice:
            return
        key, kind, source = choice.split(":")
        if not self.builder.step(opp.opposed_move, key, kind, source):
            self.builder._sync_opposed()  # refused: the check may have changed meanwhile

    def action_done(self) -> None:
        """Record the comparison (and on a full tie the GM's choice); the builder closes it."""
        self.builder.step(
            opp.conclude_opposed,
            self.query_one("#opp-tie", Stepper).value or "",
            self.query_one("#opp-price", Input).value,
        )

    @on(Input.Submitted, "#opp-price")
    def _price_entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_done()

"""What the Старатели builder's pop-ups for another character share: each draws the open
check's other side (:mod:`tui.systems.starately.check.other`) — its rows, its side, its exact odds
— and turns its keys into that side's steps through the builder; Enter rolls (the engine's
step, written with its line), Esc closes without rolling. Nothing is kept here."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.widgets import Input, Static

from tui.systems.starately.check import other as so
from tui.widgets.builders.engine import EngineDialog
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup


class OtherSideDialog(EngineDialog):
    """A dialog of the other side of a Старатели roll (``PREFIX``: its rows' id prefix)."""

    PREFIX = ""

    @property
    def shown(self) -> so.OtherView:
        """The other side as the engine derives it now."""
        table = self.builder.table
        return so.other_view(table.state, table.world())

    @property
    def chosen_id(self) -> str:
        """The helper's or the opponent's character id."""
        c = self.shown.character
        return c.id if c is not None else ""

    def redraw(self) -> None:
        """Draw every row and the odds from the engine's view (the store changed, a key)."""
        if not self._ready or self.builder.table.state.other is None:
            return
        shown = self.shown
        self.tell_swapped(shown.swapped)
        for name, (options, value) in shown.rows.items():
            found = self.query(f"#{self.PREFIX}-{name}")
            if not found:
                continue
            stepper = found.first(Stepper)
            if stepper.options != list(options) or stepper.value != value:
                stepper.set_options(options, value)
        self.draw_odds(shown)

    def draw_odds(self, shown: so.OtherView) -> None:
        """Show the exact odds (each dialog its own way)."""
        show_markup(self.query_one(f"#{self.PREFIX}-odds", Static), "\n".join(shown.lines()))

    def name_of(self, stepper: Stepper) -> str:
        """The engine's name of a row."""
        return (stepper.id or "").removeprefix(f"{self.PREFIX}-")

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        event.stop()
        self.choose(self.name_of(event.stepper), event.value)

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.choose("mods", event.value)

    def choose(self, name: str, value: Any) -> None:
        """One choice: the engine's step, then the rows as it derives them."""
        self.builder.step(so.set_other, name, value)
        self.redraw()

    @on(Input.Submitted)
    def action_go(self) -> None:
        """Roll (the engine's chain, group or opposed step); refused: the dialog stays. The
        side shown in place of one removed elsewhere is first confirmed."""
        if self.shown.swapped:
            self.builder.step(so.confirm_other)
            self.redraw()
            return
        if self.builder.step(so.roll_other):
            self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.builder.step(so.cancel_other, quiet=True)
        self.dismiss(None)

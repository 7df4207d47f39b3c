"""The group check in the Старатели builder: ``g`` calls the helpers with the same skill (level
1+); each helper's success adds +1 to the main roll, a failure costs nothing.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from tui.present.rolls import plain, signed
from tui.systems.starately.builder.other import OtherSideDialog
from tui.systems.starately.builder.parts import MODAL_CSS, Row
from tui.widgets.common.stepper import Stepper


class WideRow(Row):
    """A row for a helper's name and skill."""

    label_width = 40


def helper_label(helper: Any) -> str:
    """Return «Сергей: Медицина-1, Интеллект 8 (DM +0)» — the helper's skill and
    characteristic (helpers roll the main roller's characteristic)."""
    value = "" if helper.characteristic_value is None else f" {helper.characteristic_value}"
    return (
        f"{helper.name}: {helper.skill_name}-{helper.skill}, "
        f"{helper.characteristic}{value} (DM {signed(helper.dm)})"
    )


class GroupScreen(OtherSideDialog):
    """Pick which helpers (same skill at level 1+) join; Enter rolls everyone."""

    DEFAULT_CSS = MODAL_CSS.format(name="GroupScreen")
    PREFIX = "group"
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="group-go"),
        Binding("escape", "cancel", "Отмена", id="group-cancel"),
    ]

    def compose(self) -> ComposeResult:
        shown = self.shown
        main = shown.main
        assert main is not None
        side = main.side
        with Vertical():
            yield Static(
                f"[b]Групповая проверка[/b]: {plain(side.name)} бросает "
                f"«{plain(side.skill_name)}» на {main.difficulty}+; каждый успех помощника "
                f"даёт +1, провал ничего не стоит. Помогают только те, у кого "
                f"«{plain(side.skill_name)}» от 1-го уровня."
            )
            for helper, cid, _helps in shown.helpers:
                yield WideRow(
                    helper_label(helper),
                    [("помогает", True), ("не помогает", False)],
                    id=f"group-{cid}",
                )
            if shown.refused:
                yield Static(
                    "\n".join(f"[$warning]✗ {plain(r)}[/]" for r in shown.refused),
                    id="group-refused",
                )
            yield Static(id="group-odds")
            yield Static("[dim]←/→ — помогает или нет · Enter — бросить · Esc — отмена[/]")

    def redraw(self) -> None:
        """Each helper's row and the odds, from the engine's view."""
        if not self._ready or self.builder.table.state.other is None:
            return
        shown = self.shown
        for _helper, cid, helps in shown.helpers:
            found = self.query(f"#group-{cid}")
            if found and found.first(Stepper).value != helps:
                found.first(Stepper).set_options(
                    [("помогает", True), ("не помогает", False)], helps
                )
        self.draw_odds(shown)

    def name_of(self, stepper: Stepper) -> str:
        return "help:" + (stepper.id or "").removeprefix("group-")

    def helpers(self) -> tuple[Any, ...]:
        """The helpers the GM kept."""
        return tuple(s for s, _ in self.shown.sides())

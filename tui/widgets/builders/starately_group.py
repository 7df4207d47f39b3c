"""The group check in the Старатели builder: ``g`` calls the helpers with the same skill (level
1+); each helper's success adds +1 to the main roll, a failure costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from rules import starately
from tui.present.rolls import percent, plain, signed
from tui.widgets.builders.starately_parts import (
    MODAL_CSS,
    Row,
)
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup


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


class GroupScreen(StyledOnce, ModalScreen[Any]):
    """Pick which helpers (same skill at level 1+) join; Enter rolls everyone."""

    DEFAULT_CSS = MODAL_CSS.format(name="GroupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="group-go"),
        Binding("escape", "cancel", "Отмена", id="group-cancel"),
    ]

    def __init__(self, main: Any, candidates: Sequence[Any], refused: Sequence[str] = ()) -> None:
        super().__init__()
        self.main = main
        self.candidates = list(candidates)
        self.refused = list(refused)

    def compose(self) -> ComposeResult:
        side = self.main.side
        with Vertical():
            yield Static(
                f"[b]Групповая проверка[/b]: {plain(side.name)} бросает "
                f"«{plain(side.skill_name)}» на {self.main.difficulty}+; каждый успех помощника "
                f"даёт +1, провал ничего не стоит. Помогают только те, у кого "
                f"«{plain(side.skill_name)}» от 1-го уровня."
            )
            for i, helper in enumerate(self.candidates):
                yield WideRow(
                    helper_label(helper),
                    [("помогает", True), ("не помогает", False)],
                    id=f"group-{i}",
                )
            if self.refused:
                yield Static(
                    "\n".join(f"[$warning]✗ {plain(r)}[/]" for r in self.refused),
                    id="group-refused",
                )
            yield Static(id="group-odds")
            yield Static("[dim]←/→ — помогает или нет · Enter — бросить · Esc — отмена[/]")

    def on_mount(self) -> None:
        self.query_one("#group-0", Row).focus()
        self._recompute()

    def helpers(self) -> tuple[Any, ...]:
        """Return the helpers the GM kept."""
        return tuple(
            h for i, h in enumerate(self.candidates) if self.query_one(f"#group-{i}", Row).value
        )

    @on(Stepper.Changed)
    def _recompute(self) -> None:
        group = starately.GroupCheck(self.main, self.helpers())
        helped = starately.group_odds(group).outcomes["success"]
        alone = starately.check_odds(self.main).outcomes["success"]
        show_markup(
            self.query_one("#group-odds", Static),
            f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью (без неё {percent(alone)})",
        )

    def action_go(self) -> None:
        """Roll the group."""
        self.dismiss(self.helpers())

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.dismiss(None)

"""The Бой tab of IDE4, Старатели and Мир Тьмы: rounds with that system's own dice and words.

The pane shows the round tracker as the engine derives it (:mod:`tui.table.rounds`: the
tracker, the effects and the party, read from the store on every change) and turns each key
into an engine step: sides and initiative, the next turn (the effects tick in the same step),
the end of the fight, harm as the system has it; the effect keys make the effects' steps
(:mod:`tui.table.effects`). Each step is one store write, so Ctrl+Z undoes a turn together
with the effects that expired at it.

Its parts are mixins next to it: ``rounds_store`` (reading the fight, writing each step's
outcome), ``rounds_draw`` (drawing the derived view), ``rounds_turns`` (the actor's check in
the builder), ``rounds_harm`` (the harm dialogs).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.table.rounds import steps
from tui.widgets.combat.encounters import EncounterKeys, encounter_bindings
from tui.widgets.combat.pending import SHOW_WAITING_AFTER
from tui.widgets.combat.rounds_draw import RoundsDrawing
from tui.widgets.combat.rounds_harm import RoundsHarm
from tui.widgets.combat.rounds_store import NOT_SAVED, RoundsStore
from tui.widgets.combat.rounds_turns import RoundsTurns
from tui.widgets.common.effect_keys import EffectKeys, effect_bindings
from tui.widgets.common.focus import focus_now
from tui.widgets.common.table import Table


class RoundsPane(
    RoundsTurns, RoundsHarm, EncounterKeys, RoundsDrawing, RoundsStore, EffectKeys, Vertical
):
    """Run rounds from the keyboard; the footer shows the keys that apply now."""

    BINDINGS = [
        Binding("space", "cycle_side", "Сторона", id="rounds-side"),
        Binding("i", "initiative", "Инициатива", id="rounds-initiative"),
        Binding("n", "next_turn", "След. ход", id="rounds-next", tooltip="Закончить ход"),
        Binding("enter", "check", "Проверка", id="rounds-check", tooltip="Проверка в конструкторе"),
        Binding(
            "o",
            "against",
            "Против",
            id="rounds-against",
            tooltip="Проверка ходящего против выделенного: противоборство в конструкторе",
        ),
        *effect_bindings("rounds", "e,plus", "d,minus", "h", show_remove=True),
        Binding("w", "harm", "Вред", id="rounds-harm", tooltip="Вред: заметка или клетка здоровья"),
        Binding("u", "heal", "Лечить", id="rounds-heal", tooltip="Снять клетку здоровья"),
        Binding("x", "end_fight", "Конец боя", id="rounds-end"),
        *encounter_bindings("rounds"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.init_store()
        self._rows: list[object] = []
        self._last_actor = ""

    def compose(self) -> ComposeResult:
        yield Static(id="rounds-status")
        yield Table(id="rounds-table", cursor_type="row", zebra_stripes=True, wrap_last=True)
        yield Static(id="rounds-effects")

    def on_mount(self) -> None:
        harm = steps.hook(self.system).column
        self.query_one("#rounds-table", DataTable).add_columns(
            "№", "Сторона", "Имя", "Инициатива", harm, "Эффекты"
        )

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#rounds-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    # -- keys: each one engine step -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.shown
        if (applies := self.encounter_action(action, not view.started)) is not None:
            return applies
        if action == "cycle_side":
            return view.sides_open
        if action == "initiative":
            return view.can_roll
        if action in ("next_turn", "end_fight"):
            return view.started
        if action in ("remove_effect", "hide_effect"):
            return bool(view.effect_lines)
        if action == "heal":
            return view.heals
        if action == "against":
            return view.started and bool(view.opponents)
        if action in ("check", "harm", "add_effect"):
            return bool(view.rows)
        return True

    def action_cycle_side(self) -> None:
        """Move the highlighted character to the next side («—»: not in the fight)."""
        cid = self.highlighted_id()
        if cid:
            self.act(steps.cycle_side, cid)

    def action_initiative(self) -> None:
        """Roll initiative the system's way and begin round 1."""
        self.act(steps.roll_initiative)

    def action_next_turn(self) -> None:
        """End the current turn; effects tick; a new round after the last one."""
        self.act(steps.next_turn)

    def action_end_fight(self) -> None:
        """End the fight; the effects counted in rounds and turns end with it."""
        self.act(steps.end)

    def focus_first(self) -> None:
        """Focus the table (the app calls this when the tab opens)."""
        focus_now(self.query_one("#rounds-table", DataTable))

    # -- the table's Enter (a message handler: Textual finds it on the widget's class) --------

    @on(DataTable.RowSelected, "#rounds-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_check()


__all__ = ["NOT_SAVED", "SHOW_WAITING_AFTER", "RoundsPane"]

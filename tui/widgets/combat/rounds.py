"""The Бой tab of IDE4, Старатели and Мир Тьмы: rounds with that system's own dice and words.

Initiative per combatant (or per side) the system's way (``rules.rounds``), whose turn it
is, harm as the system has it (IDE4 and Старатели: a free note; Мир Тьмы: the health track),
and effects that count down (``rules.effects``), with the scene clock outside combat. The
tracker and the effects are campaign documents (``rounds``, ``effects``): every step is one
store write, so Ctrl+Z undoes a turn together with the effects that expired at it.

The pane is this module's ``RoundsPane``: its keys, which apply, and the state it reads from
the store. Its parts are mixins next to it: ``rounds_initiative`` (sides, initiative),
``rounds_turns`` (turns, the end, the actor's check), ``rounds_harm`` (harm, health),
``rounds_draw`` (the table and the effects), ``rounds_writes`` (one store step each).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from rules.effects import EffectSet, Now
from rules.errors import RulesError
from rules.rounds import Entrant, Tracker
from tui.bridge.effects import EFFECTS_DOC, ROUNDS_DOC, party_tracker
from tui.store import Character
from tui.widgets.combat.pending import SHOW_WAITING_AFTER
from tui.widgets.combat.rounds_draw import RoundsDrawing
from tui.widgets.combat.rounds_harm import RoundsHarm
from tui.widgets.combat.rounds_initiative import (
    OUT,
    SIDE_CYCLE,
    TIE_NAMES,
    RoundsInitiative,
    initiative_rule,
)
from tui.widgets.combat.rounds_turns import COMBAT_DURATIONS, RoundsTurns
from tui.widgets.combat.rounds_writes import NOT_SAVED, RoundsWrites
from tui.widgets.common.effect_keys import EffectContext, EffectKeys, effect_bindings
from tui.widgets.common.focus import focus_now
from tui.widgets.common.table import Table


class RoundsPane(
    RoundsInitiative,
    RoundsTurns,
    RoundsHarm,
    RoundsDrawing,
    RoundsWrites,
    EffectKeys,
    Vertical,
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
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.characters: dict[str, Character] = {}
        self.tracker = Tracker("ide4")
        self.effects = EffectSet()
        self._rows: list[Any] = []
        self._last_actor = ""
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see _write).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""
        self._read: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="rounds-status")
        yield Table(id="rounds-table", cursor_type="row", zebra_stripes=True, wrap_last=True)
        yield Static(id="rounds-effects")

    def on_mount(self) -> None:
        harm = "Здоровье" if self.system == "wod" else "Вред"
        self.query_one("#rounds-table", DataTable).add_columns(
            "№", "Сторона", "Имя", "Инициатива", harm, "Эффекты"
        )

    # -- state ---------------------------------------------------------------------------------

    @property
    def store(self) -> Any:
        return self.app.store  # type: ignore[attr-defined]

    @property
    def system(self) -> str:
        return str(self.store.campaign.system)

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party, the saved fight and the effects."""
        self.characters = {c.id: c for c in characters}
        saved = self.store.get_doc(ROUNDS_DOC)
        #: The stored documents this pane shows: a write is a delta to them (see _save).
        self._read = {ROUNDS_DOC: saved, EFFECTS_DOC: self.store.get_doc(EFFECTS_DOC)}
        tracker = None
        if saved:
            try:
                tracker = Tracker.from_dict(saved)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
        if tracker is None or tracker.system != self.system:
            tracker = self._default_tracker(characters)
        self.tracker = self._pruned(tracker)
        try:
            self.effects = EffectSet.from_dict(self.store.get_doc(EFFECTS_DOC))
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            self.effects = EffectSet()
        self._redraw()

    def _default_tracker(self, characters: list[Character]) -> Tracker:
        t = Tracker(self.system)
        for c in characters:
            side = "Отряд" if c.kind == "pc" else "Противники"
            t = t.with_entrant(Entrant(c.id, c.name, side, c.kind == "pc"))
        return t

    def _pruned(self, t: Tracker) -> Tracker:
        """Drop entrants whose characters were deleted; follow renames."""
        return party_tracker(t, self.characters)

    def now(self) -> Now:
        """Where time stands: the round, whose turn, the scene clock."""
        return Now(self.tracker.round, self.tracker.actor, self.effects.minute)

    def _names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.characters.values()}

    def effect_context(self) -> EffectContext:
        """The effects and the fight as this pane shows them: whose turn it is, the order."""
        t = self.tracker
        names = self._names()
        ids = list(t.order) if t.started else [e.id for e in t.entrants]
        anchors = [(names[i], i) for i in ids if i in names]
        return EffectContext(self.effects, self.now(), names, anchors)

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#rounds-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        started = self.tracker.started
        if action == "cycle_side":
            return not started and bool(self.characters)
        if action == "initiative":
            return not started and bool(self.tracker.entrants)
        if action in ("next_turn", "end_fight"):
            return started
        if action in ("remove_effect", "hide_effect"):
            return bool(self.effects.effects)
        if action == "heal":
            return self.system == "wod" and bool(self.characters)
        if action == "against":
            return started and len(self._opponents()) > 0
        if action in ("check", "harm", "add_effect"):
            return bool(self.characters)
        return True

    def focus_first(self) -> None:
        """Focus the table (the app calls this when the tab opens)."""
        focus_now(self.query_one("#rounds-table", DataTable))

    # -- the table's Enter (a message handler: Textual finds it on the widget's class) --------

    @on(DataTable.RowSelected, "#rounds-table")
    async def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        await self.action_check()


__all__ = [
    "COMBAT_DURATIONS",
    "NOT_SAVED",
    "OUT",
    "SHOW_WAITING_AFTER",
    "SIDE_CYCLE",
    "TIE_NAMES",
    "RoundsPane",
    "initiative_rule",
]

"""The Бой tab: set up a fight, roll side initiative, declare in side order, resolve exchanges.

Phases follow ``rules.encounter.Encounter``: ``setup`` → ``declare`` → ``resolve`` → next round.
The encounter is saved in the campaign (store doc ``encounter``), so it survives a restart and
the store's undo covers every step. A Древо exchange — its dice, Судьба and damage — lives in
that document too (``tui.widgets.combat.drevo_resolve``): the pane derives what it shows from the
store on every change and keeps no copy. Declarations are checked by the rules when made;
the GM's «!» allows what the seed leaves to them.

The pane is this module's ``CombatPane``: its keys, which of them apply in each phase, and the
resolution keys (Древо or another system's check). Each phase is a mixin next to it:
``drevo_setup`` (sides, initiative, ambush), ``drevo_declare`` (declarations),
``drevo_resolve`` (a Древо exchange: dice, Судьба, damage), ``drevo_other`` (another system's
exchange), ``drevo_end`` (next round, end of the fight, the fallen); ``drevo_store`` reads and
writes the stored fight, ``drevo_draw`` draws it.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from rules.encounter import ACTION_NAMES, Encounter
from tui.bridge.combat_other import OtherResult
from tui.store import Character
from tui.widgets.combat.drevo_declare import DeclareMixin
from tui.widgets.combat.drevo_draw import ExchangeView, FightDrawing
from tui.widgets.combat.drevo_end import FightEnd
from tui.widgets.combat.drevo_forms import DeclarationForm
from tui.widgets.combat.drevo_other import OtherExchange
from tui.widgets.combat.drevo_resolve import ExchangeMixin
from tui.widgets.combat.drevo_setup import SIDE_CYCLE, SetupMixin
from tui.widgets.combat.drevo_store import DOC, FIGHT_NOT_SAVED, FightStore
from tui.widgets.combat.pending import SHOW_WAITING_AFTER
from tui.widgets.common.focus import focus_now
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.table import Table


class CombatPane(
    SetupMixin,
    DeclareMixin,
    OtherExchange,
    FightEnd,
    FightDrawing,
    FightStore,
    ExchangeMixin,
    Vertical,
):
    """Run a fight from the keyboard; the footer shows the keys of the current phase."""

    BINDINGS = [
        Binding("space", "cycle_side", "Сторона", id="combat-side"),
        Binding("a", "add_npc", "+НИП", id="combat-add", tooltip="Добавить НИП на месте"),
        Binding("i", "initiative", "Инициатива", id="combat-initiative"),
        Binding("z", "ambush", "Засада", id="combat-ambush", tooltip="Ведущий задаёт порядок"),
        Binding("enter", "declare", "Объявить", id="combat-declare"),
        Binding("enter", "roll", "Бросить", id="combat-roll"),
        Binding("enter", "apply", "Принять", id="combat-apply"),
        Binding("enter", "skip", "Пропустить", id="combat-skip-enter"),
        Binding("enter", "next_exchange", "Дальше", id="combat-next-exchange"),
        Binding(
            "exclamation_mark",
            "allow",
            "Исключение",
            id="combat-allow",
            tooltip="Исключение ведущего: разрешить то, что правила запрещают",
        ),
        Binding(
            "d",
            "remove_fallen",
            "Убрать",
            id="combat-remove-fallen",
            tooltip="Убрать из боя тяжелораненого или павшего",
        ),
        Binding("f", "fate_before", "Судьба +4", id="combat-fate-before"),
        Binding("p", "fate_shift", "Судьба ±", id="combat-fate-shift"),
        Binding("r", "reroll_tie", "Перебросить ничью", id="combat-reroll"),
        Binding("s", "skip", "Пропустить", id="combat-skip"),
        Binding("1", "reduce(1)", "−1 уровень", id="combat-reduce-1"),
        Binding("2", "reduce(2)", "−2", id="combat-reduce-2", show=False),
        Binding("3", "reduce(3)", "−3", id="combat-reduce-3", show=False),
        Binding("n", "next_round", "След. раунд", id="combat-next-round"),
        Binding("x", "end_fight", "Конец боя", id="combat-end"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.encounter = Encounter()
        self.characters: dict[str, Character] = {}
        self._other: OtherResult | None = None  # another system's exchange (not stored)
        self._other_refusal: str = ""
        #: The stored fight this pane shows (None: none stored): a write is a delta to it.
        self._read: dict[str, Any] | None = None
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see _write).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""

    def compose(self) -> ComposeResult:
        yield Static(id="combat-status")
        with Vertical(id="combat-setup"):
            yield Table(id="combat-roster", cursor_type="row", zebra_stripes=True)
        with Vertical(id="combat-declare"):
            yield Table(id="combat-order", cursor_type="none", zebra_stripes=True)
            yield DeclarationForm(id="combat-form")
        # Scrolls to its end on each redraw: at 80×24 a long exchange (two one-sided checks,
        # both hit) would hide the Судьба offer and the final wounds under the key bar.
        with VerticalScroll(id="combat-resolve", can_focus=False):
            yield ExchangeView(id="combat-exchange")
            yield OddsBars(id="combat-odds")
            with Vertical(id="combat-other"):
                yield Stepper("Атака: черта", id="other-a-stat")
                yield Stepper("Атака: навык", id="other-a-skill")
                yield Stepper("Защита: черта", id="other-b-stat")
                yield Stepper("Защита: навык", id="other-b-skill")

    def on_mount(self) -> None:
        self.query_one("#combat-roster", DataTable).add_columns(
            "Сторона", "Имя", "Кто", "Оружие", "Раны"
        )
        order = self.query_one("#combat-order", DataTable)
        order.add_columns("№", "Сторона", "Кто", "Заявка")
        order.can_focus = False

    # -- which keys apply ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.encounter.phase
        stage = self._stage()
        if action in ("cycle_side", "add_npc", "initiative", "ambush"):
            return phase == "setup"
        if action == "declare":
            return phase == "declare"
        if action == "allow":
            return phase == "declare" and self._allowable()
        if action == "remove_fallen":
            return phase != "setup" and bool(self._fallen())
        if action == "roll":
            return stage == "plan"
        if action in ("fate_before", "fate_shift", "reduce") and not self.drevo:
            return False
        if action == "fate_before":
            return stage == "plan" and bool(self._fate_before_choices())
        if action in ("fate_shift",):
            return stage == "rolled" and bool(self._shift_choices())
        if action == "reroll_tie":
            _, _, result = self._derive() if self.drevo else (None, "", None)
            return stage == "rolled" and result is not None and result.tie
        if action == "apply":
            return stage in ("rolled", "damage")
        if action == "next_exchange":
            return stage == "done"
        if action == "skip":
            return stage in ("plan", "refused")
        if action == "reduce":
            (levels,) = parameters
            return stage == "damage" and any(cost == levels for _, cost in self._reduce_options())
        if action == "next_round":
            return phase == "resolve" and not self.encounter.pending()
        if action == "end_fight":
            return phase != "setup"
        return True

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """The key bar's «1»: one entry for every level Судьба can take off now («1–2»)."""
        if binding.action != "reduce(1)":
            return None
        costs = sorted({cost for _, cost in self._reduce_options()})
        if len(costs) < 2:
            return None
        return f"1–{costs[-1]}", f"−1…−{costs[-1]} уровня"

    def _stage(self) -> str:
        """Return where the resolution of the current exchange stands."""
        if self.encounter.phase != "resolve" or not self.encounter.pending():
            return ""
        if not self.drevo:
            if self._other is not None:
                return "rolled"
            return "refused" if self._other_refusal else "plan"
        return self._exchange_stage()

    # -- setup: Enter on the roster (a message handler: Textual finds it on the widget's class) --

    @on(DataTable.RowSelected, "#combat-roster")
    def _roster_enter(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_cycle_side()

    # -- resolution keys --------------------------------------------------------------------------

    def action_roll(self) -> None:
        """Roll the current exchange (its dice are stored the moment they fall)."""
        if not self.drevo:
            self._roll_other()
            return
        self.roll_exchange()

    def action_reroll_tie(self) -> None:
        """Roll a tied exchange again (the conflict is still open): a new attempt."""
        _, _, result = self._derive()
        if result is None or not result.tie:
            return
        self.roll_exchange(int(self._ex().get("attempt", 1)) + 1)

    def action_apply(self) -> None:
        """Accept the roll, the damage as it is, or the exchange's result."""
        if not self.drevo:
            if self._other is not None:
                self._finish_other()
            return
        self.accept_exchange()

    def action_next_exchange(self) -> None:
        """Close the exchange whose final wounds are shown; the next one comes up."""
        if self._stage() == "done":
            self.finish_exchange()

    def action_reduce(self, levels: int) -> None:
        """Spend Судьба to lower the damage by ``levels`` (use 4)."""
        self.take_damage(levels)

    def action_skip(self) -> None:
        """Skip the current exchange (refused by the rules, or the GM decides otherwise)."""
        pending = self.encounter.pending()
        if not pending:
            return
        if not self.drevo:
            reason = self._other_refusal or "решение ведущего"
            self._log(None, f"Схватка пропущена: {reason}")
            self._finish_other()
            return
        _, refusal, _ = self._derive()
        self.finish_exchange(skipped=refusal or "решение ведущего")

    def _focus_phase(self) -> None:
        phase = self.encounter.phase
        target = {
            "setup": "#combat-roster",
            "declare": "#combat-form Stepper",
            "resolve": "#combat-exchange" if self.drevo else "#combat-other Stepper",
        }[phase]
        focus_now(self.query(target).first())

    def focus_first(self) -> None:
        """Focus the control of the current phase (the app calls this on tab switch)."""
        self._focus_phase()


__all__ = [
    "ACTION_NAMES",
    "DOC",
    "FIGHT_NOT_SAVED",
    "SHOW_WAITING_AFTER",
    "SIDE_CYCLE",
    "CombatPane",
    "ExchangeView",
]

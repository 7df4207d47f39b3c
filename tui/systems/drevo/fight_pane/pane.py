"""The Бой tab: set up a fight, roll side initiative, declare in side order, resolve exchanges.

The fight is the table engine's (:mod:`tui.systems.drevo.fight`): its state is the encounter
document the store keeps (so it survives a restart and the store's undo covers every step), and
every key here is one engine step (``steps.roll``, ``steps.accept``, …) whose outcome the app's
writer stores as one undo step. The pane derives what it shows from the store on every change
and keeps no copy. Declarations are checked by the rules when made; the GM's «!» allows what
the seed leaves to them.

The pane is this module's ``CombatPane``: its keys, which of them apply at each stage, and the
steps they make. Beside it: ``drevo_setup`` (the roster, initiative, ambush), ``drevo_declare``
(the order and the declaration form), ``drevo_draw`` (drawing), ``drevo_store`` (reading the
fight and writing the steps).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from rules.encounter import ACTION_NAMES, Encounter
from tui import words
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.text import reduce_label
from tui.systems.drevo.fight_pane.declare import DeclareMixin
from tui.systems.drevo.fight_pane.draw import ExchangeBox, FightDrawing
from tui.systems.drevo.fight_pane.forms import DeclarationForm
from tui.systems.drevo.fight_pane.setup import SIDE_CYCLE, SetupMixin
from tui.systems.drevo.fight_pane.store import DOC, FIGHT_NOT_SAVED, FightStore
from tui.widgets.combat.encounters import EncounterKeys, encounter_bindings
from tui.widgets.combat.pending import SHOW_WAITING_AFTER
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.focus import focus_now
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.table import Table


class CombatPane(SetupMixin, DeclareMixin, EncounterKeys, FightDrawing, FightStore, Vertical):
    """Run a fight from the keyboard; the footer shows the keys of the current phase."""

    BINDINGS = [
        Binding("space", "cycle_side", "Сторона", id="combat-side"),
        Binding("a", "add_npc", "+НИП", id="combat-add", tooltip="Добавить НИП на месте"),
        Binding("i", "initiative", "Инициатива", id="combat-initiative"),
        Binding("z", "ambush", "Засада", id="combat-ambush", tooltip="Ведущий задаёт порядок"),
        *encounter_bindings("combat"),
        Binding("enter", "declare", "Объявить", id="combat-declare"),
        Binding(
            "r",
            "repeat_round",
            "Как в прошлом",
            id="combat-repeat",
            tooltip="Заявки как в прошлом раунде — у всех, кто ещё не заявил",
        ),
        Binding("c", "change_declaration", "Изменить заявку", id="combat-change"),
        Binding("escape", "cancel_change", "Оставить", id="combat-cancel-change"),
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
        # Not the digits: 1–4 are the tabs, and a key that changes state never shares one
        # with navigation (a «1» meant for «Партия» spent a point).
        Binding("f", "reduce_choice", "Судьба −уровень", id="combat-reduce"),
        Binding("n", "next_round", "След. раунд", id="combat-next-round"),
        Binding("x", "end_fight", "Конец боя", id="combat-end"),
        Binding("f", "filter_roster", "Фильтр", id="combat-filter", tooltip="Найти по имени"),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.encounter = Encounter()
        self.characters: dict[str, Character] = {}
        #: The stored fight this pane shows (None: none stored): a write is a delta to it.
        self._read: dict[str, Any] | None = None
        #: The label of the write being saved in the app's writer (a worker), else None.
        self._pending: str | None = None
        #: Whether the pending write has waited long enough to be shown (see _write).
        self._waiting = False
        self._writes = 0
        #: Why the last write was not saved (shown until the next one is), else "".
        self._failed = ""
        #: The fighter whose declaration of this round is being changed, else None.
        self._editing: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="combat-status")
        with Vertical(id="combat-setup"):
            yield Table(id="combat-roster", cursor_type="row", zebra_stripes=True)
            yield Static(id="combat-roster-more")
            yield ReadyInput(placeholder="Фильтр: часть имени", id="combat-filter")
        with Vertical(id="combat-declare"):
            yield Table(id="combat-order", cursor_type="none", zebra_stripes=True)
            yield DeclarationForm(id="combat-form")
        # Scrolls to its end on each redraw: at 80×24 a long exchange (two one-sided checks,
        # both hit) would hide the Судьба offer and the final wounds under the key bar.
        with VerticalScroll(id="combat-resolve", can_focus=False):
            yield ExchangeBox(id="combat-exchange")
            yield OddsBars(id="combat-odds")

    def on_mount(self) -> None:
        self.query_one("#combat-filter", Input).display = False
        self.query_one("#combat-roster-more", Static).display = False
        self.query_one("#combat-roster", DataTable).add_columns(
            "Сторона", "Имя", "Кто", "Оружие", "Раны"
        )
        order = self.query_one("#combat-order", DataTable)
        order.add_columns("Сторона", "Кто", "Состояние", "Заявка")
        order.can_focus = False

    # -- which keys apply ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.encounter.phase
        setup = phase == "setup" and not isinstance(self.app.focused, Input)  # not while typing
        if (applies := self.encounter_action(action, setup)) is not None:
            return applies
        if action in ("cycle_side", "add_npc", "initiative", "ambush", "filter_roster"):
            return setup
        editing = getattr(self, "_editing", None)
        if action == "declare":
            return phase == "declare" or bool(editing)
        if action == "repeat_round":
            return phase == "declare" and not editing and bool(self.encounter.previous)
        if action == "change_declaration":
            return not editing and self._may_change()
        if action == "cancel_change":
            return bool(editing)
        if action == "allow":
            return (phase == "declare" or bool(editing)) and self._allowable()
        if action == "remove_fallen":
            return phase != "setup" and bool(self._fallen())
        if action == "next_round":
            return phase == "resolve" and not self.encounter.pending()
        if action == "end_fight":
            return phase != "setup"
        view = self.view()
        stage = view.stage if view is not None else ""
        if action == "roll":
            return stage == "plan"
        if action == "fate_before":
            return view is not None and view.may_fate_before()
        if action == "fate_shift":
            return view is not None and view.may_shift()
        if action == "reroll_tie":
            return view is not None and view.may_reroll()
        if action == "apply":
            return stage in ("rolled", "damage")
        if action == "next_exchange":
            return stage == "done"
        if action == "skip":
            return stage in ("plan", "refused")
        if action == "reduce_choice":
            return view is not None and view.may_reduce()
        return True

    def _may_change(self) -> bool:
        """Whether a declaration of this round may still be changed (before its dice)."""
        enc = self.encounter
        if not enc.declarations:
            return False
        if enc.phase == "declare":
            return True
        return enc.phase == "resolve" and not (enc.resolved or enc.exchange or enc.rolled)

    # -- setup: Enter on the roster (a message handler: Textual finds it on the widget's class) --

    @on(DataTable.RowSelected, "#combat-roster")
    def _roster_enter(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_cycle_side()

    # -- the exchange: each key one engine step --------------------------------------------------

    def action_roll(self) -> None:
        """Roll the current exchange (its dice are stored the moment they fall)."""
        self.act(steps.roll)

    def action_reroll_tie(self) -> None:
        """Roll a tied exchange again (the conflict is still open): a new attempt."""
        self.act(steps.reroll_tie)

    def action_apply(self) -> None:
        """Accept the roll, the damage as it is, or the exchange's result. Damage that kills
        or takes the character out while his Судьба could lower it is asked about first."""
        view = self.view()
        warning = view.unspent_fate_warning() if view is not None else ""
        if not warning:
            self.act(steps.accept)
            return

        def chosen(how: str | None) -> None:
            if how == "take":
                self.act(steps.accept)
            elif how == "fate":
                self.action_reduce_choice()

        choices = [
            Choice("Потратить Судьбу", "fate", key="f"),
            Choice("Принять урон как есть", "take", key="y"),
        ]
        # Nothing chosen at first: a GM going on with Enter neither spends the player's
        # Судьба nor writes the hit; he picks (↓ and Enter, or the letter).
        self.app.push_screen(ChoiceScreen(warning, choices, preselect=False), chosen)

    def action_next_exchange(self) -> None:
        """Close the exchange whose final wounds are shown; the next one comes up."""
        self.act(steps.finish)

    def action_reduce_choice(self) -> None:
        """Offer Судьба right after the damage: one level lower per point (use 4)."""
        view = self.view()
        hit = view.hit if view is not None else None
        if view is None or hit is None:
            return
        c = view.character(hit.target)
        number = len(view.exchange.damage)  # the hit this dialog is for

        def chosen(levels: int | None) -> None:
            if levels:
                self.act(steps.damage, levels, hit=number)

        options = view.reduce_options()
        choices = [Choice(reduce_label(c, hit.level, level, cost), cost) for level, cost in options]
        name = c.name if c is not None else "?"
        title = f"Судьба: снизить урон {name} ({words.wound(hit.level)})"
        screen = ChoiceScreen(title, choices)
        cheapest = min(cost for _level, cost in options)
        self._follow(screen, lambda: self._dry_run(steps.damage, cheapest, hit=number))
        self.app.push_screen(screen, chosen)

    # -- a dialog open while the store changes (another window, ``kubik``) ----------------------

    _dialog: tuple[ChoiceScreen, Callable[[], str]] | None = None

    def _dry_run(self, step: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
        """Why ``step`` would be refused on the fight as it stands now ("" if it would not);
        nothing is written."""
        return step(self.encounter, self.world(), *args, **kwargs).refused

    def _follow(self, screen: ChoiceScreen, why_not: Callable[[], str]) -> None:
        """Keep ``screen`` following the store: when ``why_not()`` — the engine's refusal of
        the dialog's step on the fight as it stands — says the step no longer applies, the
        dialog says so and refuses Enter; when it applies again (an undo there), it works."""
        self._dialog = (screen, why_not)

    def _follow_dialog(self) -> None:
        if self._dialog is None:
            return
        screen, why_not = self._dialog
        if screen not in self.app.screen_stack:
            self._dialog = None
            return
        why = why_not()
        if why and not screen.withdrawn:
            screen.withdraw(
                f"{why} Enter ничего не запишет, Esc — закрыть.", f"{why} Esc — закрыть."
            )
        elif not why and screen.withdrawn:
            screen.withdraw(None)

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store; an open dialog follows it (see :meth:`_follow`)."""
        super().show(characters)
        self._follow_dialog()

    def action_skip(self) -> None:
        """Skip the current exchange (refused by the rules, or the GM decides otherwise)."""
        self.act(steps.skip)

    def action_fate_before(self) -> None:
        """Offer Судьба before the roll: the side's dice count as +4 (uses 1 and 3)."""
        view = self.view()
        offers = view.fate_before_offers() if view is not None else []

        def chosen(role: str | None) -> None:
            if role is not None:
                self.act(steps.fate_before, role)

        choices = [Choice(o.label, o.value, o.refused) for o in offers]
        self.app.push_screen(ChoiceScreen("Судьба до броска", choices), chosen)

    def action_fate_shift(self) -> None:
        """Offer Судьба after the roll: ±1 per point (use 2)."""
        view = self.view()
        offers = view.shift_offers() if view is not None else []

        def chosen(value: tuple[str, int] | None) -> None:
            if value is not None:
                self.act(steps.fate_shift, *value)

        choices = [Choice(o.label, o.value, o.refused) for o in offers]
        screen = ChoiceScreen("Судьба после броска", choices)
        roles = list(dict.fromkeys(cast("tuple[str, int]", o.value)[0] for o in offers))

        def why_not() -> str:  # every line of it refused now: the reasons, the removal first
            reasons = [self._dry_run(steps.fate_shift, role, 1) for role in roles]
            if not all(reasons):
                return ""
            return " ".join(sorted(dict.fromkeys(reasons), key=lambda r: "удалён" not in r))

        self._follow(screen, why_not)
        self.app.push_screen(screen, chosen)

    # -- rounds and the end ----------------------------------------------------------------------

    def action_next_round(self) -> None:
        """Start the next round; the declaration order reverses."""
        self.act(steps.next_round, then=lambda _step: self._focus_phase())

    def action_end_fight(self) -> None:
        """Ask, then end the fight; wounds stay on the characters."""

        def chosen(end: bool | None) -> None:
            if end:
                self.act(steps.end, then=lambda _step: self._focus_phase())

        title = f"Завершить бой (раунд {self.encounter.round})? Раны останутся."
        choices = [Choice("Нет, продолжить бой", False), Choice("Да, завершить бой", True)]
        screen = ChoiceScreen(title, choices)
        self._follow(screen, lambda: self._dry_run(steps.end))  # ended elsewhere meanwhile
        self.app.push_screen(screen, chosen)

    def _fallen(self) -> list[Any]:
        return [
            c
            for c in self.encounter.combatants
            if not bridge.can_act(self.characters.get(c.character_id))
        ]

    def action_remove_fallen(self) -> None:
        """Take a heavily wounded or dead combatant out of the order."""

        def chosen(cid: str | None) -> None:
            if cid:
                self.act(steps.remove_fallen, cid)

        choices = [
            Choice(
                f"{c.name} — {words.wound_state(bridge.track_of(self.characters[c.character_id]))}",
                c.character_id,
            )
            for c in self._fallen()
            if c.character_id in self.characters
        ]
        self.app.push_screen(ChoiceScreen("Убрать из боя", choices), chosen)

    def _focus_phase(self) -> None:
        phase = "declare" if self._editing else self.encounter.phase
        target = {
            "setup": "#combat-roster",
            "declare": "#combat-form Stepper",
            "resolve": "#combat-exchange",
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
    "ExchangeBox",
]

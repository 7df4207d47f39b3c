"""The Проверка tab for IDE4™: the whole procedure, from the checklist to the templates.

Phases: ``setup`` (the form, live exact odds; Enter rolls the d100), ``result`` (every step so
far and the moves still allowed, with the rule behind each refusal; Enter concludes), ``done``
(the filled template, copyable). Every roll and every applied move reaches the log.

Each phase's procedures live in a mixin: ``ide4_setup`` (the odds, the roll, the checklist, the
card, an opposed check), ``ide4_moves`` (the moves after the d100), ``ide4_result`` (the result
area, concluding, the templates). This module holds the contract, the phases and the level.
"""

from __future__ import annotations

from dataclasses import replace

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from rules import ide4
from tui.store import Character
from tui.widgets.builders.base import CharacterChanged, SeatCheck, SpendTrail
from tui.widgets.builders.ide4_form import Ide4Form, Ide4OddsBars
from tui.widgets.builders.ide4_moves import MovesMixin
from tui.widgets.builders.ide4_result import ResultMixin
from tui.widgets.builders.ide4_seat import SeatMixin
from tui.widgets.builders.ide4_setup import SetupMixin
from tui.widgets.common.stepper import Stepper

#: Actions per phase; the footer shows only these.
PHASE_ACTIONS = {
    "setup": {"roll", "opposed", "checklist", "card", "cycle_level", "demand_expanded"}
    | {"new_day"},
    "result": {"conclude", "reroll", "energy_after", "bonus", "subroll", "card", "cycle_level"}
    | {"demand_expanded", "template", "copy", "new_check", "new_day"},
    "done": {"card", "cycle_level", "demand_expanded", "template", "copy", "new_check", "new_day"},
}
DEMAND = "игрок требует развёрнутую проверку"
ROLLED_ONLY = {"reroll", "energy_after", "bonus", "subroll"}
WIDE = 110  # columns from which the template stands beside the moves


class Ide4Builder(SeatMixin, SetupMixin, MovesMixin, ResultMixin, Vertical):
    """Character → level → action → attribute → skill → difficulty → energy; Enter rolls."""

    DEFAULT_CSS = """
    Ide4Builder #ide4-form { height: 1fr; }
    Ide4Builder #ide4-status {
        height: auto; border-top: solid $primary; border-title-color: $text-muted;
    }
    Ide4Builder #ide4-odds { height: auto; }
    Ide4Builder #ide4-after { height: 1fr; display: none; }
    Ide4Builder #ide4-side { display: none; border-left: solid $primary; padding-left: 1; }
    Ide4Builder.-wide #ide4-side { display: block; }
    Ide4Builder #ide4-result:focus { background-tint: $foreground 3%; }
    Ide4Builder #ide4-moves { border-top: solid $primary; height: auto; }
    Ide4Builder #ide4-moves .indent-1 { padding-left: 4; }
    """

    # Order matters: the footer lists them so, and at 80 columns the last ones fall off.
    BINDINGS = [
        Binding("enter", "roll", "Бросить d100", id="ide4-roll", tooltip="Бросить d100"),
        Binding("enter", "conclude", "Итог", id="ide4-conclude", tooltip="Смысл и последствия"),
        Binding("o", "opposed", "Против", id="ide4-opposed", tooltip="Противоборство двух сторон"),
        Binding("r", "reroll", "Переброс", id="ide4-reroll", tooltip="Переброс d100"),
        Binding("e", "energy_after", "Энергия", id="ide4-energy", tooltip="Энергия после"),
        Binding("b", "bonus", "Бонус", id="ide4-bonus", tooltip="Бонус мастерства"),
        Binding("s", "subroll", "Подброс", id="ide4-subroll", tooltip="Подбросок d6"),
        Binding(
            "p",
            "demand_expanded",
            "Развёрнутая",
            id="ide4-demand",
            tooltip="Право игрока: развёрнутая проверка по требованию, на любом уровне",
        ),
        Binding("t", "template", "Шаблон", id="ide4-template", tooltip="Ходы / шаблоны"),
        Binding("y", "copy", "Копировать", id="ide4-copy", tooltip="Копировать шаблон"),
        Binding("n", "new_check", "Новая", id="ide4-new", tooltip="Новая проверка"),
        Binding("c", "checklist", "Нужна ли", id="ide4-checklist", tooltip="Восемь условий"),
        Binding("k", "card", "Риск", id="ide4-card", tooltip="Карточка ясного риска"),
        Binding("l", "cycle_level", "Уровень", id="ide4-level", tooltip="Уровень детализации"),
        Binding(
            "d", "new_day", "Новый день", id="ide4-day", show=False, tooltip="Новый игровой день"
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.phase = "setup"
        self.check: ide4.Check | None = None
        self.view = "moves"  # or "quick" / "full": what the result area shows
        self.reasons: tuple[str, ...] = ()
        self.player_demand = False
        self.checklist_seen = False
        self._check_character_id: str | None = None
        #: The sheet steps this check wrote after its roll: undone or redone, it follows.
        self._trail = SpendTrail()
        #: The open check as the players' seats see it; the form steps their requests wrote.
        self.seat = SeatCheck()
        self._seat_trail = SpendTrail()

    def compose(self) -> ComposeResult:
        yield Ide4Form(id="ide4-form")
        yield Static(id="ide4-status")
        yield Ide4OddsBars(id="ide4-odds")
        with Horizontal(id="ide4-after"):
            with VerticalScroll(id="ide4-result"):
                yield Static(id="ide4-steps")
                yield Vertical(id="ide4-moves")
            with VerticalScroll(id="ide4-side", can_focus=False):
                yield Static(id="ide4-side-template")

    def on_mount(self) -> None:
        self.query_one("#ide4-status").border_title = "Сложность и точные шансы"
        self.call_after_refresh(self._recompute)

    def on_show(self) -> None:
        """On screen: the seats may ask about this check (see ``SeatCheck``)."""
        self.seat.shown(self)

    def on_resize(self, event: events.Resize) -> None:
        """Show the filled template beside the moves when there is room for both."""
        self.set_class(event.size.width >= WIDE, "-wide")

    @property
    def form(self) -> Ide4Form:
        """Return the form of the inputs."""
        return self.query_one(Ide4Form)

    # -- the contract --------------------------------------------------------------------------

    def set_characters(self, characters: list[Character]) -> None:
        """Offer ``characters``; keep every current choice that still exists."""
        self.form.set_characters(characters)
        self._follow_trail()
        self._follow_seat_trail()
        self._follow_energy()
        self._follow_energy_chooser()
        self._recompute()
        follow = getattr(self.app.screen, "follow_trail", None)  # an opposed check's moves
        if callable(follow):
            follow()

    def _follow_trail(self) -> None:
        """A step this check paid from the sheet after its roll (energy after, Успех →
        Триумф) undone or redone — Ctrl+Z, Ctrl+Y, another window — puts the check in its
        state before or after that step: the dice rolled stay, the key is usable again. Only
        a state not yet applied: once applied, the check may have followed the stored energy
        since (:meth:`_follow_energy`), and the next change must not put that back."""
        has, state = self._trail.state(self.app)
        if has and state is not self._trail_state:
            self._trail_state = state
            if state != self.check:
                self._restore_check(state)

    _trail_state: ide4.Check | None = None

    def spend_refused(self, entry_id: str) -> None:
        """The store refused a step of this check: the check goes back to its state before."""
        state = self._trail.refused(entry_id)
        if state is not None:
            self._restore_check(state)
        form = self._seat_trail.refused(entry_id)  # a player's step before the roll
        if form is not None:
            self._restore_form(form)

    def _restore_check(self, check: ide4.Check) -> None:
        self.check = check
        if self.phase == "done" and check.status == "rolled":
            self.view = "moves"
            self._set_phase("result")  # concluded after the step: open again
        elif self.phase != "setup":
            self._show_result()
        self.refresh_bindings()

    def _follow_energy(self) -> None:
        """An open check whose character's energy changed outside it (Ctrl+Z, another
        window) says so and goes on from the stored energy: what it spent itself stays
        spent, what the undo gave back is not taken again by the next move."""
        check = self.check
        c = self.form.characters.get(getattr(self, "_check_character_id", None) or "")
        if check is None or not check.steps:
            return
        if c is None:
            if getattr(self, "_gone_told", None) is not check.steps[0]:
                self._gone_told = check.steps[0]
                self.app.notify(
                    f"Персонаж {check.input.actor} удалён в другом окне — "
                    "проверка больше не меняет лист персонажа.",
                    severity="warning",
                    timeout=8,
                )
            return
        stored = int(c.extra.get("energy", 100))
        first, seen = getattr(self, "_energy_seen", (None, None))
        if first is not check.steps[0]:  # a new check: it started from the stored energy
            first, seen = check.steps[0], check.input.energy_pool
        if stored not in (seen, check.pool_after):
            self.check = check = replace(
                check, input=replace(check.input, energy_pool=stored + check.energy_spent)
            )
            self.app.notify(
                f"Энергия: {c.name} — теперь {stored} (изменена вне проверки). "
                "Проверка пересчитана от неё.",
                timeout=8,
            )
            self._show_result()
        self._energy_seen = (first, stored)

    def choose_character(self, character_id: str) -> None:
        """Select a character (from the party tab) and start a new check for them."""
        if self.phase != "setup":
            self.action_new_check()
        stepper = self.query_one("#ide4-character", Stepper)
        stepper.select(character_id)
        self.call_after_refresh(self.query_one("#ide4-attribute", Stepper).focus)

    def current_input(self) -> ide4.CheckInput:
        """Return the inputs the form holds now.

        Raises:
            RulesError: no character, or a modifier list that does not parse.
        """
        return self.form.current_input(self.reasons, self.player_demand)

    # -- before the roll -----------------------------------------------------------------------

    @on(Stepper.Changed)
    @on(Input.Changed)
    def _inputs_changed(self, event: Message) -> None:
        self._recompute()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_roll()

    # -- phases --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in set().union(*PHASE_ACTIONS.values()):
            return True
        if action not in PHASE_ACTIONS[self.phase]:
            return False
        if isinstance(self.app.focused, Input) and action not in ("roll", "conclude"):
            return False  # letters go into the text field
        if action in ROLLED_ONLY and (self.check is None or self.check.status != "rolled"):
            return False
        if action == "copy" and self.view == "moves" and self.phase == "result":
            return False
        if action == "demand_expanded":  # not offered once the player has demanded it
            return not (self._level() == "expanded" and self.player_demand)
        return True

    def _level(self) -> str:
        """Return the level of the open check, else the form's."""
        return self.check.level if self.check is not None else self.form.level

    #: What Enter does in the form at each kind of difficulty (the key bar says it).
    ENTER_TEXT = {"auto": "Записать успех [0]", "impossible": "Записать «невозможно»"}

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """Enter in the form says what it does: at [0] and [00] no d100 is rolled; «p» at the
        expanded level does not switch to it, it records that the player demands it."""
        if binding.action == "demand_expanded" and self._level() == "expanded":
            return "p", "Требует игрок"
        if self.phase != "setup" or binding.action not in ("roll", "submit"):
            return None
        return "⏎", self.ENTER_TEXT.get(self._difficulty_kind, "Бросить d100")

    _difficulty_kind = ""
    _level_shown = ""

    def _set_phase(self, phase: str) -> None:
        self.phase = phase
        # Rolled: the result area takes the form's place. Shown and hidden one by one (a
        # class on the builder restyled every widget in it: ~60 ms of a roll's Enter).
        rolled = phase != "setup"
        for part in ("#ide4-form", "#ide4-status", "#ide4-odds"):
            self.query_one(part).display = not rolled
        self.query_one("#ide4-after").display = rolled
        self.refresh_bindings()
        self.seat.changed(self)
        if phase == "setup":
            self._recompute()
            self.query_one("#ide4-character", Stepper).focus()
        else:
            self._show_result()
            self.query_one("#ide4-result").focus()

    def action_demand_expanded(self) -> None:
        """The player's right: switch to the expanded check at any level, any phase — one
        undo step with its line, as the player's request from a seat."""
        self.post_message(self._demand_step())
        if self.view != "moves" and self.check is not None and self.phase != "setup":
            self.view = self._level_template()
            self._show_result()
        self.app.notify("Игрок требует развёрнутую проверку: мастер обязан её провести.", timeout=4)
        self.app.notify("Игрок требует развёрнутую проверку: мастер обязан её провести.", timeout=4)

    def action_cycle_level(self) -> None:
        """Switch quick → standard → expanded → quick (the inputs stay)."""
        nxt = ide4.LEVELS[(ide4.LEVELS.index(self.form.level) + 1) % len(ide4.LEVELS)]
        self._switch_level(nxt, "мастер сменил уровень")

    def _switch_level(self, nxt: str, why: str) -> None:
        """Set the level; on an open check the change is a recorded step and a log line."""
        stepper = self.query_one("#ide4-level", Stepper)
        if self.check is not None and self.phase != "setup":
            with stepper.prevent(Stepper.Changed):
                stepper.select(nxt)
            after = ide4.set_level(self.check, nxt, why)
            if len(after.steps) > len(self.check.steps):  # one undo step, as every move
                self.post_message(self._move_step(after, "level"))
            self.check = after
            if self.check.level != nxt:
                self.app.notify(
                    "Эта проверка остаётся развёрнутой: в ней уже есть шаги развёрнутой "
                    "проверки или игрок всегда её требует.",
                    timeout=4,
                )
            if self.view != "moves":
                self.view = self._level_template()
            self._show_result()
        else:
            stepper.select(nxt)

    def action_new_day(self) -> None:
        """Start a new game day: every character may raise Успех → Триумф once again."""
        for c in self.form.characters.values():
            if c.extra.get("daily_triumph_used"):
                self.post_message(
                    CharacterChanged(replace(c, extra={**c.extra, "daily_triumph_used": False}))
                )
        check = self.check
        if check and self.phase == "result" and not check.daily_triumph_spent:
            self.check = replace(check, input=replace(check.input, daily_triumph_used=False))
            self._show_result()
        self.app.notify("Новый игровой день: Успех → Триумф от навыков снова доступен всем.")

    def action_new_check(self) -> None:
        """Start a new check for the same character: situational inputs are cleared."""
        self.check = None
        self._trail.clear()
        self._seat_trail.clear()
        self.seat.renew(SeatCheck.CLOSED)
        self._check_character_id = None
        self.view = "moves"
        self.reasons, self.player_demand, self.checklist_seen = (), False, False
        self.form.reset_situation()
        self._set_phase("setup")

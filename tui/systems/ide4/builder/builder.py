"""The Проверка tab for IDE4™: the whole procedure, from the checklist to the templates.

The open check is the table engine's (:mod:`tui.table.check`): this widget draws its view and
turns keys into its steps, and keeps nothing else. Phases: ``setup`` (the form, live exact
odds; Enter rolls the d100), ``result`` (every step so far and the moves still allowed with
what each is worth, or the rule against it; Enter concludes), ``done`` (the filled template,
copyable). The roll and every move are written to the campaign with their Журнал line as one
undo step: a restart, a crash or Ctrl+Q gives the same check with the same dice back.

Each phase's procedures live in a mixin: ``ide4_setup`` (the status, the odds, the roll, the
checklist, the card, an opposed check), ``ide4_moves`` (the moves after the d100),
``ide4_result`` (the result area, concluding, the templates).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Static

from rules import ide4
from tui.services import lent
from tui.store import Character
from tui.systems.ide4.builder.form import Ide4Form, Ide4OddsBars, TextRow
from tui.systems.ide4.builder.moves import MovesMixin
from tui.systems.ide4.builder.result import ResultMixin
from tui.systems.ide4.builder.setup import SetupMixin
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.view import Ide4View
from tui.table.core import Outcome
from tui.widgets.builders.engine import EngineBuilder
from tui.widgets.common.focus import focus_now
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper

#: Actions per phase; the footer shows only these.
PHASE_ACTIONS = {
    "setup": {"roll", "opposed", "checklist", "card", "cycle_level", "demand_expanded"}
    | {"new_day", "repeat"},
    "result": {"conclude", "reroll", "energy_after", "bonus", "subroll", "card", "cycle_level"}
    | {"demand_expanded", "template", "copy", "new_check", "new_day"},
    "done": {"card", "cycle_level", "demand_expanded", "template", "copy", "new_check", "new_day"},
}
ROLLED_ONLY = {"reroll", "energy_after", "bonus", "subroll"}
#: Every action whose use depends on the phase.
_PHASED = frozenset().union(*PHASE_ACTIONS.values())
WIDE = 110  # columns from which the template stands beside the moves
#: The row the form is entered at: the action decides the attribute, the skill, the base.
FIRST_ROW = "#ide4-action"


class Ide4Builder(SetupMixin, MovesMixin, ResultMixin, EngineBuilder, Vertical):
    """Character → level → action → attribute → skill → difficulty → energy; Enter rolls."""

    # The services it uses (tui/services/lent.py): its app's, the one it is mounted in.
    check_table = lent.check_table
    seat_hub = lent.seat_hub

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
        # before the player's right and the templates: once the check is over, «n» is the key
        # the GM needs, and at 80 columns the bar showed «p Развёрнутая  t Шаблон» without it
        Binding("n", "new_check", "Новая", id="ide4-new", tooltip="Новая проверка"),
        Binding(
            "p",
            "demand_expanded",
            "Развёрнутая",
            id="ide4-demand",
            tooltip="Право игрока: развёрнутая проверка по требованию, на любом уровне",
        ),
        Binding("t", "template", "Шаблон", id="ide4-template", tooltip="Ходы / шаблоны"),
        Binding("y", "copy", "Копировать", id="ide4-copy", tooltip="Копировать шаблон"),
        Binding("c", "checklist", "Нужна ли", id="ide4-checklist", tooltip="Восемь условий"),
        Binding("k", "card", "Риск", id="ide4-card", tooltip="Карточка ясного риска"),
        Binding("l", "cycle_level", "Уровень", id="ide4-level", tooltip="Уровень детализации"),
        Binding(
            "a",
            "repeat",
            "Как прошлая",
            id="ide4-repeat",
            show=False,
            tooltip="Прошлая проверка этого персонажа (того же действия) — её условия в форму",
        ),
        Binding(
            "d", "new_day", "Новый день", id="ide4-day", show=False, tooltip="Новый игровой день"
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.view = "moves"  # or "quick" / "full": what the result area shows
        self._drawn_phase = ""
        self._told: set[str] = set()
        self._offer: Any = None

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

    def on_show(self) -> None:
        """On screen: the seats may ask about this check."""
        table = self.table
        if not table.opened:
            table.opened = True
            self.call_after_refresh(self._seat_changed)
        self.call_after_refresh(self._sync_opposed)  # an opposed check restored after a crash

    def on_resize(self, event: events.Resize) -> None:
        """Show the filled template beside the moves when there is room for both."""
        self.set_class(event.size.width >= WIDE, "-wide")

    # -- the engine ----------------------------------------------------------------------------

    @property
    def table(self) -> Any:
        """The campaign's open check (:class:`~tui.table.check.session.CheckTable`)."""
        return self.check_table

    @property
    def shown(self) -> Ide4View:
        """The engine's view of the open check now."""
        return self.table.view()

    @property
    def form(self) -> Ide4Form:
        """Return the form of the inputs."""
        return self.query_one(Ide4Form)

    @property
    def check(self) -> ide4.Check | None:
        """The rolled check (None before the roll)."""
        return self.shown.check

    @property
    def phase(self) -> str:
        """``setup``, ``result`` or ``done``."""
        return str(self.table.state.phase)

    @property
    def player_demand(self) -> bool:
        """Whether the player demands the expanded check."""
        return bool(self.table.state.inputs.player_demand)

    @property
    def _check_character_id(self) -> str | None:
        rolled = self.table.state.rolled
        return rolled.character if rolled is not None else None

    def current_input(self) -> ide4.CheckInput:
        """Return the inputs the form gives now.

        Raises:
            RulesError: no character, or a modifier list that does not parse.
        """
        from rules.errors import RulesError

        shown = self.shown
        if shown.input is None:
            raise RulesError(shown.error)
        return shown.input

    def step(self, step: Callable[..., Outcome[Any]], *args: Any, quiet: bool = False) -> bool:
        """Make an engine step on the open check (:meth:`EngineBuilder.step`)."""
        self._enter_at_action = False  # the GM is at work in the form: the tab's key enters it
        return super().step(step, *args, quiet=quiet)

    # -- drawing -------------------------------------------------------------------------------

    def set_characters(self, characters: list[Character]) -> None:
        """The store changed: take the open check as it has it, and draw it."""
        super().set_characters(characters)

    def redraw(self) -> None:
        """Draw the open check from the engine's view (and tell what was re-derived)."""
        if not self.is_mounted:
            return
        shown = self.shown
        for change in shown.changes:
            if change not in self._told:
                self._told.add(change)
                self.app.notify(change, severity="warning", timeout=8)
        phase = shown.phase
        if phase != self._drawn_phase:
            self._enter_phase(phase)
        if phase == "setup":
            self.form.show(shown)
            self._show_setup(shown)
        else:
            self._show_result(shown)
            self._follow_energy_chooser(shown)
        self.refresh_bindings()
        self._seat_changed()
        self._sync_opposed()

    def _enter_phase(self, phase: str) -> None:
        was, self._drawn_phase = self._drawn_phase, phase
        rolled = phase != "setup"
        for part in ("#ide4-form", "#ide4-status", "#ide4-odds"):
            self.query_one(part).display = not rolled
        self.query_one("#ide4-after").display = rolled
        if phase == "result" or not was:
            self.view = "moves" if phase == "result" else self.view
        if phase == "done":
            self.view = self._level_template()
        if not was:
            return  # the first draw: the tab's focus is the app's
        if phase == "setup":
            self.call_after_refresh(self._focus_first_row)
        else:
            self.query_one("#ide4-result").focus()

    def _focus_first_row(self) -> None:
        row = self.query_one(FIRST_ROW, Stepper)
        focus_now(row if row.display else self.query_one("#ide4-character", Stepper))

    def _seat_changed(self) -> None:
        """Tell the seats' hub (if the GM serves seats) when the offer changed."""
        hub = self.seat_hub
        if hub is None:
            return
        try:
            offer = self.table.offer()
        except Exception:  # noqa: BLE001 - a half-built check has no offer yet
            offer = None
        if offer != self._offer:
            self._offer = offer
            hub.check_changed()

    # -- the contract --------------------------------------------------------------------------

    def choose_character(self, character_id: str) -> None:
        """Select a character (from the party tab): a new check for them, entered at the
        action (the party's Enter; the tab's own key enters at the character row)."""
        if self.phase != "setup":
            self.table.new()
        self.step(steps.set_input, "character", character_id, quiet=True)
        self._enter_at_action = True  # (after the step: a step clears it)
        self.call_after_refresh(self._focus_first_row)

    _enter_at_action = False

    def focus_first(self) -> None:
        """The tab's first control: the result after the roll; before it the action when a
        character was just chosen from the party, else the character row. At once
        (:func:`focus_now`): keys typed right behind the tab's key («3↓↓→⏎» in one burst)
        are queued ahead of a ``focus()`` and went elsewhere."""
        if self.phase != "setup":
            focus_now(self.query_one("#ide4-result"))
        elif self._enter_at_action:
            self._focus_first_row()
        else:
            focus_now(self.query_one("#ide4-character", Stepper))

    # -- keys ----------------------------------------------------------------------------------

    @on(Stepper.Changed)
    def _stepper_changed(self, event: Stepper.Changed) -> None:
        name = (event.stepper.id or "").removeprefix("ide4-")
        if self.phase == "setup":
            self.step(steps.set_input, name, event.value)
        elif name == "level":
            self._switch_level(event.value, "мастер сменил уровень")

    @on(Input.Changed)
    def _text_changed(self, event: Input.Changed) -> None:
        field = event.input
        if not isinstance(field.parent, TextRow) or not isinstance(field, ReadyInput):
            return
        if self.phase == "setup":
            name = (field.id or "").removeprefix("ide4-")
            self.step_typed(event, steps.set_input, name, event.value)
        else:  # the rolled check's inputs stand: drawn again, the field shows them
            field.took(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_roll()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The key bar asks this of every key after each key press: the engine's view (a
        # derivation from the campaign) is asked for only where the answer needs it.
        if action not in _PHASED:
            return True
        phase = self.phase
        if action not in PHASE_ACTIONS[phase]:
            return False
        if isinstance(self.app.focused, Input) and action not in ("roll", "conclude"):
            return False  # letters go into the text field
        if action in ROLLED_ONLY:
            check = self.check if phase != "setup" else None
            if check is None or check.status != "rolled":
                return False
        if action == "copy" and self.view == "moves" and phase == "result":
            return False
        if action == "demand_expanded":  # not offered once the player has demanded it
            return not (self.player_demand and self._level() == "expanded")
        return True

    def _level(self) -> str:
        """Return the level of the open check, else the form's."""
        return self.shown.level

    def key_bar_text(self, binding: Binding) -> tuple[str, str] | None:
        """Enter in the form says what it does: at [0] and [00] no d100 is rolled; «p» at the
        expanded level does not switch to it, it records that the player demands it."""
        if binding.action == "demand_expanded" and self._level() == "expanded":
            return "p", "Требует игрок"
        if self.phase != "setup" or binding.action not in ("roll", "submit"):
            return None
        return "⏎", self.shown.enter_text

    def action_demand_expanded(self) -> None:
        """The player's right: switch to the expanded check at any level, any phase — one
        undo step with its line, as the player's request from a seat."""
        if self.step(steps.demand_expanded) and self.view != "moves" and self.phase != "setup":
            self.view = "full"

    def action_cycle_level(self) -> None:
        """Switch quick → standard → expanded → quick (the inputs stay)."""
        level = self._level() if self.phase != "setup" else self.table.state.inputs.level
        nxt = ide4.LEVELS[(ide4.LEVELS.index(level) + 1) % len(ide4.LEVELS)]
        self._switch_level(nxt, "мастер сменил уровень")

    def _switch_level(self, nxt: str, why: str) -> None:
        """Set the level; on an open check the change is a recorded step and a log line."""
        if self.step(steps.set_level, nxt, why) and self.phase != "setup" and self.view != "moves":
            self.view = "quick" if nxt == "quick" else "full"
            self.redraw()

    def action_new_day(self) -> None:
        """Start a new game day: every character may raise Успех → Триумф once again."""
        self.step(steps.new_day)

    def action_new_check(self) -> None:
        """Start a new check for the same character: situational inputs are cleared."""
        self.step(steps.new_check)

    def action_repeat(self) -> None:
        """The character's last check of the same kind: its inputs in the form again."""
        self.step(steps.repeat_last)

"""The Проверка tab for Старатели: the 2d6 check builder, Risk, the task chain, the group check.

Rows: character → characteristic → skill (or none, −3) → difficulty → +d6/−d6 → modifiers.
The odds (success/failure, natural 12/2, with Risk) and the Effect distribution are exact and
redrawn on every change; Enter rolls. After a failure ``r`` declares Risk (the GM names the
price or forbids it); ``h`` lets a helper prepare the way (task chain), ``g`` calls helpers
with the same skill (group check). Each procedure's pop-up and key live in its module:
``starately_risk``, ``starately_chain``, ``starately_group``, ``starately_opposed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import starately
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.bridge.effects import effect_modifiers, starately_note
from tui.present.rolls import percent, plain, signed
from tui.store import Character
from tui.widgets.builders.base import (
    CharacterPicker,
    CheckRolled,
    SeatCheck,
    SpendTrail,
    mods_hint,
    turn_opponent,
)
from tui.widgets.builders.dicefaces import DistributionBars, ModsInput, StyledOddsBars
from tui.widgets.builders.starately_chain import ChainMixin, ChainScreen
from tui.widgets.builders.starately_group import GroupMixin, GroupScreen
from tui.widgets.builders.starately_parts import (
    COUNT_OPTIONS,
    IDLE,
    OUTCOME_STYLE,
    UNSKILLED,
    Row,
    characteristic_options,
    dice_note,
    effect_rows,
    natural_note,
    result_lines,
    side_for,
    skill_options,
    summary,
)
from tui.widgets.builders.starately_risk import RiskMixin, RiskScreen
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

__all__ = ["ChainScreen", "GroupScreen", "RiskScreen", "StaratelyBuilder"]


# --- the builder -------------------------------------------------------------------------------


class StaratelyBuilder(RiskMixin, ChainMixin, GroupMixin, CharacterPicker, Horizontal):
    """The 2d6 check builder: rows on the left, the Effect distribution on the right."""

    FIRST_ROW = "#st-characteristic"

    DEFAULT_CSS = """
    StaratelyBuilder #st-form { width: 1fr; height: 1fr; }
    StaratelyBuilder #st-effect-box {
        width: 24; height: 1fr; padding: 0 0 0 1; border-left: solid $primary;
    }
    StaratelyBuilder #st-notes { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="starately-roll", tooltip="Бросить проверку 2d6"),
        Binding(
            "r",
            "risk",
            "Риск",
            id="starately-risk",
            tooltip="После провала: бросить снова за цену, которую назначает ведущий",
        ),
        Binding(
            "h",
            "chain",
            "Помощник",
            id="starately-chain",
            tooltip="Цепочка: помощник бросает на шаг легче, его Эффект идёт в основной бросок",
        ),
        Binding(
            "o",
            "opposed",
            "Встречный",
            id="starately-opposed",
            tooltip="Встречный бросок: сложности нет, выше итог — победа",
        ),
        Binding(
            "g",
            "group",
            "Группа",
            id="starately-group",
            tooltip="Групповая проверка: +1 за каждый успех помощника с тем же навыком",
        ),
    ]

    _characters: dict[str, Character]
    _last: Any = None  # the main result Risk would retry
    _risk_closed = False
    _shown = IDLE  # the result area's markup (a player's Risk undone puts it back)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The open check as the players' seats see it, and the steps their Risk wrote.
        self.seat = SeatCheck()
        self._seat_trail = SpendTrail()

    def compose(self) -> ComposeResult:
        with Vertical(id="st-form"):
            yield Row("Персонаж", id="check-character")
            yield Row("Характеристика", id="st-characteristic")
            yield Row("Навык", id="st-skill")
            yield Row(
                "Сложность",
                [(f"{d.name} {d.value}+", d.value) for d in starately.difficulties()],
                id="st-difficulty",
            )
            with Horizontal(id="st-tried-row"):
                yield Label("Какой навык    ")
                yield ReadyInput(
                    placeholder="навык, которого нет (для Журнала)", id="st-tried", compact=True
                )
            yield Row("+d6", COUNT_OPTIONS, id="st-boons")
            yield Row("−d6", COUNT_OPTIONS, id="st-banes")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы   ")
                yield ModsInput(
                    placeholder=mods_hint("+1 прицел, −2 темнота", empty=False),
                    id="check-mods",
                    compact=True,
                )
            yield Static(id="check-formula")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Static(id="st-notes")
            yield Rule(line_style="heavy")
            yield Static(IDLE, id="check-result")
        with Vertical(id="st-effect-box"):
            yield DistributionBars(id="st-effect")

    def on_mount(self) -> None:
        self._characters = {}
        self.query_one("#st-difficulty", Row).select(starately.default_difficulty())

    # -- the contract ---------------------------------------------------------------------------

    def on_show(self) -> None:
        """On screen: the seats may ask about this check (see ``SeatCheck``)."""
        self.seat.shown(self)

    def set_characters(self, characters: list[Character]) -> None:
        """Offer ``characters``; a player's Risk undone or redone puts the check back."""
        super().set_characters(characters)
        self._follow_seat_trail()

    # -- building -------------------------------------------------------------------------------

    def _refresh_traits(self) -> None:
        c = self.character
        characteristic = self.query_one("#st-characteristic", Row)
        skill = self.query_one("#st-skill", Row)
        characteristic.set_options(characteristic_options(c) if c else [], characteristic.value)
        skill.set_options(skill_options(c) if c else [], skill.value)
        self._recompute()

    @on(Stepper.Changed, "#check-character")
    def _character_changed(self) -> None:
        """Another character: the previous one's result (and its Risk) leaves the screen."""
        self._last, self._risk_closed, self._shown = None, False, IDLE
        self._seat_trail.clear()
        self.seat.renew(SeatCheck.CLOSED)
        show_markup(self.query_one("#check-result", Static), IDLE)
        self._refresh_traits()
        self.seat.changed(self)

    @on(Stepper.Changed, "#st-characteristic")
    @on(Stepper.Changed, "#st-skill")
    @on(Stepper.Changed, "#st-difficulty")
    @on(Stepper.Changed, "#st-boons")
    @on(Stepper.Changed, "#st-banes")
    @on(Input.Changed, "#check-mods")
    @on(Input.Changed, "#st-tried")
    def _inputs_changed(self) -> None:
        self._recompute()

    def current_check(self, modifiers: Sequence[Any] = ()) -> Any:
        """Build the check from the rows (raises RulesError for bad input)."""
        c = self.character
        if c is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        typed = parse_modifiers(self.query_one("#check-mods", Input).value)
        skill = self.query_one("#st-skill", Row).value or UNSKILLED
        side = side_for(
            c,
            self.query_one("#st-characteristic", Row).value,
            skill,
            boons=self.query_one("#st-boons", Row).value or 0,
            banes=self.query_one("#st-banes", Row).value or 0,
            modifiers=tuple(starately.Modifier(m.value, m.reason) for m in typed)
            + effect_modifiers(self, c)
            + tuple(modifiers),
        )
        tried = self.query_one("#st-tried", Input).value.strip()
        if skill == UNSKILLED and tried:
            side = replace(side, skill_name=tried)
        return starately.Check(side, self.query_one("#st-difficulty", Row).value)

    def _recompute(self) -> None:
        check = self._built_or_shown(self.current_check)
        if check is None:
            return
        formula = self.query_one("#check-formula", Static)
        side = check.side
        self.query_one("#st-tried-row").display = side.skill is None
        show_markup(
            formula,
            f"{plain(dice_note(side))} {signed(side.bonus)} против {check.difficulty}+ · "
            f"DM {signed(side.dm)}, навык {signed(side.skill_modifier)}"
            + (f", мод. {signed(side.modifier_total)}" if side.modifiers else ""),
        )
        odds = starately.check_odds(check)
        self.query_one("#check-odds", StyledOddsBars).show(
            odds.outcomes, starately.OUTCOME_NAMES, starately.OUTCOMES
        )
        show_markup(
            self.query_one("#st-notes", Static),
            f"{natural_note(check, odds)}\nС Риском после провала: успех {percent(odds.with_risk)}"
            + (f"\n{note}" if (note := starately_note(self, check)) else ""),
        )
        self.query_one("#st-effect", DistributionBars).show(
            "[b]Эффект[/b]\n[dim]итог − сложность[/]", effect_rows(check, odds)
        )
        self.refresh_bindings()  # «g» depends on the skill chosen

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("risk", "chain", "group", "opposed") and isinstance(self.app.focused, Input):
            return False  # the modifier field takes letters as text
        if action == "risk":
            last = self._last
            return last is not None and not last.success and not last.risk and not self._risk_closed
        if action in ("chain", "opposed"):
            return bool(self._characters)
        if action == "group":
            try:
                skilled = self.current_check().side.skill is not None
            except RulesError:
                return False
            return skilled and len(self._characters) > 1
        return True

    def _show(self, lines: list[str], actor: str | None, text: str, data: dict[str, Any]) -> None:
        self.post_message(self._shown_rolled(lines, actor, text, data))

    def _shown_rolled(
        self, lines: list[str], actor: str | None, text: str, data: dict[str, Any]
    ) -> CheckRolled:
        """Show a result; return its log line (posted by the GM's key, written by a seat's)."""
        self._shown = "\n".join(lines)
        show_markup(self.query_one("#check-result", Static), self._shown)
        self.refresh_bindings()
        self.seat.changed(self)
        return CheckRolled(actor, text, {"system": "starately", **data})

    def _remember(self, main: Any) -> list[str]:
        """Keep ``main`` as the result Risk would retry; return the hint to show."""
        self._seat_trail.clear()  # a new check: a player's earlier Risk no longer moves it
        self.seat.renew(SeatCheck.CLOSED)
        self._last, self._risk_closed = main, False
        if main.success or main.risk:
            return []
        return ["[dim]r — Риск: бросить снова за цену от ведущего[/]"]

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, Effect and outcome."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        result = starately.roll(check, self.app.rng)  # type: ignore[attr-defined]
        lines = result_lines(result) + self._remember(result)
        self._show(lines, check.side.name or None, summary(result), result.to_dict())

    def _check_and_opponent(self) -> tuple[Any, str | None] | None:
        """The check the form describes and its default other side (the turn's target, else
        the first other character), for a встречный бросок or a task chain; None, with the
        reason shown, when the form describes no check."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return None
        others = [c for c in self._characters.values() if c.name != check.side.name]
        actor = self.character
        return check, turn_opponent(self, actor.id if actor else None, others)

    def action_opposed(self) -> None:
        """Set the opponent of a встречный бросок, then roll both sides."""
        from tui.widgets.builders.starately_opposed import OpposedScreen

        chosen = self._check_and_opponent()
        if chosen is None:
            return
        check, default = chosen
        screen = OpposedScreen(list(self._characters.values()), check.side, default)
        self.app.push_screen(screen, self._opposed_answered)

    def _opposed_answered(self, opposed: Any) -> None:
        from tui.widgets.builders.starately_opposed import opposed_lines, opposed_summary

        if opposed is None:
            return
        result = starately.roll_opposed(opposed, self.app.rng)  # type: ignore[attr-defined]
        self._seat_trail.clear()
        self.seat.renew(SeatCheck.CLOSED)
        self._last, self._risk_closed = None, False  # Risk follows a failed check only
        self._show(
            opposed_lines(result), opposed.a.name or None, opposed_summary(result), result.to_dict()
        )

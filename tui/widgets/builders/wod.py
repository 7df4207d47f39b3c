"""The Проверка tab for Мир Тьмы: the d10 pool builder and the chance die.

Rows: character → attribute → skill → modifiers → n-again → rote. The pool size, the four
outcome chances and the distribution of successes are exact and redrawn on every change; Enter
rolls. A pool of zero or less is a chance die: before it rolls, the GM is asked whether the
player goes ahead or withdraws (when the Storyteller allows withdrawing); a withdrawal is logged.
``c`` rolls a contested roll against another character, ``e`` starts an extended roll toward a
target (each Enter adds a roll, each one logged) — both [default], campaign settings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import wod
from rules.errors import RulesError
from tui import words
from tui.bridge.effects import effect_modifiers, wod_note
from tui.present.rolls import plain, signed, successes
from tui.store import Character
from tui.widgets.builders.base import CharacterPicker, CheckRolled, mods_hint, turn_opponent
from tui.widgets.builders.dicefaces import DistributionBars, ModsInput, StyledOddsBars
from tui.widgets.builders.wod_parts import (
    AGAIN_OPTIONS,
    CHANCE_RULE,
    IDLE,
    NO_SKILL,
    OUTCOME_STYLE,
    ROTE_OPTIONS,
    ChanceScreen,
    ContestScreen,
    TargetScreen,
    attribute_options,
    pool_for,
    pool_line,
    result_lines,
    skill_options,
    success_rows,
    summary,
)
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup

__all__ = ["OUTCOME_STYLE", "ChanceScreen", "ContestScreen", "TargetScreen", "WodBuilder"]


class WodBuilder(CharacterPicker, Horizontal):
    """The pool builder: rows on the left, the distribution of successes on the right."""

    FIRST_ROW = "#wod-attribute"

    DEFAULT_CSS = """
    WodBuilder #wod-form { width: 1fr; height: 1fr; }
    WodBuilder #wod-dist-box {
        width: 20; height: 1fr; padding: 0 0 0 1; border-left: solid $primary;
    }
    WodBuilder #wod-notes { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="wod-roll", tooltip="Бросить запас d10"),
        Binding(
            "c", "contest", "Состязание", id="wod-contest", tooltip="Оба бросают: больше успехов"
        ),
        Binding(
            "e",
            "extended",
            "Продолжительное",
            id="wod-extended",
            tooltip="Продолжительное действие: успехи копятся до цели",
        ),
        Binding(
            "e",
            "stop_extended",
            "Стоп",
            id="wod-extended-stop",
            tooltip="Остановить продолжительное действие",
        ),
    ]

    _characters: dict[str, Character]
    _extended: Any = None  # the extended roll in progress

    def compose(self) -> ComposeResult:
        with Vertical(id="wod-form"):
            yield Stepper("Персонаж", id="check-character")
            yield Stepper("Атрибут", id="wod-attribute")
            yield Stepper("Навык", id="wod-skill")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы  ")
                yield ModsInput(
                    placeholder=mods_hint("+2 снаряжение, −3 рана", empty=False),
                    id="check-mods",
                    compact=True,
                )
            yield Stepper("n-снова", AGAIN_OPTIONS, id="wod-again")
            yield Stepper("Рутина", ROTE_OPTIONS, id="wod-rote")
            yield Static(id="check-formula")
            yield Static(id="wod-notes")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Rule(line_style="heavy")
            yield Static(IDLE, id="check-result")
        with Vertical(id="wod-dist-box"):
            yield DistributionBars(id="wod-successes")

    def on_mount(self) -> None:
        self._characters = {}
        self.query_one("#wod-again", Stepper).select(wod.settings().again)

    # -- the contract ---------------------------------------------------------------------------

    # -- building -------------------------------------------------------------------------------

    def _refresh_traits(self) -> None:
        c = self.character
        attribute = self.query_one("#wod-attribute", Stepper)
        skill = self.query_one("#wod-skill", Stepper)
        attribute.set_options(attribute_options(c) if c else [], attribute.value)
        skill.set_options(skill_options(c) if c else [], skill.value)
        self._recompute()

    @on(Stepper.Changed, "#check-character")
    def _character_changed(self) -> None:
        """Another character: the previous one's result and extended roll leave the screen."""
        self._set_extended(None)
        show_markup(self.query_one("#check-result", Static), IDLE)
        self._refresh_traits()

    @on(Stepper.Changed, "#wod-attribute")
    @on(Stepper.Changed, "#wod-skill")
    @on(Stepper.Changed, "#wod-again")
    @on(Stepper.Changed, "#wod-rote")
    @on(Input.Changed, "#check-mods")
    def _inputs_changed(self) -> None:
        self._recompute()

    def current_pool(self) -> Any:
        """Build the pool from the rows (raises RulesError for bad input)."""
        c = self.character
        if c is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        pool = pool_for(
            c,
            self.query_one("#wod-attribute", Stepper).value,
            self.query_one("#wod-skill", Stepper).value or NO_SKILL,
            self.query_one("#check-mods", Input).value,
        )
        return replace(
            pool,
            modifiers=pool.modifiers + effect_modifiers(self, c),
            again=self.query_one("#wod-again", Stepper).value,
            rote=bool(self.query_one("#wod-rote", Stepper).value),
        )

    def _recompute(self) -> None:
        pool = self._built_or_shown(self.current_pool)
        if pool is None:
            return
        formula = self.query_one("#check-formula", Static)
        show_markup(formula, pool_line(pool))
        show_markup(
            self.query_one("#wod-notes", Static),
            CHANCE_RULE
            if pool.chance
            else (
                f"Успех на {pool.success_threshold}+; от "
                f"{words.genitive(pool.exceptional, 'успеха', 'успехов')} — исключительный"
            )
            + (f"\n{note}" if (note := wod_note(self, pool)) else ""),
        )
        odds = wod.pool_odds(pool)
        self.query_one("#check-odds", StyledOddsBars).show(
            odds.outcomes, wod.OUTCOME_NAMES, wod.OUTCOMES
        )
        self.query_one("#wod-successes", DistributionBars).show(
            "[b]Успехов[/b]\n[dim]сколько выпадет[/]", success_rows(odds)
        )

    # -- rolling --------------------------------------------------------------------------------

    def action_roll(self) -> None:
        """Roll the pool; a chance die asks first whether to go ahead."""
        try:
            pool = self.current_pool()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        if pool.chance:
            self.app.push_screen(ChanceScreen(pool), self._chance_answered)
            return
        self._roll(pool)

    def _chance_answered(self, pool: Any) -> None:
        if pool is not None:
            self._roll(pool)
            return
        try:
            withdrawn = wod.withdraw(self.current_pool())
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        show_markup(
            self.query_one("#check-result", Static),
            "Игрок отказался от броска на удачу: кубы не брошены (записано в Журнал).",
        )
        who = withdrawn.pool.name or None
        text = (
            f"{withdrawn.pool.attribute_name} + {withdrawn.pool.skill_name or 'без навыка'}: "
            f"отказ от броска на удачу (запас {signed(withdrawn.pool.size)}) — {withdrawn.reason}"
        )
        self.post_message(CheckRolled(who, text, withdrawn.to_dict()))

    def _roll(self, pool: Any) -> None:
        try:
            result = wod.roll_pool(pool, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        if self._extended is not None:
            self._extended_roll(result)
            return
        show_markup(self.query_one("#check-result", Static), "\n".join(result_lines(result)))
        self.post_message(
            CheckRolled(pool.name or None, summary(result), {"system": "wod", **result.to_dict()})
        )

    # -- contested and extended -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        extended = ("extended", "stop_extended")
        if action in ("contest", *extended) and isinstance(self.app.focused, Input):
            return False  # the modifier field takes letters as text
        if action == "contest":
            return len(self._characters) > 1
        if action in extended:  # «e» starts one, or stops the one going on
            return (self._extended is None) == (action == "extended")
        return True

    def _set_extended(self, ext: Any) -> None:
        self._extended = ext
        self.refresh_bindings()  # the key bar: «e Продолжительное» or «e Стоп»

    def action_stop_extended(self) -> None:
        """Stop the extended roll in progress (its successes are logged)."""
        if self._extended is not None:
            self.action_extended()

    def action_contest(self) -> None:
        """Choose an opponent, then both roll their pools: more successes wins."""
        try:
            main = self.current_pool()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        others = [c for c in self._characters.values() if c.name != main.name]
        if not others:
            self.app.notify("Состязаться не с кем: в партии один персонаж.", severity="error")
            return
        actor = self.character
        default = turn_opponent(self, actor.id if actor else None, others) or others[0].id
        screen = ContestScreen(list(self._characters.values()), main, default)
        self.app.push_screen(screen, self._contest_answered)

    def _contest_answered(self, other: Any) -> None:
        if other is None:
            return
        try:
            result = wod.roll_contested(self.current_pool(), other, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        a, b = result.a, result.b
        if result.winner is None:
            tie = successes(a.successes)
            verdict = f"ничья: у обоих {tie} (настройка кампании: равенство — ничья)"
        else:
            win = a if result.winner == "a" else b
            how = "" if a.successes != b.successes else " (равенство: побеждает начавший)"
            verdict = f"побеждает {win.pool.name}, перевес {result.margin}{how}"
        lines = [*result_lines(a)[:1], *result_lines(b)[:1]]
        lines.append(f"Успехов: {a.successes} против {b.successes} — [b]{plain(verdict)}[/b]")
        text = f"Состязание: {a.pool.name}: {summary(a)}; {b.pool.name}: {summary(b)} — {verdict}"
        show_markup(self.query_one("#check-result", Static), "\n".join(lines))
        self.post_message(CheckRolled(a.pool.name or None, text, result.to_dict()))

    def action_extended(self) -> None:
        """Start an extended roll (ask the target), or end the one in progress."""
        if self._extended is not None:
            ext = self._extended
            self._set_extended(None)
            text = (
                f"Продолжительное действие остановлено: {ext.successes} из {ext.target} "
                f"успехов за {words.plural(len(ext.rolls), 'бросок', 'броска', 'бросков')}"
            )
            show_markup(self.query_one("#check-result", Static), text)
            data = {**ext.to_dict(), "event": "stopped"}
            self.post_message(CheckRolled(ext.pool.name or None, text, data))
            return
        try:
            pool = self.current_pool()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return

        def started(target: int | None) -> None:
            if target is None:
                return
            self._set_extended(wod.Extended(pool, target))
            show_markup(
                self.query_one("#check-result", Static),
                f"[b]Продолжительное[/b]: 0 из {words.genitive(target, 'успеха', 'успехов')}"
                " · Enter — бросок · e — стоп",
            )

        self.app.push_screen(TargetScreen(), started)

    def _extended_roll(self, result: Any) -> None:
        try:
            ext = wod.add_roll(self._extended, result)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        style, said = {
            "done": ("$success", "цель достигнута"),
            "failed": ("$error", "полный провал — действие сорвано, успехи потеряны"),
            "out_of_rolls": ("$warning", "броски кончились (предел кампании)"),
            "going": ("$text-muted", "Enter — следующий бросок · e — стоп"),
        }[ext.status]
        status = f"[{style}]{said}[/]"
        n = len(ext.rolls)
        lines = [
            *result_lines(result),
            f"[b]Продолжительное[/b]: {ext.successes} из "
            f"{words.genitive(ext.target, 'успеха', 'успехов')}, "
            f"бросок {n} — {status}",
        ]
        show_markup(self.query_one("#check-result", Static), "\n".join(lines))
        text = (
            f"Продолжительное, бросок {n}: {summary(result)}; всего {ext.successes} "
            f"из {ext.target}" + ("" if ext.status == "going" else f" ({said})")
        )
        self.post_message(CheckRolled(result.pool.name or None, text, ext.to_dict()))
        self._set_extended(ext if ext.status == "going" else None)

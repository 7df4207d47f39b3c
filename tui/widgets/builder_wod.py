"""The Проверка tab for Мир Тьмы: the d10 pool builder and the chance die.

Rows: character → attribute → skill → modifiers → n-again → rote. The pool size, the four
outcome chances and the distribution of successes are exact and redrawn on every change; Enter
rolls. A pool of zero or less is a chance die: before it rolls, the GM is asked whether the
player goes ahead or withdraws (when the Storyteller allows withdrawing).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Rule, Static

from rules import wod
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.effects_bridge import effect_modifiers, wod_note
from tui.render import percent, plain, signed
from tui.sheets import dots
from tui.store import Character
from tui.widgets.builder import CharacterPicker, CheckRolled
from tui.widgets.dicefaces import DistributionBars, ModsInput, StyledOddsBars, d10_faces
from tui.widgets.stepper import Stepper
from tui.widgets.text import show_markup

OUTCOME_STYLE = {
    "exceptional_success": "$success",
    "success": "$success",
    "failure": "$error",
    "dramatic_failure": "$error",
}
AGAIN_OPTIONS = [("10-снова", 10), ("9-снова", 9), ("8-снова", 8), ("нет", None)]
ROTE_OPTIONS = [("нет", False), ("да — провалы перебрасываются", True)]
NO_SKILL = ""  # the skill row's value for «без навыка»
CHANCE_RULE = "Успех только на 10 (переброс); первая 1 — полный провал"


def attribute_options(c: Character) -> list[tuple[str, str]]:
    """Return the attributes as ``Интеллект ●●●○○``."""
    return [(f"{name} {dots(value)}", name) for name, value in c.qualities.items()]


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return the skills as ``Расследование ●●●○○``, then «без навыка»."""
    options = [(f"{s.name} {dots(s.value)}", s.name) for s in c.skills]
    options.append(("без навыка (0)", NO_SKILL))
    return options


def pool_line(pool: Any) -> str:
    """Describe the pool: size, terms and options, or the chance die."""
    terms = f"{pool.attribute} + {pool.skill}"
    if pool.modifiers:
        terms += f" {'+' if pool.modifier_total >= 0 else '−'} {abs(pool.modifier_total)}"
    if pool.chance:
        return f"Запас {terms} = [b $error]{signed(pool.size)}[/] → [b]бросок на удачу[/], 1 куб"
    again = "без взрывов" if pool.again is None else f"{pool.again}-снова"
    rote = ", рутина" if pool.rote else ""
    return f"Запас {terms} = [b]{pool.size}d10[/] · {again}{rote}"


def result_lines(result: Any) -> list[str]:
    """Return markup lines of a rolled pool: each die, the successes, the outcome."""
    pool = result.pool
    style = OUTCOME_STYLE[result.outcome]
    head = "на удачу" if result.chance else f"{pool.size}d10"
    marks = []
    if any(d.exploded for d in result.dice):
        marks.append("! — взрыв, → добавленный куб")
    if any(d.rerolled for d in result.dice):
        marks.append("(x)↻ — переброс рутины")
    lines = [f"[b]{plain(pool.name or 'Бросок')}[/b], {head}: {d10_faces(result.dice)}"]
    if marks:
        lines.append(f"[dim]{'; '.join(marks)}[/]")
    lines.append(
        f"Успехов: [b]{result.successes}[/b] — [b {style}]{wod.OUTCOME_NAMES[result.outcome]}[/]"
    )
    if result.outcome == "dramatic_failure":
        lines.append(f"[{style}]1 на броске на удачу: что пошло не так, решает Рассказчик[/]")
    return lines


def summary(result: Any) -> str:
    """Return one plain log line of a rolled pool."""
    pool = result.pool
    what = f"{pool.attribute_name} + {pool.skill_name or 'без навыка'}"
    head = f"на удачу (запас {signed(pool.size)})" if result.chance else f"{pool.size}d10"
    return (
        f"{what}, {head}: {d10_faces(result.dice, markup=False)} → успехов "
        f"{result.successes}: {wod.OUTCOME_NAMES[result.outcome]}"
    )


def success_rows(odds: Any) -> list[tuple[str, Fraction, str]]:
    """Return the success counts as rows 0 … E−1 and «E+» (E: the campaign's exceptional)."""
    rows = [(str(k), p, "$error" if k == 0 else "$success") for k, p in odds.low.items()]
    rows.append((f"{len(odds.low)}+", odds.outcomes["exceptional_success"], "$success"))
    return rows


class ChanceScreen(ModalScreen[Any]):
    """Ask before a chance die: go ahead (returns the pool) or withdraw (returns None)."""

    DEFAULT_CSS = """
    ChanceScreen { align: center middle; }
    ChanceScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    ChanceScreen Horizontal { height: auto; margin: 1 0 0 0; }
    ChanceScreen Button { margin: 0 1 0 0; }
    """
    BINDINGS = [
        Binding("escape", "withdraw", "Отказаться", id="chance-withdraw"),
        Binding("x", "toggle", "Запретить/разрешить отказ", id="chance-toggle"),
    ]

    def __init__(self, pool: Any) -> None:
        super().__init__()
        self.pool = pool

    def compose(self) -> ComposeResult:
        odds = wod.pool_odds(self.pool).outcomes
        with Vertical():
            yield Static(
                f"[b]Бросок на удачу[/b] — запас {signed(self.pool.size)}, бросается один куб.\n"
                "Успех только на 10; десятка перебрасывается, и каждая новая 10 — ещё успех; "
                "8 и 9 не успех даже при перебросе. 1 на первом броске — полный провал.\n"
                f"Успех {percent(1 - odds['failure'] - odds['dramatic_failure'])}, "
                f"полный провал {percent(odds['dramatic_failure'])}."
            )
            yield Static(id="chance-reason")
            with Horizontal():
                yield Button("Бросить", id="chance-go", variant="warning")
                yield Button("Отказаться (Esc)", id="chance-withdraw")
            yield Static("[dim]x — Рассказчик запрещает или разрешает отказ[/]")

    def on_mount(self) -> None:
        self._show_reason()
        self.query_one("#chance-go", Button).focus()

    def _show_reason(self) -> None:
        verdict = wod.withdrawal(self.pool)
        show_markup(
            self.query_one("#chance-reason", Static),
            f"[{'$success' if verdict.allowed else '$warning'}]{verdict.reason}[/]",
        )
        self.query_one("#chance-withdraw", Button).disabled = not verdict.allowed

    @on(Button.Pressed, "#chance-go")
    def _go(self) -> None:
        self.dismiss(self.pool)

    @on(Button.Pressed, "#chance-withdraw")
    def action_withdraw(self) -> None:
        """Back out, if the Storyteller allows it."""
        verdict = wod.withdrawal(self.pool)
        if not verdict.allowed:
            self.app.notify(verdict.reason, severity="error")
            return
        self.dismiss(None)

    def action_toggle(self) -> None:
        """Flip the Storyteller's call on withdrawing."""
        self.pool = replace(self.pool, withdrawal_allowed=not self.pool.withdrawal_allowed)
        self._show_reason()


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
    ]

    _characters: dict[str, Character]

    def compose(self) -> ComposeResult:
        with Vertical(id="wod-form"):
            yield Stepper("Персонаж", id="check-character")
            yield Stepper("Атрибут", id="wod-attribute")
            yield Stepper("Навык", id="wod-skill")
            with Horizontal(id="check-mods-row"):
                yield Label("Модификаторы  ")
                yield ModsInput(placeholder="+2 снаряжение, -3 рана", id="check-mods", compact=True)
            yield Stepper("n-снова", AGAIN_OPTIONS, id="wod-again")
            yield Stepper("Рутина", ROTE_OPTIONS, id="wod-rote")
            yield Static(id="check-formula")
            yield Static(id="wod-notes")
            yield Rule(line_style="heavy")
            yield StyledOddsBars(OUTCOME_STYLE, id="check-odds")
            yield Rule(line_style="heavy")
            yield Static("Enter — бросить запас.", id="check-result")
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
        attribute = self.query_one("#wod-attribute", Stepper).value
        if not attribute or attribute not in c.qualities:
            raise RulesError(f"У персонажа «{c.name}» нет атрибутов для броска.")
        skill = c.skill(self.query_one("#wod-skill", Stepper).value or NO_SKILL)
        typed = parse_modifiers(self.query_one("#check-mods", Input).value)
        return wod.Pool(
            c.qualities[attribute],
            skill.value if skill else 0,
            tuple(wod.Modifier(m.value, m.reason) for m in typed) + effect_modifiers(self, c),
            again=self.query_one("#wod-again", Stepper).value,
            rote=bool(self.query_one("#wod-rote", Stepper).value),
            name=c.name,
            attribute_name=attribute,
            skill_name=skill.name if skill else "",
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
                f"Успех на {pool.success_threshold}+; {pool.exceptional}+ успехов — исключительный"
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
        else:
            show_markup(
                self.query_one("#check-result", Static),
                "Игрок отказался от броска на удачу: кубы не брошены.",
            )

    def _roll(self, pool: Any) -> None:
        try:
            result = wod.roll_pool(pool, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        show_markup(self.query_one("#check-result", Static), "\n".join(result_lines(result)))
        self.post_message(
            CheckRolled(pool.name or None, summary(result), {"system": "wod", **result.to_dict()})
        )

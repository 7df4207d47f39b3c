"""IDE4™ opposed checks in the builder, outside fights as well.

The first side is the builder's form; ``OpposedSetupScreen`` sets the second: character,
attribute, skill, base difficulty and modifiers, energy before (dice up to the nominal) and an
ally's help. The exact chances of win / tie / lose are shown before the roll. After the rolls
``OpposedResultScreen`` (``ide4_opposed_result``) lets each side take its rerolls, energy after
and mastery bonuses in the seed's order, and on a full tie the GM's choice (status quo, or a
price to both) is recorded. This module holds the second side's setup and the comparison's words.

[seed] «Сравнение: 1. более высокий исход побеждает; 2. при одинаковом исходе побеждает тот,
у кого ниже итоговая сложность; 3. если равенство сохраняется, мастер оставляет положение без
изменения либо назначает цену обеим сторонам.»
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rules import ide4
from rules.errors import RulesError
from tui.store import Character
from tui.table.check import ide4_steps as steps
from tui.table.check import ide4_text as txt
from tui.table.check.ide4 import Ide4Check, Inputs
from tui.table.check.ide4_view import view
from tui.table.core import World
from tui.widgets.builders.base import mods_hint
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup

OPPOSED_STYLE = {"win": "$success", "tie": "$warning", "lose": "$error"}
DECIDED = {"outcome": "выше исход", "difficulty": "ниже итоговая сложность"}
SIDE_HELP = [
    ("нет", ""),
    ("снизить сложность на 1", "difficulty"),
    ("+1 переброс", "reroll"),
]
CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 78; max-width: 100%; height: auto; max-height: 100%;
    border: round $warning; background: $surface; padding: 0 1;
}}
{name} .opp-field {{ height: 1; }}
{name} .opp-field Label {{ width: auto; }}
{name} .opp-field Input {{ width: 1fr; }}
{name} #opp-steps {{ height: auto; max-height: 14; }}
"""


def odds_names(a: str, b: str) -> dict[str, str]:
    """Name win / tie / lose from the first side's view."""
    # OddsBars reads its labels as markup: a name the GM typed stays text.
    return {"win": f"побеждает {escape(a)}", "tie": "равенство", "lose": f"побеждает {escape(b)}"}


def verdict(result: ide4.OpposedResult) -> str:
    """Return the comparison in words (plain text)."""
    if result.winner is None:
        choice = ide4.TIE_RESOLUTIONS.get(result.resolution)
        if not choice:
            return "равенство — мастер выбирает: без изменений или цена обеим сторонам"
        return f"равенство — {choice}" + (f": {result.price}" if result.price else "")
    side = result.a if result.winner == "a" else result.b
    return f"побеждает {side.input.actor or 'сторона'} ({DECIDED[result.decided_by]})"


def opposed_text(result: ide4.OpposedResult) -> str:
    """Return the Журнал line: both checks' summaries and the comparison."""
    return f"Противоборство: {ide4.summary(result.a)}; {ide4.summary(result.b)} — {verdict(result)}"


class OpposedSetupScreen(StyledOnce, ModalScreen[Any]):
    """The second side of an opposed check; the exact win / tie / lose odds; Enter rolls.

    The second side is a check of its own on the table engine's form (:mod:`tui.table.check`):
    its rows are derived from its choices and its character's sheet — another opponent's
    energy die is his own nominal, a skill brings its attribute — never kept from the last."""

    DEFAULT_CSS = CSS.format(name="OpposedSetupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить обоих", id="ide4-opp-go"),
        Binding("escape", "cancel", "Отмена", id="ide4-opp-cancel"),
    ]
    STEPPER_FORM = True  # its steppers' Changed messages come here directly
    ROWS = ("character", "attribute", "skill", "base", "die", "energy", "help")

    def __init__(
        self,
        characters: list[Character],
        first: ide4.CheckInput,
        default: str | None,
        world: Callable[[], World] | None = None,
    ):
        super().__init__()
        self.characters = {c.id: c for c in characters}
        self.first = first
        self.default = default
        self._world = world
        # Derived as an expanded check (its energy and help rows count); rolled at the
        # first side's level (:meth:`second`).
        blank = Ide4Check(inputs=Inputs(level="expanded"))
        self.side = blank
        if default:
            self.side = steps.set_input(blank, self.world(), "character", default).state

    def world(self) -> World:
        """The party as the store has it now (only the second side's possible characters)."""
        base = self._world() if self._world is not None else World(characters={})
        party = {cid: c for cid, c in base.characters.items() if cid in self.characters}
        return World(characters=party or self.characters, effects=base.effects, dice=base.dice)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"[b]Противоборство[/b]: {escape(self.first.actor)} — "
                f"{escape(ide4.resolve_difficulty(self.first).label)} "
                "(из формы) против второй стороны. Каждый делает свою проверку."
            )
            yield Stepper("Соперник", id="opp-character")
            yield Stepper("Атрибут", id="opp-attribute")
            yield Stepper("Навык", id="opp-skill")
            yield Stepper("Сложность", txt.BASE_OPTIONS[:-1], id="opp-base", wrap=False)
            with Horizontal(classes="opp-field"):
                yield Label("Модификаторы  ")
                yield ReadyInput(placeholder=mods_hint("+1 темнота"), id="opp-mods", compact=True)
            yield Stepper("Куб энергии", id="opp-die")
            yield Stepper("Энергия до", id="opp-energy")
            yield Stepper("Помощь", SIDE_HELP, id="opp-help")
            yield Static(id="opp-formula")
            yield OddsBars(OPPOSED_STYLE, id="opp-odds")
            yield Static("[dim]Enter — бросить обоих · Esc — отмена[/]")

    def on_mount(self) -> None:
        self.query_one("#opp-base", Stepper).typed_digits = True
        self._draw()
        self.query_one("#opp-character", Stepper).focus()

    @property
    def character(self) -> Character | None:
        """The second side's character."""
        return self.characters.get(self.query_one("#opp-character", Stepper).value)

    def _shown(self) -> Any:
        return view(self.side, self.world())

    def _draw(self) -> None:
        """Draw every row from the second side's derived view, then its odds."""
        shown = self._shown()
        for name in self.ROWS:
            row = shown.rows[name]
            options = row.options
            if name == "base":
                options = tuple(txt.BASE_OPTIONS[:-1])
            elif name == "help":
                options = tuple(SIDE_HELP)
            stepper = self.query_one(f"#opp-{name}", Stepper)
            if stepper.options != list(options) or stepper.value != row.value:
                stepper.set_options(options, row.value)
        self._recompute()

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        event.stop()
        name = (event.stepper.id or "").removeprefix("opp-")
        self._set(name, event.value)

    @on(Input.Changed, "#opp-mods")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._set("mods", event.value)

    def _set(self, name: str, value: Any) -> None:
        made = steps.set_input(self.side, self.world(), name, value)
        if made.ok:
            self.side = made.state
        self._draw()

    def second(self) -> ide4.CheckInput:
        """Return the second side's inputs (raises RulesError)."""
        shown = self._shown()
        if shown.input is None:
            raise RulesError(shown.error or "Выберите вторую сторону.")
        return replace(shown.input, level=self.first.level, intent="", impossible_reason="")

    def _recompute(self) -> None:
        formula = self.query_one("#opp-formula", Static)
        bars = self.query_one("#opp-odds", OddsBars)
        try:
            b = self.second()
            ide4.validate(b)
            odds = ide4.opposed_odds(self.first, b)
        except RulesError as err:
            show_markup(formula, f"[$error]{escape(str(err))}[/]")
            show_markup(bars, "")
            return
        da, db = ide4.resolve_difficulty(self.first), ide4.resolve_difficulty(b)
        if da.final == db.final:
            same = "одинаковый исход при равной сложности — равенство, решает мастер"
        else:
            lower = self.first.actor if da.final < db.final else b.actor
            same = f"одинаковый исход — побеждает {lower}: ниже итоговая сложность"
        show_markup(
            formula,
            f"{txt.difficulty_line(db)}\n[dim]{escape(same)}[/]",
        )
        bars.show(odds, odds_names(self.first.actor, b.actor), ide4.OPPOSED_OUTCOMES)

    @on(Input.Submitted, "#opp-mods")
    def action_go(self) -> None:
        """Roll both sides."""
        try:
            b = self.second()
            ide4.opposed_odds(self.first, b)  # refuses [00]
            ide4.validate(b)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.dismiss(b)

    def action_cancel(self) -> None:
        """Close without rolling."""
        self.dismiss(None)

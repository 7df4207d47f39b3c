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
from rules.modifiers import parse_modifiers
from tui.bridge.effects import effect_steps
from tui.store import Character
from tui.table.check import ide4_text as txt
from tui.widgets.builders.base import character_label, mods_hint
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
    """The second side of an opposed check; the exact win / tie / lose odds; Enter rolls."""

    DEFAULT_CSS = CSS.format(name="OpposedSetupScreen")
    BINDINGS = [
        Binding("enter", "go", "Бросить обоих", id="ide4-opp-go"),
        Binding("escape", "cancel", "Отмена", id="ide4-opp-cancel"),
    ]

    def __init__(self, characters: list[Character], first: ide4.CheckInput, default: str | None):
        super().__init__()
        self.characters = {c.id: c for c in characters}
        self.first = first
        self.default = default

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
        stepper = self.query_one("#opp-character", Stepper)
        stepper.set_options(
            [(character_label(c), c.id) for c in self.characters.values()], self.default
        )
        self.query_one("#opp-base", Stepper).select(3)
        self._traits()
        stepper.focus()

    @property
    def character(self) -> Character | None:
        """The second side's character."""
        return self.characters.get(self.query_one("#opp-character", Stepper).value)

    @on(Stepper.Changed, "#opp-character")
    def _traits(self) -> None:
        c = self.character
        if c is None:
            return
        self.query_one("#opp-attribute", Stepper).set_options(txt.attribute_options(c))
        self.query_one("#opp-skill", Stepper).set_options(txt.skill_options(c))
        self._energy()

    @on(Stepper.Changed, "#opp-attribute")
    @on(Stepper.Changed, "#opp-die")
    def _energy(self) -> None:
        c = self.character
        if c is None:
            return
        level = c.qualities.get(self.query_one("#opp-attribute", Stepper).value or "", 3)
        die, energy = self.query_one("#opp-die", Stepper), self.query_one("#opp-energy", Stepper)
        try:
            nominal = ide4.energy_rules().nominal(level)
        except RulesError:
            die.set_options([])
            energy.set_options([("нет: уровень атрибута вне таблицы номиналов", 0)])
            self._recompute()
            return
        die.set_options(txt.die_options(nominal), die.value)
        pool = int(c.extra.get("energy", 100))
        energy.set_options(txt.energy_options(pool, die.value or nominal), energy.value)
        self._recompute()

    def second(self) -> ide4.CheckInput:
        """Return the second side's inputs (raises RulesError)."""
        c = self.character
        if c is None:
            raise RulesError("Выберите вторую сторону.")
        attribute = self.query_one("#opp-attribute", Stepper).value or ""
        skill = c.skill(self.query_one("#opp-skill", Stepper).value or "")
        mods = parse_modifiers(self.query_one("#opp-mods", Input).value)
        base = self.query_one("#opp-base", Stepper).value
        return ide4.CheckInput(
            actor=c.name,
            attribute=attribute,
            attribute_level=c.qualities.get(attribute, 3),
            skill=skill.name if skill else "",
            mastery=skill.value if skill else 0,
            base=base,
            # the target's active effects, as the builder adds the actor's (issue 17)
            modifiers=tuple(ide4.Modifier(m.value, m.reason) for m in mods) + effect_steps(self, c),
            pinned_seven=base == 7,
            energy_pool=int(c.extra.get("energy", 100)),
            energy_dice=self.query_one("#opp-energy", Stepper).value or 0,
            energy_die=self.query_one("#opp-die", Stepper).value or 0,
            help=self.query_one("#opp-help", Stepper).value or "",
            level=self.first.level,
            daily_triumph_used=bool(c.extra.get("daily_triumph_used", False)),
        )

    @on(Stepper.Changed, "#opp-skill")
    @on(Stepper.Changed, "#opp-base")
    @on(Stepper.Changed, "#opp-energy")
    @on(Stepper.Changed, "#opp-help")
    @on(Input.Changed, "#opp-mods")
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

"""The Проверка tab: the Древо check builder with live exact odds."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Rule, Static

from rules import drevo
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.render import one_sided_lines, one_sided_summary, signed
from tui.store import Character
from tui.widgets.builder import CheckRolled
from tui.widgets.oddsbars import OddsBars
from tui.widgets.stepper import Stepper


def trait_options(c: Character) -> list[tuple[str, str]]:
    """Return the character's traits as stepper options: skills first, then qualities."""
    options = [
        (
            f"{s.name} {signed(s.value)} — навык" + (f" ({s.parent})" if s.parent else ""),
            s.name,
        )
        for s in c.skills
    ]
    options += [(f"{name} {signed(v)} — качество", name) for name, v in c.qualities.items()]
    return options


class DrevoBuilder(Vertical):
    """Character → trait → difficulty → modifiers; odds update on every change; Enter rolls."""

    BINDINGS = [
        Binding("enter", "roll", "Бросить", id="check-roll", tooltip="Бросить 4dF"),
    ]

    def compose(self) -> ComposeResult:
        yield Stepper("Персонаж", id="check-character")
        yield Stepper("Черта", id="check-trait")
        yield Stepper(
            "Сложность",
            [(f"{signed(r.value)} {r.name}", r.value) for r in drevo.ladder()],
            id="check-difficulty",
        )
        with Horizontal(id="check-mods-row"):
            yield Label("Модификаторы  ")
            yield Input(placeholder="+1 высота, -2 темнота", id="check-mods", compact=True)
        yield Static(id="check-formula")
        yield Rule(line_style="heavy")
        yield OddsBars(id="check-odds")
        yield Rule(line_style="heavy")
        yield Static("Enter — бросить 4dF.", id="check-result")

    def on_mount(self) -> None:
        self.query_one("#check-difficulty", Stepper).select(0)

    def set_characters(self, characters: list[Character], selected: str | None = None) -> None:
        """Offer ``characters``; keep the current choice when it still exists."""
        self._characters = {c.id: c for c in characters}
        stepper = self.query_one("#check-character", Stepper)
        keep = selected or stepper.value
        stepper.set_options(
            [(f"{c.name} ({'игрок' if c.kind == 'pc' else 'НИП'})", c.id) for c in characters],
            keep,
        )
        self._refresh_traits()

    def choose_character(self, character_id: str) -> None:
        """Select a character (from the party tab) and focus the trait row."""
        self.query_one("#check-character", Stepper).select(character_id)
        self._refresh_traits()
        self.query_one("#check-trait", Stepper).focus()

    @property
    def character(self) -> Character | None:
        """Return the chosen character."""
        return getattr(self, "_characters", {}).get(self.query_one("#check-character").value)

    def _refresh_traits(self) -> None:
        trait = self.query_one("#check-trait", Stepper)
        character = self.character
        trait.set_options(trait_options(character) if character else [], trait.value)
        self._recompute()

    @on(Stepper.Changed, "#check-character")
    def _character_changed(self) -> None:
        self._refresh_traits()

    @on(Stepper.Changed, "#check-trait")
    @on(Stepper.Changed, "#check-difficulty")
    @on(Input.Changed, "#check-mods")
    def _inputs_changed(self) -> None:
        self._recompute()

    @on(Input.Submitted, "#check-mods")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_roll()

    def current_check(self) -> drevo.OneSidedCheck:
        """Build the check from the form; raises RulesError for a bad modifier list."""
        character = self.character
        if character is None:
            raise RulesError("Выберите персонажа: в партии пока никого нет.")
        trait_name = self.query_one("#check-trait", Stepper).value
        value = character.trait(trait_name) if trait_name else None
        mods = parse_modifiers(self.query_one("#check-mods", Input).value)
        side = drevo.Side(
            trait=value or 0,
            modifiers=tuple(drevo.Modifier(m.value, m.reason) for m in mods),
            name=character.name,
            trait_name=trait_name or "без черты",
        )
        return drevo.OneSidedCheck(side, self.query_one("#check-difficulty", Stepper).value)

    def _recompute(self) -> None:
        formula = self.query_one("#check-formula", Static)
        try:
            check = self.current_check()
        except RulesError as err:
            formula.update(f"[$error]{err}[/]")
            return
        side = check.side
        base = side.trait + side.modifier_total
        formula.update(
            f"Бросок: 4dF {signed(base)} против {signed(check.difficulty)} "
            f"({drevo.difficulty_name(check.difficulty)})"
            + (f", модификаторы {signed(side.modifier_total)}" if side.modifiers else "")
            + " · Enter — бросить"
        )
        self.query_one("#check-odds", OddsBars).show(
            drevo.one_sided_odds(check), drevo.OUTCOME_NAMES, drevo.OUTCOMES
        )

    def action_roll(self) -> None:
        """Roll the built check and show every die, the total, the outcome and the margin."""
        try:
            check = self.current_check()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        result = drevo.roll_one_sided(check, self.app.rng)  # type: ignore[attr-defined]
        self.query_one("#check-result", Static).update("\n".join(one_sided_lines(result)))
        self.post_message(
            CheckRolled(
                result.check.side.name or None,
                one_sided_summary(result),
                {"system": "drevo", **result.to_dict()},
            )
        )

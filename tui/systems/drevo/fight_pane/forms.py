"""Forms of the Бой tab: a declaration, and an NPC added on the spot."""

from __future__ import annotations

from collections.abc import Callable

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static
from textual.widgets.data_table import RowDoesNotExist

from rules import drevo
from rules.encounter import ACTION_KINDS, ACTION_NAMES, ATTACKS, MAX_NOTE, Declaration
from rules.errors import RulesError
from tui.present.rolls import plain
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.text import show_markup

#: Weapon kinds that suit each action, best first (the rest stay choosable after them).
WEAPON_KINDS = {
    "melee": ("melee",),
    "parry": ("melee",),
    "shield": ("shield",),
    "throw": ("thrown", "melee"),
    "shoot": ("bow", "firearm"),
}


#: What an attacker engaged with his target does against other attackers (seed: «он может
#: сражаться одним из двух способов»; the campaign's default in ``drevo/fight.toml``).
OTHERS_CHOICES = [("его бросок встречает и их", "meet"), ("беззащитен против них", "helpless")]


class DeclarationForm(Vertical):
    """What the current declarer does: action, target, weapon, distance, how many turns."""

    STEPPER_FORM = True  # its steppers' Changed messages come here directly
    #: The fight's own check of a declaration (the Бой tab sets it): its problem ("" if none)
    #: and whether the GM may allow it all the same.
    check_with: Callable[[Declaration], tuple[str, bool]] | None = None

    DEFAULT_CSS = """
    DeclarationForm { height: auto; border-top: solid $primary; }
    DeclarationForm Horizontal { height: 1; }
    DeclarationForm Horizontal Label { width: auto; }
    DeclarationForm Input { width: 1fr; }
    DeclarationForm #declare-problem { color: $error; height: auto; }
    """

    def __init__(self, *, id: str | None = None, ask_others: bool = True) -> None:  # noqa: A002
        super().__init__(id=id)
        #: Whether the form asks «Против других» (the GM's choice; a player's seat does not).
        self.ask_others = ask_others

    def compose(self) -> ComposeResult:
        yield Static(id="declare-who")
        yield Stepper("Действие", [(ACTION_NAMES[k], k) for k in ACTION_KINDS], id="declare-action")
        yield Stepper("Цель", id="declare-target")
        yield Stepper("Оружие", id="declare-weapon")
        yield Stepper(
            "Дистанция",
            [(drevo.DISTANCE_NAMES[d], d) for d in drevo.DISTANCES],
            id="declare-distance",
        )
        yield Stepper("Ходов", [("1", 1), ("2", 2), ("3", 3), ("4", 4)], id="declare-turns")
        yield Stepper("Против других", OTHERS_CHOICES, id="declare-others")
        with Horizontal():
            yield Label("Заметка       ")
            yield ReadyInput(
                placeholder="например: выхватывает меч и бьёт",
                id="declare-note",
                compact=True,
                max_length=MAX_NOTE,  # the fight's own limit (its steps refuse a longer one)
            )
        yield Static(id="declare-problem")

    def prepare(
        self,
        actor: Character,
        weapons: list[str],
        targets: list[tuple[str, str]],
        start: Declaration | None = None,
        *,
        editing: bool = False,
    ) -> None:
        """Show the form for ``actor``; keep the choices that still make sense.

        ``start``: what the form starts on for a new declarer (his own last declaration, or
        his weapon against the first opponent: :func:`tui.systems.drevo.fight.declare.suggestion`);
        the same declarer drawn again keeps what the GM chose. ``editing``: a declaration
        made earlier this round is being changed.
        """
        before = getattr(self, "_actor", None)
        self._weapons = weapons
        self._actor = actor
        how = "Enter: изменить заявку, Esc: оставить" if editing else "Enter: объявить"
        show_markup(
            self.query_one("#declare-who", Static),
            f"{'Меняет заявку' if editing else 'Заявляет'} [b]{plain(actor.name)}[/b] — "
            f"{how}, ←/→ или буквы меняют",
        )
        target = self.query_one("#declare-target", Stepper)
        target.set_options(targets, target.value)
        was_editing = getattr(self, "_editing", None)
        fresh = before is None or before.id != actor.id or editing != was_editing
        self._editing = editing
        if fresh and start is not None:
            self.start_on(start)
        else:
            self._offer_weapons()
            if fresh and self.problem()[0]:
                self._fresh_choice()  # the last declarer's choice the rules refuse for this one
        if fresh:
            self.query_one("#declare-note", Input).value = start.note if start else ""
        self._check()
        self.call_after_refresh(self._show_declarer_row)

    def start_on(self, d: Declaration) -> None:
        """Put ``d`` in the form, row by row (no Changed messages)."""
        rows = {
            "#declare-action": d.action,
            "#declare-target": d.target,
            "#declare-distance": d.distance,
            "#declare-turns": d.turns,
            "#declare-others": d.others or "meet",
        }
        for selector, value in rows.items():
            stepper = self.query_one(selector, Stepper)
            with stepper.prevent(Stepper.Changed):
                stepper.set_options(stepper.options, value)
        self._offer_weapons(d.weapon or bridge.NO_WEAPON)

    def _fresh_choice(self) -> None:
        """Go back to the first action and distance («Ближний бой», «вплотную»): a new
        declarer without a bow must not inherit «Стрельба, средне» and its refusal."""
        action = self.query_one("#declare-action", Stepper)
        distance = self.query_one("#declare-distance", Stepper)
        with action.prevent(Stepper.Changed), distance.prevent(Stepper.Changed):
            action.index = 0
            distance.index = 0
        self._offer_weapons()

    def on_resize(self, event: events.Resize) -> None:
        """A longer refusal made the form taller and the order above shorter."""
        self.call_after_refresh(self._show_declarer_row)

    def _show_declarer_row(self) -> None:
        """Scroll the order above (which gives way to a long refusal here) to the row of
        whoever declares now."""
        actor = getattr(self, "_actor", None)
        tables = self.parent.query(DataTable) if self.parent is not None else None
        table = tables.first() if tables else None  # a seat shows the form without the order
        if actor is None or table is None:
            return
        try:
            row = table.get_row_index(actor.id)
        except RowDoesNotExist:
            return
        shown = max(1, table.size.height - 1)  # below the header
        if not table.scroll_y <= row < table.scroll_y + shown:
            table.scroll_to(y=max(0, row - shown + 1), animate=False, immediate=True)

    @on(Stepper.Changed, "#declare-action")
    def _action_changed(self) -> None:
        self._offer_weapons()
        self._check()

    def _show_others(self) -> None:
        """«Против других» applies to an attack only (a defence meets every attacker)."""
        action = self.query_one("#declare-action", Stepper).value
        shown = self.ask_others and action in ATTACKS
        self.query_one("#declare-others", Stepper).display = shown

    @on(Stepper.Changed)
    def _changed(self) -> None:
        self._check()

    def problem(self) -> tuple[str, bool]:
        """Return why the form's declaration breaks a rule, and whether the GM may allow it."""
        actor = getattr(self, "_actor", None)
        if actor is None:
            return "", True
        try:
            declaration = self.declaration(actor.id)
        except RulesError as err:
            return str(err), False
        if self.check_with is not None:  # the fight's own check (the Бой tab)
            return self.check_with(declaration)
        return bridge.declaration_problem(declaration, actor)

    def _check(self) -> None:
        problem, may_allow = self.problem()
        self.show_problem(problem, may_allow)
        if self.is_mounted:
            self.screen.refresh_bindings()  # «!» shows in the key bar only when it applies

    def show_problem(self, problem: str, may_allow: bool) -> None:
        """Show why the declaration is refused (and the GM's key when one applies)."""
        text = ""
        if problem:
            text = f"Нельзя: {plain(problem)}"
            hint = " [b]![/b] — исключение ведущего."
            # Within two lines at 80×24 (the key bar says «! Исключение» too); a longer
            # reason keeps all its words, and the order above gives way to it.
            if may_allow and len(text) + len(hint) - 7 <= 2 * max(self.size.width, 78):
                text += hint
        show_markup(self.query_one("#declare-problem", Static), text)

    def _offer_weapons(self, chosen: str | None = None) -> None:
        """Offer the weapons that suit the action first (a bow for shooting, a blade for melee);
        ``chosen`` stays chosen when the fighter has it."""
        action = self.query_one("#declare-action", Stepper).value
        self._show_others()
        suits = WEAPON_KINDS.get(action, ())
        weapons = getattr(self, "_weapons", [bridge.NO_WEAPON])
        fitting = [w for w in weapons if drevo.weapon(w).kind in suits]
        if action in ("melee", "parry") and bridge.NO_WEAPON not in fitting:
            fitting.append(bridge.NO_WEAPON)
        ordered = fitting + [w for w in weapons if w not in fitting]
        stepper = self.query_one("#declare-weapon", Stepper)
        first = chosen if chosen in ordered else (ordered[0] if ordered else None)
        stepper.set_options([(w, w) for w in ordered], first)

    def declaration(self, actor_id: str) -> Declaration:
        """Return the declaration in the form; raises RulesError when it is impossible."""
        action = self.query_one("#declare-action", Stepper).value
        target = self.query_one("#declare-target", Stepper).value
        weapon = self.query_one("#declare-weapon", Stepper).value
        return Declaration(
            actor=actor_id,
            action=action,
            target=target if action in ATTACKS else None,
            weapon=None if weapon == bridge.NO_WEAPON else weapon,
            distance=self.query_one("#declare-distance", Stepper).value,
            turns=self.query_one("#declare-turns", Stepper).value,
            note=self.query_one("#declare-note", Input).value.strip(),
            others=self.query_one("#declare-others", Stepper).value
            if action in ATTACKS and self.ask_others
            else "",
        )


class NpcForm(StyledOnce, ModalScreen[Character | None]):
    """Add an NPC on the spot: name, skills («Драка 2, Уклонение 1») and a weapon."""

    DEFAULT_CSS = """
    NpcForm { align: center middle; }
    NpcForm > Vertical {
        width: 70; max-width: 95%; height: auto; border: round $accent;
        background: $surface; padding: 0 1;
    }
    NpcForm Input { margin: 0; }
    NpcForm #npc-error { color: $error; height: auto; }
    """

    ENTER_TEXT = "Добавить"  # the key bar says what Enter does
    BINDINGS = [Binding("escape", "dismiss(None)", "Отмена", id="npc-cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Новый НИП[/b] (Enter — добавить, Esc — отмена)")
            yield Label("Имя")
            yield ReadyInput(id="npc-name", placeholder="например: Разбойник")
            yield Label("Навыки")
            yield ReadyInput(
                id="npc-skills", placeholder="например: Драка 2, Уклонение 1, Стрельба 1"
            )
            yield Stepper(
                "Оружие",
                [(w, w) for w in [*drevo.weapons()]],
                id="npc-weapon",
            )
            yield Static(id="npc-error")

    def on_mount(self) -> None:
        self.query_one("#npc-weapon", Stepper).select(bridge.NO_WEAPON)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_add()

    def key_enter(self, event: events.Key) -> None:
        # Enter on the weapon row; the key must not reach the screen below the dialog.
        event.stop()
        event.prevent_default()
        self.action_add()

    def action_add(self) -> None:
        """Validate and return the new NPC; a bad field gets a message, nothing is saved."""
        try:
            npc = bridge.adhoc_npc(
                self.query_one("#npc-name", Input).value,
                self.query_one("#npc-skills", Input).value,
                self.query_one("#npc-weapon", Stepper).value,
            )
        except RulesError as err:
            self.query_one("#npc-error", Static).update(str(err))
            return
        self.dismiss(npc)

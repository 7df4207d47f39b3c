"""The Бой tab's declarations: the order of the round, each combatant's declaration from the
form (checked by the rules; the GM's «!» allows what they leave to the GM), then the dice."""

from __future__ import annotations

from textual.widgets import DataTable

from rules.errors import RulesError
from tui.sanitize import cell
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.declare import redeclare, repeat_round, suggestion
from tui.systems.drevo.fight.text import fighter_state, short_declaration
from tui.systems.drevo.fight_pane.forms import DeclarationForm
from tui.systems.drevo.fight_pane.part import DrevoPart
from tui.systems.drevo.present import declaration_text
from tui.widgets.common.choice import Choice, ChoiceScreen


class DeclareMixin(DrevoPart):
    """The declaration phase (mixed into ``CombatPane``)."""

    def _draw_order(self) -> None:
        enc = self.encounter
        can_act = self._can_act()
        table = self.query_one("#combat-order", DataTable)
        table.clear()
        declared = {d.actor: d for d in enc.all_declarations()}
        names = {cid: cell(name) for cid, name in self._names().items()}  # cut for a cell
        order = enc.declaring_order(can_act)
        busy = [c for c in enc.combatants if c.character_id in {d.actor for d in enc.carried}]
        world = self.world()

        def state(cid: str) -> str:
            mods = [(m.value, m.reason) for m in world.modifiers(cid)]
            return fighter_state(self.characters.get(cid), mods)

        for c in [*order, *busy]:
            d = declared.get(c.character_id)
            text = short_declaration(d, names) if d else "…"
            state_text = state(c.character_id)
            table.add_row(c.side, cell(c.name), state_text, text, key=c.character_id)
        for c in enc.combatants:
            if c not in order and c not in busy:
                why = "выбыл: " + (state(c.character_id).split(",")[0])
                table.add_row(c.side, cell(c.name), state(c.character_id), why, key=c.character_id)
        for gone in enc.left:  # taken out of the fight: still named, with why
            if enc.combatant(gone.get("id", "")) is None:
                why = "выбыл: " + (gone.get("reason") or "убран из боя")
                table.add_row(gone.get("side", ""), cell(str(gone.get("name", ""))), "", why)
        editing = getattr(self, "_editing", None)
        current = enc.combatant(editing) if editing else enc.next_declarer(can_act)
        form = self.query_one(DeclarationForm)
        if current is None or current.character_id not in self.characters:
            form.display = False
            return
        form.display = True
        actor = self.characters[current.character_id]
        targets = [
            (self._marked(c.name, c.character_id), c.character_id)
            for c in enc.combatants
            if c.side != current.side
            and c.character_id in self.characters
            and not bridge.is_dead(self.characters[c.character_id])
        ]
        world = self.world()
        form.check_with = lambda d: steps.declaration_problem(enc, world, d)
        if editing:
            start = next((d for d in enc.declarations if d.actor == editing), None)
        else:
            start = suggestion(enc, world, current.character_id)
        form.prepare(actor, bridge.weapon_names(actor), targets, start, editing=bool(editing))

    def _allowable(self) -> bool:
        """Whether the form's declaration breaks a rule the GM may set aside."""
        current = self.encounter.next_declarer(self._can_act())
        if current is None and not getattr(self, "_editing", None):
            return False
        problem, may_allow = self.query_one(DeclarationForm).problem()
        return bool(problem) and may_allow

    def action_declare(self, allow: bool = False) -> None:
        """Record the current declarer's action from the form (refused when illegal)."""
        editing = getattr(self, "_editing", None)
        if editing:
            self._redeclare(editing, allow)
            return
        current = self.encounter.next_declarer(self._can_act())
        if current is None:
            self.act(steps.start_resolution, then=lambda _step: self._focus_phase())
            return
        form = self.query_one(DeclarationForm)
        try:
            declaration = form.declaration(current.character_id)
        except RulesError as err:
            form.show_problem(str(err), False)
            return
        problem, may_allow = form.problem()
        if problem and not (allow and may_allow):
            form.show_problem(problem, may_allow)  # the form says why, and the GM's key
            return
        # the next declarer on the form's first row, or the dice
        self.act(steps.declare, declaration, allow=allow, then=lambda _step: self._focus_phase())

    def _redeclare(self, character_id: str, allow: bool) -> None:
        form = self.query_one(DeclarationForm)
        try:
            declaration = form.declaration(character_id)
        except RulesError as err:
            form.show_problem(str(err), False)
            return
        problem, may_allow = form.problem()
        if problem and not (allow and may_allow):
            form.show_problem(problem, may_allow)
            return

        def done(_step: str) -> None:
            self._editing = None
            self._redraw()
            self._focus_phase()

        self.act(redeclare, declaration, allow=allow, then=done)

    def action_repeat_round(self) -> None:
        """Declare everyone left as in the last round («как в прошлом раунде»): one step."""
        self.act(repeat_round, then=lambda _step: self._focus_phase())

    def action_change_declaration(self) -> None:
        """Choose a declaration of this round to change in place (the later ones stay)."""
        names = {cid: cell(name) for cid, name in self._names().items()}  # cut for a cell

        def chosen(cid: str | None) -> None:
            if cid:
                self._editing = cid
                self._redraw()
                self._focus_phase()

        choices = [
            Choice(f"{names.get(d.actor, '?')}: {declaration_text(d, names)}", d.actor)
            for d in self.encounter.declarations
        ]
        self.app.push_screen(ChoiceScreen("Изменить заявку", choices), chosen)

    def action_cancel_change(self) -> None:
        """Leave the declaration being changed as it was."""
        self._editing = None
        self._redraw()
        self._focus_phase()

    def action_allow(self) -> None:
        """Declare what the rules refuse, as the GM's exception («исключение ведущего»)."""
        self.action_declare(allow=True)

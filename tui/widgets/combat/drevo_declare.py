"""The Бой tab's declarations: the order of the round, each combatant's declaration from the
form (checked by the rules; the GM's «!» allows what they leave to the GM), then the dice."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable

from rules.errors import RulesError
from tui.bridge import combat as bridge
from tui.present.combat import declaration_text
from tui.store import Character
from tui.table.fight import steps
from tui.widgets.combat.drevo_forms import DeclarationForm


class DeclareMixin:
    """The declaration phase (mixed into ``CombatPane``)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any

    def _draw_order(self) -> None:
        enc = self.encounter
        can_act = self._can_act()
        table = self.query_one("#combat-order", DataTable)
        table.clear()
        declared = {d.actor: d for d in enc.all_declarations()}
        names = self._names()
        order = enc.declaring_order(can_act)
        busy = [c for c in enc.combatants if c.character_id in {d.actor for d in enc.carried}]
        for number, c in enumerate([*order, *busy], start=1):
            d = declared.get(c.character_id)
            text = declaration_text(d, names) if d else "…"
            name = self._marked(c.name, c.character_id)
            table.add_row(str(number), c.side, name, text, key=c.character_id)
        for c in enc.combatants:
            if c not in order and c not in busy:
                mark = self._marked(c.name, c.character_id)
                table.add_row("—", c.side, mark, "не действует", key=c.character_id)
        current = enc.next_declarer(can_act)
        form = self.query_one(DeclarationForm)
        if current is None:
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
        form.prepare(actor, bridge.weapon_names(actor), targets)

    def _allowable(self) -> bool:
        """Whether the form's declaration breaks a rule the GM may set aside."""
        current = self.encounter.next_declarer(self._can_act())
        if current is None:
            return False
        problem, may_allow = self.query_one(DeclarationForm).problem()
        return bool(problem) and may_allow

    def action_declare(self, allow: bool = False) -> None:
        """Record the current declarer's action from the form (refused when illegal)."""
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

    def action_allow(self) -> None:
        """Declare what the rules refuse, as the GM's exception («исключение ведущего»)."""
        self.action_declare(allow=True)

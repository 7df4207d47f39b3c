"""The Бой tab: the sides, their initiative and the order in which they declare."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from rules.initiative import InitiativeRoll, declaration_order, roll_side_initiative
from tui.render import fudge_dice, signed
from tui.sheets import wounds_text
from tui.store import Character

SIDE_OF_KIND = {"pc": "Отряд", "npc": "Противники"}


class CombatPane(Vertical):
    """Show combatants grouped by side, in declaration order for the current round."""

    BINDINGS = [
        Binding("i", "initiative", "Инициатива", id="combat-initiative"),
        Binding("n", "next_round", "След. раунд", id="combat-next-round"),
    ]

    @dataclass
    class InitiativeRolled(Message):
        """Side initiative was rolled."""

        rolls: tuple[InitiativeRoll, ...]

    round_number: int = 0
    initiative: tuple[InitiativeRoll, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="combat-status")
        table: DataTable[str] = DataTable(id="combat-table", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        self.query_one("#combat-table", DataTable).add_columns("№", "Сторона", "Имя", "Раны")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_round":
            return bool(self.initiative)
        return True

    def show(self, characters: list[Character]) -> None:
        """Redraw the order from the party: sides by initiative, then by name within a side."""
        self._characters = characters
        sides = self._side_order()
        table = self.query_one("#combat-table", DataTable)
        table.clear()
        number = 0
        for side in sides:
            for c in characters:
                if SIDE_OF_KIND.get(c.kind) == side:
                    number += 1
                    table.add_row(str(number), side, c.name, wounds_text(c.wounds), key=c.id)
        self._show_status(sides)

    def _side_order(self) -> list[str]:
        if not self.initiative:
            return list(dict.fromkeys(SIDE_OF_KIND.values()))
        return declaration_order([r.side for r in self.initiative], self.round_number)

    def _show_status(self, sides: list[str]) -> None:
        status = self.query_one("#combat-status", Static)
        if not self.initiative:
            status.update("Инициатива не брошена — [b]i[/b]: бросить 4dF за каждую сторону.")
            return
        rolls = "; ".join(
            f"{r.side} {' → '.join(fudge_dice(d, markup=True) for d in r.rolls)}"
            f" = {signed(r.final)}"
            for r in self.initiative
        )
        status.update(
            f"[b]Раунд {self.round_number}[/b]. Заявляют: {' → '.join(sides)}\nИнициатива: {rolls}"
        )

    def action_initiative(self) -> None:
        """Roll 4dF per side (ties reroll) and start round 1."""
        sides = list(dict.fromkeys(SIDE_OF_KIND[c.kind] for c in getattr(self, "_characters", [])))
        if len(sides) < 2:
            self.app.notify("Для боя нужны две стороны: игроки и НИП.", severity="warning")
            return
        self.initiative = roll_side_initiative(sides, self.app.rng)  # type: ignore[attr-defined]
        self.round_number = 1
        self.show(self._characters)
        self.refresh_bindings()
        self.post_message(self.InitiativeRolled(self.initiative))

    def action_next_round(self) -> None:
        """Advance the round counter; the declaration order reverses."""
        self.round_number += 1
        self.show(self._characters)

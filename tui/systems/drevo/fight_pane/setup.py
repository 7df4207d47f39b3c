"""The Бой tab's setup: who fights on which side, an NPC added on the spot, and the order of
the sides — rolled initiative (4dF a side) or the GM's ambush."""

from __future__ import annotations

from textual import events
from textual.widgets import DataTable, Input, Static

from tui import words
from tui.sanitize import cell
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight_pane.forms import NpcForm
from tui.systems.drevo.fight_pane.part import DrevoPart
from tui.systems.drevo.sheet import wounds_text
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.focus import focus_now

SIDE_CYCLE = ("—", "Отряд", "Противники", "Третья сторона")
#: The most rows the roster holds (the Партия tab's way: 5,000 rows took 2 s to build at
#: every redraw); «f» — the filter by name — finds anyone else.
ROSTER_ROWS = 300


class SetupMixin(DrevoPart):
    """The setup phase: the roster, its keys, the start of round 1 (mixed into ``CombatPane``)."""

    def _draw_roster(self) -> None:
        table = self.query_one("#combat-roster", DataTable)
        row = table.cursor_row
        sides = {c.character_id: c.side for c in self.encounter.combatants}
        needle = getattr(self, "_roster_filter", "").casefold()
        found = [c for c in self.characters.values() if needle in c.name.casefold()]
        hidden = max(0, len(found) - ROSTER_ROWS)
        more = self.query_one("#combat-roster-more", Static)
        more.display = bool(hidden)
        if hidden:
            count = words.plural(hidden, "персонаж", "персонажа", "персонажей")
            more.update(f"Ещё {count} не в списке: «f» — фильтр по имени найдёт любого.")
        rows = [
            (
                c.id,
                (
                    sides.get(c.id, "—"),
                    cell(c.name),  # a 10,000-character name pushed every other column off
                    "Игрок" if c.kind == "pc" else "НИП",
                    ", ".join(c.weapons) or "—",
                    wounds_text(c.drevo.wounds)
                    + (  # on a line of its own: «… (тяжело ранен)» was cut at 80 columns
                        f"\n({words.wound_state(bridge.track_of(c))})"
                        if not bridge.can_act(c)
                        else ""
                    ),
                ),
            )
            for c in found[:ROSTER_ROWS]
        ]
        if rows == getattr(self, "_roster_rows", None):
            return  # nothing to redraw: the table (and its cursor) stay as they are
        self._roster_rows = rows
        table.clear()
        for key, cells in rows:
            table.add_row(*cells, key=key, height=1 + cells[-1].count("\n"))
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def action_filter_roster(self) -> None:
        """Show the roster's filter by name; Enter keeps it, Esc clears it."""
        field = self.query_one("#combat-filter", Input)
        field.display = True
        focus_now(field)

    # Named handlers (``@on`` is collected only from a message pump's own class body).
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "combat-filter":
            return
        event.stop()
        self._roster_filter = event.value.strip()
        self._draw_roster()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "combat-filter":
            return
        event.stop()
        field = self.query_one("#combat-filter", Input)
        field.display = bool(field.value.strip())
        focus_now(self.query_one("#combat-roster", DataTable))

    def on_key(self, event: events.Key) -> None:
        field = self.query_one("#combat-filter", Input)
        if event.key == "escape" and field.has_focus:
            event.stop()
            field.value = ""
            field.display = False
            focus_now(self.query_one("#combat-roster", DataTable))

    def action_cycle_side(self) -> None:
        """Move the highlighted character to the next side (or out of the fight)."""
        table = self.query_one("#combat-roster", DataTable)
        if table.row_count == 0:
            return
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        c = self.characters.get(key.value or "")
        if c is None:
            return
        current = next((x.side for x in self.encounter.combatants if x.character_id == c.id), "—")
        side = SIDE_CYCLE[(SIDE_CYCLE.index(current) + 1) % len(SIDE_CYCLE)]
        self.act(steps.set_side, c.id, None if side == "—" else side)

    def action_add_npc(self) -> None:
        """Add an NPC on the spot: name, skills, weapon; it joins the party and the enemies."""

        def added(npc: Character | None) -> None:
            self.call_after_refresh(self._focus_phase)  # back on the roster, keys working
            if npc is not None:
                self.act(steps.add_npc, npc)

        self.app.push_screen(NpcForm(), added)

    def action_initiative(self) -> None:
        """Roll 4dF per side (ties reroll) and start round 1."""
        self.act(steps.roll_initiative, then=lambda _step: self._focus_phase())

    def action_ambush(self) -> None:
        """Let the GM set the side order (an ambush): pick who acts first, then next…"""
        remaining = list(self.encounter.sides)
        if len(remaining) < 2:
            self.app.notify("Для боя нужны хотя бы две стороны.", severity="error")
            return
        chosen: list[str] = []

        def pick(side: str | None) -> None:
            if side is None:
                return
            chosen.append(side)
            remaining.remove(side)
            if len(remaining) > 1:
                self.app.push_screen(self._order_screen(len(chosen) + 1, remaining), pick)
                return
            order = chosen + remaining
            self.act(steps.ambush, order, then=lambda _step: self._focus_phase())

        self.app.push_screen(self._order_screen(1, remaining), pick)

    def _order_screen(self, place: int, sides: list[str]) -> ChoiceScreen:
        return ChoiceScreen(f"Кто ходит {place}-м?", [Choice(s, s) for s in sides])

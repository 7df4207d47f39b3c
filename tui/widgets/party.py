"""The Партия tab: the party in a table and the highlighted character's sheet."""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from rules import drevo
from rules.errors import RulesError
from tui import combat_bridge as bridge
from tui.sheets import columns, row, sheet_text, wounds_text
from tui.store import Character
from tui.widgets.choice import Choice, ChoiceScreen
from tui.widgets.prompt import TextPrompt


class PartyPane(Vertical):
    """List the campaign's characters; Enter opens the check builder for one."""

    BINDINGS = [
        Binding("enter", "check", "Проверка", id="party-check", tooltip="Проверка персонажа"),
        Binding("w", "wound", "Рана", id="party-wound", tooltip="Нанести рану (Древо)"),
        Binding("h", "heal", "Лечить", id="party-heal", tooltip="Вылечить рану (Древо)"),
        Binding(
            "g", "grant_fate", "+Судьба", id="party-fate-grant", tooltip="Ведущий даёт очко Судьбы"
        ),
        Binding(
            "o",
            "fate_circumstance",
            "Судьба: обстоятельство",
            id="party-fate-note",
            tooltip="Потратить очко Судьбы на благоприятное стечение обстоятельств",
        ),
    ]

    @dataclass
    class CheckRequested(Message):
        """The GM wants a check for this character."""

        character_id: str

    def compose(self) -> ComposeResult:
        table: DataTable[str] = DataTable(id="party-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="party-sheet")

    def on_mount(self) -> None:
        table = self.query_one("#party-table", DataTable)
        table.add_columns(*columns(self.app.store.campaign.system))  # type: ignore[attr-defined]

    def show(self, characters: list[Character]) -> None:
        """Redraw the table from the store's characters, keeping the cursor on the same one."""
        table = self.query_one("#party-table", DataTable)
        current = self.highlighted_id()
        table.clear()
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        for c in characters:
            table.add_row(*row(system, c), key=c.id)
        self._characters = {c.id: c for c in characters}
        if current in self._characters:
            table.move_cursor(row=table.get_row_index(current))
        self._show_sheet()

    def highlighted_id(self) -> str | None:
        """Return the id of the character under the cursor."""
        table = self.query_one("#party-table", DataTable)
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return key.value

    @on(DataTable.RowHighlighted, "#party-table")
    def _row_highlighted(self) -> None:
        self._show_sheet()
        self.refresh_bindings()

    @on(DataTable.RowSelected, "#party-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_check()

    def _show_sheet(self) -> None:
        sheet = self.query_one("#party-sheet", Static)
        character = getattr(self, "_characters", {}).get(self.highlighted_id())
        system = self.app.store.campaign.system  # type: ignore[attr-defined]
        sheet.update(sheet_text(system, character) if character else "В партии пока никого нет.")

    # -- Древо: wounds and Судьба ------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("wound", "heal", "grant_fate", "fate_circumstance"):
            if self.app.store.campaign.system != "drevo":  # type: ignore[attr-defined]
                return False
            c = self._highlighted()
            if c is None:
                return False
            if action == "heal":
                return any(c.wounds.values()) or bool(c.extra.get("dead"))
            if action == "fate_circumstance":
                return c.fate > 0 and drevo.fate_rules().allows("circumstance")
        return True

    def _highlighted(self) -> Character | None:
        return getattr(self, "_characters", {}).get(self.highlighted_id())

    def _save(self, c: Character, label: str, log: str) -> None:
        self.app.store.upsert_character(c, label=label)  # type: ignore[attr-defined]
        self.app.record("note", c.name, log, {"character": c.id})  # type: ignore[attr-defined]

    def action_wound(self) -> None:
        """Give the highlighted character a wound (the cascade applies)."""
        c = self._highlighted()
        if c is None:
            return

        def chosen(level: str | None) -> None:
            if level is None:
                return
            track = bridge.track_of(c).take(level)
            state = (
                " — погиб" if track.dead else ("" if track.can_act else " — не может действовать")
            )
            self._save(
                bridge.with_track(c, track),
                f"{c.name}: {drevo.level_name(level)}",
                f"Рана: {drevo.level_name(level)}. Раны: {wounds_text(track.counts)}{state}",
            )

        choices = [Choice(drevo.level_name(level), level) for level in drevo.LEVELS]
        self.app.push_screen(ChoiceScreen(f"Рана для {c.name}", choices), chosen)

    def action_heal(self) -> None:
        """Heal one wound of the highlighted character; each option says what it needs."""
        c = self._highlighted()
        if c is None:
            return
        track = bridge.track_of(c)

        def chosen(level: str | None) -> None:
            if level is None:
                return
            healed = bridge.track_of(c).heal(level)
            self._save(
                bridge.with_track(c, healed),
                f"{c.name}: вылечено — {drevo.level_name(level)}",
                f"Вылечено: {drevo.level_name(level)}. Раны: {wounds_text(healed.counts)}",
            )

        choices = [
            Choice(f"{drevo.level_name(level)} — {need}", level) for level, need in track.needs()
        ]
        self.app.push_screen(ChoiceScreen(f"Лечить {c.name}", choices), chosen)

    def action_grant_fate(self) -> None:
        """The GM gives the highlighted character one point of Судьба."""
        c = self._highlighted()
        if c is not None:
            self._save(
                replace(c, fate=c.fate + 1),
                f"{c.name}: +1 Судьба",
                f"Ведущий даёт очко Судьбы: теперь {c.fate + 1}",
            )

    def action_fate_circumstance(self) -> None:
        """Spend one Судьба on a favourable circumstance, with the GM's consent and a note."""
        c = self._highlighted()
        if c is None:
            return

        def noted(note: str | None) -> None:
            if not note:
                return
            try:
                left = drevo.spend_fate("circumstance", c.fate)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
            self._save(
                replace(c, fate=left),
                f"{c.name}: Судьба на обстоятельство",
                f"Судьба на благоприятное обстоятельство: {note} (осталось {left})",
            )

        self.app.push_screen(
            TextPrompt(f"{c.name}: что складывается в его пользу?", "с согласия ведущего"),
            noted,
        )

    def action_check(self) -> None:
        """Open the check builder for the highlighted character."""
        character_id = self.highlighted_id()
        if character_id:
            self.post_message(self.CheckRequested(character_id))

"""Древо (4dF): its :class:`~tui.registry.System` — the fight of exchanges, Судьба and wounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.registry import System
from tui.registry.base import BaseSystem, FormFields, SheetField
from tui.registry.tables import BESTIARY_TABLE, Table
from tui.sanitize import plain
from tui.systems.drevo.sheet import needs, track_of, wounds_text
from tui.words import signed, wound_state

if TYPE_CHECKING:
    from rules.drevo.sheet import DrevoSheet
    from tui.store import Character


class Drevo(BaseSystem):
    """Древо: its own Бой pane (exchanges), Судьба and the wound ladder on every sheet."""

    name = "drevo"
    title = "Древо"
    stat_label = "Качества"
    fight_pane = "tui.systems.drevo.fight_pane.pane:CombatPane"
    check_engine = "tui.systems.drevo.check.engine"
    builder = "tui.systems.drevo.builder.builder:DrevoBuilder"
    cli = "tui.systems.drevo.cli"
    fight_engine = "tui.systems.drevo.fight"
    fight_readers = "tui.systems.drevo.fight.readers"
    fight_requests = "tui.systems.drevo.seats"
    declaration_form = "tui.systems.drevo.fight_pane.forms:DeclarationForm"
    party_keys = "tui.systems.drevo.party_keys:DrevoKeys"
    undo_group = "tui.systems.drevo.undo:exchange_group"
    undo_name = "tui.systems.drevo.undo:step_name"
    commands = (("fight", "tui.systems.drevo.fight_cli:fight"),)
    seat_kinds = ("declare", "fate", "note")
    #: Судьба at the check only when the request names it, else in the fight.
    check_kinds = ("fate",)
    #: …and in the fight (an exchange's Судьба), with no open check.
    fight_kinds = ("fate",)
    sheet_fields = (
        SheetField("fate", "Судьба", 0, 10, "0–10"),
        # Сид: отбить летящее оружие можно «при помощи оружия ближнего боя и
        # специфического умения (если оно у персонажа есть)»: its place on the sheet.
        SheetField("parry_ability", "Отбивать стрелы", yes_no=True),
    )
    weapons = "tui.systems.drevo.sheet:weapon_names"
    set_keys = "tui.systems.drevo.sheet_keys"
    state_column = "Раны"
    sort_label = "по Судьбе"
    skill_parent = "skill"
    form = FormFields("Качества (−3…+5)", (-3, 5), 0, (-3, 5), "Драка 2, Щиты 2 (Драка)", "уровень")
    tables = (
        Table("drevo/ladder.toml", "Лестница сложности"),
        Table("drevo/damage.toml", "Урон: полосы, крит, односторонняя"),
        Table("drevo/weapons.toml", "Оружие и МУ"),
        Table("drevo/fate.toml", "Судьба"),
        Table("drevo/settings.toml", "Навык без обучения"),
        Table("drevo/wounds.toml", "Раны и лечение"),
        Table("drevo/actions.toml", "Действия в бою"),
        Table("drevo/fight.toml", "Бой: одновременность, несколько противников"),
        BESTIARY_TABLE,
    )

    def columns(self) -> tuple[str, ...]:
        return ("Судьба", "Раны", "Оружие")

    def row(self, c: Character) -> tuple[str, ...]:
        return (str(c.drevo.fate), wounds_text(c.drevo.wounds), ", ".join(c.weapons) or "—")

    def sheet_head(self, c: Character) -> str:
        return f", Судьба {c.drevo.fate}"

    def sheet_lines(self, c: Character) -> tuple[str, ...]:
        track = track_of(c)
        line = (
            f"[b]Оружие:[/b] {plain(', '.join(c.weapons)) or 'без оружия'}   "
            f"[b]Раны:[/b] {wounds_text(c.drevo.wounds)}"
        )
        if track.dead:
            line += " — [b $error]погиб[/]"
        elif not track.can_act:
            line += " — [b $error]не может действовать[/]"
        elif track.penalty:
            line += f" (штраф {signed(track.penalty)})"
        if c.drevo.parry_ability:
            line += "\n[b]Особое умение:[/b] отбивать летящее оружие (стрелы, ножи, камни)"
        # «Смерть: … ведущего.; Лёгкая рана: …» read badly: one full stop, at the end.
        healing = "; ".join(f"{name}: {need.rstrip('. ')}" for name, need in needs(track))
        return (line + (f"\n[b]Лечение:[/b] {healing}." if healing else ""),)

    def sort_value(self, c: Character) -> int:
        return c.drevo.fate

    def new_sheet(self, npc: bool) -> DrevoSheet:
        """A new character's Судьба: a PC's or an NPC's start (``drevo/fate.toml``)."""
        from rules import drevo
        from rules.drevo.sheet import DrevoSheet

        return DrevoSheet(fate=drevo.fate_rules().start(npc))

    def fresh_copy(self, c: Character) -> Character:
        """A copy starts with no wounds, alive."""
        from rules.drevo.sheet import DrevoSheet

        return c.edit_sheet(DrevoSheet, wounds={}, dead=False)

    def state(self, c: Character) -> str:
        """«тяжело ранен» or «погиб», under the Раны column."""
        return wound_state(track_of(c))

    def public_columns(self) -> tuple[str, ...]:
        return ("Судьба", "Раны")

    def public_row(self, c: Character) -> tuple[str, ...]:
        state = wound_state(track_of(c))  # the app's words (Партия, Бой)
        sheet = c.drevo
        return (str(sheet.fate), wounds_text(sheet.wounds) + (f" — {state}" if state else ""))


SYSTEM: System = Drevo()  # mypy checks it against the protocol

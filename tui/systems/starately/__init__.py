"""Старатели (2d6): its :class:`~tui.systems.System` — characteristics with their DM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.systems.base import BaseSystem
from tui.systems.tables import BESTIARY_TABLE, ROUND_TABLES, Table
from tui.words import signed

if TYPE_CHECKING:
    from tui.store import Skill


class Starately(BaseSystem):
    """Старатели: characteristics written with their DM, skills as «Навык-2», Риск."""

    name = "starately"
    title = "Старатели"
    stat_label = "Характеристики"
    check_engine = "tui.table.check.starately_engine"
    builder = "tui.widgets.builders.starately:StaratelyBuilder"
    opposed_action = "opposed"
    cli = "tui.cli.starately"
    seat_kinds = ("risk", "reroll", "note")
    check_kinds = ("risk",)
    tables = (
        Table("starately/dm.toml", "DM характеристик"),
        Table("starately/check.toml", "Сложности проверки"),
        *ROUND_TABLES,
        BESTIARY_TABLE,
    )

    def stat_text(self, name: str, value: int) -> str:
        from rules import starately

        return f"{name} {value} (DM {signed(starately.characteristic_dm(value))})"

    def skill_text(self, skill: Skill) -> str:
        return f"{skill.name}-{skill.value}"


SYSTEM = Starately()

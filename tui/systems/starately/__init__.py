"""Старатели (2d6): its :class:`~tui.registry.System` — characteristics with their DM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.registry import System
from tui.registry.base import BaseSystem, FormFields
from tui.registry.tables import BESTIARY_TABLE, ROUND_TABLES, Table
from tui.words import signed

if TYPE_CHECKING:
    from tui.store import Skill


class Starately(BaseSystem):
    """Старатели: characteristics written with their DM, skills as «Навык-2», Риск."""

    name = "starately"
    title = "Старатели"
    stat_label = "Характеристики"
    check_engine = "tui.systems.starately.check.engine"
    builder = "tui.systems.starately.builder.builder:StaratelyBuilder"
    opposed_action = "opposed"
    cli = "tui.systems.starately.cli"
    rounds = "tui.systems.starately.rounds:ROUNDS"
    form = FormFields(
        "Характеристики (2–15)", (2, 15), 7, (0, 4), "Медицина 3, Стрельба 1", "уровень"
    )
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

    def initiative_text(self) -> str:
        from rules.rounds.initiative import setting

        return f"2d6 + DM ({setting('starately', 'characteristic')})"


SYSTEM: System = Starately()  # mypy checks it against the protocol

"""Мир Тьмы (d10 pool): its :class:`~tui.registry.System` — dots, the health track."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.registry import System
from tui.registry.base import BaseSystem, FormFields
from tui.registry.tables import BESTIARY_TABLE, ROUND_TABLES, Table
from tui.systems.wod.sheet import dots

if TYPE_CHECKING:
    from tui.store import Skill


class Wod(BaseSystem):
    """Мир Тьмы: attributes and skills in dots, a contest as its opposed check."""

    name = "wod"
    title = "Мир Тьмы"
    stat_label = "Атрибуты"
    check_engine = "tui.systems.wod.check.engine"
    builder = "tui.systems.wod.builder.builder:WodBuilder"
    opposed_action = "contest"
    cli = "tui.systems.wod.cli"
    rounds = "tui.systems.wod.rounds:ROUNDS"
    form = FormFields(
        "Атрибуты (точки 1–5)", (1, 5), 1, (0, 5), "Расследование 3, Драка 2", "точки"
    )
    seat_kinds = ("reroll", "note")
    tables = (
        Table("wod/pool.toml", "Пул: n-again, успехи"),
        Table("rounds/health.toml", "Здоровье: клетки и штраф"),
        *ROUND_TABLES,
        BESTIARY_TABLE,
    )

    def stat_text(self, name: str, value: int) -> str:
        return f"{name} {dots(value)}"

    def skill_text(self, skill: Skill) -> str:
        return f"{skill.name} {dots(skill.value)}"

    def initiative_text(self) -> str:
        from rules.rounds.initiative import setting

        return f"d10 + инициатива листа ({' + '.join(setting('wod', 'attributes'))})"


SYSTEM: System = Wod()  # mypy checks it against the protocol

"""IDE4™ (d100): its :class:`~tui.registry.System` — energy, mastery bonuses, the round tracker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.registry import System
from tui.registry.base import BaseSystem, FormFields, SheetField, best_skill
from tui.registry.tables import BESTIARY_TABLE, ROUND_TABLES, Table
from tui.systems.ide4.sheet import ide4_bonuses

if TYPE_CHECKING:
    from tui.store import Character, Skill


class Ide4(BaseSystem):
    """IDE4™: energy on every sheet, skills with distances and mastery bonuses."""

    name = "ide4"
    title = "IDE4"
    stat_label = "Атрибуты"
    check_engine = "tui.systems.ide4.check.engine"
    builder = "tui.systems.ide4.builder.builder:Ide4Builder"
    opposed_action = "opposed"
    cli = "tui.systems.ide4.cli"
    rounds = "tui.systems.ide4.rounds:ROUNDS"
    sheet_fields = (
        SheetField("energy", "Энергия", 0, 100, "0–100"),
        SheetField("always_expanded", "Развёрнутая", yes_no=True),
    )
    sort_label = "по энергии"
    skill_parent = "attribute"
    skill_distances = True
    form = FormFields(
        "Атрибуты (уровень 1–6)", (1, 6), 3, (0, 100),
        "Взлом 65 (Мелкая моторика), Стрельба 25 (Мелкая моторика) [Д/Б]", "мастерство",
    )  # fmt: skip
    seat_kinds = ("energy", "expanded", "reroll", "note")
    check_kinds = ("energy", "expanded", "reroll")
    reroll_sources = "rules.ide4.state:REROLL_SOURCES"
    tables = (
        Table("ide4/bands.toml", "Полосы исходов"),
        Table("ide4/energy.toml", "Энергия и перебросы"),
        Table("ide4/skills.toml", "Пороги мастерства"),
        Table("ide4/actions.toml", "Действия, подбросок"),
        *ROUND_TABLES,
        BESTIARY_TABLE,
    )

    def columns(self) -> tuple[str, ...]:
        return ("Энергия", "Лучший навык")

    def row(self, c: Character) -> tuple[str, ...]:
        return (f"{c.ide4.energy}/100", best_skill(c))

    def stat_text(self, name: str, value: int) -> str:
        return f"{name} ур.{value}"

    def skill_text(self, skill: Skill) -> str:
        where = f" [{'/'.join(skill.distances)}]" if skill.distances else ""
        bonuses = ide4_bonuses(skill.value)
        return f"{skill.name} {skill.value}{where}" + (f" ({bonuses})" if bonuses else "")

    def sheet_head(self, c: Character) -> str:
        head = f", энергия {c.ide4.energy}/100"
        if c.ide4.always_expanded:
            head += ", всегда развёрнутая проверка"
        return head

    def initiative_text(self) -> str:
        return "проверка действия «Инициатива»; выше исход, затем итог"

    def sort_value(self, c: Character) -> int:
        return c.ide4.energy

    def public_columns(self) -> tuple[str, ...]:
        return ("Энергия",)

    def public_row(self, c: Character) -> tuple[str, ...]:
        return (f"{c.ide4.energy}/100",)


SYSTEM: System = Ide4()  # mypy checks it against the protocol

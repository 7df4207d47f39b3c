"""What most systems share: :class:`BaseSystem`, a :class:`~tui.systems.System` whose parts a
system's own class overrides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import systems as rules_systems
from tui.words import signed

if TYPE_CHECKING:
    from rules.systems import RulesSystem
    from tui.store import Character, Skill
    from tui.systems.tables import Table

#: The round tracker's pane of the Бой tab.
ROUNDS_PANE = "tui.widgets.combat.rounds:RoundsPane"


class BaseSystem:
    """A system's defaults: the round tracker, a generic sheet, no seat requests but a note."""

    name: str = ""
    title: str = ""
    stat_label: str = "Черты"
    fight_pane: str = ROUNDS_PANE
    check_engine: str = ""
    builder: str = ""
    opposed_action: str | None = None
    cli: str = ""
    seat_kinds: tuple[str, ...] = ("note",)
    check_kinds: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    fate_and_wounds: bool = False

    @property
    def rules(self) -> RulesSystem:
        """Its line in :mod:`rules.systems`."""
        return rules_systems.get(self.name)

    def columns(self) -> tuple[str, ...]:
        """Return the party table's columns after «Имя» and «Кто»."""
        return ("Лучший навык", "Навыков")

    def row(self, c: Character) -> tuple[str, ...]:
        """Return the party table's cells of ``c`` after its name and kind."""
        return (best_skill(c), str(len(c.skills)))

    def stat_text(self, name: str, value: int) -> str:
        """Return one trait as the system writes it."""
        return f"{name} {signed(value)}"

    def skill_text(self, skill: Skill) -> str:
        """Return one skill as the sheet lists it."""
        return f"{skill.name} {signed(skill.value)}" + (
            f" (← {skill.parent})" if skill.parent else ""
        )

    def sheet_head(self, c: Character) -> str:
        """Return what the sheet's first line adds after the kind."""
        return ""

    def sheet_lines(self, c: Character) -> tuple[str, ...]:
        """Return the sheet's own lines after the skills (markup)."""
        return ()


def best_skill(c: Character) -> str:
    """Return the character's highest skill as ``Name value``."""
    if not c.skills:
        return "—"
    top = max(c.skills, key=lambda s: s.value)
    return f"{top.name} {top.value}"

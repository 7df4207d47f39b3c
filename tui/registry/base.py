"""What most systems share: :class:`BaseSystem`, a :class:`~tui.registry.System` whose parts a
system's own class overrides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rules import systems as rules_systems
from tui.sanitize import cell
from tui.words import signed

if TYPE_CHECKING:
    from rules.systems import RulesSystem
    from tui.registry.tables import Table
    from tui.store import Character, Skill
    from tui.store.models import Sheet


@dataclass(frozen=True)
class FormFields:
    """What the character form asks of a trait and a skill in one system (the traits' names
    come from its demo party)."""

    stat_label: str
    stat_range: tuple[int, int]
    stat_default: int
    skill_range: tuple[int, int]
    skill_hint: str
    skill_unit: str


@dataclass(frozen=True)
class SheetField:
    """One field of a system's sheet that the character form edits and ``kubik party add
    --set KEY=VALUE`` sets: ``key`` is the sheet's field and the ``--set`` key.

    A whole number within ``low``…``high`` (an input, ``placeholder`` its hint), or with
    ``yes_no`` a yes/no choice (the form's stepper, ``--set KEY=true|false``).
    """

    key: str
    label: str
    low: int = 0
    high: int = 0
    placeholder: str = ""
    yes_no: bool = False


#: The round tracker's pane of the Бой tab.
ROUNDS_PANE = "tui.widgets.combat.rounds:RoundsPane"


class BaseSystem:
    """A system's defaults: the round tracker (whose harm the system's own ``rounds`` hook
    keeps: a system of rounds names it), a generic sheet, no seat requests but a note."""

    name: str = ""
    title: str = ""
    stat_label: str = "Черты"
    fight_pane: str = ROUNDS_PANE
    check_engine: str = ""
    builder: str = ""
    opposed_action: str | None = None
    cli: str = ""
    fight_engine: str | None = None
    fight_readers: str | None = None
    fight_requests: str | None = None
    declaration_form: str | None = None
    party_keys: str | None = None
    undo_group: str | None = None
    undo_name: str | None = None
    commands: tuple[tuple[str, str], ...] = ()
    seat_kinds: tuple[str, ...] = ("note",)
    check_kinds: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    fight_kinds: tuple[str, ...] = ()
    reroll_sources: str | None = None
    sheet_fields: tuple[SheetField, ...] = ()
    weapons: str | None = None
    set_keys: str | None = None
    state_column: str | None = None
    rounds: str | None = None
    skill_parent: Literal["skill", "attribute"] | None = None
    skill_distances: bool = False
    sort_label: str = "по лучшему навыку"
    form: FormFields = FormFields(
        "Черты", (0, 10), 0, (0, 10), "Навык 2, Другой навык 1", "уровень"
    )

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

    def sort_value(self, c: Character) -> int:
        """Return what the party table's «by stat» order sorts on: the best skill."""
        return max((s.value for s in c.skills), default=-99)

    def initiative_text(self) -> str:
        """Return how the round tracker rolls its initiative (a system without one: "")."""
        return ""

    def public_columns(self) -> tuple[str, ...]:
        """Return the players' view's party columns after «Персонаж» (no stats)."""
        return ()

    def new_sheet(self, npc: bool) -> Sheet:
        """Return a new character's sheet: its own sheet at its defaults."""
        from tui.store.models import sheet_kind

        return sheet_kind(self.name)()

    def fresh_copy(self, c: Character) -> Character:
        """Return what a copy of ``c`` starts with (the party tab's copy key): ``c`` itself."""
        return c

    def state(self, c: Character) -> str:
        """Return the party table's mark of ``c``'s state («погиб»), "" for none."""
        return ""

    def public_row(self, c: Character) -> tuple[str, ...]:
        """Return a PC's cells in the players' view after its name."""
        return ()


def best_skill(c: Character) -> str:
    """Return the character's highest skill as ``Name value`` (a long name cut as a table
    cell's, its value kept: a 10,000-letter skill lost its level off the column's edge)."""
    if not c.skills:
        return "—"
    top = max(c.skills, key=lambda s: s.value)
    return f"{cell(top.name)} {top.value}"

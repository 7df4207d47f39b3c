"""The app's part of each rule system, behind one :class:`System` protocol.

Each system kubik knows has a line in :mod:`rules.systems` (its name, its fight, its Журнал
reader) and one package here, ``tui/systems/<name>/``, whose ``SYSTEM`` implements
:class:`System`: its words, its sheet (the form's fields, the party table's columns, the
detail panel), its settings tables, the seats' request kinds, and — as ``"module:attribute"``
strings imported on the first use — its open check's engine, its Проверка builder, its Бой
pane and its ``kubik odds|check`` module. Adding a system is its rules package, its package
here and the one line in :mod:`rules.systems`; nothing else names it.

This module imports no widget, no Textual and no engine: the store, the engine, the seats and
the screens all ask it (the heavy parts are strings until a caller imports them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

from rules import systems as rules_systems

if TYPE_CHECKING:
    from rules.systems import RulesSystem
    from tui.registry.base import FormFields, SheetField
    from tui.registry.rounds import RoundsHook
    from tui.registry.tables import Table
    from tui.store import Character, Skill
    from tui.store.models import Sheet

__all__ = [
    "System",
    "all_systems",
    "exchanges_system",
    "fight_readers",
    "get",
    "load",
    "names",
    "reroll_sources",
    "rounds_hook",
    "title",
]

#: Where a system's package keeps its :class:`System` (``{name}``: the registry's key).
LOCATION = "tui.systems.{name}:SYSTEM"


class System(Protocol):
    """What the app knows of one rule system."""

    @property
    def name(self) -> str:
        """The key a campaign stores (``meta.system``), as in :mod:`rules.systems`."""
        ...

    @property
    def title(self) -> str:
        """Its Russian name, as the GM reads it («Мир Тьмы»)."""
        ...

    @property
    def stat_label(self) -> str:
        """The heading of a sheet's traits («Качества», «Атрибуты»…)."""
        ...

    @property
    def fight_pane(self) -> str:
        """``"module:Class"`` of the Бой tab's pane."""
        ...

    @property
    def check_engine(self) -> str:
        """The module of its open check on the table engine (``tui/table/check/``)."""
        ...

    @property
    def builder(self) -> str:
        """``"module:Class"`` of its Проверка tab's builder."""
        ...

    @property
    def opposed_action(self) -> str | None:
        """The builder's action that opens its opposed check for a turn (``None``: it has none)."""
        ...

    @property
    def cli(self) -> str:
        """The module of its ``kubik odds`` and ``kubik check`` (``odds`` and ``check``)."""
        ...

    @property
    def fight_engine(self) -> str | None:
        """The package of its own fight's engine (``steps``, ``session``, ``view``: a fight of
        exchanges); ``None``: the round tracker runs its fights (``tui.table.rounds``)."""
        ...

    @property
    def fight_readers(self) -> str | None:
        """The module the players' view and the seats read its fight of exchanges with
        (``can_act``, ``is_dead``, ``weapon_names``, ``NO_WEAPON``, ``declaration_problem``,
        ``declaration_text``); ``None``: it has no such fight."""
        ...

    @property
    def fight_requests(self) -> str | None:
        """The module applying an accepted seat request in its fight (``applies_in_fight``,
        ``apply_in_fight``: Древо's Судьба in an exchange); ``None``: none applies there."""
        ...

    @property
    def declaration_form(self) -> str | None:
        """``"module:Class"`` of the form a player's seat declares with in its fight."""
        ...

    @property
    def party_keys(self) -> str | None:
        """``"module:Class"`` of its own keys of the Партия tab: a mixin of the party pane with
        ``BINDINGS`` and their actions (Древо's wounds and Судьба); ``None``: none."""
        ...

    @property
    def undo_group(self) -> str | None:
        """``"module:function"`` naming the group an undo step's label belongs to (the steps
        of one exchange are undone together); ``None``: each step alone."""
        ...

    @property
    def undo_name(self) -> str | None:
        """``"module:function"`` naming an undo step on the key bar (``None``: not its step,
        the label as it is) — Древо's fight steps: «схватка 2», «заявка Волк». Imported at the
        first paint: a module of no imports."""
        ...

    @property
    def commands(self) -> tuple[tuple[str, str], ...]:
        """The ``kubik`` commands it adds: ``(name, "module:function")`` (Древо: ``fight``)."""
        ...

    @property
    def seat_kinds(self) -> tuple[str, ...]:
        """The requests a player's seat offers (a note to the GM everywhere)."""
        ...

    @property
    def check_kinds(self) -> tuple[str, ...]:
        """The requests that apply to the GM's open check of the player's character."""
        ...

    @property
    def tables(self) -> tuple[Table, ...]:
        """The data tables a GM may edit in this system's campaign settings."""
        ...

    @property
    def fight_kinds(self) -> tuple[str, ...]:
        """The :attr:`check_kinds` that apply in its fight too: a seat offers them without an
        open check that names them (Древо's Судьба)."""
        ...

    @property
    def reroll_sources(self) -> str | None:
        """``"module:attribute"`` of the reroll sources a seat's reroll request may name
        (key → Russian name: IDE4's «еда», «Фатум»…); ``None``: none."""
        ...

    @property
    def sheet_fields(self) -> tuple[SheetField, ...]:
        """Its sheet's fields the character form edits and ``kubik party add --set KEY=…``
        sets, with their Russian labels and ranges (Древо: Судьба; IDE4: Энергия)."""
        ...

    @property
    def weapons(self) -> str | None:
        """``"module:function"`` returning the campaign's weapon names its characters carry
        (the form's «Оружие» field); ``None``: its form asks for no weapons."""
        ...

    @property
    def set_keys(self) -> str | None:
        """The module of its own ``kubik party add --set`` keys beyond its sheet's fields
        (``HELP``, ``owns``, ``read``, ``apply``: Древо's ``wound.КЛЮЧ``); ``None``: none."""
        ...

    @property
    def state_column(self) -> str | None:
        """The party table's column that :meth:`state` is written under (``None``: none)."""
        ...

    @property
    def rounds(self) -> str | None:
        """``"module:attribute"`` of its part of the round tracker, a
        :class:`~tui.registry.rounds.RoundsHook` (harm as a note or a health track, the
        fighter's penalty and energy); ``None``: the round tracker runs none of its fights."""
        ...

    @property
    def skill_parent(self) -> Literal["skill", "attribute"] | None:
        """What a skill's «(…)» names: a parent skill, its main attribute, or nothing."""
        ...

    @property
    def skill_distances(self) -> bool:
        """Whether a skill may name its distances («[Д/Б]»)."""
        ...

    @property
    def sort_label(self) -> str:
        """The party table's «by stat» order, in words («по Судьбе»)."""
        ...

    @property
    def form(self) -> FormFields:
        """The character form's ranges and hints."""
        ...

    @property
    def rules(self) -> RulesSystem:
        """Its line in :mod:`rules.systems`."""
        ...

    def columns(self) -> tuple[str, ...]:
        """Return the party table's column titles after «Имя» and «Кто»."""
        ...

    def row(self, c: Character) -> tuple[str, ...]:
        """Return the party table's cells of one character after its name and kind."""
        ...

    def stat_text(self, name: str, value: int) -> str:
        """Return one trait as the system writes it."""
        ...

    def skill_text(self, skill: Skill) -> str:
        """Return one skill as the sheet lists it."""
        ...

    def sheet_head(self, c: Character) -> str:
        """Return what the sheet's first line adds after the kind (``""``: nothing)."""
        ...

    def sheet_lines(self, c: Character) -> tuple[str, ...]:
        """Return the sheet's own lines after the skills (markup)."""
        ...

    def sort_value(self, c: Character) -> int:
        """Return what the party table's «by stat» order sorts on."""
        ...

    def initiative_text(self) -> str:
        """Return how the round tracker rolls its initiative, from the campaign's tables.

        Raises:
            RulesError: a table the rules cannot read.
        """
        ...

    def public_columns(self) -> tuple[str, ...]:
        """Return the players' view's party columns after «Персонаж» (no stats)."""
        ...

    def public_row(self, c: Character) -> tuple[str, ...]:
        """Return a PC's cells in the players' view after its name."""
        ...

    def new_sheet(self, npc: bool) -> Sheet:
        """Return a new character's sheet at the campaign's defaults (Древо: a PC's starting
        Судьба, an NPC's none) — the form's blank character, ``kubik party add``."""
        ...

    def fresh_copy(self, c: Character) -> Character:
        """Return what a copy of ``c`` starts with (Древо: no wounds, alive)."""
        ...

    def state(self, c: Character) -> str:
        """Return the party table's mark of ``c``'s state (Древо: «тяжело ранен», «погиб»;
        ``""``: none), written under :attr:`state_column`."""
        ...


def names() -> tuple[str, ...]:
    """Return every system's name, in the registry's order."""
    return rules_systems.names()


def get(name: str) -> System:
    """Return the :class:`System` of ``name`` (its package imported on the first call).

    Raises:
        RulesError: no such system.
    """
    rules_systems.get(name)  # an unknown name: the registry's Russian refusal
    system: System = rules_systems.load(LOCATION.format(name=name))
    return system


def all_systems() -> tuple[System, ...]:
    """Return every :class:`System`, in the registry's order."""
    return tuple(get(name) for name in names())


def title(name: str) -> str:
    """Return a system's Russian name; an unknown one's key as it is."""
    return get(name).title if rules_systems.known(name) else name


def exchanges_system() -> System | None:
    """Return the system whose fights are exchanges (its ``fight_readers`` set), or None.

    The campaign's ``encounter`` document is such a fight's; a reader handed only the document
    (the players' view's fight panel) asks this. Today one system fights so (Древо); a second
    would make its readers take the campaign's system instead.
    """
    return next((s for s in all_systems() if s.fight_readers), None)


def fight_readers() -> Any:
    """Return the module the players' view and the seats read a fight of exchanges with
    (:attr:`System.fight_readers` of :func:`exchanges_system`).

    Raises:
        LookupError: no system fights in exchanges (the campaign has no such fight to read).
    """
    system = exchanges_system()
    if system is None or system.fight_readers is None:
        raise LookupError("no system fights in exchanges")
    return load(system.fight_readers)


def reroll_sources() -> dict[str, str]:
    """Return every system's named reroll sources (key → Russian name), merged: a seat's
    reroll request names one (:attr:`System.reroll_sources`)."""
    merged: dict[str, str] = {}
    for system in all_systems():
        if system.reroll_sources:
            merged.update(load(system.reroll_sources))
    return merged


def rounds_hook(name: str) -> RoundsHook | None:
    """Return the round tracker's hook of system ``name`` (:attr:`System.rounds`), or None.

    Raises:
        RulesError: no such system.
    """
    target = get(name).rounds
    if target is None:
        return None
    hook: RoundsHook = load(target)
    return hook


def load(target: str) -> Any:
    """Import a system's ``"module:attribute"`` part (a pane, a builder, an engine…)."""
    return rules_systems.load(target)

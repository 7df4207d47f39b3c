"""Domain objects the store hands to the UI: frozen dataclasses, no TinyDB."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from rules import systems as rule_systems
from rules.sheets.drevo import DrevoSheet
from rules.sheets.ide4 import Ide4Sheet
from rules.sheets.starately import StaratelySheet
from rules.sheets.wod import WodSheet

#: A character's typed sheet, one per system (``rules/sheets/<system>.py``).
Sheet = DrevoSheet | Ide4Sheet | StaratelySheet | WodSheet
SheetT = TypeVar("SheetT", DrevoSheet, Ide4Sheet, StaratelySheet, WodSheet)

#: The sheet of each system, as its line in ``rules.systems`` names it.
SHEETS: dict[str, type[Sheet]] = {
    name: rule_systems.load(line.sheet)
    for name, line in rule_systems.SYSTEMS.items()
    if line.sheet is not None
}


def sheet_kind(system: str | None) -> type[Sheet]:
    """The sheet the characters of ``system`` hold: its own, Древо's for a name kubik does not
    know (a campaign file's check names that) or a system without a sheet."""
    return SHEETS.get(system or "", DrevoSheet)


#: Every system's sheet fields (a name a character's free-form ``extra`` cannot take).
SHEET_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(f for s in SHEETS.values() for f in s.FIELDS))

#: Sheet fields that a character keeps in ``extra`` in memory (Судьба and wounds have their
#: own attributes); the campaign file keeps each as a field of its own (schema 4).
SHEET_EXTRAS: tuple[str, ...] = tuple(f for f in SHEET_FIELDS if f not in ("fate", "wounds"))

#: Marks of the common core kept in ``extra``: an NPC hidden from the players, the seat's
#: player, the template and the prepared encounter an NPC came from.
CORE_EXTRAS: tuple[str, ...] = ("hidden", "player", "template", "encounter")
FROM_TEMPLATE, FROM_ENCOUNTER = "template", "encounter"

#: Wound levels of Древо a character can carry, mildest first (Смерть is a state, not a count).
WOUND_KEYS: tuple[str, ...] = ("scratch", "light", "wound", "heavy")

#: Character kinds: player characters and the GM's characters.
CHARACTER_KINDS: tuple[str, ...] = ("pc", "npc")

LOG_KINDS: tuple[str, ...] = ("roll", "check", "note")


def new_id() -> str:
    """Return a fresh identifier (uuid4 hex) for a character or a log entry."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Skill:
    """A skill of any system.

    ``value`` is the Древо level, the IDE4 mastery (0–100), the Старатели level or the Мир Тьмы
    dots. ``parent`` is the wider skill it is a part of (Древо: Щиты → Драка) or, in IDE4, the
    skill's main attribute. ``distances`` lists where an IDE4 combat skill works (П / Д / Б / К).
    """

    name: str
    value: int
    parent: str | None = None
    distances: tuple[str, ...] = ()


@dataclass(frozen=True)
class Character:
    """A player character or an NPC of the campaign: the common core and one typed sheet.

    The core is the name, PC or NPC, qualities, skills, weapons, notes, saved rolls and the
    marks of :data:`CORE_EXTRAS`; ``sheet`` is the typed sheet of the campaign's system
    (``rules/sheets/<system>.py``). Values of another system's sheet that a character carries
    (an import, a file edited by hand) stay in ``extra`` under their field's name, kept as
    they are; :attr:`drevo`, :attr:`ide4`, :attr:`starately` and :attr:`wod` read each sheet
    as a typed view of all the values.
    """

    id: str
    name: str
    kind: str
    qualities: dict[str, int]
    skills: tuple[Skill, ...]
    weapons: tuple[str, ...]
    sheet: Sheet = field(default_factory=DrevoSheet)
    notes: str = ""
    #: Free-form values (JSON-ready), the core marks, and another system's sheet values.
    extra: dict[str, Any] = field(default_factory=dict)
    #: Saved rolls: (name, dice notation), e.g. ("Атака топором", "2d6+3 # рубящий").
    rolls: tuple[tuple[str, str], ...] = ()
    #: The stored document this character was read from (set by the store, kept by
    #: ``dataclasses.replace``): a write of a changed copy is merged field by field into the
    #: current document, never written back whole over what another window changed since.
    origin: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: Fields of its own sheet that were given (read from a file, or given in ``extra``): the
    #: stored form keeps them even at their default, as it was written (codec).
    kept: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in CHARACTER_KINDS:
            raise ValueError(f"unknown character kind {self.kind!r}")
        if not isinstance(self.sheet, tuple(SHEETS.values())):
            raise TypeError(f"not a sheet: {self.sheet!r}")
        # Copies, so a caller's dict cannot change a "frozen" character behind its back.
        extra = dict(self.extra)
        # A field of its own sheet given in ``extra`` (an older form) belongs to the sheet.
        own = {k: extra.pop(k) for k in self.sheet.FIELDS if k in extra}
        if own:
            sheet = type(self.sheet).from_values({**self.sheet.values(), **own})
            object.__setattr__(self, "sheet", sheet)
            object.__setattr__(self, "kept", frozenset(self.kept) | set(own))
        object.__setattr__(self, "qualities", dict(self.qualities))
        object.__setattr__(self, "skills", tuple(self.skills))
        object.__setattr__(self, "weapons", tuple(self.weapons))
        object.__setattr__(self, "extra", extra)
        object.__setattr__(self, "rolls", tuple((str(n), str(e)) for n, e in self.rolls))

    def trait(self, name: str) -> int | None:
        """Return the value of the skill or, failing that, the quality ``name``; None if absent."""
        for skill in self.skills:
            if skill.name == name:
                return skill.value
        return self.qualities.get(name)

    def saved_roll(self, name: str) -> str | None:
        """Return the notation of the saved roll called ``name`` (any case), or None."""
        wanted = name.strip().casefold()
        return next((e for n, e in self.rolls if n.casefold() == wanted), None)

    def skill(self, name: str) -> Skill | None:
        """Return the skill called ``name``, or None."""
        return next((s for s in self.skills if s.name == name), None)

    # -- the typed sheet ----------------------------------------------------------------

    def sheet_values(self) -> dict[str, Any]:
        """Return the values of every system's sheet fields this character has: its own
        sheet's and those of another system it carries in ``extra``."""
        found = {k: self.extra[k] for k in SHEET_FIELDS if k in self.extra}
        return {**found, **self.sheet.values()}

    def _view(self, sheet_type: type[SheetT]) -> SheetT:
        if isinstance(self.sheet, sheet_type):
            return self.sheet
        return sheet_type.from_values(self.sheet_values())

    def sheet_of(self, system: str) -> Sheet:
        """Return the character's sheet for ``system`` (its own, or a view of the values).

        Raises:
            KeyError: an unknown system.
        """
        kind = SHEETS[system]
        if isinstance(self.sheet, kind):
            return self.sheet
        return kind.from_values(self.sheet_values())

    @property
    def drevo(self) -> DrevoSheet:
        """The Древо sheet: Судьба, wounds, Смерть, parry ability."""
        return self._view(DrevoSheet)

    @property
    def ide4(self) -> Ide4Sheet:
        """The IDE4 sheet: energy, the expanded-check habit, the day's triumph, harm."""
        return self._view(Ide4Sheet)

    @property
    def starately(self) -> StaratelySheet:
        """The Старатели sheet: harm, a fixed initiative."""
        return self._view(StaratelySheet)

    @property
    def wod(self) -> WodSheet:
        """The Мир Тьмы sheet: the health track, a fixed initiative."""
        return self._view(WodSheet)

    def with_sheet(self, sheet: Sheet) -> Character:
        """Return a copy carrying ``sheet``; fields it does not change stay as stored.

        Its own sheet is replaced; another system's sheet writes only the values that differ
        from what the character reads now (into ``extra``, or into its own sheet for a field
        both sheets have), so a sheet read and written back unchanged leaves it as it was.
        """
        if isinstance(sheet, type(self.sheet)):
            return self if sheet == self.sheet else replace(self, sheet=sheet)
        now = type(sheet).from_values(self.sheet_values()).values()
        changed = {k: v for k, v in sheet.values().items() if now.get(k) != v}
        if not changed:
            return self
        extra = dict(self.extra)
        own: dict[str, Any] = {}
        for key, value in changed.items():
            if key in self.sheet.FIELDS:
                own[key] = value
            elif value is None:
                extra.pop(key, None)
            else:
                extra[key] = value
        mine = type(self.sheet).from_values({**self.sheet.values(), **own}) if own else self.sheet
        return replace(self, sheet=mine, extra=extra)

    def edit_sheet(self, sheet_type: type[SheetT], **values: Any) -> Character:
        """Return a copy whose ``sheet_type`` sheet has ``values`` changed."""
        return self.with_sheet(replace(self._view(sheet_type), **values))

    # -- fields two sheets share (the round tracker's) --------------------------------------

    @property
    def harm(self) -> str:
        """The GM's note of the harm taken ("" for none): a field of the IDE4 and Старатели
        sheets, read the same in both."""
        return self.starately.harm

    @property
    def initiative(self) -> int | None:
        """A fixed initiative the GM gave (None: roll it): a field of every sheet with a round
        tracker, read the same in each."""
        return self.starately.initiative

    # -- marks of the common core ---------------------------------------------------------

    @property
    def hidden(self) -> bool:
        """An NPC the players do not see."""
        return bool(self.extra.get("hidden"))

    @property
    def from_template(self) -> str:
        """The bestiary template an NPC was made from ("" for none)."""
        name = self.extra.get(FROM_TEMPLATE)
        return name if isinstance(name, str) else ""

    @property
    def from_encounter(self) -> str:
        """The prepared encounter that brought an NPC ("" for none)."""
        name = self.extra.get(FROM_ENCOUNTER)
        return name if isinstance(name, str) else ""

    def marked(
        self,
        *,
        hidden: bool | None = None,
        template: str | None = None,
        encounter: str | None = None,
    ) -> Character:
        """Return a copy with the core marks given changed (None: as it is).

        ``hidden`` False and an empty ``template`` or ``encounter`` remove the mark (absent
        reads the same); ``hidden`` is kept as stored when it is false already.
        """
        extra = dict(self.extra)
        if hidden is not None and hidden != self.hidden:
            extra["hidden"] = hidden
        for key, name in ((FROM_TEMPLATE, template), (FROM_ENCOUNTER, encounter)):
            if name is None:
                continue
            if name:
                extra[key] = name
            else:
                extra.pop(key, None)
        return self if extra == self.extra else replace(self, extra=extra)

    @property
    def player(self) -> str | None:
        """The seat's player this character belongs to, if any."""
        player = self.extra.get("player")
        return player if isinstance(player, str) else None


@dataclass(frozen=True)
class LogEntry:
    """One line of the Журнал: a quick roll, a system check or a note."""

    id: str
    at: str
    kind: str
    actor: str | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    #: The undo step that made this entry was undone (and not redone): it never stood. Not
    #: stored in the entry (the Журнал is append-only); :meth:`Store.log` sets it.
    undone: bool = False


@dataclass(frozen=True)
class Campaign:
    """What the file says about itself."""

    name: str
    system: str
    schema_version: int

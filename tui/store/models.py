"""Domain objects the store hands to the UI: frozen dataclasses, no TinyDB."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from rules import systems as rule_systems
from rules.drevo.sheet import DrevoSheet
from rules.ide4.sheet import Ide4Sheet
from rules.starately.sheet import StaratelySheet
from rules.wod.sheet import WodSheet

#: A character's typed sheet, one per system (``rules/<system>/sheet.py``).
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

#: Sheet fields beyond Судьба and wounds (which every character document has): each a key
#: of its own in the file when set (schema 4; schema 3 kept them in ``extra``).
SHEET_EXTRAS: tuple[str, ...] = tuple(f for f in SHEET_FIELDS if f not in ("fate", "wounds"))

#: Marks of the common core, each a typed field of :class:`Character` and a key of its own in
#: the campaign file (schema 5; ``extra`` held them before): stored name → attribute. An NPC
#: hidden from the players, the seat's player, the template and the prepared encounter an NPC
#: came from.
MARK_FIELDS: dict[str, str] = {
    "hidden": "hidden",
    "player": "player",
    "template": "from_template",
    "encounter": "from_encounter",
}
#: The type of each mark's value (hidden: true or false; the others text, "" for none).
MARK_TYPES: dict[str, type] = {"hidden": bool, "player": str, "template": str, "encounter": str}

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
    typed marks (:data:`MARK_FIELDS`: hidden, player, the template and the encounter an NPC
    came from); ``sheet`` is the typed sheet of the campaign's system
    (``rules/<system>/sheet.py``). Values of another system's sheet that a character carries
    (an import, a file edited by hand, an older kubik's character) stay in ``carried`` under
    their field's name, kept as they are; :attr:`drevo`, :attr:`ide4`, :attr:`starately` and
    :attr:`wod` read each sheet as a typed view of all the values. ``extra`` holds only free
    values: what no field of the core or of a sheet names (a migration keeps there, under a
    free name such as ``player_v4``, a value its field cannot hold).

    A sheet field or a mark given in ``extra`` (the older form) is moved to its place.
    """

    id: str
    name: str
    kind: str
    qualities: dict[str, int]
    skills: tuple[Skill, ...]
    weapons: tuple[str, ...]
    sheet: Sheet = field(default_factory=DrevoSheet)
    notes: str = ""
    #: Free-form values (JSON-ready) that no field of the core or of a sheet names.
    extra: dict[str, Any] = field(default_factory=dict)
    #: Saved rolls: (name, dice notation), e.g. ("Атака топором", "2d6+3 # рубящий").
    rolls: tuple[tuple[str, str], ...] = ()
    #: An NPC the players do not see («???»).
    hidden: bool = False
    #: The seat's player this character belongs to ("" for none: its name is its seat).
    player: str = ""
    #: The bestiary template an NPC was made from ("" for none).
    from_template: str = ""
    #: The prepared encounter that brought an NPC ("" for none).
    from_encounter: str = ""
    #: Values of another system's sheet fields, by field name, kept as read.
    carried: dict[str, Any] = field(default_factory=dict)
    #: The stored document this character was read from (set by the store, kept by
    #: ``dataclasses.replace``): a write of a changed copy is merged field by field into the
    #: current document, never written back whole over what another window changed since.
    origin: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: Fields of its own sheet and marks that were given (read from a file, or given in
    #: ``extra``): the stored form keeps them even at their default, as it was written (codec).
    kept: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in CHARACTER_KINDS:
            raise ValueError(f"unknown character kind {self.kind!r}")
        if not isinstance(self.sheet, tuple(SHEETS.values())):
            raise TypeError(f"not a sheet: {self.sheet!r}")
        # Copies, so a caller's dict cannot change a "frozen" character behind its back.
        extra = dict(self.extra)
        # What its own sheet holds is the sheet's (a value carried for it is read already).
        carried = {k: v for k, v in self.carried.items() if k not in self.sheet.FIELDS}
        # A sheet field or a mark given in ``extra`` (an older form) goes to its place.
        own = {k: extra.pop(k) for k in self.sheet.FIELDS if k in extra}
        carried.update((k, extra.pop(k)) for k in SHEET_FIELDS if k in extra)
        marks = {k: extra.pop(k) for k in MARK_FIELDS if k in extra}
        if own:
            sheet = type(self.sheet).from_values({**self.sheet.values(), **own})
            object.__setattr__(self, "sheet", sheet)
        for key, value in marks.items():
            object.__setattr__(self, MARK_FIELDS[key], value)
        if own or marks:
            object.__setattr__(self, "kept", frozenset(self.kept) | set(own) | set(marks))
        for key, attr in MARK_FIELDS.items():
            value = getattr(self, attr)
            if type(value) is not MARK_TYPES[key]:
                raise TypeError(f"{key}: {MARK_TYPES[key].__name__} expected, not {value!r}")
        object.__setattr__(self, "carried", carried)
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
        sheet's and those of another system it carries."""
        return {**self.carried, **self.sheet.values()}

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
        from what the character reads now (into ``carried``, or into its own sheet for a field
        both sheets have), so a sheet read and written back unchanged leaves it as it was.
        """
        if isinstance(sheet, type(self.sheet)):
            return self if sheet == self.sheet else replace(self, sheet=sheet)
        now = type(sheet).from_values(self.sheet_values()).values()
        changed = {k: v for k, v in sheet.values().items() if now.get(k) != v}
        if not changed:
            return self
        carried = dict(self.carried)
        own: dict[str, Any] = {}
        for key, value in changed.items():
            if key in self.sheet.FIELDS:
                own[key] = value
            elif value is None:
                carried.pop(key, None)
            else:
                carried[key] = value
        mine = type(self.sheet).from_values({**self.sheet.values(), **own}) if own else self.sheet
        return replace(self, sheet=mine, carried=carried)

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

    def marked(
        self,
        *,
        hidden: bool | None = None,
        template: str | None = None,
        encounter: str | None = None,
    ) -> Character:
        """Return a copy with the core marks given changed (None: as it is; an empty
        ``template`` or ``encounter`` removes the mark)."""
        changes: dict[str, Any] = {}
        if hidden is not None and hidden != self.hidden:
            changes["hidden"] = hidden
        if template is not None and template != self.from_template:
            changes["from_template"] = template
        if encounter is not None and encounter != self.from_encounter:
            changes["from_encounter"] = encounter
        return replace(self, **changes) if changes else self


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

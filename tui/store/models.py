"""Domain objects the store hands to the UI: frozen dataclasses, no TinyDB."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

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
    """A player character or an NPC of the campaign."""

    id: str
    name: str
    kind: str
    qualities: dict[str, int]
    skills: tuple[Skill, ...]
    weapons: tuple[str, ...]
    fate: int
    wounds: dict[str, int] = field(default_factory=dict)
    notes: str = ""
    #: System-specific values that have no column of their own (IDE4: energy, always_expanded,
    #: daily_triumph_used). JSON-ready.
    extra: dict[str, Any] = field(default_factory=dict)
    #: Saved rolls: (name, dice notation), e.g. ("Атака топором", "2d6+3 # рубящий").
    rolls: tuple[tuple[str, str], ...] = ()
    #: The stored document this character was read from (set by the store, kept by
    #: ``dataclasses.replace``): a write of a changed copy is merged field by field into the
    #: current document, never written back whole over what another window changed since.
    origin: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in CHARACTER_KINDS:
            raise ValueError(f"unknown character kind {self.kind!r}")
        unknown = set(self.wounds) - set(WOUND_KEYS)
        if unknown:
            raise ValueError(f"unknown wound keys {sorted(unknown)!r}")
        # Copies, so a caller's dict cannot change a "frozen" character behind its back.
        object.__setattr__(self, "qualities", dict(self.qualities))
        object.__setattr__(self, "wounds", {k: int(self.wounds.get(k, 0)) for k in WOUND_KEYS})
        object.__setattr__(self, "skills", tuple(self.skills))
        object.__setattr__(self, "weapons", tuple(self.weapons))
        object.__setattr__(self, "extra", dict(self.extra))
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

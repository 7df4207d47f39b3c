"""Древо wounds: the levels of table 4, their cascade and what healing each one needs.

The table lives in ``data/drevo/wounds.toml``. A :class:`WoundTrack` is immutable: taking or
healing a wound returns a new track, so the UI can keep the old one for undo.

Choices where the seed is silent (documented for the GM):

* Four Царапины cascading into a Лёгкая рана on a heavily wounded character kill him: the seed
  treats «Лёгкую рану (или четыре Царапины)» as the same thing.
* A Тяжёлая рана has the penalty of an Ранение (−2); it matters only if the GM lets the
  character act anyway.
* Taking damage when dead changes nothing. Healing «death» (the GM rules it was «состояние
  при смерти») leaves the character heavily wounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from rules.data import load_table
from rules.errors import RulesError

WOUNDS_FILE = "drevo/wounds.toml"

#: Wound levels a character can carry, mildest first.
WOUND_KEYS: tuple[str, ...] = ("scratch", "light", "wound", "heavy")
#: Every damage level, mildest first: the wounds and Смерть.
LEVELS: tuple[str, ...] = (*WOUND_KEYS, "death")


@dataclass(frozen=True)
class WoundLevel:
    """One row of table 4.

    Attributes:
        id: ``"scratch"``, ``"light"``, ``"wound"``, ``"heavy"`` or ``"death"``.
        name: the Russian name, e.g. ``"Лёгкая рана"``.
        description: what it means, from the table.
        penalty: modifier to every check (0, −1, −2).
        cascade: how many of these make one wound of the next level (0: none).
        acts: whether the character can act at all.
        healing: what it needs after the fight.
    """

    id: str
    name: str
    description: str
    penalty: int
    cascade: int
    acts: bool
    healing: str


@cache
def wound_levels() -> dict[str, WoundLevel]:
    """Return table 4 keyed by level id, mildest first.

    Raises:
        RulesError: ``data/drevo/wounds.toml`` lacks a level or a field.
    """
    rows = {row.get("id"): row for row in load_table(WOUNDS_FILE).get("level", [])}
    levels: dict[str, WoundLevel] = {}
    for key in LEVELS:
        row = rows.get(key)
        if row is None or not isinstance(row.get("name"), str):
            raise RulesError(f"{WOUNDS_FILE}: добавьте уровень «{key}» с полем «name».")
        levels[key] = WoundLevel(
            id=key,
            name=row["name"],
            description=str(row.get("description", "")),
            penalty=int(row.get("penalty", 0)),
            cascade=int(row.get("cascade", 0)),
            acts=bool(row.get("acts", True)),
            healing=str(row.get("healing", "")),
        )
    return levels


def level_name(level: str) -> str:
    """Return the Russian name of a damage level id (``"light"`` → ``"Лёгкая рана"``)."""
    return wound_levels()[check_level(level)].name


def check_level(level: str) -> str:
    """Return ``level`` if it is a damage level id, else raise ``RulesError``."""
    if level not in LEVELS:
        names = ", ".join(LEVELS)
        raise RulesError(f"Неизвестный уровень повреждения {level!r}: выберите один из {names}.")
    return level


def _zero_counts() -> dict[str, int]:
    return dict.fromkeys(WOUND_KEYS, 0)


@dataclass(frozen=True)
class WoundTrack:
    """The wounds a character carries.

    Attributes:
        counts: how many wounds of each level (keys ``WOUND_KEYS``), after cascading.
        dead: Смерть (or «при смерти», as the GM rules).
    """

    counts: Mapping[str, int] = field(default_factory=_zero_counts)
    dead: bool = False

    def __hash__(self) -> int:
        return hash((tuple(self.counts.values()), self.dead))

    def __post_init__(self) -> None:
        unknown = set(self.counts) - set(WOUND_KEYS)
        if unknown:
            raise RulesError(f"Неизвестные виды ран: {', '.join(sorted(unknown))}.")
        counts = {k: int(self.counts.get(k, 0)) for k in WOUND_KEYS}
        if any(v < 0 for v in counts.values()):
            raise RulesError("Число ран не может быть отрицательным: укажите 0 или больше.")
        object.__setattr__(self, "counts", counts)

    @property
    def worst(self) -> str | None:
        """The worst level present (``"death"`` when dead), or ``None`` when unhurt."""
        if self.dead:
            return "death"
        present = [k for k in WOUND_KEYS if self.counts[k] > 0]
        return present[-1] if present else None

    @property
    def penalty(self) -> int:
        """The modifier to every check: the worst wound's; penalties do not add up."""
        worst = self.worst
        return wound_levels()[worst].penalty if worst is not None else 0

    @property
    def can_act(self) -> bool:
        """False when heavily wounded or dead: «может только лежать и стонать»."""
        worst = self.worst
        return worst is None or wound_levels()[worst].acts

    def take(self, level: str) -> WoundTrack:
        """Return the track after one more wound of ``level``, cascaded.

        Args:
            level: ``"scratch"``, ``"light"``, ``"wound"``, ``"heavy"`` or ``"death"``.

        Returns:
            A new track. Four Царапины make a Лёгкая рана, two Лёгкие an Ранение, two
            Ранения a Тяжёлая рана; a heavily wounded character dies from any damage above
            Царапина (including four Царапины turning into a Лёгкая рана).

        Raises:
            RulesError: ``level`` is not a damage level.
        """
        check_level(level)
        if self.dead:
            return self
        counts = dict(self.counts)
        current: str | None = level
        while current is not None:
            if current == "death" or (current != "scratch" and counts["heavy"] > 0):
                return WoundTrack(counts=counts, dead=True)
            counts[current] += 1
            per = wound_levels()[current].cascade
            if per and counts[current] >= per:
                counts[current] -= per
                current = LEVELS[LEVELS.index(current) + 1]
            else:
                current = None
        return WoundTrack(counts=counts)

    def heal(self, level: str) -> WoundTrack:
        """Return the track with one wound of ``level`` healed.

        Args:
            level: a wound level, or ``"death"`` when the GM rules the character was only
                «при смерти» (he is then heavily wounded).

        Raises:
            RulesError: the character has no such wound.
        """
        check_level(level)
        if level == "death":
            if not self.dead:
                raise RulesError("Персонаж жив: лечить смерть не нужно.")
            counts = dict(self.counts)
            counts["heavy"] = max(counts["heavy"], 1)
            return WoundTrack(counts=counts)
        if self.counts[level] == 0:
            raise RulesError(
                f"У персонажа нет раны «{level_name(level)}»: выберите рану из списка."
            )
        counts = dict(self.counts)
        counts[level] -= 1
        return replace(self, counts=counts)

    def change(self, from_level: str, to_level: str) -> WoundTrack:
        """Turn one wound into another (a Лёгкая not bandaged becomes an Ранение, …).

        Heals one ``from_level`` wound, then takes a ``to_level`` one (which cascades).

        Raises:
            RulesError: there is no ``from_level`` wound, or a level is unknown.
        """
        return self.heal(from_level).take(to_level)

    def needs(self) -> list[tuple[str, str]]:
        """Return ``(level, healing text)`` for each level present, worst first."""
        present = [k for k in WOUND_KEYS if self.counts[k] > 0]
        if self.dead:
            present.append("death")
        return [(k, wound_levels()[k].healing) for k in reversed(present)]

    def to_dict(self) -> dict[str, Any]:
        """Return the counts per level and ``dead``, JSON-ready."""
        return {**self.counts, "dead": self.dead}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WoundTrack:
        """Build a track from ``to_dict`` output (or a store's four counts, ``dead`` optional).

        Raises:
            RulesError: an unknown key or a negative count.
        """
        counts = {k: int(v) for k, v in data.items() if k != "dead"}
        return cls(counts=counts, dead=bool(data.get("dead", False)))

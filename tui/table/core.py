"""The engine's common values: the outcome of a step, a Журнал line, the world a step reads,
the roller it rolls with."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rules import drevo
from rules.effects import EffectSet, active_modifiers
from rules.modifiers import Modifier
from tui.store import Character, LogEntry, new_id
from tui.store.history import ELSEWHERE, removed_words

S = TypeVar("S")


@dataclass(frozen=True)
class Line:
    """A Журнал line a step writes: who, the plain text, its data (dice, damage, …)."""

    actor: str | None
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "combat"


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """Everything one step did, as one value the store writes as one undo step.

    ``refused`` non-empty: the rules (or the moment) refuse the step; ``state`` is then the
    state as it was and nothing else is set.
    """

    state: S
    label: str = ""
    #: Changed copies of stored characters (merged into the stored documents field by field)
    #: and new ones (an NPC added on the spot).
    sheets: tuple[Character, ...] = ()
    #: Ids of characters the step takes out of the party (an encounter's NPCs after the fight).
    removed: tuple[str, ...] = ()
    #: Other documents the step sets in the same undo step (the effects at a new round).
    docs: Mapping[str, dict[str, Any] | None] = field(default_factory=dict)
    log: tuple[Line, ...] = ()
    notices: tuple[str, ...] = ()
    refused: str = ""

    @property
    def ok(self) -> bool:
        """Whether the step was made (not refused)."""
        return not self.refused


def refuse(state: S, reason: str) -> Outcome[S]:
    """Return the outcome of a refused step: the state as it was, and why."""
    return Outcome(state, refused=reason)


class Dice:
    """The roller a step rolls with (seeded in the app and the tests; scripted in tests)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def four_df(self) -> tuple[int, int, int, int]:
        """Roll Древо's four Fudge dice."""
        return drevo.roll_4df(self.rng)


@dataclass(frozen=True)
class World:
    """What a step may read, and nothing else.

    Attributes:
        characters: the party as stored now, by id.
        system: the campaign's rule system.
        effects: the campaign's effects and scene clock.
        dice: the roller.
        journal: the Журнал's newest entries, newest first (``journal(limit)``): a roll made
            again after an undo takes the dice it had from there.
        new_id: a fresh id (a fight's, an NPC's).
        removed_where: where a character no longer in the party was removed, as a message
            says it: «в другом окне», «командой kubik», or "" for this window
            (:meth:`tui.store.Store.removed_where`).
    """

    characters: Mapping[str, Character]
    system: str = "drevo"
    effects: EffectSet = field(default_factory=EffectSet)
    dice: Dice = field(default_factory=Dice)
    journal: Callable[[int], Sequence[LogEntry]] = lambda _limit: ()
    new_id: Callable[[], str] = new_id
    removed_where: Callable[[str], str] = lambda _id: ELSEWHERE

    def removed(self, character_id: str, name: str) -> str:
        """«Персонаж Вера Соколова удалён командой kubik»: the start of what a step or a view
        says of a character no longer in the party (:attr:`removed_where`)."""
        return removed_words(name, self.removed_where(character_id))

    def modifiers(self, character_id: str) -> tuple[Modifier, ...]:
        """Return the active effect modifiers on the character's checks."""
        return active_modifiers(self.effects, character_id)

    def effect_modifiers(self, ids: Iterable[str]) -> dict[str, list[list[Any]]]:
        """Return the active effect modifiers of ``ids`` as an exchange keeps them at its
        roll (id → ``[[value, reason], …]``; ids without any left out)."""
        found = {cid: self.modifiers(cid) for cid in ids if cid in self.characters}
        return {cid: [[m.value, m.reason] for m in mods] for cid, mods in found.items() if mods}


def undone_roll(
    world: World,
    ours: Callable[[LogEntry], bool],
    wanted: Callable[[Mapping[str, Any]], bool],
    limit: int = 500,
) -> Mapping[str, Any] | None:
    """The data of the newest line of ``ours`` an undo took back and ``wanted`` accepts: a
    roll that, made again, gives its dice back (Ctrl+Z is no reroll). None when a line of
    ``ours`` that stands comes first — something stood on since (a fight fought or ended).
    The Журнал's newest ``limit`` lines are searched."""
    for entry in world.journal(limit):
        if not ours(entry):
            continue
        if not entry.undone:
            return None
        data = entry.data or {}
        if wanted(data):
            return data
    return None

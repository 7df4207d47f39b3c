"""What every check builder (one per rules system) shares with the app.

A builder is the Проверка tab's widget for the campaign's open check, which is the table
engine's (:mod:`tui.table.check`): it draws the engine's view and turns keys into its steps,
and has

* ``set_characters(characters)`` — called on every store change (it follows the stored check);
* ``choose_character(character_id)`` — called when the GM presses Enter in the party table;
* :func:`open_turn` — the Бой tab's turn (posted as a
  :class:`~tui.widgets.common.turn.TurnCheck`, which the app opens here): the actor, and the
  target its opposed check faces;
* ``BINDINGS`` — its keys (listed by ``?``).

IDE4's opposed check (two sides in a dialog) is not on the engine yet: it posts
:class:`CheckRolled` (the app writes the Журнал line, with the sheets it pays as one undo step)
and its result dialog follows the undo marks of its steps with a :class:`SpendTrail`.
"""

from __future__ import annotations

import importlib
import uuid
from dataclasses import dataclass, field
from typing import Any, TypeVar

from textual.message import Message

from tui.store import Character
from tui.table.check.base import SeatLater

__all__ = ["SeatLater"]
from tui.widgets.common.turn import Turn

T = TypeVar("T")

BUILDERS = {
    "drevo": ("tui.widgets.builders.drevo", "DrevoBuilder"),
    "ide4": ("tui.widgets.builders.ide4", "Ide4Builder"),
    "starately": ("tui.widgets.builders.starately", "StaratelyBuilder"),
    "wod": ("tui.widgets.builders.wod", "WodBuilder"),
}


@dataclass
class CheckRolled(Message):
    """A check was rolled in a builder; the app appends it to the log."""

    actor: str | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    #: The sheet this step pays from (Судьба, energy after the roll): written with the entry
    #: as one undo step, so undoing it marks the entry «отменено».
    spend: Character | None = None
    #: An open check's step that pays nothing (a reroll, Risk, the player's demand): the undo
    #: list's label; it is one undo step with its line all the same, as a seat's request is.
    step: str = ""
    #: Earlier lines of the same undo step, ``(text, data)`` each (a level the step raised on
    #: the way): written before this one, marked «отменено» with it.
    lines: tuple[tuple[str, dict[str, Any]], ...] = ()
    #: More sheets the same step pays (an opposed check's second side, energy before).
    also_pays: tuple[Character, ...] = ()
    #: The entry's id (a builder's :class:`SpendTrail` follows its undo mark).
    entry_id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass
class CharacterChanged(Message):
    """A roll changed a character (energy, daily caps); the app saves it."""

    character: Character


@dataclass
class _Spend:
    entry_id: str
    before: Any
    after: Any


class SpendTrail:
    """The store steps an open check wrote after its roll, each with the check's own state
    before and after it.

    The store marks a step's log entry undone while the step is undone; on every store change
    :meth:`state` says which state of the check stands now: the state after the last step
    that stands, or before the first one undone. Dice rolled stay as they were rolled: a redo
    brings back the same state, never a new roll.
    """

    #: How many of the newest log entries are looked at for the marks.
    WINDOW = 300

    def __init__(self) -> None:
        self._spends: list[_Spend] = []

    def clear(self) -> None:
        """A new check (or another character): the old steps no longer move this one."""
        self._spends = []

    def add(self, app: Any, entry_id: str, before: Any, after: Any) -> None:
        """Remember a step just written; undone ones before it can no longer be redone."""
        undone = self._undone(app)
        self._spends = [s for s in self._spends if s.entry_id not in undone]
        self._spends.append(_Spend(entry_id, before, after))

    def refused(self, entry_id: str) -> Any:
        """The step was not written (the store refused it): return the state before it (None
        if it is not one of these), and forget it and every step after it."""
        for i, s in enumerate(self._spends):
            if s.entry_id == entry_id:
                self._spends = self._spends[:i]
                return s.before
        return None

    def state(self, app: Any) -> tuple[bool, Any]:
        """Return ``(True, state)`` for the state the store's undo marks call for, or
        ``(False, None)`` when this check wrote no step."""
        if not self._spends:
            return False, None
        undone = self._undone(app)
        for s in self._spends:
            if s.entry_id in undone:
                return True, s.before
        return True, self._spends[-1].after

    def _undone(self, app: Any) -> set[str]:
        if not self._spends:
            return set()
        ids = {s.entry_id for s in self._spends}
        entries = app.store.log(limit=self.WINDOW)
        return {e.id for e in entries if e.undone and e.id in ids}


#: Each builder's opposed check (the screen that names the other side), opened for a turn.
OPPOSED_ACTIONS = {"ide4": "opposed", "starately": "opposed", "wod": "contest"}


def open_turn(builder: Any, system: str, turn: Turn, *, opposed: bool = False) -> None:
    """Prefill a builder from a combat turn: the actor chosen, the target as the opponent of
    the system's opposed check; ``opposed``: open that check's screen at once."""
    builder.turn = turn
    builder.choose_character(turn.actor)
    action = OPPOSED_ACTIONS.get(system)
    if opposed and turn.target and action:
        builder.call_after_refresh(getattr(builder, f"action_{action}"))


def turn_opponent(builder: Any, actor_id: str | None, others: list[Character]) -> str | None:
    """Return the opposed check's default opponent: the turn's target while the builder still
    checks that turn's actor, else the first of ``others``."""
    turn = getattr(builder, "turn", None)
    ids = [c.id for c in others]
    if isinstance(turn, Turn) and turn.actor == actor_id and turn.target in ids:
        return turn.target
    return ids[0] if ids else None


def mods_hint(example: str, *, empty: bool = True) -> str:
    """Return a modifier field's placeholder that cannot be read as modifiers already applied
    (grey is lost in a plain or NO_COLOR terminal): «пример: +1 высота, −2 темнота».

    ``empty=False`` leaves out «(пусто — без модификаторов)» for a field too narrow to show it
    uncut at 80 columns."""
    return f"пример: {example}" + (" (пусто — без модификаторов)" if empty else "")


def character_label(c: Character) -> str:
    """Return ``Имя (игрок)`` or ``Имя (НИП)`` for a character stepper."""
    return f"{c.name} ({'игрок' if c.kind == 'pc' else 'НИП'})"


def builder_class(system: str) -> Any:
    """Return the builder widget class for a campaign's system (imported on demand)."""
    module_name, class_name = BUILDERS[system]
    return getattr(importlib.import_module(module_name), class_name)


def builder_module(system: str) -> str:
    """Return the name of the module that holds a system's builder."""
    return BUILDERS[system][0]

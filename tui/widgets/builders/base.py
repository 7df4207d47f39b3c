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

Every check a builder opens — IDE4's opposed check and the other systems' dialogs for a second
character included — is the engine's: a builder posts no Журнал line or sheet of its own.
"""

from __future__ import annotations

from typing import Any, TypeVar

from tui import registry
from tui.store import Character
from tui.table.check.base import SeatLater

__all__ = ["SeatLater"]
from tui.widgets.common.turn import Turn

T = TypeVar("T")


def open_turn(builder: Any, system: str, turn: Turn, *, opposed: bool = False) -> None:
    """Prefill a builder from a combat turn: the actor chosen, the target as the opponent of
    the system's opposed check (``System.opposed_action``); ``opposed``: open that check's
    screen at once."""
    builder.turn = turn
    builder.choose_character(turn.actor)
    action = registry.get(system).opposed_action
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
    return registry.load(registry.get(system).builder)


def builder_module(system: str) -> str:
    """Return the name of the module that holds a system's builder."""
    return registry.get(system).builder.partition(":")[0]

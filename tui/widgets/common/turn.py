"""A combat turn's check, asked of the Проверка tab: the Бой tab names the actor and the target
its opposed check faces, and posts :class:`TurnCheck`; the app opens the system's builder on
it. So the combat widgets never reach into the builders (an import contract keeps the widget
areas apart)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass(frozen=True)
class Turn:
    """A combat turn a builder was opened for: its actor and the target the Бой tab knows."""

    actor: str
    target: str | None = None


@dataclass
class TurnCheck(Message):
    """Open ``turn``'s check in the Проверка tab; ``opposed``: its opposed check at once."""

    turn: Turn
    opposed: bool = False

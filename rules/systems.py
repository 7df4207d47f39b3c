"""The rule systems kubik knows: one line each, in :data:`SYSTEMS`.

A system is a package of rules (``rules/<name>/``) and a package of the app's parts for it
(``tui/systems/<name>/``, found by its name: :mod:`tui.registry`). The line here is all that
the rules, the store and the engine need of it, so none of them names a system: what its
fight is, where its Журнал reader is, how its initiative roll is placed in the luck ledger.
Those are ``"module:attribute"`` strings, imported on the first use — this module imports no
system and no part of ``rules`` (every part may ask it without an import circle).

Adding a system (say «Новая»): its rules package, its app package, and one line below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeGuard

from rules.errors import RulesError

#: How a system fights: ``"exchanges"`` — its own fight (Древо's exchanges, ``rules.drevo``),
#: ``"rounds"`` — the round tracker of ``rules.rounds`` (initiative, turns, harm).
FightKind = Literal["exchanges", "rounds"]

#: A Журнал entry's reader: ``(data, previous entries' data, tally)``, adding to the tally.
Reader = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], Any], None]


@dataclass(frozen=True)
class RulesSystem:
    """What the rules, the store and the engine know of one rule system."""

    #: The key a campaign file stores (``meta.system``).
    name: str
    #: Its fight: its own exchanges or the round tracker.
    fight: FightKind
    #: ``"module:function"`` that reads the luck of one of its Журнал entries.
    ledger: str
    #: ``"module:function"`` placing a round-tracker initiative entry in the luck ledger
    #: (``(data, tally)``); ``None``: its initiative is not the tracker's.
    initiative_luck: str | None = None
    #: The module of its initiative in the round tracker (``roll``, ``bonus``, ``TIE_FACES``).
    initiative: str | None = None
    #: Whether its reader prices an entry against earlier ones (Древо's Судьба shift moves
    #: the roll of an earlier entry).
    reads_previous: bool = False
    #: ``"module:Class"`` of its typed character sheet (``rules/<name>/sheet.py``: the values
    #: a character carries for this system's rules only); ``None``: it has none.
    sheet: str | None = None

    @property
    def rounds(self) -> bool:
        """Whether the round tracker runs its fights."""
        return self.fight == "rounds"

    def ledger_reader(self) -> Reader:
        """Return its Журнал reader (imported on the first call)."""
        reader: Reader = load(self.ledger)
        return reader


#: Every system, by the name a campaign stores. One line per system.
SYSTEMS: dict[str, RulesSystem] = {
    "drevo": RulesSystem(
        "drevo",
        "exchanges",
        "rules.drevo.ledger:read",
        "rules.drevo.ledger:initiative",
        reads_previous=True,
        sheet="rules.drevo.sheet:DrevoSheet",
    ),
    "ide4": RulesSystem(
        "ide4",
        "rounds",
        "rules.ide4.ledger:read",
        "rules.ide4.ledger:initiative",
        initiative="rules.ide4.initiative",
        sheet="rules.ide4.sheet:Ide4Sheet",
    ),
    "starately": RulesSystem(
        "starately",
        "rounds",
        "rules.starately.ledger:read",
        "rules.starately.ledger:initiative",
        initiative="rules.starately.initiative",
        sheet="rules.starately.sheet:StaratelySheet",
    ),
    "wod": RulesSystem(
        "wod",
        "rounds",
        "rules.wod.ledger:read",
        "rules.wod.ledger:initiative",
        initiative="rules.wod.initiative",
        sheet="rules.wod.sheet:WodSheet",
    ),
}


def reads_previous(name: object) -> bool:
    """Whether the Журнал reader of the system ``name`` needs the earlier entries' data."""
    return known(name) and SYSTEMS[name].reads_previous


def names() -> tuple[str, ...]:
    """Return the names of every system, in the registry's order."""
    return tuple(SYSTEMS)


def known(name: object) -> TypeGuard[str]:
    """Whether ``name`` is a system kubik knows."""
    return isinstance(name, str) and name in SYSTEMS


def get(name: str) -> RulesSystem:
    """Return the system called ``name``.

    Raises:
        RulesError: no such system (the message lists those there are).
    """
    try:
        return SYSTEMS[name]
    except KeyError:
        raise RulesError(f"неизвестная система «{name}»; доступны: {', '.join(SYSTEMS)}") from None


def rounds(name: str) -> bool:
    """Whether the round tracker runs ``name``'s fights (an unknown system: no)."""
    system = SYSTEMS.get(name)
    return system is not None and system.rounds


def exchanges(name: str) -> bool:
    """Whether ``name`` fights in exchanges (Древо's own Бой tab, ``rules.encounter``)."""
    system = SYSTEMS.get(name)
    return system is not None and system.fight == "exchanges"


def round_systems() -> tuple[str, ...]:
    """Return the systems whose fights the round tracker runs."""
    return tuple(name for name, system in SYSTEMS.items() if system.rounds)


def load(target: str) -> Any:
    """Import ``"module:attribute"`` (or ``"module"``) and return it."""
    return _load(target)


@cache
def _load(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module

"""The round tracker's state: who fights, the turn order, whose turn it is, which round.

Pure and immutable; each move returns the new tracker and the combat boundaries it passed
(:class:`rules.effects.Boundary`), which the effects tick on. Saved as the campaign document
``rounds`` (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.effects import Boundary
from rules.errors import RulesError
from rules.rounds.initiative import InitiativeRoll


@dataclass(frozen=True)
class Entrant:
    """A combatant on the roster: a campaign character's id and name, its side."""

    id: str
    name: str
    side: str
    pc: bool = True


@dataclass(frozen=True)
class Tracker:
    """A fight: ``round`` 0 is the setup (no order yet); ``turn`` indexes ``order``."""

    system: str
    entrants: tuple[Entrant, ...] = ()
    order: tuple[str, ...] = ()
    rolls: dict[str, InitiativeRoll] = field(default_factory=dict)
    round: int = 0
    turn: int = 0

    @property
    def started(self) -> bool:
        """Whether initiative was rolled and the rounds run."""
        return self.round > 0

    @property
    def actor(self) -> str:
        """The id of whose turn it is, or ``""`` in the setup."""
        return self.order[self.turn] if self.started and self.order else ""

    def entrant(self, entrant_id: str) -> Entrant | None:
        """Return the roster's entrant ``entrant_id``, or None."""
        return next((e for e in self.entrants if e.id == entrant_id), None)

    def names(self) -> dict[str, str]:
        """Return {id: name} of the roster."""
        return {e.id: e.name for e in self.entrants}

    def with_entrant(self, entrant: Entrant) -> Tracker:
        """Add or replace an entrant; in a running fight a new one acts last."""
        known = [e for e in self.entrants if e.id != entrant.id]
        order = self.order
        if self.started and entrant.id not in order:
            order = (*order, entrant.id)
        return replace(self, entrants=(*known, entrant), order=order)

    def without(self, entrant_id: str) -> Tracker:
        """Drop an entrant (from the roster and the turn order)."""
        if entrant_id not in self.order:
            return replace(self, entrants=tuple(e for e in self.entrants if e.id != entrant_id))
        index = self.order.index(entrant_id)
        order = tuple(i for i in self.order if i != entrant_id)
        turn = self.turn - 1 if index < self.turn else self.turn
        turn = min(max(turn, 0), max(len(order) - 1, 0))
        return replace(
            self,
            entrants=tuple(e for e in self.entrants if e.id != entrant_id),
            order=order,
            turn=turn,
        )

    def start(
        self, order: tuple[str, ...], rolls: dict[str, InitiativeRoll]
    ) -> tuple[Tracker, list[Boundary]]:
        """Begin round 1 in ``order``; return the tracker and the boundaries it passed.

        Raises:
            RulesError: the fight already runs, or the order names nobody on the roster.
        """
        if self.started:
            raise RulesError("Бой уже идёт: сначала закончите его (x).")
        known = {e.id for e in self.entrants}
        if not order or not set(order) <= known:
            raise RulesError("В бою никого нет: добавьте участников (пробел — сторона).")
        new = replace(self, order=order, rolls=dict(rolls), round=1, turn=0)
        return new, [Boundary("round_start", 1), Boundary("turn_start", 1, order[0])]

    def next_turn(self) -> tuple[Tracker, list[Boundary]]:
        """End the current turn and start the next (a new round after the last one).

        Raises:
            RulesError: the fight has not started.
        """
        if not self.started or not self.order:
            raise RulesError("Бой ещё не начат: бросьте инициативу (i).")
        events = [Boundary("turn_end", self.round, self.actor)]
        turn, rnd = self.turn + 1, self.round
        if turn >= len(self.order):
            events.append(Boundary("round_end", rnd))
            turn, rnd = 0, rnd + 1
            events.append(Boundary("round_start", rnd))
        new = replace(self, turn=turn, round=rnd)
        events.append(Boundary("turn_start", rnd, new.actor))
        return new, events

    def end(self) -> Tracker:
        """End the fight: back to the setup, the roster kept."""
        return replace(self, order=(), rolls={}, round=0, turn=0)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "system": self.system,
            "entrants": [vars(e).copy() for e in self.entrants],
            "order": list(self.order),
            "rolls": {k: r.to_dict() for k, r in self.rolls.items()},
            "round": self.round,
            "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tracker:
        """Rebuild a tracker saved by :meth:`to_dict` (raises RulesError if malformed)."""
        try:
            t = cls(
                str(d["system"]),
                tuple(Entrant(**e) for e in d.get("entrants", [])),
                tuple(str(i) for i in d.get("order", [])),
                {str(k): InitiativeRoll.from_dict(v) for k, v in d.get("rolls", {}).items()},
                int(d.get("round", 0)),
                int(d.get("turn", 0)),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise RulesError(f"Сохранённый бой повреждён ({err}): начните новый (x).") from err
        if t.started and not 0 <= t.turn < len(t.order):
            raise RulesError("Сохранённый бой повреждён (чей ход — неизвестно): начните новый (x).")
        return t

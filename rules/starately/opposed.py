"""Старатели opposed rolls: two characters roll, the higher total wins, a tie has a rule.

A tie goes to the initiator, else the player character; natural 12 and 2 are flagged and decide
only with the campaign setting ``naturals_decide``. Each side's dice stay in the result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.starately.check import Roll, Side, make_roll, roll_dice
from rules.starately.tables import settings

SIDES = ("a", "b")


@dataclass(frozen=True)
class Opposed:
    """Two characters rolling against each other, no difficulty.

    Attributes:
        a, b: the two sides (``Side.pc`` tells a player character).
        initiator: ``"a"`` or ``"b"`` — who started the contest; ``None`` if nobody can be named.

    Raises:
        RulesError: no initiator and not exactly one player character, so a tie has no winner.
    """

    a: Side
    b: Side
    initiator: str | None = None

    def __post_init__(self) -> None:
        if self.initiator not in (None, *SIDES):
            raise RulesError(f"Инициатор — «a» или «b», а не «{self.initiator}».")
        if self.initiator is None and self.a.pc == self.b.pc:
            raise RulesError(
                "Встречный бросок: при ничьей побеждает инициатор, а если его не назвать — "
                "персонаж игрока. Здесь оба (или ни один) — персонажи игроков: укажите инициатора."
            )

    @property
    def tie_winner(self) -> str:
        """``"a"`` or ``"b"``: the initiator, else the player character."""
        if self.initiator is not None:
            return self.initiator
        return "a" if self.a.pc else "b"

    @property
    def tie_rule(self) -> str:
        """``"initiator"`` or ``"pc"``: which rule breaks a tie."""
        return "initiator" if self.initiator is not None else "pc"


@dataclass(frozen=True)
class OpposedResult:
    """A resolved opposed roll.

    Attributes:
        check: the inputs.
        a, b: each side's dice and total (natural 12 and 2 decide nothing here).
        winner: ``"a"`` or ``"b"``.
        tie: the totals were equal and ``check.tie_rule`` decided.
        margin: winner's total minus loser's (0 on a tie).
    """

    check: Opposed
    a: Roll
    b: Roll
    winner: str
    tie: bool
    margin: int

    @property
    def decided_by(self) -> str:
        """``"total"``, ``"tie"`` (the tie rule) or ``"natural"`` (naturals_decide)."""
        if self.tie:
            return "tie"
        return "natural" if _natural_winner(self.a, self.b) else "total"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die; natural 12 / 2 are flagged."""
        return {
            "system": "starately",
            "kind": "opposed",
            "a": {"side": self.check.a.to_dict(), **self.a.to_dict(), **_flags(self.a)},
            "b": {"side": self.check.b.to_dict(), **self.b.to_dict(), **_flags(self.b)},
            "initiator_wins": (
                None if self.check.initiator is None else self.winner == self.check.initiator
            ),
            "decided_by": self.decided_by,
            "naturals_decide": settings().naturals_decide,
            "initiator": self.check.initiator,
            "winner": self.winner,
            "tie": self.tie,
            "tie_rule": self.check.tie_rule if self.tie else None,
            "margin": self.margin,
        }


def _flags(roll: Roll) -> dict[str, bool]:
    table = settings()
    return {
        "natural_12": roll.natural == table.natural_success,
        "natural_2": roll.natural == table.natural_failure,
    }


def natural_edge(a_natural: int, b_natural: int) -> str | None:
    """With ``naturals_decide``: ``"a"`` / ``"b"`` when a natural 12 or 2 decides, else None."""
    table = settings()
    if not table.naturals_decide:
        return None
    for best, winner_if_a in ((table.natural_success, True), (table.natural_failure, False)):
        has_a, has_b = a_natural == best, b_natural == best
        if has_a != has_b:
            return "a" if has_a == winner_if_a else "b"
    return None


def _natural_winner(a: Roll, b: Roll) -> str | None:
    return natural_edge(a.natural, b.natural)


def resolve_opposed(check: Opposed, a_dice: Sequence[int], b_dice: Sequence[int]) -> OpposedResult:
    """Resolve an opposed roll: the higher total wins; a tie goes to the initiator, else the PC.
    Natural 12 and 2 are flagged and decide nothing (campaign setting ``naturals_decide``).

    Raises:
        RulesError: either set of dice does not fit its side.
    """
    a, b = make_roll(check.a, a_dice), make_roll(check.b, b_dice)
    edge = _natural_winner(a, b)
    if edge is not None:
        return OpposedResult(check, a, b, edge, tie=False, margin=abs(a.total - b.total))
    if a.total == b.total:
        return OpposedResult(check, a, b, check.tie_winner, tie=True, margin=0)
    winner = "a" if a.total > b.total else "b"
    return OpposedResult(check, a, b, winner, tie=False, margin=abs(a.total - b.total))


def roll_opposed(check: Opposed, rng: random.Random) -> OpposedResult:
    """Roll side a, then side b, with ``rng`` (see ``resolve_opposed``)."""
    return resolve_opposed(check, roll_dice(check.a, rng), roll_dice(check.b, rng))

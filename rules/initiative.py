"""Side initiative and the order in which sides declare, for round-based combat."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

MAX_REROLLS = 100


@dataclass(frozen=True)
class InitiativeRoll:
    """One side's initiative: every 4dF roll it made (rerolls after ties included)."""

    side: str
    rolls: tuple[tuple[int, int, int, int], ...]

    @property
    def final(self) -> int:
        """Return the sum of the side's last 4dF roll (the one that counted)."""
        return sum(self.rolls[-1])


def roll_side_initiative(sides: Sequence[str], rng: random.Random) -> tuple[InitiativeRoll, ...]:
    """Roll 4dF per side; sides that tie reroll among themselves until the order is strict.

    Args:
        sides: side names, at least one, unique.
        rng: the session's random source.

    Returns:
        The sides' rolls, best initiative first.
    """
    rolls: dict[str, list[tuple[int, int, int, int]]] = {s: [] for s in sides}

    def throw(side: str) -> int:
        dice = (rng.randint(-1, 1), rng.randint(-1, 1), rng.randint(-1, 1), rng.randint(-1, 1))
        rolls[side].append(dice)
        return sum(dice)

    def order(group: list[str], depth: int) -> list[str]:
        if len(group) <= 1:
            return group
        if depth > MAX_REROLLS:  # practically unreachable; keep the given order
            return group
        scores = {side: throw(side) for side in group}
        ranked: list[str] = []
        for score in sorted(set(scores.values()), reverse=True):
            tied = [s for s in group if scores[s] == score]
            ranked.extend(order(tied, depth + 1))
        return ranked

    ranked = order(list(sides), 0)
    return tuple(InitiativeRoll(side, tuple(rolls[side])) for side in ranked)


def declaration_order(initiative: Sequence[str], round_number: int) -> list[str]:
    """Return the sides in the order they declare in the given round (1-based).

    Round 1 follows initiative; each next round reverses the previous one. With two sides this
    makes the loser of initiative declare first in round 2, as the seed says.
    """
    if round_number < 1:
        raise ValueError("round_number starts at 1")
    ordered = list(initiative)
    return ordered if round_number % 2 == 1 else ordered[::-1]

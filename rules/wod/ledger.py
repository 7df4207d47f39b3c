"""Мир Тьмы's entries: a pool's outcome among its pool's outcomes (the builder's состязание and
the Бой tab's two pools: each pool its own roll)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.ledger.entry import Data, Tally, frac, name
from rules.ledger.initiative import place_natural
from rules.ledger.percentile import outcome_luck


def read(data: Data, previous: Sequence[Data], luck: Tally) -> None:
    """Tally one Мир Тьмы result."""
    if data.get("event") in ("extended_start", "stopped"):
        return  # an extended action begun or stopped: no dice
    if isinstance(data.get("rolls"), list):  # the Бой tab: two pools against each other
        for roll in data["rolls"]:
            read(roll, previous, luck)
        return
    if data.get("kind") == "contested":  # the builder's состязание: each pool its own roll
        for key in ("a", "b"):
            read(data[key], previous, luck)
        return
    from rules.modifiers import Modifier
    from rules.wod.odds import pool_odds
    from rules.wod.pool import OUTCOMES, Pool

    spec = data["pool"]
    pool = Pool(
        attribute=0,
        modifiers=(Modifier(int(spec["size"]), "запас"),),
        again=spec.get("again"),
        rote=bool(spec.get("rote")),
        success_threshold=int(spec["success_threshold"]),
        exceptional=int(spec["exceptional"]),
    )
    odds = pool_odds(pool).outcomes
    luck.roll(name(spec), outcome_luck(odds, OUTCOMES, data["outcome"]))


def initiative(data: Data, luck: Tally) -> None:
    """Мир Тьмы (d10 + initiative): each fighter's die is its total less its fixed part."""
    place_natural(data, luck, _d10())


def _d10() -> dict[int, Fraction]:
    return {face: frac(1, 10) for face in range(1, 11)}

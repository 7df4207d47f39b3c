"""Unique dice (``u``, ``uo``), for :mod:`rules.odds`.

``NdMu`` of plain dice (no point, no ``min``/``max``, reroll or explosion, ``N <= M``) is a
uniformly random set of ``N`` faces: rolling again until a value is new leaves every unused
face equally likely, so every set comes with the same ``N!`` orders. Its keep/drop and success
counts are counted face by face over the sets (faces × dice × totals). Anything else — a
compare point, ``uo``, a clamp, a reroll, an explosion, more dice than faces — follows the
entries one by one with the values already shown (:mod:`rules.odds.stream`).
"""

from __future__ import annotations

from dataclasses import replace
from math import comb

from rules.dice import Dice, kept_range
from rules.odds.spread import _Any
from rules.odds.stream import source_of, stream
from rules.odds.weights import _Dist, _from_items, _Work


def _sets(dice: Dice, work: _Work) -> _Dist:
    """The kept sum over a uniformly random set of ``count`` distinct faces."""
    faces = sorted(dice.face_weights())
    n = dice.count
    a, b = kept_range(dice.selects, n)
    g = (lambda v: v) if dice.target is None else dice.target.outcome
    spread = max(abs(g(v)) for v in faces) + 1
    work.take(len(faces) * n * (b - a + 1) * spread * 4 + 10)
    states: list[dict[int, int]] = [{} for _ in range(n + 1)]  # faces chosen -> sum -> sets
    states[0][0] = 1
    for face in faces:
        for c in range(n - 1, -1, -1):  # choose this face as the (c+1)-th lowest
            if not states[c]:
                continue
            add = g(face) if a <= c < b else 0
            bucket = states[c + 1]
            for total, ways in states[c].items():
                bucket[total + add] = bucket.get(total + add, 0) + ways
    return _from_items(states[n].items(), comb(len(faces), n))


def unique_pool(dice: Dice, max_chain: int, work: _Work) -> _Any:
    """The distribution of a pool with ``u`` or ``uo``."""
    assert dice.unique is not None
    weights = dice.face_weights()
    plain = (
        dice.unique.point is None
        and not dice.unique.once
        and len(set(weights.values())) == 1
        and dice.minimum is None
        and dice.maximum is None
        and dice.reroll is None
        and dice.explode is None
        and dice.count <= len(weights)
    )
    if plain:
        return _sets(dice, work)
    source = replace(source_of(dice, max_chain, work), unique=dice)
    g = (lambda v: v) if dice.target is None else dice.target.outcome
    return stream([source], dice.selects, g, work)

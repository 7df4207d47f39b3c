"""Initiative rolls of a fight, each placed by the system that rolled them (its line in
:mod:`rules.systems` names how: ``initiative_luck``) — Древо's 4dF per side in its
``rules/drevo/ledger.py``, the round tracker's rolls in each system's own ``ledger``; what the
dice-plus-bonus systems share is :func:`natural`."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules import systems
from rules.ledger.entry import Data, Tally
from rules.ledger.percentile import total_luck


def sides(data: Data, luck: Tally) -> None:
    """A fight of exchanges' initiative entry (its sides' rolls; the entry names no system):
    the system whose fight is exchanges places it."""
    for line in systems.SYSTEMS.values():
        if line.fight == "exchanges" and line.initiative_luck is not None:
            systems.load(line.initiative_luck)(data, luck)
            return


def rounds(data: Data, luck: Tally) -> None:
    """A round tracker's initiative entry: each system places its rolls its own way (its line
    in :mod:`rules.systems` names how). Tie-breaks only order."""
    system = data.get("system")
    if not systems.known(system):
        return
    place = systems.get(system).initiative_luck
    if place is not None:
        systems.load(place)(data, luck)


def place_natural(data: Data, luck: Tally, dist: Mapping[int, Fraction]) -> None:
    """Place each fighter's (or side's) dice — its total less its fixed part — among the
    dice's own totals."""
    names = data.get("names")
    for key, roll in data["initiative"].items():
        natural = int(roll["key"][0]) - int(roll["bonus"])
        if natural not in dist:
            raise ValueError("not a roll of these dice")
        who = names.get(key) if isinstance(names, Mapping) else None
        luck.roll(str(who) if who else None, total_luck(dist, natural))

"""Initiative rolls of a fight: Древо's 4dF (a tie's rerolls are fresh rolls too), Старатели's
2d6 + DM, Мир Тьмы's d10 + initiative, and IDE4's quick check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules.ledger.drevo import four_df
from rules.ledger.entry import Data, Tally, frac
from rules.ledger.percentile import outcome_luck, total_luck


def drevo(sides: Sequence[Data], luck: Tally) -> None:
    """Place each side's initiative 4dF roll (a tie's rerolls are fresh rolls too)."""
    for side in sides:
        for dice in side["rolls"]:
            if len(dice) != 4 or any(d not in (-1, 0, 1) for d in dice):
                raise ValueError("not a 4dF roll")
            luck.roll(str(side["side"]), four_df(sum(dice)))


def rounds(data: Data, luck: Tally) -> None:
    """A round tracker's initiative entry: each system places its rolls its own way (its line
    in :mod:`rules.systems` names how). Tie-breaks only order."""
    from rules import systems

    system = data.get("system")
    if not systems.known(system):
        return
    place = systems.get(system).initiative_luck
    if place is not None:
        systems.load(place)(data, luck)


def ide4(data: Data, luck: Tally) -> None:
    """IDE4's initiative is a quick check: its outcome placed among the outcomes of its
    difficulty (entries from before the check was kept are not placed)."""
    from rules.ide4.model import OUTCOMES
    from rules.ide4.odds import outcome_odds

    names = data.get("names")
    for key, roll in data["initiative"].items():
        check = roll.get("check")
        if not isinstance(check, Mapping):
            continue
        odds = outcome_odds(int(check["final"]), 0, 4, hidden_risk=bool(check["hidden_risk"]))
        who = names.get(key) if isinstance(names, Mapping) else None
        luck.roll(str(who) if who else None, outcome_luck(odds, OUTCOMES, check["outcome"]))


def two_d6(data: Data, luck: Tally) -> None:
    """Старатели (2d6 + DM): each fighter's dice are its total less its fixed part."""
    _natural(data, luck, _two_d6())


def d10(data: Data, luck: Tally) -> None:
    """Мир Тьмы (d10 + initiative): each fighter's die is its total less its fixed part."""
    _natural(data, luck, _d10())


def _natural(data: Data, luck: Tally, dist: Mapping[int, Fraction]) -> None:
    """Place each fighter's (or side's) dice — its total less its fixed part — among the
    dice's own totals."""
    names = data.get("names")
    for key, roll in data["initiative"].items():
        natural = int(roll["key"][0]) - int(roll["bonus"])
        if natural not in dist:
            raise ValueError("not a roll of these dice")
        who = names.get(key) if isinstance(names, Mapping) else None
        luck.roll(str(who) if who else None, total_luck(dist, natural))


def _two_d6() -> dict[int, Fraction]:
    sums: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            sums[a + b] = sums.get(a + b, 0) + 1
    return {total: frac(n, 36) for total, n in sums.items()}


def _d10() -> dict[int, Fraction]:
    return {face: frac(1, 10) for face in range(1, 11)}

"""Старатели's entries: a check, a chain, a group check, an opposed check (each side's natural
total), and Риск (a reroll, spent)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.ledger.entry import Data, Tally, frac, name
from rules.ledger.initiative import place_natural
from rules.ledger.percentile import Luck, outcome_luck, total_luck


def read(data: Data, previous: Sequence[Data], luck: Tally) -> None:
    """Tally one Старатели result."""
    kind = data.get("kind")
    if kind == "check":
        luck.roll(name(data["side"]), _check(data))
    elif kind == "chain":
        for key in ("helper", "main"):
            luck.roll(name(data[key]["side"]), _check(data[key]))
    elif kind == "group":
        luck.roll(name(data["main"]["side"]), _check(data["main"]))
        for helper in data.get("helpers") or []:
            luck.roll(name(helper["side"]), _check(helper))
    elif kind == "risk":
        luck.spend(name(data["first"]["side"]), "rerolls", 1)
    elif kind == "opposed":
        for key in ("a", "b"):
            side = data[key]
            luck.roll(name(side["side"]), _natural(side["side"], side["natural"]))


def _check(result: Data) -> Luck:
    from rules.starately.check import OUTCOMES
    from rules.starately.odds import check_counts, rolls

    side = result["side"]
    net = int(side["net_dice"])
    success = check_counts(net, int(side["bonus"]), int(result["difficulty"]))[0]
    whole = rolls(net)
    odds = {"success": frac(success, whole), "failure": frac(whole - success, whole)}
    return outcome_luck(odds, OUTCOMES, result["outcome"])


def _natural(side: Data, natural: int) -> Luck:
    from rules.starately.odds import natural_counts, rolls

    net = int(side["net_dice"])
    return total_luck({n: frac(w, rolls(net)) for n, w in natural_counts(net)}, natural)


def initiative(data: Data, luck: Tally) -> None:
    """Старатели (2d6 + DM): each fighter's dice are its total less its fixed part."""
    place_natural(data, luck, _two_d6())


def _two_d6() -> dict[int, Fraction]:
    sums: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            sums[a + b] = sums.get(a + b, 0) + 1
    return {total: frac(n, 36) for total, n in sums.items()}

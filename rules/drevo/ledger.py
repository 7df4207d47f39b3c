"""Древо's entries: a check, an opposed check, an exchange of the Бой tab, and a Судьба shift of
a roll already recorded (spent, not luck)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.ledger.entry import Data, Tally, frac, name, system_of
from rules.ledger.percentile import Luck, outcome_luck, total_luck


def read(data: Data, previous: Sequence[Data], luck: Tally) -> None:
    """Tally one Древо result (``previous``: earlier entries' data, newest first)."""
    shifts = _shifts(data)
    # A shift back to zero (+1 then −1) looks like a fresh roll but repeats the newest entry's
    # dice, which carried a shift.
    back = (
        bool(previous) and _same_roll(previous[0], data) and any(s for _, s in _shifts(previous[0]))
    )
    if back or any(shift for _, shift in shifts):
        # A Судьба shift of a roll already recorded: the points moved since that entry.
        before = next((p for p in previous if _same_roll(p, data)), None)
        old = _shifts(before) if before is not None else [(w, 0) for w, _ in shifts]
        for (who, now), (_, then) in zip(shifts, old, strict=False):
            luck.spend(who, "fate", abs(now - then))
        return
    if "plan" in data:
        _exchange(data, luck)
        return
    if data.get("kind") == "opposed":
        _opposed(data, luck)
        return
    who = name(data["side"])
    if data.get("fate_auto"):
        luck.spend(who, "fate", 1)  # no dice: Судьба before the roll
        return
    luck.roll(who, _one_sided(data))


def initiative(data: Data, luck: Tally) -> None:
    """Place a fight's initiative: each side's 4dF roll (a tie's rerolls are fresh rolls too)."""
    for side in data["initiative"]:
        for dice in side["rolls"]:
            if len(dice) != 4 or any(d not in (-1, 0, 1) for d in dice):
                raise ValueError("not a 4dF roll")
            luck.roll(str(side["side"]), four_df(sum(dice)))


def four_df(dice_sum: int) -> Luck:
    """Where a 4dF sum lands among the sums of 4dF."""
    from rules.drevo.odds import FOUR_DF, ROLLS

    return total_luck({s: frac(n, ROLLS) for s, n in FOUR_DF.items()}, dice_sum)


def _bonus(side: Data) -> int:
    return int(side["trait"]) + int(side.get("modifier_total", 0))


def _one_sided(data: Data) -> Luck:
    from rules.drevo.check import OUTCOMES, one_sided_outcome
    from rules.drevo.odds import ROLLS, one_sided_counts

    bonus, difficulty, dice_sum = _bonus(data["side"]), data["difficulty"], data["dice_sum"]
    # The dice's outcome, before any Судьба shift: the shift is spent, not luck.
    outcome = one_sided_outcome(dice_sum, dice_sum + bonus, difficulty)
    counts = one_sided_counts(bonus, difficulty)
    odds = {key: frac(n, ROLLS) for key, n in zip(OUTCOMES, counts, strict=True)}
    return outcome_luck(odds, OUTCOMES, outcome)


def _same_roll(a: Data, b: Data) -> bool:
    """Whether two Древо result dicts record the same roll (a Судьба shift moves one)."""
    try:
        same_sides = [w for w, _ in _shifts(a)] == [w for w, _ in _shifts(b)]
        return same_sides and system_of(a) == system_of(b) and _dice_of(a) == _dice_of(b)
    except (KeyError, TypeError):
        return False


def _dice_of(data: Data) -> list[Any]:
    if "plan" in data:
        opposed = data.get("opposed")
        if opposed:
            return [opposed["a"]["dice"], opposed["b"]["dice"]]
        return [r["dice"] for r in data.get("one_sided") or []]
    if data.get("kind") == "opposed":
        return [data["a"]["dice"], data["b"]["dice"]]
    return [data.get("dice")]


def _shifts(data: Data) -> list[tuple[str | None, int]]:
    """Each rolling side's name and the Судьба shift its total carries."""
    if "plan" in data:
        opposed = data.get("opposed")
        if opposed:
            return [(name(opposed[s]["side"]), opposed[s]["fate_shift"]) for s in ("a", "b")]
        return [(name(r["side"]), r["fate_shift"]) for r in data.get("one_sided") or []]
    if data.get("kind") == "opposed":
        return [(name(data[s]["side"]), data[s]["fate_shift"]) for s in ("a", "b")]
    return [(name(data["side"]), data.get("fate_shift", 0))]


def _opposed(data: Data, luck: Tally, *, priced: bool = True) -> None:
    """Place each side's 4dF sum; ``priced``: a side's Судьба before the roll is spent here
    (the Бой tab writes its own «Судьба до броска» entry instead)."""
    for key in ("a", "b"):
        side = data[key]
        who = name(side["side"])
        if side.get("fate_auto"):
            if priced:
                luck.spend(who, "fate", 1)
            continue
        luck.roll(who, four_df(side["dice_sum"]))


def _exchange(data: Data, luck: Tally) -> None:
    # Судьба declared before an exchange's roll has its own entry ({"fate": "before"}).
    opposed = data.get("opposed")
    if opposed:
        _opposed(opposed, luck, priced=False)
        return
    for result in data.get("one_sided") or []:
        who = name(result["side"])
        if result.get("fate_auto"):
            continue
        luck.roll(who, _one_sided(result))

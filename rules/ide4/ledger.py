"""IDE4's entries: a check's d100 among its difficulty's outcomes, an opposed check's two rolls,
and what a player spent after the dice (energy, a reroll)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.ledger.entry import Data, Tally
from rules.ledger.percentile import outcome_luck


def read(data: Data, previous: Sequence[Data], luck: Tally) -> None:
    """Tally one IDE4 result."""
    from rules.ide4.model import OUTCOMES
    from rules.ide4.odds import outcome_odds

    if data.get("kind") == "opposed":  # two checks, each its own roll
        if data.get("event", "roll") != "roll":
            return  # the outcome after moves or a tie: its dice were counted at the roll
        for key in ("a", "b"):
            if isinstance(data.get(key), Mapping):
                read({**data[key], "event": "roll"}, previous, luck)
        return
    inp = data.get("input") or {}
    who = inp.get("actor") or None
    event = data.get("event", "roll")
    steps = data.get("steps") or []
    if event == "roll":
        luck.spend(who, "energy", sum(s.get("energy_spent", 0) for s in steps))
        d100 = next((s for s in steps if s.get("kind") == "d100"), None)
        if d100 is None or data.get("status") in ("auto", "impossible"):
            return  # [0] is an automatic Успех, [00] has no roll: no dice, no luck
        difficulty = data["difficulty"]
        before = data.get("energy_before") or {}
        odds = outcome_odds(
            difficulty["final"],
            len(before.get("dice") or ()),
            int(before.get("die") or 4),
            hidden_risk=bool(difficulty.get("hidden_risk")),
        )
        luck.roll(who, outcome_luck(odds, OUTCOMES, d100["outcome"]))
    elif event == "reroll":
        luck.spend(who, "rerolls", 1)
    elif event == "energy_after" and steps:
        luck.spend(who, "energy", steps[-1].get("energy_spent", 0))


def initiative(data: Data, luck: Tally) -> None:
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

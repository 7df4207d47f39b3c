"""Rounds in IDE4, Старатели and Мир Тьмы: initiative, turn order, the Мир Тьмы health track."""

from __future__ import annotations

from functools import cache

from rules.rounds.initiative import (
    TIE_RULES,
    Fighter,
    InitiativeRoll,
    order,
    per_side,
    roll_initiative,
    roll_one,
    tie_rule,
)
from rules.rounds.tracker import Entrant, Tracker

__all__ = [
    "TIE_RULES",
    "Entrant",
    "Fighter",
    "InitiativeRoll",
    "Tracker",
    "order",
    "per_side",
    "roll_initiative",
    "roll_one",
    "tie_rule",
]


@cache
def checked_tables() -> bool:
    """Read every round-tracker table the way the rules will (the settings form runs this
    cached loader to refuse a table the tracker could not use).

    Raises:
        RulesError: a table value the rules cannot use; the message names it.
    """
    from rules.effects import rounds_rule
    from rules.rounds import health
    from rules.rounds.initiative import check_setting
    from rules.systems import round_systems

    per_side()
    rounds_rule()
    health.rules()
    for system in round_systems():
        tie_rule(system)
        check_setting(system)
    return True

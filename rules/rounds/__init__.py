"""Rounds in IDE4, Старатели and Мир Тьмы: initiative, turn order, the Мир Тьмы health track."""

from __future__ import annotations

from rules.rounds.initiative import (
    SYSTEMS,
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
    "SYSTEMS",
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

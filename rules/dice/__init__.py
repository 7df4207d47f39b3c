"""Dice notation: parse an expression, roll it with one injectable random source.

The notation is rpg-dice-roller's (see :mod:`rules.dice.parser` for the grammar and
:mod:`rules.dice.roller` for the order modifiers run in), with Russian ``к`` for ``d``; numbers
and rpg-dice-roller's two-decimal total are in :mod:`rules.dice.values`.
"""

from rules.dice.bounds import bounds
from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Call,
    Compare,
    Dice,
    Explode,
    Expression,
    Group,
    Limits,
    Mark,
    Negate,
    Node,
    Number,
    Reading,
    Reroll,
    Select,
    Target,
    Unique,
    kept_range,
)
from rules.dice.parser import parse
from rules.dice.results import (
    Die,
    GroupRoll,
    OpRoll,
    Outcome,
    Part,
    PoolRoll,
    RollResult,
    ValueRoll,
)
from rules.dice.roller import roll, validate
from rules.dice.values import Value, total_of
from rules.rng import make_rng

__all__ = [
    "DEFAULT_LIMITS",
    "Binary",
    "Call",
    "Compare",
    "Dice",
    "Die",
    "Explode",
    "Expression",
    "Group",
    "GroupRoll",
    "Limits",
    "Mark",
    "Negate",
    "Node",
    "Number",
    "OpRoll",
    "Outcome",
    "Part",
    "PoolRoll",
    "Reading",
    "Reroll",
    "RollResult",
    "Select",
    "Target",
    "Unique",
    "Value",
    "ValueRoll",
    "bounds",
    "kept_range",
    "make_rng",
    "parse",
    "roll",
    "total_of",
    "validate",
]

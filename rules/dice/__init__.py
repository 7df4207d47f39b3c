"""Dice notation: parse an expression, roll it with one injectable random source.

The notation is rpg-dice-roller's (see :mod:`rules.dice.parser` for the grammar and
:mod:`rules.dice.roller` for the order modifiers run in), with Russian ``к`` for ``d``.
"""

from rules.dice.bounds import bounds
from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Compare,
    Dice,
    Explode,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
    Reroll,
    Select,
    Target,
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
from rules.rng import make_rng

__all__ = [
    "DEFAULT_LIMITS",
    "Binary",
    "Compare",
    "Dice",
    "Die",
    "Explode",
    "Expression",
    "Group",
    "GroupRoll",
    "Limits",
    "Negate",
    "Node",
    "Number",
    "OpRoll",
    "Outcome",
    "Part",
    "PoolRoll",
    "Reroll",
    "RollResult",
    "Select",
    "Target",
    "ValueRoll",
    "bounds",
    "make_rng",
    "parse",
    "roll",
    "validate",
]

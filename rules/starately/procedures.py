"""Старатели procedures built on one check: opposed rolls, the task chain, the group check, Risk.

Each takes frozen inputs and returns a result that keeps every roll it made, in the order the
dice were drawn (helpers first, then the main roll).

This module is their public face; each lives in a module of its own: :mod:`rules.starately.opposed`,
:mod:`rules.starately.chain`, :mod:`rules.starately.group` and :mod:`rules.starately.risk`.
"""

from rules.starately.chain import (
    ChainResult,
    TaskChain,
    chain_modifier,
    resolve_chain,
    roll_chain,
)
from rules.starately.group import GroupCheck, GroupResult, helper_refusal, resolve_group, roll_group
from rules.starately.opposed import (
    SIDES,
    Opposed,
    OpposedResult,
    natural_edge,
    resolve_opposed,
    roll_opposed,
)
from rules.starately.risk import RiskResult, resolve_risk, risk_refusal, roll_risk

__all__ = [
    "SIDES",
    "ChainResult",
    "GroupCheck",
    "GroupResult",
    "Opposed",
    "OpposedResult",
    "RiskResult",
    "TaskChain",
    "chain_modifier",
    "helper_refusal",
    "natural_edge",
    "resolve_chain",
    "resolve_group",
    "resolve_opposed",
    "resolve_risk",
    "risk_refusal",
    "roll_chain",
    "roll_group",
    "roll_opposed",
    "roll_risk",
]

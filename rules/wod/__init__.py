"""Мир Тьмы (d10 pool): pools, successes, n-again, rote, exceptional success, the chance die,
withdrawal before it, and exact odds.

``rules.wod`` is the public face; ``tables``, ``pool`` and ``odds`` split it by concept.
"""

from __future__ import annotations

from rules.wod.contested import (
    TIES,
    ContestedOdds,
    ContestedResult,
    ContestRules,
    Extended,
    add_roll,
    contest_rules,
    contested_odds,
    extended_refusal,
    resolve_contested,
    roll_contested,
    roll_extended,
)
from rules.wod.odds import PoolOdds, die_counts, die_low, low_counts, pool_counts, pool_odds
from rules.wod.pool import (
    CHANCE_DRAMATIC,
    CHANCE_SUCCESS,
    MAX_POOL,
    OUTCOME_NAMES,
    OUTCOMES,
    Die,
    Modifier,
    Pool,
    PoolResult,
    Withdrawal,
    Withdrawn,
    outcome_of,
    resolve_pool,
    roll_pool,
    withdraw,
    withdrawal,
)
from rules.wod.tables import AGAIN_CHOICES, Settings, parse_again, settings

__all__ = [
    "TIES",
    "ContestRules",
    "ContestedOdds",
    "ContestedResult",
    "Extended",
    "add_roll",
    "contest_rules",
    "contested_odds",
    "extended_refusal",
    "resolve_contested",
    "roll_contested",
    "roll_extended",
    "AGAIN_CHOICES",
    "CHANCE_DRAMATIC",
    "CHANCE_SUCCESS",
    "MAX_POOL",
    "OUTCOMES",
    "OUTCOME_NAMES",
    "Die",
    "Modifier",
    "Pool",
    "PoolOdds",
    "PoolResult",
    "Settings",
    "Withdrawal",
    "Withdrawn",
    "die_counts",
    "die_low",
    "outcome_of",
    "low_counts",
    "parse_again",
    "pool_counts",
    "pool_odds",
    "resolve_pool",
    "roll_pool",
    "settings",
    "withdraw",
    "withdrawal",
]

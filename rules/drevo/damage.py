"""Древо damage [default]: margin + МУ → a damage level (``data/drevo/damage.toml``).

The seed stops before its damage section, so the formula and the bands are kubik's,
shown as the campaign's setting. After a crit win the winner's total may be the lower one
(or a crit success may miss the difficulty), so the margin can be 0 or negative: the value
is then small, and the lowest band still gives a Царапина — a hit never does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.data import load_table
from rules.drevo.check import OneSidedResult
from rules.drevo.opposed import OpposedResult
from rules.drevo.wounds import LEVELS
from rules.errors import RulesError

DAMAGE_FILE = "drevo/damage.toml"


@cache
def damage_bands() -> tuple[tuple[int, str], ...]:
    """Return ``(lowest value, level)`` pairs, ascending.

    Raises:
        RulesError: the table is empty, names an unknown level or is not ascending.
    """
    bands: list[tuple[int, str]] = []
    for row in load_table(DAMAGE_FILE).get("band", []):
        level, start = row.get("level"), row.get("from")
        if level not in LEVELS or not isinstance(start, int):
            raise RulesError(
                f"{DAMAGE_FILE}: у каждой полосы нужны «level» (один из {', '.join(LEVELS)}) "
                "и целое «from»."
            )
        bands.append((start, level))
    if not bands or [b[0] for b in bands] != sorted({b[0] for b in bands}):
        raise RulesError(f"{DAMAGE_FILE}: полосы урона должны идти по возрастанию «from».")
    return tuple(bands)


@dataclass(frozen=True)
class DamageSettings:
    """The campaign's damage settings [default] from ``damage.toml``.

    Attributes:
        one_sided_bonus: added to a one-sided difference (reaching the difficulty = 1).
        crit_floor: the least margin of a win by a critical success.
    """

    one_sided_bonus: int = 1
    crit_floor: int = 4


@cache
def damage_settings() -> DamageSettings:
    """Return the campaign's damage settings.

    Raises:
        RulesError: a setting is not an integer.
    """
    table = load_table(DAMAGE_FILE)
    values = {}
    for key, default in (("one_sided_bonus", 1), ("crit_floor", 4)):
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{DAMAGE_FILE}: «{key}» должно быть целым числом.")
        values[key] = value
    return DamageSettings(**values)


def damage_value(margin: int, damage_mod: int) -> int:
    """Return the damage value: the margin plus the attacker's weapon МУ.

    Args:
        margin: see ``opposed_margin`` / ``one_sided_margin``.
        damage_mod: the МУ of the weapon that hit (−1 bare hands).
    """
    return margin + damage_mod


def damage_level(value: int) -> str:
    """Return the damage level for a damage value.

    By default: ≤ 1 ``scratch``, 2–3 ``light``, 4–5 ``wound``, 6–7 ``heavy``, ≥ 8 ``death``.
    A value below the first band still gives the first band's level.
    """
    bands = damage_bands()
    level = bands[0][1]
    for start, band_level in bands:
        if value >= start:
            level = band_level
    return level


def opposed_margin(result: OpposedResult) -> int:
    """Return the winner's total minus the loser's (0 on a tie; may be ≤ 0 after a crit)."""
    return result.margin


def one_sided_margin(result: OneSidedResult) -> int:
    """Return result − difficulty + 1: reaching the difficulty exactly is a margin of 1.

    The 1 is the campaign setting ``one_sided_bonus`` [default].
    """
    return result.total - result.check.difficulty + damage_settings().one_sided_bonus

"""Мир Тьмы campaign settings: success threshold, n-again, exceptional, withdrawal (data/wod)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.data import load_table
from rules.errors import RulesError

POOL_FILE = "wod/pool.toml"
FACES = 10
AGAIN_CHOICES = (10, 9, 8, None)  # None: no explosions


@dataclass(frozen=True)
class Settings:
    """The campaign's pool numbers (all [default] in RULES.md §3).

    Attributes:
        success_threshold: a die showing this or more is a success (8).
        again: the default n-again (10), or ``None`` for none.
        exceptional: this many successes or more is an exceptional success (5).
        withdrawal_allowed: whether a player may by default withdraw before a chance die.
    """

    success_threshold: int
    again: int | None
    exceptional: int
    withdrawal_allowed: bool


def parse_again(value: Any) -> int | None:
    """Read an n-again setting: 10, 9, 8 (also as text) or ``"none"`` / ``None``.

    Raises:
        RulesError: anything else.
    """
    if value is None or (isinstance(value, str) and value.strip().casefold() in ("none", "нет")):
        return None
    text = str(value).strip().removesuffix("-again")
    # Not isdigit(): it takes «１０» (int() reads 10) and «²» (int() raises).
    if re.fullmatch("[0-9]+", text) and int(text) in AGAIN_CHOICES:
        return int(text)
    raise RulesError(f"«{value}» — не правило «снова»: укажите 10, 9, 8 или none (без взрывов).")


def _int(table: dict[str, Any], key: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{POOL_FILE}: нужно целое число «{key}».")
    return value


@cache
def settings() -> Settings:
    """Return the campaign's pool settings.

    Raises:
        RulesError: a missing or malformed value.
    """
    table = load_table(POOL_FILE)
    pool, chance = table.get("pool", {}), table.get("chance", {})
    withdrawal = chance.get("withdrawal_allowed")
    if not isinstance(withdrawal, bool):
        raise RulesError(f"{POOL_FILE}: «withdrawal_allowed» должно быть true или false.")
    return Settings(
        success_threshold=_int(pool, "success_threshold"),
        again=parse_again(pool.get("again")),
        exceptional=_int(pool, "exceptional"),
        withdrawal_allowed=withdrawal,
    )


def default_again() -> int | None:
    """Return the campaign's n-again (10-again by default)."""
    return settings().again


def default_threshold() -> int:
    """Return the campaign's success threshold (8)."""
    return settings().success_threshold


def default_exceptional() -> int:
    """Return the campaign's exceptional-success threshold (5)."""
    return settings().exceptional


def default_withdrawal() -> bool:
    """Return whether a player may withdraw before a chance die unless the GM says otherwise."""
    return settings().withdrawal_allowed


@cache
def usual_attributes() -> dict[str, str]:
    """Return the attribute each skill is usually rolled with (``[usual_attribute]``; a
    campaign default): the builder preselects it when the skill is chosen.

    Raises:
        RulesError: a skill or an attribute that is not text.
    """
    table = load_table(POOL_FILE).get("usual_attribute", {})
    if not isinstance(table, dict):
        raise RulesError(f'{POOL_FILE}: [usual_attribute] — навык = "атрибут".')
    for skill, attribute in table.items():
        if not isinstance(attribute, str) or not attribute.strip():
            raise RulesError(f"{POOL_FILE}: у навыка «{skill}» обычный атрибут — название.")
    return {str(k): str(v) for k, v in table.items()}


def usual_attribute(skill: str) -> str | None:
    """The attribute ``skill`` is usually rolled with, or None when the table has none."""
    return usual_attributes().get(skill)

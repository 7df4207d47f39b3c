"""The bestiary's one table of kubik's own: how NPCs added from one template may differ
(``data/bestiary/variation.toml``, [default], editable per campaign).

The seeds say nothing of it: a GM adding five bandits wants either five alike or five a little
apart. :func:`variation` reads and checks the table (the settings editor runs it on an edit);
the table engine applies it (``tui/table/bestiary/spawn.py``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.data import load_table
from rules.errors import RulesError

TABLE = "bestiary/variation.toml"
MODES = ("none", "spread")
SPREAD_KEYS = ("qualities", "skills", "quality_min", "quality_max", "skill_min", "skill_max")


def check_variation(table: dict[str, Any]) -> None:
    """Refuse a variation table the engine could not apply.

    Raises:
        RulesError: an unknown mode, a negative spread, bounds the wrong way round (named).
    """
    mode = table.get("variation", {}).get("mode")
    if mode not in MODES:
        raise RulesError(f"variation.mode: «{mode}» — нужно «none» или «spread»")
    for system, spread in table.get("spread", {}).items():
        where = f"spread.{system}"
        for key in SPREAD_KEYS:
            if not isinstance(spread.get(key), int) or isinstance(spread.get(key), bool):
                raise RulesError(f"{where}.{key}: нужно целое число")
        if spread["qualities"] < 0 or spread["skills"] < 0:
            raise RulesError(f"{where}: разброс не может быть отрицательным")
        if spread["quality_min"] > spread["quality_max"]:
            raise RulesError(f"{where}: quality_min больше quality_max")
        if spread["skill_min"] > spread["skill_max"]:
            raise RulesError(f"{where}: skill_min больше skill_max")


@cache
def variation() -> dict[str, Any]:
    """The variation table in force (the campaign's, else kubik's), checked.

    Raises:
        RulesError: the table is unusable (named).
    """
    table = load_table(TABLE)
    check_variation(table)
    return table

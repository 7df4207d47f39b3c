"""A campaign's editable data tables, as each system lists them (``System.tables``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One editable data file and what it holds, in Russian."""

    relpath: str
    title: str


#: The bestiary's table of every system (rules/bestiary).
BESTIARY_TABLE = Table("bestiary/variation.toml", "Бестиарий: разброс черт НИП")

#: The round tracker's tables (the systems whose fights it runs).
ROUND_TABLES = (
    Table("rounds/initiative.toml", "Инициатива и ничьи"),
    Table("rounds/effects.toml", "Эффекты: конец «N раундов»"),
)

"""The Древо difficulty ladder, read from ``data/drevo/ladder.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.data import load_table
from rules.errors import RulesError

LADDER_FILE = "drevo/ladder.toml"
SOURCES = ("seed", "default")


@dataclass(frozen=True)
class Rung:
    """One named difficulty.

    Attributes:
        value: the difficulty number a check's result is compared with.
        name: its Russian name, e.g. ``"Средне"``.
        source: ``"seed"`` when the rulebook names it, ``"default"`` when kubik does
            (the UI marks those as campaign settings).
    """

    value: int
    name: str
    source: str


@cache
def ladder() -> tuple[Rung, ...]:
    """Return the difficulty ladder, ascending by value.

    Returns:
        The rungs of ``data/drevo/ladder.toml``, sorted by value.

    Raises:
        RulesError: the file is malformed (missing keys, wrong types, duplicate values).
    """
    rows = load_table(LADDER_FILE).get("rung", [])
    rungs: list[Rung] = []
    for i, row in enumerate(rows, start=1):
        value, name, source = row.get("value"), row.get("name"), row.get("source")
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{LADDER_FILE}: у ступени №{i} нет целого значения «value».")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"{LADDER_FILE}: у ступени №{i} нет названия «name».")
        if source not in SOURCES:
            raise RulesError(
                f"{LADDER_FILE}: у ступени №{i} поле «source» должно быть «seed» или «default»."
            )
        rungs.append(Rung(value=value, name=name.strip(), source=source))
    values = [r.value for r in rungs]
    if len(set(values)) != len(values):
        raise RulesError(f"{LADDER_FILE}: две ступени с одним и тем же значением.")
    return tuple(sorted(rungs, key=lambda r: r.value))


def rung_for(value: int) -> Rung | None:
    """Return the ladder rung for ``value``, or ``None`` when the ladder has none."""
    for rung in ladder():
        if rung.value == value:
            return rung
    return None


def difficulty_name(value: int) -> str:
    """Name a difficulty.

    Args:
        value: a difficulty number.

    Returns:
        The rung's name (``"Средне"`` for 0), or the signed number (``"+5"``) off the ladder.
    """
    rung = rung_for(value)
    return rung.name if rung is not None else f"{value:+d}"

"""What one Журнал entry's luck is made of: its fresh rolls, what was spent, and the tally that
collects them while a system's reader walks the entry's data (``rules.ledger.checks``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.ledger.percentile import Luck

#: The keys of ``spent``: Судьба points, energy points, rerolls (Риск included).
SPENT_KINDS = ("fate", "energy", "rerolls")

#: A result as the Журнал keeps it: a plain JSON dict.
Data = Mapping[str, Any]


@dataclass(frozen=True)
class RollLuck:
    """One fresh roll of an entry: who rolled it and where it landed."""

    who: str | None
    luck: Luck

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"who": self.who, **self.luck.to_dict()}


@dataclass(frozen=True)
class EntryLuck:
    """The luck of one entry: its fresh rolls, and what was spent (who → kind → amount)."""

    rolls: tuple[RollLuck, ...] = ()
    spent: dict[str | None, dict[str, int]] = field(default_factory=dict)

    @property
    def percentile(self) -> float | None:
        """The first roll's percentile (the actor's), or ``None`` without a fresh roll."""
        return float(self.rolls[0].luck.percentile) if self.rolls else None

    @property
    def percentiles(self) -> list[float]:
        """Every fresh roll's percentile (``6x 4d6``: six), at full precision."""
        return [float(r.luck.percentile) for r in self.rolls]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (stored as the entry's ``data["luck"]``)."""
        return {
            "rolls": [r.to_dict() for r in self.rolls],
            "spent": [{"who": who, **kinds} for who, kinds in self.spent.items() if kinds],
        }


class Tally:
    """The rolls and spending of one entry, while they are read from its data."""

    def __init__(self) -> None:
        self.rolls: list[RollLuck] = []
        self.spent: dict[str | None, dict[str, int]] = {}

    def roll(self, who: str | None, luck: Luck) -> None:
        self.rolls.append(RollLuck(who, luck))

    def spend(self, who: str | None, kind: str, n: int) -> None:
        if n:
            kinds = self.spent.setdefault(who, {})
            kinds[kind] = kinds.get(kind, 0) + n


def name(side: Data) -> str | None:
    """The name a side's dict records, or ``None`` for an empty one."""
    return side.get("name") or None


def system_of(data: Data) -> str | None:
    """The system a result's dict records (a Древо exchange keeps it in its plan)."""
    system = data.get("system")
    if system is None and isinstance(data.get("plan"), Mapping):
        system = data["plan"].get("system")  # a Древо exchange from the Бой tab
    return system if isinstance(system, str) else None


def frac(n: int, d: int) -> Fraction:
    return Fraction(n, d)

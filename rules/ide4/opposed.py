"""IDE4™ opposed checks: each side checks, then the seed's three-step comparison."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.ide4.model import OUTCOME_RANK
from rules.ide4.state import Check

#: [seed] «мастер оставляет положение без изменения либо назначает цену обеим сторонам».
TIE_RESOLUTIONS = {"status_quo": "положение без изменений", "price": "цена обеим сторонам"}


@dataclass(frozen=True)
class OpposedResult:
    """The comparison of two finished checks.

    Attributes:
        a, b: the two sides' checks.
        winner: ``"a"``, ``"b"`` or ``None`` (a full tie).
        decided_by: ``"outcome"`` (the higher outcome), ``"difficulty"`` (equal outcomes,
            the lower final difficulty) or ``"tie"`` (the GM decides).
        resolution: on a tie, the GM's choice of ``TIE_RESOLUTIONS``; ``""`` until chosen.
    """

    a: Check
    b: Check
    winner: str | None
    decided_by: str
    resolution: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both checks."""
        return {
            "system": "ide4",
            "kind": "opposed",
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "winner": self.winner,
            "decided_by": self.decided_by,
            "resolution": self.resolution,
        }


def opposed(a: Check, b: Check, resolution: str = "") -> OpposedResult:
    """Compare two checks: the higher outcome wins; equal outcomes — the lower final
    difficulty wins; still equal — status quo or a price to both (the GM's choice).

    Args:
        a, b: the sides' checks, each rolled or an automatic Успех.
        resolution: the GM's choice for a full tie (``"status_quo"`` or ``"price"``).

    Raises:
        RulesError: a side has not rolled, a side is [00], or an unknown resolution.
    """
    if resolution and resolution not in TIE_RESOLUTIONS:
        raise RulesError(f"При равенстве мастер выбирает: {', '.join(TIE_RESOLUTIONS)}.")
    for check in (a, b):
        if check.status == "impossible":
            raise RulesError(
                "[00]: невозможно — сторона не может действовать этим способом, противоборства нет."
            )
        if check.outcome is None:
            raise RulesError("Противоборство: сначала обе стороны делают свои проверки.")
    rank_a, rank_b = OUTCOME_RANK[a.outcome or ""], OUTCOME_RANK[b.outcome or ""]
    if rank_a != rank_b:
        return OpposedResult(a, b, "a" if rank_a > rank_b else "b", "outcome")
    diff_a, diff_b = a.difficulty.final, b.difficulty.final
    if diff_a != diff_b:
        return OpposedResult(a, b, "a" if diff_a < diff_b else "b", "difficulty")
    return OpposedResult(a, b, None, "tie", resolution)

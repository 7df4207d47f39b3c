"""IDE4™ opposed checks: each side checks, then the seed's three-step comparison.

[seed] «1. более высокий исход побеждает; 2. при одинаковом исходе побеждает тот, у кого ниже
итоговая сложность; 3. если равенство сохраняется, мастер оставляет положение без изменения
либо назначает цену обеим сторонам.»
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.ide4.model import OUTCOME_RANK, OUTCOMES, CheckInput, resolve_difficulty
from rules.ide4.odds import check_odds
from rules.ide4.state import Check

#: Outcomes of an opposed check from the first side's view.
OPPOSED_OUTCOMES = ("win", "tie", "lose")
OPPOSED_NAMES = {"win": "побеждает", "tie": "равенство", "lose": "проигрывает"}

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
        price: the price to both sides when ``resolution == "price"``.
    """

    a: Check
    b: Check
    winner: str | None
    decided_by: str
    resolution: str = ""
    price: str = ""

    @property
    def outcome(self) -> str:
        """``"win"``, ``"tie"`` or ``"lose"`` from side a's view."""
        return "tie" if self.winner is None else ("win" if self.winner == "a" else "lose")

    def resolve_tie(self, resolution: str, price: str = "") -> OpposedResult:
        """Record the GM's choice on a full tie.

        Raises:
            RulesError: no tie, an unknown choice, or a price to both without words.
        """
        if self.winner is not None:
            raise RulesError("Равенства нет: противоборство уже решено.")
        _check_resolution(resolution, price)
        return replace(self, resolution=resolution, price=price.strip())

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both checks."""
        return {
            "system": "ide4",
            "kind": "opposed",
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "winner": self.winner,
            "decided_by": self.decided_by,
            "outcome": self.outcome,
            "resolution": self.resolution,
            "price": self.price,
        }


def _check_resolution(resolution: str, price: str) -> None:
    if resolution not in TIE_RESOLUTIONS:
        raise RulesError(
            "При равенстве мастер выбирает: положение без изменений (status_quo) или цену "
            "обеим сторонам (price)."
        )
    if resolution == "price" and not price.strip():
        raise RulesError("Цена обеим сторонам: назовите её (что теряет каждая сторона).")


def opposed(a: Check, b: Check, resolution: str = "", price: str = "") -> OpposedResult:
    """Compare two checks: the higher outcome wins; equal outcomes — the lower final
    difficulty wins; still equal — status quo or a price to both (the GM's choice).

    Args:
        a, b: the sides' checks, each rolled or an automatic Успех.
        resolution: the GM's choice for a full tie (``"status_quo"`` or ``"price"``).
        price: the price to both sides (required with ``"price"``).

    Raises:
        RulesError: a side has not rolled, a side is [00], or an unknown resolution.
    """
    if resolution:
        _check_resolution(resolution, price)
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
    return OpposedResult(a, b, None, "tie", resolution, price.strip() if resolution else "")


def opposed_odds(a: CheckInput, b: CheckInput) -> dict[str, Fraction]:
    """Return the exact chances of ``win``, ``tie`` and ``lose`` from side a's view, before
    the rolls (energy before included; rerolls and later moves are choices, not chances).

    Same outcome → the lower final difficulty wins; equal difficulty → ``tie`` (the GM's
    choice follows).

    Raises:
        RulesError: a side is [00] (no opposition that way), or its inputs are refused.
    """
    finals = []
    for inp in (a, b):
        d = resolve_difficulty(inp)
        if d.kind == "impossible":
            raise RulesError(
                f"[00]: {inp.actor or 'сторона'} не может действовать этим способом — "
                "противоборства нет."
            )
        finals.append(d.final)
    odds_a, odds_b = check_odds(a), check_odds(b)
    same = "win" if finals[0] < finals[1] else "lose" if finals[0] > finals[1] else "tie"
    result = dict.fromkeys(OPPOSED_OUTCOMES, Fraction(0))
    for oa in OUTCOMES:
        for ob in OUTCOMES:
            p = odds_a[oa] * odds_b[ob]
            if not p:
                continue
            ra, rb = OUTCOME_RANK[oa], OUTCOME_RANK[ob]
            key = "win" if ra > rb else "lose" if ra < rb else same
            result[key] += p
    return result

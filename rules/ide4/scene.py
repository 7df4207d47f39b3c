"""What happens around an IDE4™ check before the dice: the need-a-roll checklist and the
clear-risk card the GM reads aloud."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.ide4.model import CheckInput, Difficulty, resolve_difficulty

#: [seed] «Проверка нужна, если существует хотя бы одно из условий» — the builder's checklist.
ROLL_REASONS = {
    "risk": "риск",
    "resistance": "сопротивление",
    "limited_time": "ограниченное время",
    "danger": "опасность",
    "important_gain": "важная выгода",
    "conflict": "конфликт интересов",
    "unknown": "неизвестный результат",
    "failure_consequences": "последствия провала",
}
#: [seed] «Проверка не нужна, если действие: …» — shown next to the checklist as a hint.
NO_ROLL_SIGNS = (
    "рутинное",
    "не несёт риска",
    "не даёт важного преимущества",
    "не меняет положение персонажей",
    "не вызывает сопротивления",
    "уже гарантировано обстоятельствами",
)


@dataclass(frozen=True)
class RollNeed:
    """The need-a-roll checklist: which of the eight conditions hold, and the verdict."""

    reasons: tuple[str, ...]
    player_demand: bool

    @property
    def needed(self) -> bool:
        """[seed] «Есть ставка — есть проверка»; a player's demand also means a roll."""
        return bool(self.reasons) or self.player_demand

    @property
    def reason_names(self) -> tuple[str, ...]:
        """The ticked conditions in Russian, in the seed's order."""
        return tuple(ROLL_REASONS[r] for r in ROLL_REASONS if r in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "needed": self.needed,
            "reasons": list(self.reasons),
            "player_demand": self.player_demand,
        }


def roll_need(reasons: tuple[str, ...] = (), player_demand: bool = False) -> RollNeed:
    """Return the checklist verdict for the ticked conditions.

    Raises:
        RulesError: an id is not one of ``ROLL_REASONS``.
    """
    unknown = [r for r in reasons if r not in ROLL_REASONS]
    if unknown:
        raise RulesError(f"Условия проверки — только {', '.join(ROLL_REASONS)}; не {unknown}.")
    ordered = tuple(r for r in ROLL_REASONS if r in reasons)
    return RollNeed(ordered, player_demand)


@dataclass(frozen=True)
class ClearRisk:
    """The clear-risk card the GM reads aloud before an important check.

    Attributes:
        intent: what the character wants.
        difficulty: the difficulty as assigned.
        circumstances: the obvious circumstances (the GM's text, then each modifier).
        risk: what may happen on a bad outcome.
        missing: Russian names of the card's parts still empty.
    """

    intent: str
    difficulty: Difficulty
    circumstances: tuple[str, ...]
    risk: str
    missing: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "intent": self.intent,
            "difficulty": self.difficulty.to_dict(),
            "circumstances": list(self.circumstances),
            "risk": self.risk,
            "missing": list(self.missing),
        }


def clear_risk(inp: CheckInput) -> ClearRisk:
    """Build the clear-risk card of an input (the builder shows it before the roll)."""
    circumstances = [inp.circumstances.strip()] if inp.circumstances.strip() else []
    difficulty = resolve_difficulty(inp)
    circumstances += [f"{m.reason} {m.value:+d}".replace("-", "−") for m in difficulty.modifiers]
    missing = [
        name for name, text in (("намерение", inp.intent), ("риск", inp.risk)) if not text.strip()
    ]
    return ClearRisk(
        inp.intent.strip(), difficulty, tuple(circumstances), inp.risk.strip(), tuple(missing)
    )

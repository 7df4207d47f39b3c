"""IDE4™'s sheet: the bonuses a skill's mastery unlocks."""

from __future__ import annotations

IDE4_BONUS_NAMES = {
    "reroll": "переброс",
    "soften": "смягчение",
    "triumph": "Успех→Триумф",
    "technique": "техника",
}


def ide4_bonuses(mastery: int) -> str:
    """Return the mastery bonuses a skill level unlocks, e.g. ``техника, переброс×2``."""
    from rules.ide4.tables import unlocked

    parts = []
    for kind, name in IDE4_BONUS_NAMES.items():
        count = unlocked(mastery, kind)
        if count:
            parts.append(name if count == 1 else f"{name}×{count}")
    return ", ".join(parts)

"""Party sheets per system show what the rules need: DMs, dots, mastery bonuses, wounds."""

from __future__ import annotations

from rules import starately
from rules.drevo.sheet import DrevoSheet
from rules.ide4.tables import threshold_of
from tui.bridge.sheets import sheet_text, stat_text
from tui.store import Character, Skill
from tui.systems.ide4.sheet import ide4_bonuses


def character(**kw) -> Character:
    base = dict(id="x", name="Тест", kind="pc", qualities={}, skills=(), weapons=())
    return Character(**{**base, **kw})


def test_ide4_bonuses_follow_the_mastery_thresholds():
    """RULES §1: «bonuses unlocked at thresholds (`data/ide4/skills.toml`)» — seed names 20
    (technique) and 100 (Успех→Триумф)."""
    technique, triumph = threshold_of("technique"), threshold_of("triumph")
    assert "техника" not in ide4_bonuses(technique - 1)
    assert "техника" in ide4_bonuses(technique)
    assert "Триумф" not in ide4_bonuses(triumph - 1)
    assert "Триумф" in ide4_bonuses(triumph)
    sheet = sheet_text("ide4", character(skills=(Skill("Взлом", 100),), extra={"energy": 40}))
    assert "энергия 40/100" in sheet and "Успех→Триумф" in sheet


def test_starately_characteristic_shows_its_dm():
    """RULES §2: «DM: ≤ 5 → −1, 6–8 → 0, 9–11 → +1, 12+ → +2»."""
    shown = {v: stat_text("starately", "Сила", v) for v in (5, 8, 9, 12)}
    assert shown == {
        5: "Сила 5 (DM −1)",
        8: "Сила 8 (DM 0)",
        9: "Сила 9 (DM +1)",
        12: "Сила 12 (DM +2)",
    }
    assert starately.characteristic_dm(12) == 2


def test_wod_attributes_as_dots():
    assert stat_text("wod", "Сила", 3) == "Сила ●●●○○"


def test_drevo_sheet_lists_wounds_and_their_healing():
    """Сид: «Лёгкая рана требует простой перевязки»."""
    sheet = sheet_text("drevo", character(sheet=DrevoSheet(wounds={"light": 1})))
    assert "Лёгкая" in sheet and "перевяз" in sheet and "штраф −1" in sheet

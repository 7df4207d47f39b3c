"""IDE4™ data: campaign defaults are marked as such, tables load, the demo party is valid."""

from __future__ import annotations

from importlib.resources import files

import pytest

from rules import ide4
from rules.data import load_table, packaged_table, set_overrides
from rules.errors import RulesError
from tests.every_case import assert_every_case

ATTRIBUTES = ("Сила", "Крупная моторика", "Мелкая моторика", "Внимание", "Риторика", "Обаяние")
ACTIONS = (
    "Ближний бой",
    "Дальний бой",
    "Переговоры",
    "Взлом",
    "Скрытность",
    "Здоровье",
    "Инициатива",
)


DEFAULTS_SAY_THEY_ARE_CAMPAIGN_SETTINGS = ["bands", "energy", "skills", "actions"]


def test_defaults_say_they_are_campaign_settings() -> None:
    """RULES.md: «Every [default] value lives in a data file under `data/`, is shown in the UI as
    the campaign's setting (not as the book's word)»."""

    def check(name: str) -> None:
        text = files("data").joinpath(f"ide4/{name}.toml").read_text(encoding="utf-8")
        assert "Campaign default, editable per campaign" in text

    assert_every_case(DEFAULTS_SAY_THEY_ARE_CAMPAIGN_SETTINGS, check, star=False)


def test_actions_are_the_seeds_seven() -> None:
    """Сид: «Примеры действий: Ближний бой; Дальний бой; Переговоры; Взлом; Скрытность;
    Здоровье; Инициатива.»"""
    assert tuple(ide4.actions()) == ACTIONS
    for act in ide4.actions().values():
        assert act.attributes and set(act.attributes) <= set(ATTRIBUTES)
        assert 1 <= act.base <= 7
        assert set(act.distances) <= set(ide4.DISTANCES)
    assert ide4.action("Ближний бой").distances and ide4.action("Дальний бой").distances


def test_mastery_thresholds_keep_the_seeds_twenty_and_hundred() -> None:
    """Сид: «Бонус 20 работает только если персонаж применяет именованную технику» и «Бонус
    100 (Успех → Триумф)»."""
    seed = {(t.mastery, t.kind) for t in ide4.mastery_thresholds() if t.source == "seed"}
    assert seed == {(20, "technique"), (100, "triumph")}
    assert ide4.unlocked(100, "triumph") == 1 and ide4.unlocked(99, "triumph") == 0


def test_energy_table_keeps_the_seeds_limits() -> None:
    """Сид: «У каждого персонажа 100 единиц энергии. Максимум — 100.», «До 10 кубов.»,
    «До 3 кубов.» и «общее число перебросов на проверку — не более трёх (решение мастера)»."""
    rules = ide4.energy_rules()
    assert (rules.pool_max, rules.before_max_dice, rules.after_max_dice) == (100, 10, 3)
    assert rules.reroll_cap == 3 and rules.sizes == (4, 6, 8, 10, 12, 20)


def test_an_energy_die_of_two_faces_is_the_smallest_accepted() -> None:
    """A campaign may make a level's energy die a d2 (the least die with a choice); a d1 is
    refused (test_refusals). The boundary both ways: 2 loads, and the die is used as set."""
    table = {**packaged_table("ide4/energy.toml")}
    table["die_size"] = {**table["die_size"], "1": 2}
    set_overrides({"ide4/energy.toml": table})
    try:
        rules = ide4.energy_rules()
        assert rules.die_size[1] == 2 and rules.sizes == (2, 6, 8, 10, 12, 20)
        assert rules.nominal(1) == 2 and rules.nominal(6) == 20
    finally:
        set_overrides(None)


def test_a_band_without_a_middle_range_loads() -> None:
    """A campaign may drop «Средне» from a band (middle_min = success_min: every total that is
    not a failure succeeds); middle_min above success_min is refused (test_refusals)."""
    table = {**packaged_table("ide4/bands.toml")}
    first = {**table["band"][0], "middle_min": 26, "success_min": 26}
    table["band"] = [first, *table["band"][1:]]
    set_overrides({"ide4/bands.toml": table})
    try:
        band = ide4.band_for(1)
        assert (band.middle_min, band.success_min) == (26, 26)
        assert [band.classify(n, n) for n in (25, 26)] == ["failure", "success"]
    finally:
        set_overrides(None)
    table["band"] = [{**first, "middle_min": 27}, *table["band"][1:]]
    set_overrides({"ide4/bands.toml": table})
    try:
        with pytest.raises(RulesError, match="middle_min ≤ success_min"):
            ide4.bands()
    finally:
        set_overrides(None)


def test_demo_party_is_a_valid_ide4_party() -> None:
    """Сид: «Любая проверка выполняется через главный атрибут.» — the demo characters carry the
    six attributes the seed names, skills with mastery and their main attribute."""
    table = load_table("demo/ide4.toml")
    assert table["campaign"]["system"] == "ide4"
    kinds = [c["kind"] for c in table["characters"]]
    assert 3 <= kinds.count("pc") <= 4 and kinds.count("npc") == 2
    for character in table["characters"]:
        assert tuple(character["qualities"]) == ATTRIBUTES
        assert all(1 <= v <= 6 for v in character["qualities"].values())
        assert "fate" not in character and not character.get("weapons")  # no Судьба here
        assert 0 <= character["energy"] <= 100 and isinstance(character["always_expanded"], bool)
        for skill in character["skills"]:
            assert 0 <= skill["value"] <= 100 and skill["parent"] in ATTRIBUTES
            assert set(skill.get("distances", ())) <= set(ide4.DISTANCES)

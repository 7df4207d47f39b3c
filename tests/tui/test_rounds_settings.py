"""The round tracker's campaign tables, as the settings form checks them. (The tracker and
the effects against the store, in any order: tests/table/test_rounds_machine.py.)"""

from __future__ import annotations


def test_settings_refuse_a_round_table_the_tracker_cannot_use() -> None:
    """The settings form runs the tracker's loader: an unknown tie rule, a «per» that is
    neither, or Мир Тьмы attributes that are not a list are refused with the reason."""
    import pytest

    from rules.data import packaged_text
    from tui.screens.settings_tables import SettingsError, check_table

    text = packaged_text("rounds/initiative.toml")
    with pytest.raises(SettingsError, match="Правило ничьей «coin»"):
        check_table("rounds/initiative.toml", text.replace('tie = "bonus"', 'tie = "coin"'))
    with pytest.raises(SettingsError, match="per"):
        check_table("rounds/initiative.toml", text.replace('per = "combatant"', 'per = "x"'))
    with pytest.raises(SettingsError, match="атрибут|список"):
        check_table(
            "rounds/initiative.toml",
            text.replace('attributes = ["Ловкость", "Самообладание"]', 'attributes = "Ловкость"'),
        )
    effects = packaged_text("rounds/effects.toml")
    with pytest.raises(SettingsError, match="same_turn"):
        check_table("rounds/effects.toml", effects.replace('"same_turn"', '"later"', 1))
    assert check_table("rounds/health.toml", packaged_text("rounds/health.toml"))

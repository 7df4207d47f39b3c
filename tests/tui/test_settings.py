"""Campaign settings: every [default] table editable, validated, reset; the rules obey."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import data, drevo, ide4
from tui import registry
from tui.screens.settings import SettingsScreen
from tui.screens.settings_tables import SettingsError, check_table


@pytest.fixture(autouse=True)
def packaged_defaults():
    """Leave the rules on the packaged tables whatever a test did."""
    yield
    data.set_overrides({})


LADDER = data.packaged_text("drevo/ladder.toml")
RENAMED = LADDER.replace('name = "Средне"', 'name = "Обычно"')


class TestOverrides:
    def test_override_renames_a_rung_and_reset_restores(self):
        """RULES.md: «0 Средне [seed]» … every [default] is editable per campaign."""
        assert drevo.rung_for(0).name == "Средне"
        data.set_overrides({"drevo/ladder.toml": check_table("drevo/ladder.toml", RENAMED)})
        assert drevo.rung_for(0).name == "Обычно"
        data.set_overrides({})
        assert drevo.rung_for(0).name == "Средне"

    def test_override_moves_an_ide4_band_and_its_odds(self):
        """IDE4 bands [default]: «[3] … Успех: total ≥ 56»; a campaign may move it."""
        band = ide4.band_for(3)
        assert band.success_min == 56
        assert ide4.outcome_odds(3)["success"] == Fraction(39, 100)  # 56…94
        assert band.classify(60, 60) == "success"
        text = data.packaged_text("ide4/bands.toml").replace(
            "middle_min = 31\nsuccess_min = 56", "middle_min = 31\nsuccess_min = 66"
        )
        data.set_overrides({"ide4/bands.toml": check_table("ide4/bands.toml", text)})
        assert ide4.band_for(3).success_min == 66
        assert ide4.band_for(3).classify(60, 60) == "middle"
        assert ide4.outcome_odds(3)["success"] == Fraction(29, 100)  # 66…94 (95+ is Триумф)
        data.set_overrides({})
        assert ide4.band_for(3).classify(60, 60) == "success"
        assert ide4.outcome_odds(3)["success"] == Fraction(39, 100)  # 56…94 (cache cleared)

    @pytest.mark.parametrize(
        ("relpath", "old", "new", "message"),
        [
            ("drevo/ladder.toml", "value = 1\n", "value = 0\n", "две ступени"),
            ("drevo/fate.toml", "starting_points = 3", 'starting_points = "три"', "число"),
            ("drevo/fate.toml", "shift = true", "shiftt = true", "Нет ключа «uses.shift»"),
            ("ide4/energy.toml", "reroll_cap = 3", "reroll_cap = 3 3", "Ошибка TOML"),
            ("wod/pool.toml", "again = 10", "again = 7", "снова"),
        ],
    )
    def test_bad_tables_are_refused(self, relpath, old, new, message):
        text = data.packaged_text(relpath)
        assert old in text
        with pytest.raises(SettingsError, match=message):
            check_table(relpath, text.replace(old, new, 1))
        assert data.overrides() == {}  # a refused check leaves the rules as they were

    def test_every_packaged_table_passes_its_own_check(self):
        for tables in (s.tables for s in registry.all_systems()):
            for t in tables:
                check_table(t.relpath, data.packaged_text(t.relpath))


async def edit(pilot, text: str) -> None:
    pilot.app.screen.query_one("#settings-editor").text = text
    await pilot.pause()


class TestSettingsScreen:
    async def test_other_table_and_unsaved_close(self, make_test_app):
        """Another table (↓), its names shown whole, its change asked about on Esc. Issue 34:
        Settings showed «Перебросов за проверку3» — a name as long as its column wraps, with a
        space before the value; the thresholds' kinds are words, not «technique / reroll»."""
        from textual.widgets import Label

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+t", "down")  # the second table: energy and rerolls
            await pilot.pause()
            assert app.screen.current == "ide4/energy.toml"
            label = next(w for w in app.screen.query(Label) if "Перебросов" in str(w.render()))
            assert label.region.height == 2  # «Перебросов за» / «проверку»: wrapped, not glued
            await pilot.press("down")  # Пороги мастерства
            await pilot.pause()
            shown = " ".join(str(w.render()) for w in app.screen.query("ValueStepper"))
            assert "именованная техника" in shown and "technique" not in shown
            await pilot.press("up")  # back to energy and rerolls
            await pilot.pause()
            assert app.screen.current == "ide4/energy.toml"
            text = data.packaged_text("ide4/energy.toml")
            text = text.replace("reroll_cap = 3", "reroll_cap = 2")
            await edit(pilot, text)
            await pilot.press("escape")  # unsaved: asks
            await pilot.press("enter")  # «Сохранить и закрыть»
            await pilot.pause()
            assert not isinstance(app.screen, SettingsScreen)
        assert app.store.get_doc("settings")["ide4/energy.toml"]["reroll_cap"] == 2

    def test_snapshot(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("ctrl+t")  # the settings screen, the ladder first
            await pilot.press("down")  # the damage table

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

"""The IDE4 builder's dialogs follow the store (issue 14, «one truth»): the energy chooser of a
character removed in another window refuses its Enter. (The opposed dialogs following an
undo: tests/tui/test_opposed_undo_keys.py::
test_the_opposed_dialogs_follow_ctrl_z_and_ctrl_y_wherever_the_focus; an undone roll giving
the form back on the screen: tests/tui/test_builder_ide4.py::TestProcedure::
test_roll_reroll_energy_after_conclude.)

What these checks pay and write (the energy, the Журнал lines, a removed character spending
nothing, two undos staying undone): tests/table/test_check_ide4_paid.py."""

from __future__ import annotations

from tests.tui.test_builder_ide4 import builder
from tui.store import Store
from tui.systems.ide4.builder.dialogs import ChooserScreen


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_energy_after_for_a_removed_character_spends_nothing(make_test_app, campaign_path):
    """The energy dialog open, the character removed by another process and seen by the app,
    Enter: nothing is shown or logged as spent (the dialog stays open, says so, refuses
    Enter; Esc closes it); «e» again opens nothing. (Enter before the app saw the removal:
    the store refuses the write — tests/table/test_check_ide4_paid.py::
    test_energy_after_for_a_character_removed_elsewhere_spends_nothing, which replaces this
    test's `[before-the-app-saw-it]` case.)"""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # roll a check for the first character
        await pilot.pause()
        b = builder(app)
        assert b.check.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
        cid = b._check_character_id
        name = b.form.characters[cid].name
        rolled = b.check
        log_before = len(app.store.log())
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ChooserScreen)
        Store.open(campaign_path).delete_character(cid)
        app._refresh_store()  # what the file watch (or the timer) does
        await pilot.pause()
        assert "удалён в другом окне" in str(app.screen.query_one("WithdrawnNote").render())
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert b.check == rolled  # nothing shown as spent
        assert f"энергия {rolled.pool_after}/100" in str(b.query_one("#ide4-steps").render())
        assert len(app.store.log()) == log_before  # nothing logged as spent
        assert any(f"{name} удалён в другом окне" in n for n in notices(app))
        if isinstance(app.screen, ChooserScreen):
            await pilot.press("escape")
            await pilot.pause()
        assert not isinstance(app.screen, ChooserScreen)
        await pilot.press("e")  # again, now that the app knows: refused, nothing opens
        await pilot.pause()
        assert not isinstance(app.screen, ChooserScreen)
        assert b.check == rolled

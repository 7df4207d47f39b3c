"""The IDE4 builder's dialogs and screen follow the store (issue 14, «one truth»): the energy
chooser of a character removed in another window refuses its Enter, the opposed dialogs show
what an undo gave back, and an undone roll gives the form back on the screen.

What these checks pay and write (the energy, the Журнал lines, a removed character spending
nothing, two undos staying undone): tests/table/test_check_ide4_paid.py."""

from __future__ import annotations

from tests.tui.test_builder_ide4 import builder, choose, energy
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


async def test_the_opposed_result_follows_an_undo_of_its_roll(make_test_app):
    """The second side's dialog draws its rows from the engine (another opponent: his own
    sheet's attribute and energy die; the first side not offered). Energy before the roll of
    an opposed check, then Ctrl+Z in its result dialog: the roll and the energy it paid are
    undone together — the second side's dialog is back, the sheet has its energy; Ctrl+Y
    gives the same roll back (its dice), and the result dialog shows it.

    Replaces the pilot test `tests/tui/test_check_issue34.py::
    test_the_opposed_second_side_is_derived_from_its_own_sheet`: its screen part (the
    dialog's rows, after a choice in it, are the engine's) is here; the derivation itself
    (Хозяин подвала's Риторика and d12 — номинал, nobody opposes himself) is
    tests/table/test_check_ide4_opposed.py::
    test_the_second_side_is_derived_from_the_opponent_chosen."""
    from tests.tui.test_builder_ide4_options import open_ide4
    from tui.systems.ide4.builder.opposed import OpposedSetupScreen
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_ide4(pilot, level="expanded")
        await choose(pilot, "ide4-energy", 1)  # 1 die of the nominal before the roll
        await pilot.press("o")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, OpposedSetupScreen)
        first = app.services.check_table.state.inputs.character
        host = next(c.id for c in app.store.characters() if c.name == "Хозяин подвала")
        setup.query_one("#opp-character").select(host)
        await pilot.pause()
        setup.query_one("#opp-skill").select("Переговоры")
        await pilot.pause()
        rows = setup.shown.rows()
        for row, (options, value) in rows.items():
            stepper = setup.query_one(f"#opp-{row}")
            assert (stepper.options, stepper.value) == (list(options), value), f"row {row}"
        assert setup.query_one("#opp-attribute").value == "Риторика"
        die = setup.query_one("#opp-die")
        assert die._options[die.index][0] == "d12 — номинал", "his own nominal shown"
        assert first not in [v for _, v in setup.query_one("#opp-character")._options]
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert isinstance(app.screen, OpposedResultScreen)
        rolled = app.screen.checks
        a = rolled["a"]
        name, spent = a.input.actor, a.energy_spent
        assert spent and energy(app, name) == 100 - spent
        assert f"энергия {100 - spent}/100" in str(app.screen.query_one("#opp-lines").render())
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert isinstance(app.screen, OpposedSetupScreen) and energy(app, name) == 100
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        await pilot.pause()
        assert isinstance(app.screen, OpposedResultScreen)
        assert energy(app, name) == 100 - spent and app.screen.checks == rolled


async def test_an_undone_roll_gives_the_form_back_and_its_redo_the_result(make_test_app):
    """Energy before the roll, energy after, Ctrl+Z twice: the roll is undone too — the tab
    shows the form again, the sheet at 100; Ctrl+Y: the rolled check is shown again with the
    energy it paid. Replaces the screen part of the pilot tests
    `tests/tui/test_ide4_dialogs_follow.py::
    test_two_undos_under_an_open_check_stay_followed_on_the_next_change` and
    `tests/tui/test_ide4_log_links.py::test_the_energy_before_rolls_line_follows_its_undo_and_redo`
    (what they paid and marked, and the next store change leaving the undo alone:
    tests/table/test_check_ide4_paid.py)."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "l")
        b = builder(app)
        name = b.form.characters[b.form.value("character")].name
        await choose(pilot, "ide4-energy", 1)
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert b.check.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
        paid = b.check.pool_after
        await pilot.press("e", "enter")  # energy after: the first choice
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) < paid
        for _ in range(2):
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
        assert energy(app, name) == 100 and b.phase == "setup"
        assert b.query_one("#ide4-form").display, "the form shown again"
        assert not b.query_one("#ide4-after").display, "the result hidden"
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        await pilot.pause()
        assert b.phase == "result" and b.query_one("#ide4-after").display
        assert f"энергия {paid}/100" in str(b.query_one("#ide4-steps").render())

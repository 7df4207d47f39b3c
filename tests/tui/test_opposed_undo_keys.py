"""Ctrl+Z (and Ctrl+Y) in the IDE4 opposed result dialog undo the campaign's last step wherever
the dialog's focus is — on its tie chooser or in its price field — never swallowed by a field,
and the opposed dialogs follow (the roll undone: the second side's dialog again);
in a dialog that does not follow the store they are refused with what to do; under a Партия
dialog that follows, they undo and the dialog says so (on the Древо demo party:
tests/tui/test_builder_undo.py::TestDrevoFateAfterTheRoll). (The undo of an opposed move itself —
both checks and the sheet back, the same move again: tests/table/test_check_ide4_paid.py.)"""

from __future__ import annotations


async def test_the_opposed_dialogs_follow_ctrl_z_and_ctrl_y_wherever_the_focus(
    make_test_app, campaign_path
):
    """First, in the same app: the player's right and an opposed check's full tie with a
    price, :func:`tests.tui.test_builder_ide4_options.
    the_players_right_then_an_opposed_check_outside_a_fight` (it was the pilot test
    `tests/tui/test_builder_ide4_options.py::
    test_the_players_right_then_an_opposed_check_outside_a_fight`, the merge of two; on the
    same campaign and tab: one app now). Then, on a new check at the expanded level:

    The second side's dialog draws its rows from the engine (another opponent: his own
    sheet's attribute and energy die; the first side not offered). Rolled with energy before
    on the first side, the result shows what it paid. An energy move, then Ctrl+Z and Ctrl+Y
    with the dialog's own focus (the verdict), then in the price field with text typed in it:
    the move is taken back and made again each time, the dialog stays, the text stays. Two
    Ctrl+Z more undo the move and the roll with the energy it paid: the second side's dialog
    is back, the sheet has its energy; Ctrl+Y gives the same roll back (its dice), and the
    result dialog shows it.

    One app for what were three pilot tests on the same campaign and opposed check:
    `test_ctrl_z_in_the_opposed_dialog_undoes_the_move[verdict]` and `[price]` of this file,
    and `tests/tui/test_ide4_dialogs_follow.py::
    test_the_opposed_result_follows_an_undo_of_its_roll`. It also replaces the screen part
    of `tests/tui/test_check_issue34.py::
    test_the_opposed_second_side_is_derived_from_its_own_sheet` (the dialog's rows, after a
    choice in it, are the engine's); the derivation itself (Хозяин подвала's Риторика and
    «d12 — номинал», nobody opposes himself) is tests/table/test_check_ide4_opposed.py::
    test_the_second_side_is_derived_from_the_opponent_chosen. (The undo of an opposed move
    and of its roll themselves: tests/table/test_check_ide4_paid.py.)"""
    from tests.tui.test_builder_ide4 import choose, energy
    from tests.tui.test_builder_ide4_options import (
        open_ide4,
        the_players_right_then_an_opposed_check_outside_a_fight,
    )
    from tui.systems.ide4.builder.opposed import OpposedSetupScreen
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

    app = make_test_app(system="ide4")

    async def keys(*pressed: str) -> None:
        await pilot.press(*pressed)
        await app.services.writes_done()
        await pilot.pause()

    async with app.run_test(size=(80, 24)) as pilot:
        await the_players_right_then_an_opposed_check_outside_a_fight(app, pilot, campaign_path)
        app.query_one("#check-pane").action_new_check()  # a new check, the situation cleared
        await open_ide4(pilot, level="expanded")
        await choose(pilot, "ide4-energy", 1)  # 1 die of the nominal before the roll
        await pilot.press("o")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, OpposedSetupScreen)
        first = app.services.check_table.state.inputs.character
        host = next(c.id for c in app.store.characters() if c.name == "Хозяин подвала")
        setup.query_one("#opp-die").select(4)  # a die below the first opponent's nominal
        await pilot.pause()
        setup.query_one("#opp-character").select(host)
        await pilot.pause()
        setup.query_one("#opp-skill").select("Переговоры")
        await pilot.pause()
        for row, (options, value) in setup.shown.rows().items():
            stepper = setup.query_one(f"#opp-{row}")
            assert (stepper.options, stepper.value) == (list(options), value), f"row {row}"
        assert setup.query_one("#opp-attribute").value == "Риторика"
        die = setup.query_one("#opp-die")
        assert die._options[die.index][0] == "d12 — номинал", "his own nominal shown"
        assert first not in [v for _, v in setup.query_one("#opp-character")._options]
        assert setup.second().nominal == 12 and setup.second().before_die == 12
        await keys("enter")
        screen = app.screen
        assert isinstance(screen, OpposedResultScreen)
        rolled = dict(screen.checks)
        name, paid = rolled["a"].input.actor, rolled["a"].energy_spent
        assert paid and energy(app, name) == 100 - paid
        assert f"энергия {100 - paid}/100" in str(screen.query_one("#opp-lines").render())

        allowed = [c for c in screen._choices("energy_after") if c.allowed]
        assert allowed, "seed: energy after applies"
        screen._chosen(allowed[0].id)
        await app.services.writes_done()
        await pilot.pause()
        spent = dict(screen.checks)
        key = allowed[0].id.split(":")[0]
        mover = spent[key].input.actor
        for focus in ("verdict", "price"):
            if focus == "price":  # the price field shown and focused, as on a full tie
                screen.query_one("#opp-price-row").display = True
                screen.query_one("#opp-price").focus()
                await pilot.press(*"грязь")
                await pilot.pause()
                assert app.focused is screen.query_one("#opp-price")
            await keys("ctrl+z")
            assert energy(app, mover) == rolled[key].pool_after, f"{focus}: Ctrl+Z pays back"
            assert screen.checks == rolled, f"{focus}: Ctrl+Z takes the move back"
            assert app.screen is screen, f"{focus}: the dialog stays"
            await keys("ctrl+y")
            assert screen.checks == spent, f"{focus}: Ctrl+Y makes the move again"
            assert energy(app, mover) == spent[key].pool_after, f"{focus}: Ctrl+Y pays again"
        assert screen.query_one("#opp-price").value == "грязь"  # the text stays

        await keys("ctrl+z")  # the move
        await keys("ctrl+z")  # the roll and the energy it paid
        assert isinstance(app.screen, OpposedSetupScreen), "the second side's dialog is back"
        assert energy(app, name) == 100
        await keys("ctrl+y")
        assert isinstance(app.screen, OpposedResultScreen), "the result dialog again"
        assert energy(app, name) == 100 - paid and app.screen.checks == rolled

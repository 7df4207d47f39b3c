"""Ctrl+Z (and Ctrl+Y) in the IDE4 opposed result dialog undo the campaign's last step wherever
the dialog's focus is — on its tie chooser or in its price field — never swallowed by a field;
in a dialog that does not follow the store they are refused with what to do; under a Партия
dialog that follows, they undo and the dialog says so. (The undo of an opposed move itself —
both checks and the sheet back, the same move again: tests/table/test_check_ide4_paid.py.)"""

from __future__ import annotations


async def opened(pilot, app):
    from tests.tui.test_builder_ide4_options import open_ide4
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

    await open_ide4(pilot, level="expanded")
    await pilot.press("o")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OpposedResultScreen)
    return screen


async def test_ctrl_z_in_the_opposed_dialog_undoes_the_move(make_test_app):
    """The dialog's own focus first (the verdict), then the price field with text typed in
    it: Ctrl+Z takes the energy move back each time, Ctrl+Y makes it again, the dialog stays
    and the text stays. (Was parametrised over the two focuses, one app each: the same
    campaign and move, so one app now, each focus in turn.)"""
    from tests.tui.test_builder_ide4 import energy

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app)
        allowed = [c for c in screen._choices("energy_after") if c.allowed]
        assert allowed, "seed: energy after applies"
        rolled = dict(screen.checks)
        screen._chosen(allowed[0].id)
        await app.services.writes_done()
        await pilot.pause()
        spent = dict(screen.checks)
        key = allowed[0].id.split(":")[0]
        name = spent[key].input.actor
        for focus in ("verdict", "price"):
            if focus == "price":  # the price field shown and focused, as on a full tie
                screen.query_one("#opp-price-row").display = True
                screen.query_one("#opp-price").focus()
                await pilot.press(*"грязь")
                await pilot.pause()
                assert app.focused is screen.query_one("#opp-price")
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
            assert energy(app, name) == rolled[key].pool_after, f"{focus}: Ctrl+Z pays back"
            assert screen.checks == rolled, f"{focus}: Ctrl+Z takes the move back"
            assert app.screen is screen, f"{focus}: the dialog stays"
            await pilot.press("ctrl+y")
            await app.services.writes_done()
            await pilot.pause()
            assert screen.checks == spent, f"{focus}: Ctrl+Y makes the move again"
            assert energy(app, name) == spent[key].pool_after, f"{focus}: Ctrl+Y pays again"
        assert screen.query_one("#opp-price").value == "грязь"  # the text stays


def fate(app, name: str) -> int:
    return next(c.drevo.fate for c in app.store.characters() if c.name == name)


async def test_ctrl_z_in_dialogs_that_do_and_do_not_follow(make_test_app):
    """The «?» screen (like settings) holds what it read: Ctrl+Z there says what to do, and
    after Esc it undoes. The wound dialog follows the store: Ctrl+Z under it undoes, and it
    says the character changed. (Two pilot tests before, on the same Древо party and the same
    «g» step: `test_ctrl_z_in_a_dialog_that_does_not_follow_is_refused_with_the_reason` and
    `test_ctrl_z_under_a_party_dialog_undoes_and_the_dialog_follows`, one app now.)"""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.query_one("#party-pane")._highlighted().name
        before = fate(app, name)
        await pilot.press("g")  # +1 Судьба
        await app.services.writes_done()
        await pilot.press("question_mark", "ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert len(app.screen_stack) == 2 and fate(app, name) == before + 1, "«?»: refused"
        told = "Отмена и возврат — вне этого окна: закройте его (Esc) и нажмите Ctrl+Z ещё раз."
        assert told in [n.message for n in app._notifications], "«?»: what to do"
        await pilot.press("escape", "ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert fate(app, name) == before, "after Esc, Ctrl+Z undoes"
        seen = len(app._notifications)
        await pilot.press("g")
        await app.services.writes_done()
        await pilot.press("w", "ctrl+z")  # the wound dialog follows the store
        await app.services.writes_done()
        await pilot.pause()
        assert len(app.screen_stack) == 2, "the wound dialog stays open"
        assert fate(app, name) == before, "Ctrl+Z under the wound dialog undoes"
        said = [n.message for n in list(app._notifications)[seen:]]
        assert any(f"Персонаж {name} изменён" in m for m in said), "the dialog says so"

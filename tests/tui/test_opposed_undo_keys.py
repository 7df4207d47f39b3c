"""Ctrl+Z (and Ctrl+Y) in the IDE4 opposed result dialog undo the campaign's last step wherever
the dialog's focus is — on its tie chooser or in its price field — never swallowed by a field."""

from __future__ import annotations

import pytest


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


@pytest.mark.parametrize("focus", ["verdict", "price"])
async def test_ctrl_z_in_the_opposed_dialog_undoes_the_move(make_test_app, focus):
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
        if focus == "price":  # the price field shown and focused, as on a full tie
            screen.query_one("#opp-price-row").display = True
            screen.query_one("#opp-price").focus()
            await pilot.press(*"грязь")
            await pilot.pause()
            assert app.focused is screen.query_one("#opp-price")
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) == rolled[key].pool_after
        assert screen.checks == rolled
        assert app.screen is screen
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        await pilot.pause()
        assert screen.checks == spent and energy(app, name) == spent[key].pool_after
        if focus == "price":
            assert screen.query_one("#opp-price").value == "грязь"  # the text stays


def fate(app, name: str) -> int:
    return next(c.drevo.fate for c in app.store.characters() if c.name == name)


async def test_ctrl_z_in_a_dialog_that_does_not_follow_is_refused_with_the_reason(make_test_app):
    """The «?» screen (like settings) holds what it read: Ctrl+Z there says what to do."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.query_one("#party-pane")._highlighted().name
        before = fate(app, name)
        await pilot.press("g")  # +1 Судьба
        await app.services.writes_done()
        await pilot.press("question_mark", "ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert len(app.screen_stack) == 2 and fate(app, name) == before + 1
        told = "Отмена и возврат — вне этого окна: закройте его (Esc) и нажмите Ctrl+Z ещё раз."
        assert told in [n.message for n in app._notifications]
        await pilot.press("escape", "ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert fate(app, name) == before


async def test_ctrl_z_under_a_party_dialog_undoes_and_the_dialog_follows(make_test_app):
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.query_one("#party-pane")._highlighted().name
        before = fate(app, name)
        await pilot.press("g")
        await app.services.writes_done()
        await pilot.press("w", "ctrl+z")  # the wound dialog follows the store
        await app.services.writes_done()
        await pilot.pause()
        assert len(app.screen_stack) == 2 and fate(app, name) == before
        assert any(f"Персонаж {name} изменён" in n.message for n in app._notifications)

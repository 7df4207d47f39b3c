"""The IDE4 builder's dialogs follow the store (issue 14, «one truth»): the energy chooser of a
character removed in another window refuses its Enter, and the opposed result dialog shows the
energy an undo gave back."""

from __future__ import annotations

import pytest

from tests.tui.test_builder_ide4 import builder, energy
from tui.store import Store
from tui.systems.ide4.builder.dialogs import ChooserScreen


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("seen", [True, False], ids=["app-saw-it", "before-the-app-saw-it"])
async def test_energy_after_for_a_removed_character_spends_nothing(
    make_test_app, campaign_path, seen
):
    """The energy dialog open, the character removed by another process, Enter: nothing is
    shown or logged as spent (the dialog stays open, says so, refuses Enter; Esc closes it)."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # roll a check for the first character
        await pilot.pause()
        b = builder(app)
        if b.check.outcome in ("tragedy", "triumph"):
            pytest.skip("seed: energy after does not apply")
        cid = b._check_character_id
        name = b.form.characters[cid].name
        rolled = b.check
        log_before = len(app.store.log())
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ChooserScreen)
        Store.open(campaign_path).delete_character(cid)
        if seen:
            app._refresh_store()  # what the file watch (or the timer) does
            await pilot.pause()
            assert "удалён в другом окне" in str(app.screen.query_one("WithdrawnNote").render())
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        app._refresh_store()
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
    """Energy before the roll of an opposed check, then Ctrl+Z in its result dialog: the roll
    and the energy it paid are undone together — the second side's dialog is back, the sheet
    has its energy; Ctrl+Y gives the same roll back (its dice), and the result dialog shows it."""
    from tests.tui.test_builder_ide4 import choose
    from tests.tui.test_builder_ide4_options import open_ide4
    from tui.systems.ide4.builder.opposed import OpposedSetupScreen
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_ide4(pilot, level="expanded")
        await choose(pilot, "ide4-energy", 1)  # 1 die of the nominal before the roll
        await pilot.press("o")
        await pilot.pause()
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


async def test_an_opposed_side_removed_in_another_window_spends_no_energy(
    make_test_app, campaign_path
):
    """The opposed result dialog: a side's character removed in another window — its energy
    after is offered greyed out with the reason, and a choice made before is refused: the
    check is not changed and nothing is logged."""
    from tests.tui.test_builder_ide4_options import open_ide4
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_ide4(pilot, level="expanded")
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OpposedResultScreen)
        allowed = [c.id for c in screen._choices("energy_after") if c.allowed]
        mine = [cid for cid in allowed if cid.startswith("a:")]
        if not mine:
            pytest.skip("seed: energy after does not apply to the first side")
        name = screen.checks["a"].input.actor
        rolled, log_before = dict(screen.checks), len(app.store.log())
        Store.open(campaign_path).delete_character(
            app.services.check_table.state.opposed.a.character
        )
        app._refresh_store()
        await pilot.pause()
        gone = f"Персонаж {name} удалён в другом окне — энергию тратить не из чего."
        offered = [c for c in screen._choices("energy_after") if c.id.startswith("a:")]
        assert [(c.allowed, c.reason) for c in offered] == [(False, gone)]
        screen._chosen(mine[0])  # chosen in a chooser opened before the removal
        await app.services.writes_done()
        await pilot.pause()
        assert screen.checks == rolled and len(app.store.log()) == log_before
        assert gone in notices(app)


async def test_two_undos_under_an_open_check_stay_followed_on_the_next_change(make_test_app):
    """Energy before the roll, energy after, Ctrl+Z twice: the roll is undone too — the form
    again, the sheet at 100 — and the next store change (any other write) does not put back
    the energy the undo gave back; rolled again, the same dice."""
    from tests.tui.test_builder_ide4 import choose

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "l")
        b = builder(app)
        name = b.form.characters[b.form.value("character")].name
        await choose(pilot, "ide4-energy", 1)
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        if b.check.outcome in ("tragedy", "triumph"):
            pytest.skip("seed: energy after does not apply")
        first = b.check
        await pilot.press("e", "enter")  # energy after: the first choice
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) < 94
        for _ in range(2):
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
        assert energy(app, name) == 100 and b.phase == "setup"
        b.set_characters(app.store.characters())  # what the next store change does
        await pilot.pause()
        assert energy(app, name) == 100 and b.phase == "setup"
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert b.check.steps == first.steps  # the same energy dice and d100
        assert "энергия 94/100" in str(b.query_one("#ide4-steps").render())

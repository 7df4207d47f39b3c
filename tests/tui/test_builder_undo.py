"""Undo under an open check (issue 14): Ctrl+Z of a step the open check wrote (Судьба after
the roll, IDE4 energy after the roll) puts the check back to its state before that step; the
dice already rolled stay; Ctrl+Y re-applies the same step; the step's log line is marked."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.store import Store


def drevo_builder(app):
    return app.query_one("#check-pane")


def fate(app, name: str) -> int:
    return next(c for c in app.store.characters() if c.name == name).fate


async def drevo_rolled(pilot):
    """Open the Проверка tab on the first character and roll."""
    await pilot.press("3", "enter")
    await pilot.pause()
    b = drevo_builder(pilot.app)
    assert b._result is not None
    return b


class TestDrevoFateAfterTheRoll:
    async def test_undo_takes_the_shift_back_and_redo_reapplies_it(
        self, make_test_app, campaign_path
    ):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            b = await drevo_rolled(pilot)
            name = b.character.name
            start, rolled = fate(app, name), b._result
            await pilot.press("plus")
            await app.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1 and b._result.fate_shift == 1
            await pilot.press("ctrl+z")
            await app.writes_done()
            await pilot.pause()
            assert fate(app, name) == start
            assert b._result == rolled  # the same dice, no shift
            assert "Судьба:" not in str(b.query_one("#check-result").render())
            await pilot.press("ctrl+y")
            await app.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1
            assert b._result.fate_shift == 1 and b._result.dice == rolled.dice
            await pilot.press("ctrl+z")
            await app.writes_done()
            await pilot.pause()
            await pilot.press("plus")  # again after the undo: one point, one shift
            await app.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1 and b._result.fate_shift == 1
        log = Store.open(campaign_path).log()
        shifts = [e for e in log if e.text.startswith("Судьба +1")]
        assert [e.undone for e in shifts] == [False, True]

    async def test_the_undone_shift_is_marked_in_the_log(self, make_test_app, campaign_path):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await drevo_rolled(pilot)
            await pilot.press("plus", "plus")
            await app.writes_done()
            await pilot.press("ctrl+z")
            await app.writes_done()
            await pilot.pause()
            assert drevo_builder(app)._result.fate_shift == 1
        log = Store.open(campaign_path).log()
        assert [e.undone for e in log if e.text.startswith("Судьба")] == [True, False]


class TestIde4EnergyAfterTheRoll:
    async def test_undo_takes_the_energy_back_and_redo_brings_the_same_dice(self, make_test_app):
        from tests.tui.test_builder_ide4 import builder, energy

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("3", "enter")
            await pilot.pause()
            b = builder(app)
            name = b.check.input.actor
            rolled = b.check
            if ide4_refused(b):
                pytest.skip("seed: energy after does not apply")
            await pilot.press("e", "enter")  # the first choice
            await app.writes_done()
            await pilot.pause()
            spent = b.check
            assert spent.energy_spent > 0 and energy(app, name) == spent.pool_after
            await pilot.press("ctrl+z")
            await app.writes_done()
            await pilot.pause()
            assert energy(app, name) == rolled.pool_after
            assert b.check == rolled  # the bonus gone, the d100 kept
            assert [e.undone for e in app.store.log() if e.data.get("event") == "energy_after"]
            assert b.check_action("energy_after", ()) is True
            await pilot.press("ctrl+y")
            await app.writes_done()
            await pilot.pause()
            assert b.check == spent  # the same energy dice, not new ones
            assert energy(app, name) == spent.pool_after
        log = app.store.log()
        assert [e.undone for e in log if e.data.get("event") == "energy_after"] == [False]


def ide4_refused(b) -> bool:
    from rules import ide4

    return ide4.energy_after_refusal(b.check) is not None


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(["plus", "ctrl+z", "ctrl+y"]), min_size=1, max_size=7))
def test_the_shift_equals_what_the_sheet_paid(tmp_path_factory, keys):
    """Invariant of every sequence of spends, undos and redos: the open check's points of
    Судьба equal the points the sheet has paid since the roll."""
    import asyncio

    from tests.conftest import frozen_clock
    from tui.app import make_app

    path = tmp_path_factory.mktemp("c") / "c.json"

    async def run() -> None:
        app = make_app(path, system="drevo", seed=7, clock=frozen_clock)
        async with app.run_test(size=(80, 24)) as pilot:
            b = await drevo_rolled(pilot)
            name = b.character.name
            start = fate(app, name)
            for key in keys:
                await pilot.press(key)
                await app.writes_done()
                await pilot.pause()
                assert b._result.fate_shift == start - fate(app, name), (keys, key)

    asyncio.run(run())


class TestIde4OpposedMoves:
    async def test_undo_and_redo_of_an_opposed_energy_move(self, make_test_app):
        from tests.tui.test_builder_ide4 import energy
        from tests.tui.test_builder_ide4_options import open_ide4
        from tui.widgets.builders.ide4_opposed_result import OpposedResultScreen

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await open_ide4(pilot, level="expanded")
            await pilot.press("o")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, OpposedResultScreen)
            rolled = dict(screen.checks)
            allowed = [c for c in screen._choices("energy_after") if c.allowed]
            if not allowed:
                pytest.skip("seed: energy after does not apply")
            screen._chosen(allowed[0].id)
            await app.writes_done()
            await pilot.pause()
            spent = dict(screen.checks)
            key = allowed[0].id.split(":")[0]
            name = spent[key].input.actor
            assert energy(app, name) == spent[key].pool_after < rolled[key].pool_after
            app.action_undo()  # (Ctrl+Z in the dialog's text field undoes its text)
            await app.writes_done()
            await pilot.pause()
            assert energy(app, name) == rolled[key].pool_after
            assert screen.checks == rolled
            app.action_redo()
            await app.writes_done()
            await pilot.pause()
            assert screen.checks == spent and energy(app, name) == spent[key].pool_after

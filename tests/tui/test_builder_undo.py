"""Undo under an open check (issue 14): Ctrl+Z of a step the open check wrote (Судьба after
the roll, IDE4 energy after the roll) puts the check back to its state before that step; the
dice already rolled stay; Ctrl+Y re-applies the same step; the step's log line is marked."""

from __future__ import annotations

import asyncio
import concurrent.futures
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tests.hypo import examples
from tui.store import Store


def drevo_builder(app):
    return app.query_one("#check-pane")


def fate(app, name: str) -> int:
    return next(c for c in app.store.characters() if c.name == name).drevo.fate


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
            await app.services.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1 and b._result.fate_shift == 1
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
            assert fate(app, name) == start
            assert b._result == rolled  # the same dice, no shift
            assert "Судьба:" not in str(b.query_one("#check-result").render())
            await pilot.press("ctrl+y")
            await app.services.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1
            assert b._result.fate_shift == 1 and b._result.dice == rolled.dice
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
            await pilot.press("plus")  # again after the undo: one point, one shift
            await app.services.writes_done()
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
            await app.services.writes_done()
            await pilot.press("ctrl+z")
            await app.services.writes_done()
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
            await app.services.writes_done()
            await pilot.pause()
            spent = b.check
            assert spent.energy_spent > 0 and energy(app, name) == spent.pool_after
            await pilot.press("ctrl+z")
            await app.services.writes_done()
            await pilot.pause()
            assert energy(app, name) == rolled.pool_after
            assert b.check == rolled  # the bonus gone, the d100 kept
            assert [e.undone for e in app.store.log() if e.data.get("event") == "energy_after"]
            assert b.check_action("energy_after", ()) is True
            await pilot.press("ctrl+y")
            await app.services.writes_done()
            await pilot.pause()
            assert b.check == spent  # the same energy dice, not new ones
            assert energy(app, name) == spent.pool_after
        log = app.store.log()
        assert [e.undone for e in log if e.data.get("event") == "energy_after"] == [False]


def ide4_refused(b) -> bool:
    from rules import ide4

    return ide4.energy_after_refusal(b.check) is not None


class TestIde4OpposedMoves:
    async def test_undo_and_redo_of_an_opposed_energy_move(self, make_test_app):
        from tests.tui.test_builder_ide4 import energy
        from tests.tui.test_builder_ide4_options import open_ide4
        from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

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
            await app.services.writes_done()
            await pilot.pause()
            spent = dict(screen.checks)
            key = allowed[0].id.split(":")[0]
            name = spent[key].input.actor
            assert energy(app, name) == spent[key].pool_after < rolled[key].pool_after
            app.action_undo()  # (the key itself, in the dialog: test_opposed_undo_keys.py)
            await app.services.writes_done()
            await pilot.pause()
            assert energy(app, name) == rolled[key].pool_after
            assert screen.checks == rolled
            app.action_redo()
            await app.services.writes_done()
            await pilot.pause()
            assert screen.checks == spent and energy(app, name) == spent[key].pool_after


class DrevoFateMachine(RuleBasedStateMachine):
    """One rolled Древо check; Судьба spent after the roll, undone and redone in any order.
    Invariant: the check's shift equals the points the sheet has paid since the roll, and a
    redo never rolls new dice."""

    def __init__(self) -> None:
        super().__init__()

        from tests.conftest import frozen_clock
        from tui.app import make_app

        # One task holds the app (Textual's context must not change between steps); the
        # rules hand it keys through a queue from this thread.
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        path = Path(tempfile.mkdtemp(prefix="undo2-")) / "c.json"
        self.app = make_app(path, system="drevo", seed=7, clock=frozen_clock)
        self.ready: concurrent.futures.Future = concurrent.futures.Future()
        self.keys: asyncio.Queue = self._call(asyncio.Queue)
        self.done = asyncio.run_coroutine_threadsafe(self._hold(), self.loop)
        self.ready.result(timeout=30)
        self.name = self.b.character.name
        self.start = fate(self.app, self.name)
        self.dice = self.b._result.dice

    def _call(self, f):
        async def go():
            return f()

        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout=10)

    async def _hold(self) -> None:
        async with self.app.run_test(size=(80, 24)) as pilot:
            self.b = await drevo_rolled(pilot)
            self.ready.set_result(None)
            while True:
                key, answered = await self.keys.get()
                if key is None:
                    answered.set_result(None)
                    return
                await pilot.press(key)
                await self.app.services.writes_done()
                await pilot.pause()
                answered.set_result(None)

    def _press(self, key: str | None) -> None:
        answered: concurrent.futures.Future = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self.keys.put_nowait, (key, answered))
        answered.result(timeout=30)

    @initialize()
    def first_point(self) -> None:
        self._press("plus")

    @rule(points=st.sampled_from(["plus", "minus"]))
    def spend(self, points: str) -> None:
        self._press(points)

    @rule()
    def undo(self) -> None:
        self._press("ctrl+z")

    @rule()
    def redo(self) -> None:
        self._press("ctrl+y")

    @rule()
    def roll(self) -> None:
        """Enter: the roll again once it was undone (on a rolled check it is a new check)."""
        if self.b._result is None:
            self._press("enter")

    @invariant()
    def the_shift_is_what_the_sheet_paid(self) -> None:
        result = self.b._result
        standing = [
            e.text for e in self.app.store.log() if e.text.startswith("Судьба") and not e.undone
        ]
        assert self.start - fate(self.app, self.name) == len(standing)  # a point per step
        if result is None:  # the roll itself undone (it is an undo step): the form again
            assert standing == []
            return
        assert result.dice == self.dice  # never rerolled, not even after its undo
        assert result.fate_shift == sum(1 if t.startswith("Судьба +") else -1 for t in standing)
        shown = str(self.b.query_one("#check-result").render())
        assert ("Судьба:" in shown) == (result.fate_shift != 0)

    def teardown(self) -> None:
        self._press(None)
        self.done.result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


DrevoFateMachine.TestCase.settings = settings(
    max_examples=examples(4),
    stateful_step_count=5,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
TestDrevoFateMachine = DrevoFateMachine.TestCase

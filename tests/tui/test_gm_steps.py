"""The GM's own keys on an open check are undo steps, as a seat's accepted request is (issue
14, issue 20): Ctrl+Z after the key puts the check back (the dice rolled stay), the key's
Журнал line is marked «отменено»; Ctrl+Y brings the same step again (no new dice)."""

from __future__ import annotations

from functools import partial

import pytest

from tests.tui import builders

open_starately = partial(builders.open_builder, prefix="st")


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.writes_done()
    await pilot.pause()


def newest(app, **data):
    """Return the newest Журнал entry whose data holds ``data``."""
    return next(e for e in app.store.log() if all(e.data.get(k) == v for k, v in data.items()))


class TestStaratelyRisk:
    async def test_ctrl_z_puts_the_failed_check_back_and_ctrl_y_the_same_retry(self, make_test_app):
        """«Игрок может заявить Риск и совершить проверку ещё раз… Вне зависимости от
        результата этой повторной проверки игрок заплатит за это…» — one step, undone whole."""
        app = make_test_app(system="starately")
        async with app.run_test(size=(80, 24)) as pilot:
            await open_starately(pilot, skill="", difficulty=12)  # без навыка (−3), Подвиг 12+
            await pilot.press("enter")
            await settle(pilot)
            b = app.query_one("#check-pane")
            failed, shown = b._last, b._shown
            assert not failed.success
            await pilot.press("r", *"кобура", "enter")
            await settle(pilot)
            retry = b._last
            assert retry.risk and newest(app, kind="risk").undone is False
            assert b.check_action("risk", ()) is False
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert b._last == failed and b._shown == shown  # the first dice, no retry
            assert b.check_action("risk", ()) is True  # Risk may be declared again
            assert newest(app, kind="risk").undone is True
            assert "кобура" not in str(b.query_one("#check-result").render())
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b._last == retry  # the same retry, not a new roll
            assert newest(app, kind="risk").undone is False
            assert "кобура" in str(b.query_one("#check-result").render())


async def ide4_rolled(pilot, level: str = "expanded", natural: int = 20):
    """The IDE4 builder with a rolled check of the first character (Провал at d100 = 20)."""
    from tests.tui.test_builder_ide4_options import open_ide4

    await open_ide4(pilot, level=level)
    await pilot.press("enter")
    await settle(pilot)
    b = pilot.app.query_one("#check-pane")
    await builders.rig_d100(pilot, natural)
    return b


def energy(app, name: str) -> int:
    return next(c for c in app.store.characters() if c.name == name).extra.get("energy", 100)


class TestIde4Keys:
    @pytest.mark.parametrize(
        ("keys", "event", "level"),
        [
            (("r", "enter"), "reroll", "expanded"),
            (("e", "enter"), "energy_after", "expanded"),
            (("s",), "subroll", "expanded"),
            (("l",), "level", "standard"),
            (("p",), "level", "quick"),
        ],
    )
    async def test_ctrl_z_puts_the_check_back_and_ctrl_y_the_same_step(
        self, make_test_app, keys, event, level
    ):
        """«Игрок имеет право потребовать Развёрнутую проверку в любой ситуации», a reroll,
        energy after, the sub-roll: the GM's key is one undo step, the dice stay as rolled."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            b = await ide4_rolled(pilot, level)
            rolled, name = b.check, b.check.input.actor
            start = energy(app, name)
            await pilot.press(*keys)
            await settle(pilot)
            after = b.check
            assert after != rolled and after.steps[-1].kind == event
            assert newest(app, event=event).undone is False
            paid = energy(app, name)
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert b.check == rolled  # the d100 as rolled, the step gone
            assert newest(app, event=event).undone is True
            assert energy(app, name) == start  # the sheet paid back (energy after)
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b.check == after  # the same step again, no new dice
            assert newest(app, event=event).undone is False
            assert energy(app, name) == paid

    async def test_a_level_raised_on_the_way_is_undone_with_the_move(self, make_test_app):
        """Energy after on a standard check raises the level first: both lines, one step."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            b = await ide4_rolled(pilot, "standard")
            rolled = b.check
            await pilot.press("e", "enter")
            await settle(pilot)
            assert [s.kind for s in b.check.steps[-2:]] == ["level", "energy_after"]
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert b.check == rolled and b.check.level == "standard"
            marks = {e.data["event"]: e.undone for e in app.store.log()[:2]}
            assert marks == {"level": True, "energy_after": True}

    async def test_the_players_demand_before_the_roll(self, make_test_app):
        """«p» before the roll: the demand's line, one undo step; Ctrl+Z puts the form back."""
        from tests.tui.test_builder_ide4_options import open_ide4

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await open_ide4(pilot, level="standard")
            b = app.query_one("#check-pane")
            await pilot.press("p")
            await settle(pilot)
            assert b.player_demand and b.form.level == "expanded"
            assert newest(app, event="demand_expanded").undone is False
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert not b.player_demand and b.form.level == "standard"
            assert newest(app, event="demand_expanded").undone is True
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b.player_demand and b.form.level == "expanded"

    async def test_the_demand_and_a_move_undone_and_redone_keep_the_moves(self, make_test_app):
        """«p» then energy after, Ctrl+Z twice, Ctrl+Y twice: the check has both again (the
        demand's step once kept its own copy of the check and brought it back over the
        move). Found by the state machine in tests/seats/test_check_machine.py."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            b = await ide4_rolled(pilot, "quick")
            await pilot.press("p")
            await settle(pilot)
            await pilot.press("e", "enter")
            await settle(pilot)
            both, name = b.check, b.check.input.actor
            assert [s.kind for s in both.steps[-2:]] == ["level", "energy_after"]
            await pilot.press("ctrl+z", "ctrl+z")
            await settle(pilot)
            await pilot.press("ctrl+y")
            await settle(pilot)
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b.check == both and energy(app, name) == both.pool_after

    async def test_a_move_after_the_demand_on_an_expanded_check_stays(self, make_test_app):
        """«p» on a rolled expanded check (a line, no level step), then the sub-roll: the next
        store change must not bring the check back to before the sub-roll."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            b = await ide4_rolled(pilot, "expanded")
            await pilot.press("p")
            await settle(pilot)
            assert newest(app, event="demand_expanded").undone is False
            await pilot.press("s")
            await settle(pilot)
            assert b.check.steps[-1].kind == "subroll"
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert b.check.steps[-1].kind != "subroll"
            assert newest(app, event="demand_expanded").undone is False
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b.check.steps[-1].kind == "subroll"


async def test_an_opposed_checks_energy_before_is_one_step_that_pays_both_sheets(make_test_app):
    """«Энергия тратится до броска» on both sides of a противоборство: the two sheets and the
    roll's line are one undo step (they were three writes: Ctrl+Z took back one sheet)."""
    from tests.tui.test_builder_ide4 import choose
    from tui.widgets.builders.ide4_opposed_result import OpposedResultScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "l")
        await choose(pilot, "ide4-energy", 1)  # 1×d6 before the roll, the first side
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#opp-energy").select(1)  # the second side too
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OpposedResultScreen)
        first, second = app.screen.checks.values()
        names = (first.input.actor, second.input.actor)
        assert names[0] != names[1] and first.energy_spent and second.energy_spent
        paid = [first.pool_after, second.pool_after]
        assert [energy(app, n) for n in names] == paid
        line = next(e for e in app.store.log() if e.text.startswith("Противоборство"))
        app.action_undo()  # (the key in this dialog: tests/tui/test_opposed_undo_keys.py)
        await settle(pilot)
        before = [first.input.energy_pool, second.input.energy_pool]
        assert [energy(app, n) for n in names] == before  # both sheets paid back
        assert next(e for e in app.store.log() if e.id == line.id).undone
        app.action_redo()
        await settle(pilot)
        assert [energy(app, n) for n in names] == paid
        assert not next(e for e in app.store.log() if e.id == line.id).undone

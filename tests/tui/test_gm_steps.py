"""The GM's own keys on an open check are undo steps, as a seat's accepted request is (issue
14, issue 20): Ctrl+Z after the key puts the check back (the dice rolled stay), the key's
Журнал line is marked «отменено»; Ctrl+Y brings the same step again (no new dice). (An
opposed check's energy before, both sheets paid in one step, was a pilot test here:
tests/table/test_check_ide4_paid.py.) Старатели's Risk, undone and redone by the keys, was
`TestStaratelyRisk::test_ctrl_z_puts_the_failed_check_back_and_ctrl_y_the_same_retry` here:
tests/tui/test_builder_starately.py::risk_undone_and_redone, in that file's app."""

from __future__ import annotations

from tests.tui import builders
from tui.store import Store
from tui.systems.ide4.builder.dialogs import ChooserScreen


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.services.writes_done()
    await pilot.pause()


def newest(app, **data):
    """Return the newest Журнал entry whose data holds ``data``."""
    return next(e for e in app.store.log() if all(e.data.get(k) == v for k, v in data.items()))


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
    return next(c for c in app.store.characters() if c.name == name).ide4.energy


class TestIde4Keys:
    async def test_each_key_makes_its_move_then_energy_after_for_a_removed_character(
        self, make_test_app, campaign_path
    ):
        """The GM's keys on a rolled check reach their moves: «p» (the player's demand: on a
        quick check it raises the level), «l» (the next level), «r» Enter (a reroll), «e» Enter
        (energy after), «s» (the sub-roll); Ctrl+Z puts the check back on the screen (and the
        move's key works again), Ctrl+Y makes the same move again. (Each move as one undo
        step — its line marked, the sheet paid back, Ctrl+Y the same dice again — a level
        raised on the way, the demand with a move: tests/table/test_check_ide4_undo.py.)

        Replaces the pilot test `tests/tui/test_builder_undo.py::TestIde4EnergyAfterTheRoll::
        test_undo_takes_the_energy_back_and_redo_brings_the_same_dice`: its keys (e Enter,
        Ctrl+Z, the «e» key allowed again) are here; the energy paid back, the line marked and
        the same dice on Ctrl+Y are tests/table/test_check_ide4_undo.py::
        test_undo_puts_the_check_back_and_redo_makes_the_same_move[energy_after].

        Then, on the same rolled check (Провал at d100 = 20: energy after applies), the energy
        dialog open, its character removed by another process and seen by the app, Enter:
        nothing is shown or logged as spent (the dialog stays open, says so, refuses Enter;
        Esc closes it); «e» again opens nothing. That was the pilot test
        `tests/tui/test_ide4_dialogs_follow.py::
        test_energy_after_for_a_removed_character_spends_nothing` (on the same campaign and
        tab, its check rolled with the seed's dice: one app now; the file is gone). (Enter
        before the app saw the removal: the store refuses the write —
        tests/table/test_check_ide4_paid.py::
        test_energy_after_for_a_character_removed_elsewhere_spends_nothing; what these checks
        pay and write: tests/table/test_check_ide4_paid.py.)"""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            b = await ide4_rolled(pilot, "quick")
            rolled = b.check
            for key in ("p", "l"):
                await pilot.press(key)
                await settle(pilot)
                assert b.check.steps[-1].kind == "level", f"«{key}» raises the level"
                assert newest(app, event="level").undone is False
                await pilot.press("ctrl+z")
                await settle(pilot)
                assert b.check == rolled and newest(app, event="level").undone is True
            await pilot.press("l", "l")  # quick → standard → expanded
            await settle(pilot)
            expanded = b.check
            assert expanded.level == "expanded"
            for keys, event, redo in (
                (("r", "enter"), "reroll", True),  # Ctrl+Y once: the same move again
                (("e", "enter"), "energy_after", False),
                (("s",), "subroll", False),
            ):
                await pilot.press(*keys)
                await settle(pilot)
                after = b.check
                assert after.steps[-1].kind == event, f"{keys} makes the {event}"
                await pilot.press("ctrl+z")
                await settle(pilot)
                assert b.check == expanded, f"Ctrl+Z takes the {event} back"
                assert b.check_action(event, ()) is True, f"the {event} key works again"
                if redo:
                    await pilot.press("ctrl+y")
                    await settle(pilot)
                    assert b.check == after  # the same move again, no new dice
                    await pilot.press("ctrl+z")
                    await settle(pilot)
                    assert b.check == expanded
            # The energy dialog of a character another process removes.
            rolled = b.check
            assert rolled.outcome not in ("tragedy", "triumph"), "energy after must apply"
            cid = b._check_character_id
            name = b.form.characters[cid].name
            log_before = len(app.store.log())
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, ChooserScreen), "«e» opens the energy dialog"
            Store.open(campaign_path).delete_character(cid)
            app._refresh_store()  # what the file watch (or the timer) does
            await pilot.pause()
            note = str(app.screen.query_one("WithdrawnNote").render())
            assert "удалён в другом окне" in note, "the dialog says the character is gone"
            await pilot.press("enter")
            await app.services.writes_done()
            await pilot.pause()
            assert b.check == rolled, "nothing shown as spent"
            steps_shown = str(b.query_one("#ide4-steps").render())
            assert f"энергия {rolled.pool_after}/100" in steps_shown, "the energy as it was"
            assert len(app.store.log()) == log_before, "nothing logged as spent"
            told = [n.message for n in app._notifications]
            assert any(f"{name} удалён в другом окне" in n for n in told), "Enter says why"
            if isinstance(app.screen, ChooserScreen):
                await pilot.press("escape")
                await pilot.pause()
            assert not isinstance(app.screen, ChooserScreen), "Esc closes it"
            await pilot.press("e")  # again, now that the app knows: refused, nothing opens
            await pilot.pause()
            assert not isinstance(app.screen, ChooserScreen), "«e» again opens nothing"
            assert b.check == rolled, "still as rolled"

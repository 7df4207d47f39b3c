"""Undo under an open Древо check (issue 14), its keys and its screen: «+» spends a point of
Судьба after the roll, Ctrl+Z puts the check back to its state before that step (the dice
already rolled stay, «Судьба:» no longer shown), Ctrl+Y re-applies the same shift.
In the same app, on Партия: Ctrl+Z in a dialog that does not follow the store, and
under one that does.

The logic, through the engine alone: each point one undo step with its line marked, the
shift always what the sheet paid, in any order (a state machine) —
tests/table/test_check_drevo_fate_undo.py; IDE4 energy after the roll and an opposed
check's energy move — tests/table/test_check_ide4_undo.py and
tests/table/test_check_ide4_paid.py, their keys — tests/tui/test_gm_steps.py and
tests/tui/test_opposed_undo_keys.py."""

from __future__ import annotations


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
    async def test_undo_takes_the_shift_back_and_redo_reapplies_it(self, make_test_app):
        """«+», Ctrl+Z, Ctrl+Y: the sheet, the result and what the tab shows follow each key.
        (Its end — a point again after the undo, the lines marked — and the machine that was
        `TestDrevoFateMachine` here: tests/table/test_check_drevo_fate_undo.py.)

        Then, on Партия in the same app: the «?» screen (like settings) holds what it read:
        Ctrl+Z there says what to do, and after Esc it undoes. The wound dialog follows the
        store: Ctrl+Z under it undoes, and it says the character changed. That was the pilot
        test `tests/tui/test_opposed_undo_keys.py::
        test_ctrl_z_in_dialogs_that_do_and_do_not_follow` (on the same Древо demo party: one
        app now)."""
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            b = await drevo_rolled(pilot)
            name = b.character.name
            start, rolled = fate(app, name), b._result
            await pilot.press("plus")
            await app.services.writes_done()
            await pilot.pause()
            assert fate(app, name) == start - 1 and b._result.fate_shift == 1
            assert "Судьба:" in str(b.query_one("#check-result").render()), "the shift shown"
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
            # Ctrl+Z in dialogs that do and do not follow the store (Партия).
            await pilot.press("1")
            await pilot.pause()
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

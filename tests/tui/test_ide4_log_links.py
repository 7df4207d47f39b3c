"""IDE4 builder log lines linked to their undo steps: the roll that paid energy before it is
one step with its line, so Ctrl+Z marks the line «отменено» (and Ctrl+Y clears the mark), as
the moves after the roll do (one engine step each, :mod:`tui.systems.ide4.check.steps`)."""

from __future__ import annotations

from tests.tui.test_builder_ide4 import builder, choose, energy


def roll_entry(app):
    return next(e for e in app.store.log() if (e.data or {}).get("event") == "roll")


async def test_the_energy_before_rolls_line_follows_its_undo_and_redo(make_test_app):
    """Сид: «энергия тратится до броска»: the energy paid and the roll it bought are one step."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "l")
        b = builder(app)
        name = b.form.characters[b.form.value("character")].name
        await choose(pilot, "ide4-energy", 2)  # 2×d6 before the roll
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) == 88 and not roll_entry(app).undone
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) == 100
        assert roll_entry(app).undone  # «отменено» in the Журнал, the view, kubik log
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        await pilot.pause()
        assert energy(app, name) == 88 and not roll_entry(app).undone

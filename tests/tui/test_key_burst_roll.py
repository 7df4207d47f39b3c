"""Keys that change the form and Enter, arriving in one burst (as over SSH): the check is
rolled as the form stands after every key before Enter.

A tester sent «3, Down ×3, Right ×3, Enter» at once: Enter rolled at the old difficulty, because
the roll ran while the difficulty's changes were still queued for the form; the arrows then
changed a check already rolled."""

from __future__ import annotations

import pytest
from textual import events

from tui.widgets.common.stepper import Stepper

#: Each system's stepper the burst moves, and its input's name in the open check.
ROW = {
    "drevo": ("#check-difficulty", "difficulty"),
    "starately": ("#st-difficulty", "difficulty"),
    "wod": ("#wod-skill", "skill"),
    "ide4": ("#ide4-base", "base"),
}


@pytest.mark.parametrize("system", sorted(ROW))
async def test_arrows_then_enter_in_one_burst_roll_the_form_as_the_arrows_left_it(
    make_test_app, system
) -> None:
    app = make_test_app(system=system)
    wid, name = ROW[system]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        stepper = app.query_one(wid, Stepper)
        stepper.focus()
        await pilot.pause()
        start = stepper.value
        for key in ("right", "right", "right", "enter"):  # posted before any is handled
            app.post_message(events.Key(key, None))
        await pilot.pause()
        table = app.services.check_table
        assert table.state.rolled is not None, "Enter rolled nothing"
        rolled = getattr(table.state.inputs, name)
        assert rolled == stepper.value != start, "rolled the form as it was before the arrows"


async def test_a_first_visit_to_ide4s_tab_and_its_keys_in_one_burst(make_test_app) -> None:
    """«3, Down ×5, Right ×2, Enter» at once on IDE4's Проверка tab, first visit: the tab's
    first row took the focus only after the keys queued behind «3» (``Widget.focus`` queues
    it), so the arrows and Enter went elsewhere and nothing was rolled. Now the difficulty
    is [3] + 2 = [5] and the check is rolled, as with the keys typed slowly."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        keys = ["3", *["down"] * 5, "right", "right", "enter"]
        for key in keys:  # posted before any is handled
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        table = app.services.check_table
        assert table.state.rolled is not None, "Enter rolled nothing"
        assert table.state.inputs.base == 5

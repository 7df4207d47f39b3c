"""``kubik seat NAME`` below 80×24: the same size notice as the GM's app and ``--view``."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from tui.seats.seat import SeatApp
from tui.widgets.common.toosmall import TooSmallScreen


async def test_a_small_seat_shows_the_notice_and_recovers() -> None:
    """Below 80×24 the seat showed its layout squeezed, without the notice."""
    app = SeatApp("Милава", None, "", connect=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "сейчас 60×20" in str(app.screen.query_one("#too-small", Static).render())
        assert not app.check_action("stats", ())  # the seat's keys are off behind it
        await pilot.resize_terminal(70, 24)
        await pilot.pause()
        assert "сейчас 70×24" in str(app.screen.query_one("#too-small", Static).render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        assert app.check_action("stats", ())  # the seat works again


@pytest.mark.parametrize("key", ["ctrl+q", "q", "ctrl+c"])
async def test_every_quit_key_quits_the_seat_from_the_notice(key) -> None:
    app = SeatApp("Милава", None, "", connect=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press(key)
        await pilot.pause()
        assert app._exit, f"{key} did not quit the seat from the size notice"

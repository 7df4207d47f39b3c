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


async def test_the_title_stays_one_line_at_80_columns_while_reconnecting(tmp_path) -> None:
    """Playtest: «Древо: Пограничная застава · место Милава · нет связи с ведущим —» wrapped
    «переподключаюсь…» onto a second line at 80 columns, pushing the panel down."""
    app = SeatApp("Милава", tmp_path / "gone.sock", "key")  # no GM's app there: no connection
    app.state = {"campaign": "Древо: Пограничная застава"}  # the demo campaign's name
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            if app.link.startswith("нет связи"):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        title = app.query_one("#seat-title", Static)
        assert "переподключаюсь" in str(title.render())
        assert title.size.height == 1, str(title.render())

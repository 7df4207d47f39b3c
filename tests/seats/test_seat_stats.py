"""«s» in a seat: the players' view opens the luck stats there; a seat, which gets only the
table's view and its own sheets from the GM's app, says where they are instead of nothing."""

from __future__ import annotations

from tui.seats.seat import SeatApp


async def test_s_in_a_seat_says_where_the_luck_stats_are():
    app = SeatApp("Милава", None, "", connect=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        told = [n.message for n in app._notifications]
        where = "Удача бросков — в виде для игроков: kubik --view, клавиша s."
        assert any(where in m for m in told)
        assert len(app.screen_stack) == 1  # nothing else opened, nothing sent
        assert app.outbox == {}

"""The GM's list of the players' requests (Ctrl+P) at 80×24 shows each request whole."""

from __future__ import annotations

from textual.widgets import DataTable

from tests.conftest import frozen_clock
from tests.seats.helpers import until_seen
from tests.seats.test_seat_pilot import _seat
from tui.seats.tokens import seats_dir

NOTE = "Можно ли мне осмотреть сундук в углу комнаты, пока остальные спорят о добыче"


async def test_a_long_note_is_wrapped_not_cut(folder, campaign_path):
    """Play-test at 80×24: «Заметка: Можно ли мне осмотреть сундук в углу комнаты,» and the
    rest of the player's note was behind a horizontal scrollbar of the dialog's table."""
    from textual.widgets import DataTable

    from tui.app import make_app

    gm = make_app(campaign_path, seed=7, clock=frozen_clock)
    gm.seats_folder = seats_dir(folder)
    async with gm.run_test(size=(80, 24)) as gm_pilot:
        await until_seen([gm_pilot], lambda: gm.services.seat_hub is not None, "hub")
        hub = gm.services.seat_hub
        await until_seen([gm_pilot], lambda: hub._server is not None, "listening")
        seat = _seat(folder, campaign_path, "Милава")
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [gm_pilot, sp]
            await until_seen(pilots, lambda: bool(seat.mine()), "own sheet")
            await sp.press("n", *NOTE, "enter")
            await until_seen(pilots, lambda: len(hub.pending()) == 1, "waits")
            await gm_pilot.press("ctrl+p")
            await gm_pilot.pause()
            table = gm.screen.query_one("#requests-table", DataTable)
            lines = [s.text for s in table.render_lines(table.region.reset_offset)]
            assert table.region.right <= 80 and table.virtual_size.width <= table.size.width
            shown = " ".join(" ".join(line.split()) for line in lines)
            assert f"Заметка: {NOTE}" in shown, lines


async def test_the_seats_party_table_wraps_a_long_wound_line(folder):
    """The seat shows the view's party table at half the width: «Тяжёлая×1 — тяжело ранен» was cut
    at 80 columns as in the players' view."""
    from tui.seats.seat import SeatApp

    seat = SeatApp("Милава", folder / "none.sock", "")
    async with seat.run_test(size=(80, 24)) as pilot:
        seat.state = {
            "system": "drevo",
            "columns": ["Персонаж", "Судьба", "Раны"],
            "party": [["Богдан Сыч", "2", "Тяжёлая×1 — тяжело ранен"], ["Милава", "4", "—"]],
        }
        seat.redraw()
        await pilot.pause()
        party = seat.query_one("#seat-party", DataTable)
        assert party.virtual_size.width <= party.size.width, party.virtual_size
        lines = [s.text for s in party.render_lines(party.region.reset_offset)]
        assert "тяжело ранен" in " ".join(" ".join(line.split()) for line in lines), lines

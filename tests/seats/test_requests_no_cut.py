"""The GM's list of the players' requests (Ctrl+P) at 80×24 shows each request whole."""

from __future__ import annotations

from textual.widgets import DataTable

NOTE = "Можно ли мне осмотреть сундук в углу комнаты, пока остальные спорят о добыче"


async def test_a_long_note_is_wrapped_not_cut(folder, campaign_path):
    """Play-test at 80×24: «Заметка: Можно ли мне осмотреть сундук в углу комнаты,» and the
    rest of the player's note was behind a horizontal scrollbar of the dialog's table.

    The note reaches the hub as a seat's request line (the seat's «n» and its typing are
    tested in ``tests/seats/test_seat_pilot.py``; here only the GM's dialog is a screen)."""
    from tests.seats.headless_gm import Lines
    from tests.seats.helpers import by_name, gm_app, started
    from tui.seats import protocol as proto

    gm = gm_app(folder, campaign_path)
    async with gm.run_test(size=(80, 24)) as gm_pilot:
        hub = await started(gm_pilot, gm)
        me = by_name(gm.store, "Милава")
        request = proto.Request("n1", "note", me.id, {"text": NOTE})
        line = proto.encode({"v": 1, "type": "request", **request.to_dict()})
        await hub._received(me.name, Lines(), line)
        assert len(hub.pending()) == 1
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

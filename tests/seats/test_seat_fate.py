"""An accepted Судьба request APPLIES in the fight (the Бой tab's own Судьба step), as one
undo step logged under the player; one that cannot apply now stays pending with the reason.

Here the seat's keys; what the hub does with each request is tested on the hub and the fight
engine in ``tests/seats/test_fate_requests.py``, the GM's Ctrl+P in ``tests/seats/test_hub.py``.
"""

from __future__ import annotations

from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import seat_token, until_seen
from tests.seats.test_fate_requests import exchange, roll_the_exchange, to_dice
from tui.seats.tokens import seats_dir


async def test_a_seat_asks_a_shift_with_its_points_and_the_gm_only_accepts(folder, campaign_path):
    """The seat's «p» asks how many points; the GM's accept applies the shift as it is (the
    GM's side without its app: the hub on its socket)."""
    from tui.seats.seat import SeatApp
    from tui.seats.tokens import socket_path

    gm = HeadlessGM(folder, campaign_path)
    hub = await gm.start()
    store = gm.store
    me = store.character(to_dice(store))
    roll_the_exchange(gm)
    seats = seats_dir(folder)
    seat = SeatApp(
        me.name,
        socket_path(seats, campaign_path),
        seat_token(seats.parent, campaign_path, me.name),
    )
    try:
        async with seat.run_test(size=(80, 24)) as sp:
            await until_seen([sp], lambda: bool(seat.mine()), "own sheet")
            await sp.press("p", "minus", "2", "enter")
            await until_seen([sp], lambda: bool(hub.pending()), "the request waits")
            assert hub.pending()[0].request.payload["points"] == -2
            hub.accept(hub.pending()[0].request.id)
            await until_seen(
                [sp],
                lambda: seat.requests and seat.requests[-1]["status"] == "accepted",
                "accepted",
            )
            assert [s[:2] for s in exchange(store)["shifts"]] == [["attacker", -2]]
            assert store.character(me.id).drevo.fate == me.drevo.fate - 2
    finally:
        gm.close()

"""A seat whose character leaves the party (``kubik party remove``) is refused: it says so and
keeps none of that character's state, no request «ждёт ведущего» that nobody will decide, and no
key that sends a request (playtest: it kept «Мои: …», the Судьба keys and a waiting note)."""

from __future__ import annotations

from tests.seats.headless_gm import serving
from tests.seats.helpers import by_name, seat_token, until_seen
from tui.seats.seat import SeatApp
from tui.seats.tokens import seats_dir, socket_path


def _offered(seat: SeatApp) -> set[str]:
    """The seat's own keys the key bar offers now (its actions)."""
    return {
        b.binding.action
        for b in seat.screen.active_bindings.values()
        if b.enabled and (b.binding.id or "").startswith("seat-")
    }


async def test_a_seat_whose_character_left_is_cut_off_and_offers_no_requests(folder, campaign_path):
    """The GM's side is the hub without the GM's app (the party changes in its store)."""
    async with serving(folder, campaign_path) as gm:
        seats = seats_dir(folder)
        seat = SeatApp(
            "Милава",
            socket_path(seats, campaign_path),
            seat_token(folder, campaign_path, "Милава"),
        )
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [sp]
            await until_seen(pilots, lambda: bool(seat.mine()), "own sheet")
            await sp.press("n", *"ищу следы", "enter")
            await until_seen(pilots, lambda: bool(seat.outbox), "the note waits")
            assert {"fate('before')", "note", "stats"} <= _offered(seat)  # the keys were there

            await sp.press("n")  # a second note, still being typed when the seat is refused
            gm.store.delete_character(by_name(gm.store, "Милава").id)  # kubik party remove
            await until_seen(pilots, lambda: seat.link.startswith("отказано"), "refused")
            await sp.press(*"и ещё", "enter")
            await sp.pause()

            title = str(seat.query_one("#seat-title").render())
            head = str(seat.query_one("#seat-head").render())
            requests = str(seat.query_one("#seat-requests").render())
            assert "отказано" in title
            assert "Милава" not in head and "не подключено" in head
            assert "ждёт ведущего" not in requests and not seat.outbox and not seat.requests
            assert seat.mine() == []
            assert _offered(seat) == {"quit"}  # only the way out; nothing asks the GM's app

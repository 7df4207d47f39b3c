"""A player's choice about the GM's open check (the Проверка tab) APPLIES when the GM accepts:
the builder's own step, one undo step logged under the player; Ctrl+Z puts the check back and
the seat sees it undone, Ctrl+Y brings it again. No open check of that character, another's,
one rolled or closed, or a move the rules refuse: refused with the reason the seat sees.

Here the screens: the seat's panel and keys, the GM's Ctrl+P, the tab on screen. What the hub
does with each request is tested on the hub and the table engine in
``tests/seats/test_check_requests_other.py``."""

from __future__ import annotations

from tests.seats.helpers import (
    RawSeat,
    check_offer,
    first_pc,
    gm_app,
    open_check,
    seat_token,
    started,
)


async def _failed_check(pilot, app, me):
    """Open Старатели's builder for ``me`` at Подвиг 12+ without a skill, and fail it."""
    builder = await open_check(pilot, app, me.id)
    builder.query_one("#st-skill").select("")
    builder.query_one("#st-difficulty").select(12)
    await pilot.pause()
    builder.action_roll()
    await app.services.writes_done()
    await pilot.pause()
    assert builder._last is not None and not builder._last.success
    return builder


async def test_a_seat_shows_the_gms_open_check_and_its_key_asks_about_that_check(
    folder, campaign_path
):
    """The player's panel names the open check and its choices; «k» asks Risk about it; the GM's
    Enter in Ctrl+P asks the price first, the price typed accepts; the panel shows the request
    accepted. (It keeps the screen part of the former pilot test
    ``test_risk_from_a_seat_waits_for_the_price_then_rolls_again_as_one_undo_step``, whose
    logic is tested on the hub in ``tests/seats/test_check_requests_other.py``.)"""
    from tui.seats.seat import SeatApp
    from tui.seats.tokens import seats_dir, socket_path

    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        me = first_pc(app.store)
        seats = seats_dir(folder)
        seat = SeatApp(
            me.name,
            socket_path(seats, campaign_path),
            seat_token(seats.parent, campaign_path, me.name),
        )
        async with seat.run_test(size=(80, 24)) as sp:
            for _ in range(250):
                if seat.mine():
                    break
                await sp.pause(0.01)
            assert seat.check_action("risk", ()) is False  # no check open: no Risk key
            with app._context():  # the GM's keys act in the GM's app
                builder = await _failed_check(pilot, app, me)
            for _ in range(250):
                if "risk" in (seat.state.get("check") or {}).get("kinds", ()):
                    break
                await sp.pause(0.01)
            head = str(seat.query_one("#seat-head").render())
            assert "Проверка у ведущего" in head and "брошена" in head and "Риск" in head
            await sp.press("k")
            for _ in range(250):
                if hub.pending():
                    break
                await sp.pause(0.01)
            assert hub.pending()[0].request.payload["check"] == app.services.check_table.offer_id()
            await pilot.press("ctrl+p", "enter", *"патроны", "enter", "escape")
            await app.services.writes_done()
            for _ in range(250):
                if seat.requests and seat.requests[-1]["status"] == "accepted":
                    break
                await sp.pause(0.01)
            assert seat.requests[-1]["status"] == "accepted"
            assert "патроны" in seat.requests[-1]["text"]
            assert builder._last.risk


async def test_a_check_tab_built_ahead_but_never_shown_opens_no_check(folder, campaign_path):
    """``kubik`` builds the Проверка tab in idle time: until the GM has it on screen, no check
    is open for the seats, and a request about one is refused."""
    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        me = first_pc(app.store)
        builder = await app.ensure_pane("check")  # built, the Партия tab still on screen
        await pilot.pause()
        assert app.query_one("TabbedContent").active == "party"
        assert hub._state(me.name)["state"]["check"] is None
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="h1", kind="risk", character=me.id, payload={})
        msg = await seat.until(lambda m: bool(m["requests"]))
        assert msg["requests"][0]["status"] == "refused"
        assert "нет открытой проверки" in msg["requests"][0]["reason"]
        await pilot.press("3")  # the GM opens the tab: the seat sees the check
        builder.choose_character(me.id)
        msg = await seat.until(lambda m: check_offer(m).get("character") == me.id)
        assert check_offer(msg)["stage"] == "before"
        seat.close()

"""A player's choice about the GM's open check (the Проверка tab) APPLIES when the GM accepts:
the builder's own step, one undo step logged under the player; Ctrl+Z puts the check back and
the seat sees it undone, Ctrl+Y brings it again. No open check of that character, another's,
one rolled or closed, or a move the rules refuse: refused with the reason the seat sees.

Here the screens: the seat's panel and keys (its GM the hub without the GM's app), the GM's
Проверка tab on screen and Ctrl+P asking Risk's price. What the hub does with each request is
tested on the hub and the table engine in ``tests/seats/test_check_requests_other.py``."""

from __future__ import annotations

from tests.seats.headless_gm import Lines, serving
from tests.seats.helpers import first_pc, gm_app, open_check, seat_token, started, until_seen
from tests.seats.test_check_requests_other import _failed_check as failed_on_the_table
from tests.seats.test_check_requests_other import _last
from tui.seats import protocol as proto


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
    """The player's panel names the open check and its choices; «k» asks Risk about it; the GM
    names the price and accepts; the panel shows the request accepted. (The GM's Ctrl+P
    asking the price: ``test_the_check_tab_opens_the_check_and_ctrl_p_asks_risks_price``.)"""
    from tui.seats.rules_check import edited
    from tui.seats.seat import SeatApp
    from tui.seats.tokens import seats_dir, socket_path

    async with serving(folder, campaign_path, system="starately") as gm:
        hub = gm.hub
        me = first_pc(gm.store)
        seats = seats_dir(folder)
        seat = SeatApp(
            me.name,
            socket_path(seats, campaign_path),
            seat_token(seats.parent, campaign_path, me.name),
        )
        async with seat.run_test(size=(80, 24)) as sp:
            await until_seen([sp], lambda: bool(seat.mine()), "own sheet")
            assert seat.check_action("risk", ()) is False  # no check open: no Risk key
            failed_on_the_table(gm, me)  # the GM's keys on the Проверка tab
            await until_seen(
                [sp],
                lambda: "risk" in (seat.state.get("check") or {}).get("kinds", ()),
                "the check offered",
            )
            await sp.pause()
            head = str(seat.query_one("#seat-head").render())
            assert "Проверка у ведущего" in head and "брошена" in head and "Риск" in head
            await sp.press("k")
            await until_seen([sp], lambda: bool(hub.pending()), "the request waits")
            item = hub.pending()[0]
            assert item.request.payload["check"] == gm.table.offer_id()
            hub.accept(item.request.id, edited(item.request, "патроны"))  # the GM's price
            await until_seen(
                [sp],
                lambda: seat.requests and seat.requests[-1]["status"] == "accepted",
                "accepted",
            )
            assert "патроны" in seat.requests[-1]["text"]
            assert _last(gm).risk


async def test_the_check_tab_opens_the_check_and_ctrl_p_asks_risks_price(folder, campaign_path):
    """``kubik`` builds the Проверка tab in idle time: until the GM has it on screen, no check
    is open for the seats, and a request about one is refused; on screen it is. Then Enter in
    Ctrl+P on a Risk without its price asks for the price first («…Вне зависимости от
    результата этой повторной проверки игрок заплатит…»), and the price typed accepts it.

    The two screen facts share one GM's app: the former pilot tests
    ``test_a_check_tab_built_ahead_but_never_shown_opens_no_check`` and (its screen part)
    ``test_risk_from_a_seat_waits_for_the_price_then_rolls_again_as_one_undo_step``, whose
    logic is tested in ``tests/seats/test_check_requests_other.py``."""
    from tui.widgets.common.prompt import TextPrompt

    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        me = first_pc(app.store)

        async def send(rid: str, payload: dict):
            request = proto.Request(rid, "risk", me.id, payload)
            line = proto.encode({"v": 1, "type": "request", **request.to_dict()})
            await hub._received(me.name, Lines(), line)
            return hub.requests[rid]

        builder = await app.ensure_pane("check")  # built, the Партия tab still on screen
        await pilot.pause()
        assert app.query_one("TabbedContent").active == "party"
        assert hub._state(me.name)["state"]["check"] is None, "no check before it is shown"
        h1 = await send("h1", {})
        assert h1.status == "refused" and "нет открытой проверки" in h1.reason
        await pilot.press("3")  # the GM opens the tab: the seat sees the check
        builder.choose_character(me.id)
        await pilot.pause()
        offer = hub._state(me.name)["state"]["check"] or {}
        assert offer.get("character") == me.id, "the tab on screen opens the check"
        assert offer["stage"] == "before"

        builder = await _failed_check(pilot, app, me)
        first = builder._last
        k1 = await send("k1", {"check": app.services.check_table.offer_id()})
        assert k1.status == "pending"
        await pilot.press("ctrl+p", "enter")
        assert isinstance(app.screen, TextPrompt), "Enter asks Risk's price first"
        assert "Цена Риска" in app.screen.title_text
        assert k1.status == "pending" and builder._last == first, "nothing before the price"
        price = app.screen.query_one("#prompt-input")  # the price put in at once: its
        assert price.value == "", "the price asked in an empty field"  # typing is Input's
        price.value = "кобура"
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        assert k1.status == "accepted", "the price typed accepts"
        assert k1.request.payload["price"] == "кобура"
        assert builder._last.risk, "the retry is rolled"

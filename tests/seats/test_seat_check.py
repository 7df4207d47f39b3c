"""A player's choice about the GM's open check (the Проверка tab) APPLIES when the GM accepts:
the builder's own step, one undo step logged under the player; Ctrl+Z puts the check back and
the seat sees it undone, Ctrl+Y brings it again. No open check of that character, another's,
one rolled or closed, or a move the rules refuse: refused with the reason the seat sees."""

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


async def test_risk_from_a_seat_waits_for_the_price_then_rolls_again_as_one_undo_step(
    folder, campaign_path
):
    """«…после провала игрок может заявить Риск и перебросить… Вне зависимости от результата
    этой повторной проверки игрок заплатит за это…»: the GM names the price, then the retry."""
    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = first_pc(store)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        builder = await _failed_check(pilot, app, me)
        first = builder._last
        msg = await seat.until(lambda m: "risk" in check_offer(m).get("kinds", ()))
        offer = check_offer(msg)
        assert offer["character"] == me.id and offer["stage"] == "rolled"
        await seat.send(id="k1", kind="risk", character=me.id, payload={"check": offer["id"]})
        await seat.until(lambda m: bool(m["requests"]))
        hub.accept("k1")  # without a price: it waits for the GM's part
        msg = await seat.until(lambda m: bool(m["requests"][0]["reason"]))
        assert msg["requests"][0]["status"] == "pending"
        assert "Цену Риска назначает ведущий" in msg["requests"][0]["reason"]
        assert builder._last == first and len(store.log()) == 1
        await pilot.press("ctrl+p", "enter")  # Enter asks for the price first
        await pilot.press(*"кобура", "enter")
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        entry = store.log(limit=1)[0]
        assert entry.actor == me.name and entry.text.startswith(f"Заявка игрока {me.name}: Риск")
        assert entry.data["kind"] == "risk" and entry.data["price"] == "кобура"
        assert entry.data["first"] == first.to_dict()  # the failed check, as it was rolled
        assert entry.data["request"] == "k1"
        retry = builder._last
        assert retry.risk and builder.check_action("risk", ()) is False  # Risk once
        await pilot.press("escape", "ctrl+z")  # one step back: the retry and its line
        await app.services.writes_done()
        await pilot.pause()
        await seat.until(lambda m: m["requests"][0]["status"] == "undone")
        assert builder._last == first and store.log(limit=1)[0].undone
        assert "risk" in app.services.check_table.offer().kinds
        await pilot.press("ctrl+y")  # the same retry again, never a new roll
        await app.services.writes_done()
        await pilot.pause()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert builder._last == retry
        seat.close()


async def test_risk_is_refused_without_an_open_check_on_another_and_on_a_closed_one(
    folder, campaign_path
):
    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = first_pc(store)
        other = next(c for c in store.characters() if c.kind == "pc" and c.id != me.id)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="n1", kind="risk", character=me.id, payload={})
        msg = await seat.until(lambda m: bool(m["requests"]))
        assert msg["requests"][0]["status"] == "refused"
        assert "нет открытой проверки" in msg["requests"][0]["reason"]
        builder = await _failed_check(pilot, app, me)
        msg = await seat.until(lambda m: "risk" in check_offer(m).get("kinds", ()))
        old = check_offer(msg)["id"]
        builder.action_roll()  # the GM rolls a new check: the old one is closed
        await app.services.writes_done()
        await seat.send(id="n2", kind="risk", character=me.id, payload={"check": old})
        msg = await seat.until(lambda m: any(r["id"] == "n2" for r in m["requests"]))
        n2 = next(r for r in msg["requests"] if r["id"] == "n2")
        assert n2["status"] == "refused" and "закрыта" in n2["reason"]
        builder.choose_character(other.id)  # another character's check
        await pilot.pause()
        await seat.send(id="n3", kind="risk", character=me.id, payload={})
        msg = await seat.until(lambda m: any(r["id"] == "n3" for r in m["requests"]))
        n3 = next(r for r in msg["requests"] if r["id"] == "n3")
        assert n3["status"] == "refused" and "другого персонажа" in n3["reason"]
        assert not store.get_doc("seat_requests")  # nothing was written
        seat.close()


async def test_risk_after_a_success_is_refused_with_the_rules_reason(folder, campaign_path):
    """«…после провала…»: a check that succeeded offers no Risk, and a request for it says why."""
    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = first_pc(store)
        builder = await open_check(pilot, app, me.id)
        builder.query_one("#st-difficulty").select(6)  # Легко 6+
        await pilot.pause()
        for _ in range(5):
            builder.action_roll()
            await app.services.writes_done()
            await pilot.pause()
            if builder._last.success:
                break
        assert builder._last.success
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="s1", kind="risk", character=me.id, payload={})
        msg = await seat.until(lambda m: bool(m["requests"]))
        assert msg["requests"][0]["status"] == "refused"
        assert "только после провала" in msg["requests"][0]["reason"]
        seat.close()


async def test_fate_before_a_check_is_declared_from_a_seat_and_undone_as_one_step(
    folder, campaign_path
):
    """«Судьба… (1) объявленная перед односторонней проверкой: автоматический критический
    успех»: accepted, the GM's open check counts it; Ctrl+Z takes the declaration back."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = first_pc(store)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        builder = await open_check(pilot, app, me.id)
        msg = await seat.until(lambda m: check_offer(m).get("character") == me.id)
        offer = check_offer(msg)
        assert offer["stage"] == "before" and offer["kinds"] == ["fate"]
        payload = {"use": "before", "check": offer["id"]}
        await seat.send(id="d1", kind="fate", character=me.id, payload=payload)
        await seat.until(lambda m: bool(m["requests"]))
        await pilot.press("ctrl+p", "enter", "escape")
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert builder._fate_auto and builder.current_check().fate_auto
        assert store.character(me.id).fate == me.fate  # paid when the dice are rolled
        entry = store.log(limit=1)[0]
        assert entry.actor == me.name and "автоматический критический успех" in entry.text
        assert f"Заявка игрока {me.name}" in entry.text
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        await seat.until(lambda m: m["requests"][0]["status"] == "undone")
        assert not builder._fate_auto
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        await pilot.pause()
        assert builder._fate_auto
        builder.action_roll()  # the GM rolls: the declared point is paid, a critical success
        await pilot.pause()
        await app.services.writes_done()
        assert builder._result.outcome == "crit_success"
        assert store.character(me.id).fate == me.fate - 1
        # the declaration came too late for the check it named
        await seat.send(id="d2", kind="fate", character=me.id, payload=payload)
        msg = await seat.until(lambda m: any(r["id"] == "d2" for r in m["requests"]))
        d2 = next(r for r in msg["requests"] if r["id"] == "d2")
        assert d2["status"] == "refused" and "уже брошена" in d2["reason"]
        seat.close()


async def test_fate_shift_after_a_check_applies_the_points_and_undoes(folder, campaign_path):
    """«(2) после броска: ±1 за очко»: the seat names the points; one undo step with the sheet."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = first_pc(store)
        builder = await open_check(pilot, app, me.id)
        builder.action_roll()
        await pilot.pause()
        await app.services.writes_done()
        rolled = builder._result
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        msg = await seat.until(lambda m: check_offer(m).get("stage") == "rolled")
        check = check_offer(msg)["id"]
        too_many = {"use": "shift", "points": 3, "check": check}
        await seat.send(id="p0", kind="fate", character=me.id, payload=too_many)
        await seat.until(lambda m: bool(m["requests"]))
        if me.fate < 3:  # the rules' reason, at once
            assert hub.requests["p0"].status == "refused"
        payload = {"use": "shift", "points": -1, "check": check}
        await seat.send(id="p1", kind="fate", character=me.id, payload=payload)
        await seat.until(lambda m: any(r["id"] == "p1" for r in m["requests"]))
        hub.accept("p1")
        await app.services.writes_done()
        await pilot.pause()
        await seat.until(
            lambda m: any(r["id"] == "p1" and r["status"] == "accepted" for r in m["requests"])
        )
        assert builder._result.fate_shift == -1 and builder._result.dice == rolled.dice
        assert store.character(me.id).fate == me.fate - 1
        assert store.log(limit=1)[0].data["request"] == "p1"
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert builder._result == rolled and store.character(me.id).fate == me.fate
        await seat.until(
            lambda m: any(r["id"] == "p1" and r["status"] == "undone" for r in m["requests"])
        )
        seat.close()


async def test_a_seat_shows_the_gms_open_check_and_its_key_asks_about_that_check(
    folder, campaign_path
):
    """The player's panel names the open check and its choices; «k» asks Risk about it; the GM
    names the price and accepts; the panel shows the request accepted."""
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


async def test_a_step_that_breaks_refuses_the_request_and_writes_nothing(
    folder, campaign_path, monkeypatch
):
    """Whatever goes wrong inside the builder's step, the request is decided (refused with a
    reason), never left half-written, and the campaign is unchanged."""
    app = gm_app(folder, campaign_path, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = first_pc(store)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await _failed_check(pilot, app, me)
        payload = {"price": "фонарь", "check": app.services.check_table.offer_id()}
        await seat.send(id="z1", kind="risk", character=me.id, payload=payload)
        await seat.until(lambda m: bool(m["requests"]))

        def broken(*_args):
            raise KeyError("price")

        monkeypatch.setattr(app.services.check_table.engine, "seat_step", broken)
        lines = len(store.log())
        hub.accept("z1")
        msg = await seat.until(lambda m: m["requests"][0]["status"] == "refused")
        assert "не применить" in msg["requests"][0]["reason"]
        assert len(store.log()) == lines and not store.get_doc("seat_requests")
        seat.close()


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

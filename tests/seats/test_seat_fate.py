"""An accepted Судьба request APPLIES in the fight (the Бой tab's own Судьба step), as one
undo step logged under the player; one that cannot apply now stays pending with the reason."""

from __future__ import annotations

from tests.seats.helpers import RawSeat, by_name, gm_app, seat_token, start_fight, started
from tui.seats.tokens import seats_dir


def _to_dice(store) -> str:
    """Declare the round (the PCs strike the ataman, the NPCs parry) and go to the dice;
    return the id of the first exchange's attacker."""
    from rules.encounter import Declaration, Encounter
    from tui.systems.drevo import combat as bridge

    start_fight(store)
    chars = {c.id: c for c in store.characters()}
    can_act = lambda cid: bridge.can_act(chars.get(cid))  # noqa: E731
    enc = Encounter.from_dict(store.get_doc("encounter"))
    ataman = by_name(store, "Атаман Шкуро").id
    while (d := enc.next_declarer(can_act)) is not None:
        c = chars[d.character_id]
        action = Declaration(c.id, "melee", target=ataman) if c.kind == "pc" else None
        enc = enc.declare(action or Declaration(c.id, "parry"), can_act)
    enc = enc.start_resolution(can_act)
    store.put_doc("encounter", enc.to_dict(), label="Бой: к броскам")
    return bridge.roles(enc.pending()[0], chars)["attacker"]


def _exchange(store) -> dict:
    return store.get_doc("encounter").get("exchange") or {}


async def test_fate_before_the_roll_applies_in_the_exchange_and_undoes_as_one_step(
    folder, campaign_path
):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = store.character(_to_dice(store))
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="f1", kind="fate", character=me.id, payload={"use": "before"})
        await seat.until(lambda m: bool(m["requests"]))
        assert not _exchange(store).get("fate_before")  # nothing before the GM accepts
        await pilot.press("ctrl+p", "enter")
        await app.services.writes_done()
        msg = await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert _exchange(store)["fate_before"] == ["attacker"]
        assert store.character(me.id).drevo.fate == me.drevo.fate - 1
        assert not store.get_doc("seat_requests")  # applied, not just recorded
        entry = store.log(limit=1)[0]
        assert entry.actor == me.name and f"игрока {me.name}" in entry.text
        assert "+4 без броска" in entry.text
        seen = await seat.seen(lambda m: "+4 без броска" in str(m["state"]["log"]))
        assert seen["state"]["mine"][0]["fate"] == me.drevo.fate - 1  # the seat sees what changed
        assert msg["requests"][0]["text"] == "Судьба: +4 к броску (до броска)"
        await pilot.press("escape", "ctrl+z")  # one step back: the Судьба and its line
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "undone")
        assert not _exchange(store).get("fate_before")
        assert store.character(me.id).drevo.fate == me.drevo.fate
        seat.close()


async def test_fate_outside_the_dice_stays_pending_with_the_reason(folder, campaign_path):
    """The declarations are still going: accepting says why in the dialog and writes nothing."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        start_fight(store)
        me = by_name(store, "Милава")
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="f2", kind="fate", character=me.id, payload={"use": "before"})
        await seat.until(lambda m: bool(m["requests"]))
        before = (store.get_doc("encounter"), store.character(me.id).drevo.fate, len(store.log()))
        await pilot.press("ctrl+p", "enter")
        await app.services.writes_done()
        msg = await seat.until(lambda m: bool(m["requests"][0]["reason"]))
        request = msg["requests"][0]
        assert request["status"] == "pending"
        assert "не применить" in request["reason"] and "бросков" in request["reason"]
        assert [p.request.id for p in hub.pending()] == ["f2"]
        assert (
            store.get_doc("encounter"),
            store.character(me.id).drevo.fate,
            len(store.log()),
        ) == before
        assert not store.get_doc("seat_requests")
        shown = str(app.screen.query_one("#requests-log").render())
        assert "не применить" in shown  # the GM reads why in the dialog
        seat.close()


async def test_fate_in_another_characters_exchange_stays_pending(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        attacker = _to_dice(store)
        other = next(c for c in store.characters() if c.kind == "pc" and c.id != attacker)
        seat = RawSeat(folder, campaign_path, other.name)
        await seat.connect()
        await seat.send(id="f3", kind="fate", character=other.id, payload={"use": "before"})
        await seat.until(lambda m: bool(m["requests"]))
        hub.accept("f3")
        await app.services.writes_done()
        msg = await seat.until(lambda m: bool(m["requests"][0]["reason"]))
        assert msg["requests"][0]["status"] == "pending"
        reason = msg["requests"][0]["reason"]  # named, not «его» (Милава plays too)
        assert f"{other.name} не участвует в схватке" in reason and " его " not in reason
        assert not _exchange(store).get("fate_before")
        seat.close()


async def test_fate_after_the_roll_shifts_by_the_points_the_gm_sets(folder, campaign_path):
    """«Судьба ±» needs the points: without them it waits for the GM's «e»; with them it
    shifts the result like the Бой tab's «p»."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = store.character(_to_dice(store))
        pane = await app.ensure_pane("combat")
        pane.action_roll()
        await app.services.writes_done()
        await pilot.pause()
        assert _exchange(store).get("dice")
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        await seat.send(id="f4", kind="fate", character=me.id, payload={"use": "shift"})
        await seat.until(lambda m: bool(m["requests"]))
        hub.accept("f4")
        await app.services.writes_done()
        msg = await seat.until(lambda m: bool(m["requests"][0]["reason"]))
        assert msg["requests"][0]["status"] == "pending"
        assert "сколько очков" in msg["requests"][0]["reason"]
        await pilot.press("ctrl+p", "e", "ctrl+u", *"+1", "enter")
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert [s[:2] for s in _exchange(store)["shifts"]] == [["attacker", 1]]
        assert store.character(me.id).drevo.fate == me.drevo.fate - 1
        seat.close()


async def test_a_seat_asks_a_shift_with_its_points_and_the_gm_only_accepts(folder, campaign_path):
    """The seat's «p» asks how many points; the GM's Enter applies the shift as it is."""
    from tui.seats.seat import SeatApp
    from tui.seats.tokens import socket_path

    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = store.character(_to_dice(store))
        pane = await app.ensure_pane("combat")
        pane.action_roll()
        await app.services.writes_done()
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
            await sp.press("p", "minus", "2", "enter")
            for _ in range(250):
                if hub.pending():
                    break
                await sp.pause(0.01)
            assert hub.pending()[0].request.payload["points"] == -2
            await pilot.press("ctrl+p", "enter", "escape")
            await app.services.writes_done()
            for _ in range(250):
                if seat.requests and seat.requests[-1]["status"] == "accepted":
                    break
                await sp.pause(0.01)
            assert seat.requests[-1]["status"] == "accepted"
            assert [s[:2] for s in _exchange(store)["shifts"]] == [["attacker", -2]]
            assert store.character(me.id).drevo.fate == me.drevo.fate - 2

"""IDE4™ choices from a player's seat APPLY to the GM's open check when accepted: the expanded
check on demand, energy before and after the roll, a reroll — each the step the GM's key
makes, one undo step logged under the player (Ctrl+Z puts it back and the seat sees it undone,
Ctrl+Y brings it again); what the rules or the check's state refuse is refused with the reason."""

from __future__ import annotations

from rules import ide4
from tests.seats.helpers import RawSeat, check_offer, first_pc, gm_app, open_check, started


def _request(m, rid: str) -> dict:
    return next((r for r in m["requests"] if r["id"] == rid), {})


async def _decided(seat, rid: str, status: str) -> dict:
    msg = await seat.until(lambda m: _request(m, rid).get("status") == status)
    return _request(msg, rid)


async def _undo(pilot, app, key: str = "ctrl+z") -> None:
    await pilot.press(key)
    await app.services.writes_done()
    await pilot.pause()


async def test_the_expanded_demand_then_energy_before_apply_and_undo_step_by_step(
    folder, campaign_path
):
    """«Игрок может потребовать развёрнутую проверку в любой момент» and «Перед броском: до 10
    кубов в пределах номинала и запаса…»: energy before is a step of the expanded check."""
    app = gm_app(folder, campaign_path, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = first_pc(store)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        builder = await open_check(pilot, app, me.id)
        builder.query_one("#ide4-level").select("standard")
        await pilot.pause()
        msg = await seat.until(lambda m: check_offer(m).get("character") == me.id)
        check = check_offer(msg)["id"]
        assert "energy" not in check_offer(msg)["kinds"]  # not before the expanded level
        energy = {"when": "before", "amount": 2, "check": check}
        await seat.send(id="e0", kind="energy", character=me.id, payload=energy)
        e0 = await _decided(seat, "e0", "refused")
        assert "шаг развёрнутой проверки" in e0["reason"]
        await seat.send(id="x1", kind="expanded", character=me.id, payload={"check": check})
        await seat.until(lambda m: bool(_request(m, "x1")))
        hub.accept("x1")
        await app.services.writes_done()
        await _decided(seat, "x1", "accepted")
        assert builder.player_demand and builder.form.level == "expanded"
        line = store.log(limit=1)[0]
        assert line.actor == me.name and "Требует развёрнутую проверку" in line.text
        assert f"Заявка игрока {me.name}" in line.text
        await _undo(pilot, app)
        await _decided(seat, "x1", "undone")
        assert not builder.player_demand and builder.form.level == "standard"
        await _undo(pilot, app, "ctrl+y")
        assert builder.player_demand and builder.form.level == "expanded"
        await seat.send(id="e1", kind="energy", character=me.id, payload=energy)
        await seat.until(lambda m: bool(_request(m, "e1")))
        hub.accept("e1")
        await app.services.writes_done()
        await _decided(seat, "e1", "accepted")
        assert builder.current_input().energy_dice == 2
        nominal = builder.current_input().nominal
        await _undo(pilot, app)
        assert builder.current_input().energy_dice == 0
        await _decided(seat, "e1", "undone")
        await _undo(pilot, app, "ctrl+y")
        assert builder.current_input().energy_dice == 2
        builder.action_roll()  # the GM rolls: the energy is spent when declared
        await pilot.pause()
        await app.services.writes_done()
        assert store.character(me.id).ide4.energy == 100 - 2 * nominal
        assert builder.check.energy_spent == 2 * nominal
        await seat.send(id="e2", kind="energy", character=me.id, payload=energy)
        e2 = await _decided(seat, "e2", "refused")
        assert "уже брошена" in e2["reason"]
        seat.close()


async def test_energy_before_beyond_the_nominal_or_the_pool_is_refused_with_the_rules_reason(
    folder, campaign_path
):
    """«…кубы не больше номинала…», «…в пределах номинала и запаса»."""
    from dataclasses import replace

    app = gm_app(folder, campaign_path, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = first_pc(store)
        store.upsert_character(replace(me, extra={**me.extra, "energy": 5}))
        await pilot.pause()
        builder = await open_check(pilot, app, me.id)
        builder.query_one("#ide4-level").select("expanded")
        await pilot.pause()
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        msg = await seat.until(lambda m: "energy" in check_offer(m).get("kinds", ()))
        big = {"when": "before", "amount": 10, "die": 20, "check": check_offer(msg)["id"]}
        await seat.send(id="b1", kind="energy", character=me.id, payload=big)
        b1 = await _decided(seat, "b1", "refused")
        assert "больше d" in b1["reason"] and "нельзя" in b1["reason"]
        poor = {"when": "before", "amount": 2, "check": big["check"]}
        await seat.send(id="b2", kind="energy", character=me.id, payload=poor)
        b2 = await _decided(seat, "b2", "refused")
        assert "Не хватает энергии" in b2["reason"] and "в запасе 5" in b2["reason"]
        assert builder.current_input().energy_dice == 0
        seat.close()


async def test_energy_after_and_a_reroll_apply_to_the_rolled_check_and_undo(folder, campaign_path):
    """«После броска (после перебросов): до 3 кубов…» and «Переброс заменяет натуральный
    d100»: the order of the seed holds — no reroll once energy after is spent."""
    app = gm_app(folder, campaign_path, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = first_pc(store)
        builder = await open_check(pilot, app, me.id)
        builder.action_roll()
        await pilot.pause()
        await app.services.writes_done()
        rolled = builder.check
        assert rolled.status == "rolled"
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        msg = await seat.until(lambda m: check_offer(m).get("stage") == "rolled")
        check = check_offer(msg)["id"]
        await seat.send(id="r1", kind="reroll", character=me.id, payload={"check": check})
        await seat.until(lambda m: bool(_request(m, "r1")))
        hub.accept("r1")
        await app.services.writes_done()
        await _decided(seat, "r1", "accepted")
        rerolled = builder.check
        assert len(rerolled.rerolls) == 1 and rerolled.before_dice == rolled.before_dice
        assert rerolled.steps[-1].kind == "reroll"
        assert store.log(limit=1)[0].data["request"] == "r1"
        await _undo(pilot, app)
        assert builder.check == rolled
        await _decided(seat, "r1", "undone")
        await _undo(pilot, app, "ctrl+y")
        assert builder.check == rerolled  # the same die, never a new roll
        pool = store.character(me.id).ide4.energy
        why = ide4.energy_after_refusal(rerolled, 1)
        after = {"when": "after", "amount": 1, "check": check}
        await seat.send(id="a1", kind="energy", character=me.id, payload=after)
        if why:  # Триумф or Трагедия: «не применяется»
            a1 = await _decided(seat, "a1", "refused")
            assert a1["reason"] == why
            return
        await seat.until(lambda m: bool(_request(m, "a1")))
        hub.accept("a1")
        await app.services.writes_done()
        await _decided(seat, "a1", "accepted")
        nominal = rerolled.input.nominal
        assert store.character(me.id).ide4.energy == pool - nominal
        assert builder.check.after_dice
        await seat.send(id="r2", kind="reroll", character=me.id, payload={"check": check})
        r2 = await _decided(seat, "r2", "refused")
        assert "до энергии после броска" in r2["reason"]
        await _undo(pilot, app)  # the energy comes back, the check is as before it
        assert store.character(me.id).ide4.energy == pool
        assert builder.check == rerolled
        await _decided(seat, "a1", "undone")
        seat.close()


async def test_a_reroll_before_the_roll_and_a_closed_check_are_refused(folder, campaign_path):
    app = gm_app(folder, campaign_path, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        me = first_pc(store)
        builder = await open_check(pilot, app, me.id)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        msg = await seat.until(lambda m: check_offer(m).get("character") == me.id)
        first = check_offer(msg)["id"]
        await seat.send(id="q1", kind="reroll", character=me.id, payload={"check": first})
        q1 = await _decided(seat, "q1", "refused")
        assert "ещё не брошена" in q1["reason"]
        builder.action_roll()
        await pilot.pause()
        await app.services.writes_done()
        msg = await seat.until(lambda m: check_offer(m).get("stage") in ("rolled", "done"))
        rolled_id = check_offer(msg)["id"]
        builder.action_new_check()  # the GM starts another check
        await pilot.pause()
        await app.services.writes_done()
        msg = await seat.until(lambda m: check_offer(m).get("stage") == "before")
        assert check_offer(msg)["id"] not in (first, rolled_id)
        await seat.send(id="q2", kind="reroll", character=me.id, payload={"check": rolled_id})
        q2 = await _decided(seat, "q2", "refused")
        assert "закрыта" in q2["reason"]
        seat.close()


async def test_the_seat_offers_energy_before_or_after_as_the_open_check_stands():
    """Before the roll only «e» (energy before), after it only «E» (energy after)."""
    from tui.seats.seat import SeatApp
    from tui.store import Character
    from tui.store.codec import character_to_doc

    lev = Character(id="lev", name="Лёва", kind="pc", qualities={}, skills=(), weapons=())
    seat = SeatApp("Лёва", None, "t" * 32, connect=False)
    async with seat.run_test(size=(80, 24)) as sp:
        for stage, before, after in (("before", True, False), ("rolled", False, True)):
            check = {"id": "c1", "character": "lev", "stage": stage, "kinds": ["energy"]}
            state = {"system": "ide4", "mine": [character_to_doc(lev)], "check": check}
            seat.apply_state({"state": state, "requests": []})
            await sp.pause()
            assert seat.check_action("energy", ("before",)) is before
            assert seat.check_action("energy", ("after",)) is after
            assert seat.check_action("reroll", ()) is False  # not offered by this check


async def test_the_seats_x_and_r_keys_ask_about_the_gms_open_check():
    """«x» demands the expanded check and «r» a reroll: each request names the GM's open check
    (so the GM refuses it once that check is closed)."""
    from tui.seats.seat import SeatApp
    from tui.store import Character
    from tui.store.codec import character_to_doc

    lev = Character(id="lev", name="Лёва", kind="pc", qualities={}, skills=(), weapons=())
    seat = SeatApp("Лёва", None, "t" * 32, connect=False)
    async with seat.run_test(size=(80, 24)) as sp:
        check = {"id": "c1", "character": "lev", "stage": "rolled", "kinds": ["expanded", "reroll"]}
        state = {"system": "ide4", "mine": [character_to_doc(lev)], "check": check}
        seat.apply_state({"state": state, "requests": []})
        await sp.pause()
        await sp.press("x", "r")
        await sp.pause()
        sent = [
            (m["kind"], m["character"], m["payload"].get("check")) for m in seat.outbox.values()
        ]
        assert sent == [("expanded", "lev", "c1"), ("reroll", "lev", "c1")]
        assert [r["status"] for r in seat.requests] == ["pending", "pending"]


def test_only_a_system_that_declares_has_a_seat_form() -> None:
    """The seat builds a declaration form only for a system whose fight is exchanges (its
    ``System.declaration_form``), found through the registry once the state names it."""
    from rules import systems
    from tui import registry
    from tui.seats.protocol import declaration_form

    assert declaration_form(None) is None and declaration_form("нет такой") is None
    for name in systems.names():
        has = declaration_form(name) is not None
        assert has == (registry.get(name).declaration_form is not None) == systems.exchanges(name)


async def test_a_seat_mounts_its_systems_form_with_the_first_state() -> None:
    from tui.seats.seat import SeatApp

    for system, formed in (("ide4", False), ("drevo", True)):
        app = SeatApp("Игрок", None, "", connect=False)
        async with app.run_test(size=(80, 24)) as pilot:
            assert not app.query("#seat-form")  # no campaign yet: no system, no form
            app.apply_state({"v": 1, "type": "state", "state": {"system": system}})
            await pilot.pause()
            assert bool(app.query("#seat-form")) == formed, system
            if formed:
                assert app.query_one("#seat-form").display is False  # nobody declares

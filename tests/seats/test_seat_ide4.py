"""IDE4™ choices from a player's seat APPLY to the GM's open check when accepted: the expanded
check on demand, energy before and after the roll, a reroll — each the step the GM's key
makes, one undo step logged under the player (Ctrl+Z puts it back and the seat sees it undone,
Ctrl+Y brings it again); what the rules or the check's state refuse is refused with the reason.

Here the seat's screen and keys; what the hub does with each request is tested on the hub and
the table engine in ``tests/seats/test_check_requests_ide4.py``."""

from __future__ import annotations


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

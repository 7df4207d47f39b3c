"""Seats' apps (real apps, a real socket) and the GM's side: a Древо round declared from seats.

The GM's side is the hub without the GM's app (:mod:`tests.seats.headless_gm`): these tests
are about the seats' screens and keys; the GM's Ctrl+P keys are tested in
``tests/seats/test_hub.py::test_the_gms_dialog_keys_decide_the_requests``.
"""

from __future__ import annotations

import pytest

from tests.seats.headless_gm import serving
from tests.seats.helpers import by_name, seat_token, start_fight, until_seen
from tui.seats.seat import SeatApp
from tui.seats.tokens import seats_dir, socket_path


def _seat(folder, campaign_path, name) -> SeatApp:
    seats = seats_dir(folder)
    return SeatApp(
        name, socket_path(seats, campaign_path), seat_token(seats.parent, campaign_path, name)
    )


async def test_two_seats_declare_a_round_and_the_gm_only_approves(folder, campaign_path):
    """Each seat's Enter declares with its form in its turn; the GM only accepts."""
    async with serving(folder, campaign_path) as gm:
        hub, store = gm.hub, gm.store
        start_fight(store)
        first, second = "Богдан Сыч", "Горан Рябой"  # the party declares in its order
        a, b = _seat(folder, campaign_path, first), _seat(folder, campaign_path, second)
        async with a.run_test(size=(80, 24)) as pa, b.run_test(size=(80, 24)) as pb:
            pilots = [pa, pb]
            await until_seen(pilots, lambda: a.state.get("declare") is not None, "a's form")
            # b's form comes with its first state (the system's, tui.seats.seat_draw)
            await until_seen(pilots, lambda: bool(b.query("#seat-form")), "b's form")
            assert b.state.get("declare") is None  # not b's turn: no form there
            assert b.query_one("#seat-form").display is False
            await pa.press("enter")  # the seat's form, as the GM's form would declare it
            await until_seen(pilots, lambda: len(hub.pending()) == 1, "a's request waits")
            assert not store.get_doc("encounter")["declarations"]  # nothing before the GM
            hub.accept(hub.pending()[0].request.id)  # the GM only approves
            await until_seen(pilots, lambda: b.state.get("declare") is not None, "b's turn")
            await until_seen(
                pilots, lambda: a.requests and a.requests[-1]["status"] == "accepted", "accepted"
            )
            await pb.press("enter")
            await until_seen(pilots, lambda: len(hub.pending()) == 1, "b's request waits")
            hub.accept(hub.pending()[0].request.id)
            await until_seen(pilots, lambda: b.requests[-1]["status"] == "accepted", "b accepted")
            enc = store.get_doc("encounter")
            actors = [d["actor"] for d in enc["declarations"]]
            assert actors == [by_name(store, first).id, by_name(store, second).id]
            await until_seen(
                pilots, lambda: "Заявка игрока Горан Рябой" in str(a.state["log"]), "a's log"
            )


@pytest.mark.slow
async def test_a_dropped_seat_reconnects_and_keeps_its_pending_request(folder, campaign_path):
    """The GM's side drops every seat; the seat comes back and its request is still one.

    First, on the same seat, the seat's «f» asks Судьба; the GM's refusal and its reason show
    in the seat's panel (the GM's «r» typing the reason: ``test_hub.py``'s dialog test).
    Replaces the pilot test `tests/seats/test_seat_pilot.py::
    test_a_refusal_reaches_the_seat_with_the_gms_reason` (its own seat «Милава» on the same
    campaign and headless GM, each of its asserts; the request that then drops is the
    seat's next one)."""
    async with serving(folder, campaign_path) as gm:
        hub = gm.hub
        seat = _seat(folder, campaign_path, "Милава")
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [sp]
            await until_seen(pilots, lambda: bool(seat.mine()), "own sheet")
            await sp.press("f")  # Судьба +4
            await until_seen(pilots, lambda: len(hub.pending()) == 1, "waits")
            hub.refuse(hub.pending()[0].request.id, "не в этот раз")
            await until_seen(pilots, lambda: seat.requests[-1]["status"] == "refused", "refused")
            assert seat.requests[-1]["reason"] == "не в этот раз"
            await sp.pause()
            assert "отказано: не в этот раз" in str(seat.query_one("#seat-requests").render())

            await sp.press("n")
            await sp.pause()
            note = seat.screen.query_one("#prompt-input")  # the note at once: its typing is
            assert note.value == "", "«n» asks in an empty field"  # Input's, not the subject
            note.value = "ищу следы"
            await sp.press("enter")
            await until_seen(pilots, lambda: len(hub.pending()) == 1, "waits")
            rid = hub.pending()[0].request.id
            for writers in hub._writers.values():  # the connection drops
                for w in list(writers):
                    w.close()
            await until_seen(
                pilots, lambda: seat.link.startswith("нет связи"), "seat sees the drop"
            )
            assert rid in seat.outbox  # kept, to be sent again
            await sp.pause()
            shown = " ".join(
                strip.text.strip() for strip in seat.screen._compositor.render_strips()
            )
            assert "нет связи — переподключаюсь…" in shown  # not cut at 80 columns
            await until_seen(pilots, lambda: seat.link == "на связи с ведущим", "reconnected", 400)
            await until_seen(pilots, lambda: any(hub._writers.values()), "GM sees the seat")
            assert [p.request.id for p in hub.pending()] == [rid]  # the same one, once
            hub.accept(rid)
            await until_seen(pilots, lambda: seat.requests[-1]["status"] == "accepted", "accepted")
            assert rid not in seat.outbox
            entry = gm.store.log(limit=1)[0]
            assert entry.actor == "Милава" and "ищу следы" in entry.text


async def test_a_seat_reads_a_state_longer_than_a_request_line(folder, campaign_path):
    """Eight big quick rolls in the Журнал (1000d1000: thousands of dice each) make the
    players' state far longer than the 16 KiB a seat may send; the seat still reads it —
    it used to refuse the line and stay «нет связи с ведущим — переподключаюсь…» for good."""
    from tui.seats import protocol as proto
    from tui.store import LogEntry, Store

    store = Store.open(campaign_path)
    dice = " ".join(str(100 + i % 900) for i in range(1000))
    for i in range(8):
        text = f"1000d1000: 1000d1000[{dice}] = {i}"
        store.append_log(LogEntry(f"big{i}", "2026-12-01T16:00:00+00:00", "roll", None, text))
    store.close()
    async with serving(folder, campaign_path) as gm:
        assert len(proto.encode(gm.hub._state("Милава"))) > 2 * proto.MAX_LINE
        seat = _seat(folder, campaign_path, "Милава")
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [sp]
            await until_seen(pilots, lambda: seat.link == "на связи с ведущим", "connected", 400)
            await until_seen(pilots, lambda: bool(seat.mine()), "own sheet")
            assert [c.name for c in seat.mine()] == ["Милава"]

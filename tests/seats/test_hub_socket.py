"""The seats' hub serves seats on a Unix socket: requests wait for the GM; the boundary holds.

The hub here is the GM's side without the GM's app (:mod:`tests.seats.headless_gm`: the app's
own services, a real socket on the running loop); the seats are raw protocol clients. The
GM's Ctrl+P dialog (its keys: Enter, «e», «w», «r», «k») stays a pilot test in
``tests/seats/test_hub.py``.
"""

from __future__ import annotations

import asyncio
import os
import stat
from dataclasses import replace

import pytest

from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import RawSeat, by_name, start_fight
from tui.bridge.public import SECRET_NAME, SECRET_ROLL
from tui.store import LogEntry


@pytest.fixture
async def gm(folder, campaign_path):
    gm = HeadlessGM(folder, campaign_path)
    await gm.start()
    yield gm
    gm.close()


def _declaration(target, weapon="Лук", action="shoot", distance="medium"):
    return {"action": action, "target": target, "weapon": weapon, "distance": distance}


def encounter(store):
    from rules.encounter import Encounter

    return Encounter.from_dict(store.get_doc("encounter"))


def declaring(store):
    from tui.systems.drevo import combat as bridge

    chars = {c.id: c for c in store.characters()}
    return encounter(store).declaring_order(lambda cid: bridge.can_act(chars.get(cid)))


def legal(store, me, target):
    """A declaration the rules accept for ``me``: shoot with a bow, else strike, else dodge."""
    from tui.seats.protocol import Request
    from tui.seats.rules_check import declaration_of
    from tui.systems.drevo import combat as bridge

    tries = [
        _declaration(target, weapon=w, action=a, distance=d)
        for w in bridge.weapon_names(me)
        for a, d in (("shoot", "medium"), ("throw", "medium"), ("melee", "close"))
    ]
    for payload in [*tries, {"action": "dodge", "target": None, "weapon": None}]:
        full = {"turns": 1, "note": "", **payload}
        d = declaration_of(Request("x", "declare", me.id, full))
        if not bridge.declaration_problem(d, me)[0]:
            return payload
    raise AssertionError("no legal declaration")


async def test_two_seats_declare_and_the_gm_only_approves(gm, folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_hub.py::test_two_seats_declare_and_the_gm_only_approves`` (its GM's
    Ctrl+P Enter is kept by ``test_hub.py::test_the_gms_dialog_keys_decide_the_requests``)."""
    hub, store = gm.hub, gm.store
    start_fight(store)
    order = [c.name for c in declaring(store)]
    pcs = [n for n in order if by_name(store, n).kind == "pc"][:2]
    seats = {n: RawSeat(folder, campaign_path, n) for n in pcs}
    for s in seats.values():
        assert (await s.connect())["type"] == "welcome"
    ataman = by_name(store, "Атаман Шкуро").id
    for name in pcs:
        seat = seats[name]
        me = by_name(store, name)
        await seat.until(lambda m, me=me: (m["state"]["declare"] or {}).get("actor") == me.id)
        payload = legal(store, me, ataman)
        rid = f"r-{me.id[:8]}"
        await seat.send(id=rid, kind="declare", character=me.id, payload=payload)
        await seat.until(lambda m: bool(m["requests"]))
        assert seat.messages[-1]["requests"][-1]["status"] == "pending", seat.messages[-1][
            "requests"
        ]
        declared = len(encounter(store).all_declarations())
        hub.accept(rid)  # accept: all the GM does
        got = await seat.until(lambda m: any(r["status"] == "accepted" for r in m["requests"]))
        assert got["requests"][0]["reason"] == ""
        assert len(encounter(store).all_declarations()) == declared + 1
    log = store.log(limit=5)
    mine = [e for e in log if e.data.get("seat")]
    assert {e.actor for e in mine} == set(pcs)
    assert all(e.text.startswith(f"Заявка игрока {e.actor}") for e in mine)
    # One accepted request is one undo step: undo takes back the last declaration only.
    before = len(encounter(store).all_declarations())
    gm.undo()
    assert len(encounter(store).all_declarations()) == before - 1
    last = seats[pcs[-1]]
    got = await last.until(lambda m: m["requests"][-1]["status"] == "undone")
    assert got["requests"][-1]["id"] == f"r-{by_name(store, pcs[-1]).id[:8]}"
    assert hub.log == []  # nothing was refused
    for s in seats.values():
        s.close()


async def test_refusals_other_character_bad_token_unknown_kind_no_write(gm, folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_hub.py::test_refusals_other_character_bad_token_unknown_kind_no_write``."""
    hub, store = gm.hub, gm.store
    mode = stat.S_IMODE(os.stat(hub.path).st_mode)
    assert mode == 0o600 and stat.S_IMODE(os.stat(hub.folder).st_mode) == 0o700
    start_fight(store)
    before = store.path.read_bytes()
    # A wrong token: refused at the door, a log line in the GM's app.
    thief = RawSeat(folder, campaign_path, "Милава", token="x" * 32)
    assert (await thief.connect())["type"] == "refused"
    assert "ключ неверен" in hub.log[-1]
    # A seat that never greets properly.
    rude = RawSeat(folder, campaign_path, "Милава")
    assert (await rude.connect({"v": 1, "type": "request", "kind": "note"}))["type"] == "refused"
    seat = RawSeat(folder, campaign_path, "Милава")
    welcome = await seat.connect()
    assert welcome["type"] == "welcome"
    await seat.read()  # the first state
    goran = by_name(store, "Горан Рябой")
    await seat.send(id="r1", kind="note", character=goran.id, payload={"text": "Горан сдаётся"})
    msg = await seat.until(lambda m: bool(m["requests"]))
    assert msg["requests"][0]["status"] == "refused"
    assert "не ваш персонаж" in msg["requests"][0]["reason"]
    ataman = by_name(store, "Атаман Шкуро")
    await seat.send(id="r2", kind="note", character=ataman.id, payload={"text": "сдаюсь"})
    msg = await seat.until(lambda m: len(m["requests"]) == 2)
    assert msg["requests"][1]["status"] == "refused"
    # Not a request at all: writing the file, an unknown kind, garbage.
    for line in (
        b'{"v":1,"type":"write","path":"c.json","data":"{}"}\n',
        b'{"v":1,"type":"request","id":"r3","kind":"set_fate","character":"x","payload":{}}\n',
        b"\x00\xff garbage\n",
    ):
        await seat.send_raw(line)
        assert (await seat.read())["type"] == "error"
    assert len(hub.log) >= 6
    assert hub.pending() == []
    assert store.path.read_bytes() == before  # no seat wrote the campaign
    seat.close()


async def test_a_seat_reads_only_the_players_view(gm, folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_seat_reads_only_the_players_view``."""
    store = gm.store
    lyko = by_name(store, "Лыко")
    store.upsert_character(replace(lyko, extra={**lyko.extra, "hidden": True}))
    secret = {"hidden": True}
    store.append_log(
        LogEntry("s1", "2026-01-01T10:00:00", "roll", "Ведущий", "Засада Лыко: 17", secret)
    )
    store.append_log(LogEntry("s2", "2026-01-01T10:01:00", "roll", "Лыко", "Лыко стреляет: 9"))
    start_fight(store)
    seat = RawSeat(folder, campaign_path, "Милава")
    await seat.connect()
    msg = await seat.until(lambda m: "Раунд" in m["state"]["combat"])
    text = str(msg)
    assert "Лыко" not in text and SECRET_NAME in text
    assert "Засада" not in text and SECRET_ROLL in text
    assert [c["name"] for c in msg["state"]["mine"]] == ["Милава"]
    assert "Атаман Шкуро" not in {c["name"] for c in msg["state"]["mine"]}
    seat.close()


async def test_a_request_sent_again_after_a_reconnect_is_one_request(gm, folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_request_sent_again_after_a_reconnect_is_one_request``."""
    hub = gm.hub
    me = by_name(gm.store, "Милава")
    seat = RawSeat(folder, campaign_path, "Милава")
    await seat.connect()
    note = {"id": "n1", "kind": "note", "character": me.id, "payload": {"text": "ищу след"}}
    await seat.send(**note)
    await seat.until(lambda m: bool(m["requests"]))
    seat.close()
    await asyncio.sleep(0.05)
    again = RawSeat(folder, campaign_path, "Милава")
    await again.connect()
    await again.send(**note)  # the seat re-sends what is pending, by the same id
    msg = await again.until(lambda m: bool(m["requests"]))
    assert [r["id"] for r in msg["requests"]] == ["n1"]
    assert len(hub.pending()) == 1
    hub.refuse("n1", "Следов нет.")
    msg = await again.until(lambda m: m["requests"][0]["status"] == "refused")
    assert msg["requests"][0]["reason"] == "Следов нет."
    again.close()


async def test_always_accept_a_kind_and_an_edit_accepts_the_edited_request(gm):
    """«всегда принимать»: the kind's waiting requests and every later one are accepted; the
    GM's edit is what is accepted and logged.

    Replaces the logic of the pilot tests
    ``tests/seats/test_hub.py::test_always_accept_a_kind_and_edit_before_accepting`` and
    ``…::test_the_gms_edit_starts_from_the_request_and_accepts_it_unchanged`` (their keys
    stay in ``test_hub.py::test_the_gms_dialog_keys_decide_the_requests``)."""
    from tui.seats.protocol import Request
    from tui.seats.rules_check import edited

    hub, store = gm.hub, gm.store
    me = by_name(store, "Милава")
    a1 = await gm.receive("Милава", Request("a1", "note", me.id, {"text": "раз"}))
    hub.accept("a1", edited(a1.request, "два"))
    assert gm.shown("Милава", "a1")["status"] == "accepted"
    assert "два" in store.log(limit=1)[0].text and "раз" not in store.log(limit=1)[0].text
    b1 = await gm.receive("Милава", Request("b1", "note", me.id, {"text": "ищу следы"}))
    hub.accept("b1", edited(b1.request, b1.request.payload["text"]))  # Enter, unchanged
    assert "ищу следы" in store.log(limit=1)[0].text
    await gm.receive("Милава", Request("a2", "note", me.id, {"text": "три"}))
    hub.always_accept("note")
    await gm.receive("Милава", Request("a3", "note", me.id, {"text": "четыре"}))
    statuses = [r["status"] for r in hub._state("Милава")["requests"]]
    assert statuses == ["accepted"] * 4
    assert hub.always == {"note"}
    assert "четыре" in store.log(limit=1)[0].text


async def test_a_declaration_gone_stale_is_refused_on_accept_with_the_reason(
    gm, folder, campaign_path
):
    """The GM declared for the character meanwhile: accepting the seat's request writes
    nothing and tells the player why (the RulesError of ``apply``).

    Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_declaration_gone_stale_is_refused_on_accept_with_the_reason``."""
    from rules.encounter import Declaration
    from tui.systems.drevo import combat as bridge

    hub, store = gm.hub, gm.store
    start_fight(store)
    first = declaring(store)[0]
    me = by_name(store, first.name)
    seat = RawSeat(folder, campaign_path, me.name)
    await seat.connect()
    dodge = {"action": "dodge", "target": None, "weapon": None}
    await seat.send(id="late", kind="declare", character=me.id, payload=dodge)
    await seat.until(lambda m: bool(m["requests"]))
    assert hub.pending()
    chars = {c.id: c for c in store.characters()}
    enc = encounter(store).declare(
        Declaration(me.id, "parry"), lambda c: bridge.can_act(chars.get(c))
    )
    store.put_doc("encounter", enc.to_dict(), label="the GM declares himself")
    before = store.get_doc("encounter")
    hub.accept("late")
    msg = await seat.until(lambda m: m["requests"][0]["status"] == "refused")
    assert "заявляет не ваш персонаж" in msg["requests"][0]["reason"]
    assert store.get_doc("encounter") == before
    seat.close()


async def test_a_line_over_the_limit_is_refused_and_the_seat_hung_up(gm, folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_line_over_the_limit_is_refused_and_the_seat_hung_up``."""
    from tui.seats import protocol as proto

    seat = RawSeat(folder, campaign_path, "Милава")
    await seat.connect()
    await seat.read()
    await seat.send_raw(b"{" * (proto.MAX_LINE + 10))
    assert await seat.read() == {}  # the GM's side hung up
    assert "слишком длинное" in gm.hub.log[-1]


async def test_a_seats_note_reaches_the_gm_without_bidi_or_zero_width_marks(
    gm, folder, campaign_path
):
    """Issue 35: a note with U+202E showed reversed in the GM's Ctrl+P and the seat's list.

    Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_seats_note_reaches_the_gm_without_bidi_or_zero_width_marks``."""
    seat = RawSeat(folder, campaign_path, "Милава")
    assert (await seat.connect())["type"] == "welcome"
    me = by_name(gm.store, "Милава")
    text = "Прошу \u202eсдаюсь\u202c и \u200dещё"
    await seat.send(id="b1", kind="note", character=me.id, payload={"text": text})
    msg = await seat.until(lambda m: bool(m["requests"]))
    assert msg["requests"][0]["text"] == "Заметка: Прошу сдаюсь и ещё"
    [item] = gm.hub.pending()
    assert item.to_dict()["text"] == "Заметка: Прошу сдаюсь и ещё"
    seat.close()


async def test_a_refused_seat_retrying_tells_the_gm_once(gm, folder, campaign_path):
    """A seat whose key is gone (its character left the party) tries again every few
    seconds while its window stays open: the GM gets one toast, not one at every try (the
    playtest saw them pile up over the Бой tab).

    Replaces the pilot test
    ``tests/seats/test_hub.py::test_a_refused_seat_retrying_tells_the_gm_once``."""
    for _ in range(3):
        seat = RawSeat(folder, campaign_path, "Милава", token="x" * 32)
        assert (await seat.connect())["type"] == "refused"
        seat.close()
    told = gm.notes
    assert len(told) == 1 and "отказано в подключении" in told[0]
    assert gm.hub.log[-3:] == told * 3  # the hub's log keeps each

"""The GM's app serves seats on a Unix socket: requests wait for the GM; the boundary holds."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from tests.seats.helpers import RawSeat, by_name, gm_app, start_fight, started
from tui.bridge.public import SECRET_NAME, SECRET_ROLL
from tui.store import LogEntry


def _declaration(target, weapon="Лук", action="shoot", distance="medium"):
    return {"action": action, "target": target, "weapon": weapon, "distance": distance}


async def test_two_seats_declare_and_the_gm_only_approves(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        start_fight(store)
        order = [c.name for c in _declaring(store)]
        pcs = [n for n in order if by_name(store, n).kind == "pc"][:2]
        seats = {n: RawSeat(folder, campaign_path, n) for n in pcs}
        for s in seats.values():
            assert (await s.connect())["type"] == "welcome"
        atаман = by_name(store, "Атаман Шкуро").id
        for name in pcs:
            seat = seats[name]
            me = by_name(store, name)
            await seat.until(lambda m, me=me: (m["state"]["declare"] or {}).get("actor") == me.id)
            payload = _legal(store, me, atаман)
            await seat.send(id=f"r-{me.id[:8]}", kind="declare", character=me.id, payload=payload)
            await seat.until(lambda m: bool(m["requests"]))
            assert seat.messages[-1]["requests"][-1]["status"] == "pending", seat.messages[-1][
                "requests"
            ]
            declared = len(_encounter(store).all_declarations())
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press("enter")  # accept: the only key the GM presses
            await app.services.writes_done()
            await pilot.pause()
            await pilot.press("escape")
            got = await seat.until(lambda m: any(r["status"] == "accepted" for r in m["requests"]))
            assert got["requests"][0]["reason"] == ""
            assert len(_encounter(store).all_declarations()) == declared + 1
        log = store.log(limit=5)
        mine = [e for e in log if e.data.get("seat")]
        assert {e.actor for e in mine} == set(pcs)
        assert all(e.text.startswith(f"Заявка игрока {e.actor}") for e in mine)
        # One accepted request is one undo step: undo takes back the last declaration only.
        before = len(_encounter(store).all_declarations())
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        assert len(_encounter(store).all_declarations()) == before - 1
        last = seats[pcs[-1]]
        got = await last.until(lambda m: m["requests"][-1]["status"] == "undone")
        assert got["requests"][-1]["id"] == f"r-{by_name(store, pcs[-1]).id[:8]}"
        assert hub.log == []  # nothing was refused
        for s in seats.values():
            s.close()


def _encounter(store):
    from rules.encounter import Encounter

    return Encounter.from_dict(store.get_doc("encounter"))


def _declaring(store):
    from tui.systems.drevo import combat as bridge

    chars = {c.id: c for c in store.characters()}
    return _encounter(store).declaring_order(lambda cid: bridge.can_act(chars.get(cid)))


def _legal(store, me, target):
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


async def test_refusals_other_character_bad_token_unknown_kind_no_write(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        mode = stat.S_IMODE(os.stat(hub.path).st_mode)
        assert mode == 0o600 and stat.S_IMODE(os.stat(hub.folder).st_mode) == 0o700
        start_fight(store)
        await app.services.writes_done()
        before = store.path.read_bytes()
        # A wrong token: refused at the door, a log line in the GM's app.
        thief = RawSeat(folder, campaign_path, "Милава", token="x" * 32)
        assert (await thief.connect())["type"] == "refused"
        assert "ключ неверен" in hub.log[-1]
        # A seat that never greets properly.
        rude = RawSeat(folder, campaign_path, "Милава")
        assert (await rude.connect({"v": 1, "type": "request", "kind": "note"}))[
            "type"
        ] == "refused"
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
        await app.services.writes_done()
        assert store.path.read_bytes() == before  # no seat wrote the campaign
        seat.close()


async def test_a_seat_reads_only_the_players_view(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        store = app.store
        from dataclasses import replace

        lyko = by_name(store, "Лыко")
        store.upsert_character(replace(lyko, extra={**lyko.extra, "hidden": True}))
        store.append_log(
            LogEntry(
                "s1", "2026-01-01T10:00:00", "roll", "Ведущий", "Засада Лыко: 17", {"hidden": True}
            )
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


async def test_a_request_sent_again_after_a_reconnect_is_one_request(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        me = by_name(app.store, "Милава")
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


async def test_always_accept_a_kind_and_edit_before_accepting(folder, campaign_path):
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        me = by_name(app.store, "Милава")
        seat = RawSeat(folder, campaign_path, "Милава")
        await seat.connect()
        await seat.send(id="a1", kind="note", character=me.id, payload={"text": "раз"})
        await seat.until(lambda m: bool(m["requests"]))
        await pilot.press("ctrl+p", "e", *"два", "enter")  # the GM edits, which accepts
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert "два" in app.store.log(limit=1)[0].text
        await seat.send(id="a2", kind="note", character=me.id, payload={"text": "три"})
        await seat.until(lambda m: len(m["requests"]) == 2)
        await pilot.press("w")  # «всегда принимать» заметки
        await app.services.writes_done()
        await seat.send(id="a3", kind="note", character=me.id, payload={"text": "четыре"})
        msg = await seat.until(
            lambda m: len(m["requests"]) == 3 and m["requests"][2]["status"] == "accepted"
        )
        assert [r["status"] for r in msg["requests"]] == ["accepted"] * 3
        assert hub.always == {"note"}
        seat.close()


def test_kubik_seat_without_a_seat_says_what_to_do(tmp_path, monkeypatch, capsys):
    from tui.cli.kubik import main
    from tui.store import Store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as exit_:
        main(["seat", "Никто"])  # no campaign at all
    assert exit_.value.code == 2 and "нет такой кампании" in capsys.readouterr().err
    Store.open(tmp_path / "kubik" / "campaign.json").close()
    with pytest.raises(SystemExit) as exit_:
        main(["seat", "Никто"])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "Места «Никто» нет" in err and "нет игрока или персонажа" in err


def test_a_hidden_npc_is_a_secret_target_in_the_seats_form(campaign_path):
    from dataclasses import replace

    from rules.encounter import Declaration, Encounter
    from tui.seats.state import seat_state
    from tui.store import Store
    from tui.systems.drevo import combat as bridge

    store = Store.open(campaign_path)
    lyko = by_name(store, "Лыко")
    store.upsert_character(replace(lyko, extra={**lyko.extra, "hidden": True}))
    start_fight(store)
    chars = {c.id: c for c in store.characters()}
    enc = Encounter.from_dict(store.get_doc("encounter"))
    for name in ("Богдан Сыч", "Горан Рябой"):
        enc = enc.declare(
            Declaration(by_name(store, name).id, "dodge"), lambda c: bridge.can_act(chars.get(c))
        )
    store.put_doc("encounter", enc.to_dict(), label="t")
    offer = seat_state(store, "Милава")["declare"]
    labels = [label for label, _ in offer["targets"]]
    assert SECRET_NAME in labels and not any("Лыко" in label for label in labels)
    assert seat_state(store, "Горан Рябой")["declare"] is None  # not his turn
    store.close()


async def test_a_declaration_gone_stale_is_refused_on_accept_with_the_reason(folder, campaign_path):
    """The GM declared for the character meanwhile: accepting the seat's request writes
    nothing and tells the player why (the RulesError of ``apply``)."""
    from rules.encounter import Declaration
    from tui.systems.drevo import combat as bridge

    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        start_fight(store)
        first = _declaring(store)[0]
        me = by_name(store, first.name)
        seat = RawSeat(folder, campaign_path, me.name)
        await seat.connect()
        dodge = {"action": "dodge", "target": None, "weapon": None}
        await seat.send(id="late", kind="declare", character=me.id, payload=dodge)
        await seat.until(lambda m: bool(m["requests"]))
        assert hub.pending()
        chars = {c.id: c for c in store.characters()}
        enc = _encounter(store).declare(
            Declaration(me.id, "parry"), lambda c: bridge.can_act(chars.get(c))
        )
        store.put_doc("encounter", enc.to_dict(), label="the GM declares himself")
        before = store.get_doc("encounter")
        hub.accept("late")
        await app.services.writes_done()
        msg = await seat.until(lambda m: m["requests"][0]["status"] == "refused")
        assert "заявляет не ваш персонаж" in msg["requests"][0]["reason"]
        assert store.get_doc("encounter") == before
        seat.close()


async def test_a_line_over_the_limit_is_refused_and_the_seat_hung_up(folder, campaign_path):
    from tui.seats import protocol as proto

    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        seat = RawSeat(folder, campaign_path, "Милава")
        await seat.connect()
        await seat.read()
        await seat.send_raw(b"{" * (proto.MAX_LINE + 10))
        assert await seat.read() == {}  # the GM's app hung up
        assert "слишком длинное" in hub.log[-1]


def test_no_seats_folder_where_it_cannot_be_made(tmp_path, monkeypatch):
    """A data folder kubik may not write: the GM's kubik starts without seats, not a crash."""
    from tui.seats.tokens import seats_dir_or_none

    blocked = tmp_path / "data"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert seats_dir_or_none() is None
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "ok"))
    assert seats_dir_or_none() == tmp_path / "ok" / "kubik" / "seats"


async def test_the_gms_edit_starts_from_the_request_and_accepts_it_unchanged(folder, campaign_path):
    """A play-test: «e Изменить» showed the request as a placeholder, so Enter alone said
    «Поле не может быть пустым»; the field now holds the player's text to edit."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot, app)
        me = by_name(app.store, "Милава")
        seat = RawSeat(folder, campaign_path, "Милава")
        await seat.connect()
        await seat.send(id="b1", kind="note", character=me.id, payload={"text": "ищу следы"})
        await seat.until(lambda m: bool(m["requests"]))
        await pilot.press("ctrl+p", "e")
        await pilot.pause()
        assert app.screen.query_one("#prompt-input").value == "ищу следы"
        await pilot.press("enter")
        await app.services.writes_done()
        await seat.until(lambda m: m["requests"][0]["status"] == "accepted")
        assert "ищу следы" in app.store.log(limit=1)[0].text
        seat.close()


async def test_a_seats_note_reaches_the_gm_without_bidi_or_zero_width_marks(folder, campaign_path):
    """Issue 35: a note with U+202E showed reversed in the GM's Ctrl+P and the seat's list."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        seat = RawSeat(folder, campaign_path, "Милава")
        assert (await seat.connect())["type"] == "welcome"
        me = by_name(app.store, "Милава")
        text = "Прошу \u202eсдаюсь\u202c и \u200dещё"
        await seat.send(id="b1", kind="note", character=me.id, payload={"text": text})
        msg = await seat.until(lambda m: bool(m["requests"]))
        assert msg["requests"][0]["text"] == "Заметка: Прошу сдаюсь и ещё"
        [item] = hub.pending()
        assert item.to_dict()["text"] == "Заметка: Прошу сдаюсь и ещё"
        seat.close()


async def test_a_refused_seat_retrying_tells_the_gm_once(folder, campaign_path):
    """A seat whose key is gone (its character left the party) tries again every few
    seconds while its window stays open: the GM gets one toast, not one at every try (the
    playtest saw them pile up over the Бой tab)."""
    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        told: list[str] = []
        hub.services = _Telling(hub.services, told)
        for _ in range(3):
            seat = RawSeat(folder, campaign_path, "Милава", token="x" * 32)
            assert (await seat.connect())["type"] == "refused"
            seat.close()
        assert len(told) == 1 and "отказано в подключении" in told[0]
        assert hub.log[-3:] == told * 3  # the hub's log keeps each


class _Telling:
    """The app's services, with the toasts recorded."""

    def __init__(self, services, told: list[str]):
        self._services, self._told = services, told

    def __getattr__(self, name):
        return getattr(self._services, name)

    def notify(self, line: str, **_kwargs) -> None:
        self._told.append(line)

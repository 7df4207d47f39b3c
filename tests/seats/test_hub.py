"""The GM's app serves seats on a Unix socket: requests wait for the GM; the boundary holds.

Here the GM's Ctrl+P dialog (its keys) and what needs no app; what the hub does with a
request, and the socket's boundary, are tested without the GM's app in
``tests/seats/test_hub_socket.py``."""

from __future__ import annotations

import pytest

from tests.seats.helpers import by_name, gm_app, seat_token, start_fight, started
from tui.bridge.public import SECRET_NAME


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


def test_no_seats_folder_where_it_cannot_be_made(tmp_path, monkeypatch):
    """A data folder kubik may not write: the GM's kubik starts without seats, not a crash."""
    from tui.seats.tokens import seats_dir_or_none

    blocked = tmp_path / "data"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert seats_dir_or_none() is None
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "ok"))
    assert seats_dir_or_none() == tmp_path / "ok" / "kubik" / "seats"


async def test_the_gms_dialog_keys_decide_the_requests(folder, campaign_path):
    """Ctrl+P and its keys, each in turn on one GM's app: Enter accepts; «e» opens the
    request's own text to edit (a play-test: it showed it only as a placeholder, so Enter
    alone said «Поле не может быть пустым») and accepts the edit; «w» accepts the kind from
    now on; a request that cannot apply now stays with its reason shown in the dialog; «r»
    refuses with the reason typed; «k» revokes the seat's key named.

    Keeps the screen part of the pilot tests, whose logic moved down:
    ``tests/seats/test_hub.py::test_always_accept_a_kind_and_edit_before_accepting``,
    ``…::test_the_gms_edit_starts_from_the_request_and_accepts_it_unchanged``,
    ``…::test_two_seats_declare_and_the_gm_only_approves`` (Enter) —
    ``tests/seats/test_hub_socket.py``;
    ``tests/seats/test_seat_fate.py::test_fate_outside_the_dice_stays_pending_with_the_reason``
    (the reason in the dialog) — ``tests/seats/test_fate_requests.py``;
    ``tests/seats/test_seat_pilot.py::test_a_refusal_reaches_the_seat_with_the_gms_reason``
    (the GM's «r») — ``tests/seats/test_seat_pilot.py``;
    ``tests/seats/test_keys.py::test_the_gm_makes_a_new_key_and_the_old_one_opens_nothing``
    (the GM's «k») — ``tests/seats/test_keys_socket.py``. The reason of «r» and the name of
    «k» are put in their fields at once (they were typed key by key: 23 keys whose typing is
    not what this test checks; the field's keys are Textual's Input's)."""
    from tests.seats.headless_gm import Lines
    from tui.seats import protocol as proto
    from tui.seats.tokens import read_keys, seats_dir

    app = gm_app(folder, campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hub = await started(pilot, app)
        store = app.store
        me = by_name(store, "Милава")
        bogdan = by_name(store, "Богдан Сыч")
        seat_token(folder, campaign_path, bogdan.name)  # Богдан has a key

        async def send(rid: str, kind: str, payload: dict) -> None:
            request = proto.Request(rid, kind, me.id, payload)
            line = proto.encode({"v": 1, "type": "request", **request.to_dict()})
            await hub._received(me.name, Lines(), line)
            await pilot.pause()

        async def written() -> None:
            await app.services.writes_done()
            await pilot.pause()

        await send("n0", "note", {"text": "раз"})
        await pilot.press("ctrl+p")
        await pilot.press("enter")
        await written()
        assert hub.requests["n0"].status == "accepted", "Enter accepts"
        assert "раз" in store.log(limit=1)[0].text, "Enter accepts the request as sent"

        await send("b1", "note", {"text": "ищу следы"})
        await pilot.press("e")
        value = app.screen.query_one("#prompt-input").value
        assert value == "ищу следы", "«e» starts from the request's text"
        await pilot.press("enter")
        await written()
        assert hub.requests["b1"].status == "accepted", "Enter in «e» accepts"
        assert "ищу следы" in store.log(limit=1)[0].text, "the edit unchanged is the request"

        await send("a1", "note", {"text": "раз"})
        await pilot.press("e", *"два", "enter")
        await written()
        assert hub.requests["a1"].status == "accepted", "«e» accepts the edit"
        assert store.log(limit=1)[0].text.endswith(": два"), "the edited text is logged"

        await send("a2", "note", {"text": "три"})
        await pilot.press("w")  # «всегда принимать» заметки
        await written()
        assert hub.always == {"note"}, "«w» accepts the kind from now on"
        assert hub.requests["a2"].status == "accepted", "«w» accepts the one under the cursor"

        start_fight(store)  # declarations: Судьба cannot apply now
        await send("f2", "fate", {"use": "before"})
        await pilot.press("enter")
        await written()
        assert hub.requests["f2"].status == "pending", "a request that cannot apply waits"
        shown = str(app.screen.query_one("#requests-log").render())
        assert "не применить" in shown, "the GM reads why in the dialog"

        await pilot.press("r")
        await pilot.pause()
        reason = app.screen.query_one("#prompt-input")  # typed at once: not the subject
        assert reason.value == "", "«r» asks the reason in an empty field"
        reason.value = "не в этот раз"
        await pilot.press("enter")
        await written()
        item = hub.requests["f2"]
        assert (item.status, item.reason) == ("refused", "не в этот раз"), "«r» refuses"

        assert bogdan.id in read_keys(seats_dir(folder), store.path)
        await pilot.press("k")
        await pilot.pause()
        name = app.screen.query_one("#prompt-input")  # typed at once, as «r»'s reason
        assert name.value == "", "«k» offers no seat with no request under the cursor"
        name.value = bogdan.name
        await pilot.press("enter")
        await written()
        assert bogdan.id not in read_keys(seats_dir(folder), store.path), "«k» revokes the key"

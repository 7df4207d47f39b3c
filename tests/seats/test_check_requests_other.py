"""A player's choice about the GM's open Старатели or Древо check (the Проверка tab) APPLIES
when the GM accepts: the engine's own step, one undo step logged under the player; Ctrl+Z puts
the check back and the seat sees it undone, Ctrl+Y brings it again. No open check of that
character, another's, one rolled or closed, or a move the rules refuse: refused with the
reason the seat sees.

On the seats' hub and the table engine, without the GM's app (:mod:`tests.seats.headless_gm`).
The screens' part stays in ``tests/seats/test_seat_check.py``: the seat's panel and its «k»
key, the GM's Ctrl+P asking Risk's price before it accepts.
"""

from __future__ import annotations

import pytest

from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import first_pc
from tui.seats.rules_check import edited


@pytest.fixture
def starately(folder, campaign_path):
    gm = HeadlessGM(folder, campaign_path, system="starately")
    yield gm
    gm.close()


@pytest.fixture
def drevo(folder, campaign_path):
    gm = HeadlessGM(folder, campaign_path, system="drevo")
    yield gm
    gm.close()


def _last(gm):
    """The Старатели main roll that stands (Risk's retry once declared), None before a roll."""
    found = gm.table.view().rolled
    return found.last if found is not None else None


def _failed_check(gm, me):
    """Open Старатели's check for ``me`` at Подвиг 12+ without a skill, and fail it."""
    from tui.systems.starately.check import steps

    gm.open_check(me.id)
    gm.step(steps.set_input, "skill", "")
    gm.step(steps.set_input, "difficulty", 12)
    assert gm.step(steps.roll).ok
    assert _last(gm) is not None and not _last(gm).success


def test_risk_from_a_seat_waits_for_the_price_then_rolls_again_as_one_undo_step(starately):
    """«…после провала игрок может заявить Риск и перебросить… Вне зависимости от результата
    этой повторной проверки игрок заплатит за это…»: the GM names the price, then the retry.

    Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_risk_from_a_seat_waits_for_the_price_then_rolls_again_as_one_undo_step``
    (its screen part — Enter in Ctrl+P asks the price first — stays there).
    """
    gm = starately
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    _failed_check(gm, me)
    first = _last(gm)
    offer = gm.offer(me.name)
    assert "risk" in offer["kinds"]
    assert offer["character"] == me.id and offer["stage"] == "rolled"
    k1 = gm.send(me, "k1", "risk", {"check": offer["id"]})
    hub.accept("k1")  # without a price: it waits for the GM's part
    assert k1.status == "pending" and gm.shown(me.name, "k1")["status"] == "pending"
    assert "Цену Риска назначает ведущий" in gm.shown(me.name, "k1")["reason"]
    assert _last(gm) == first and len(store.log()) == 1
    hub.accept("k1", edited(k1.request, "кобура"))  # what Ctrl+P's price prompt accepts
    assert gm.status(me, "k1") == "accepted"
    entry = store.log(limit=1)[0]
    assert entry.actor == me.name and entry.text.startswith(f"Заявка игрока {me.name}: Риск")
    assert entry.data["kind"] == "risk" and entry.data["price"] == "кобура"
    assert entry.data["first"] == first.to_dict()  # the failed check, as it was rolled
    assert entry.data["request"] == "k1"
    retry = _last(gm)
    assert retry.risk and gm.table.view().risk_refusal() is not None  # Risk once
    gm.undo()  # one step back: the retry and its line
    assert gm.status(me, "k1") == "undone"
    assert _last(gm) == first and store.log(limit=1)[0].undone
    assert "risk" in gm.table.offer().kinds
    gm.redo()  # the same retry again, never a new roll
    assert gm.status(me, "k1") == "accepted"
    assert _last(gm) == retry


def test_risk_is_refused_without_an_open_check_on_another_and_on_a_closed_one(starately):
    """Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_risk_is_refused_without_an_open_check_on_another_and_on_a_closed_one``."""
    from tui.systems.starately.check import steps

    gm = starately
    store = gm.store
    me = first_pc(store)
    other = next(c for c in store.characters() if c.kind == "pc" and c.id != me.id)
    n1 = gm.send(me, "n1", "risk", {})
    assert n1.status == "refused" and "нет открытой проверки" in n1.reason
    _failed_check(gm, me)
    offer = gm.offer(me.name)
    assert "risk" in offer["kinds"]
    old = offer["id"]
    assert gm.step(steps.new_check).ok  # «n», Enter: the GM rolls a new check — the old
    assert gm.step(steps.roll).ok  # one is closed
    n2 = gm.send(me, "n2", "risk", {"check": old})
    assert n2.status == "refused" and "закрыта" in n2.reason
    gm.open_check(other.id)  # another character's check
    n3 = gm.send(me, "n3", "risk", {})
    assert n3.status == "refused" and "другого персонажа" in n3.reason
    assert not store.get_doc("seat_requests")  # nothing was written


def test_risk_after_a_success_is_refused_with_the_rules_reason(starately):
    """«…после провала…»: a check that succeeded offers no Risk, and a request for it says why.

    Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_risk_after_a_success_is_refused_with_the_rules_reason``.
    """
    from tui.systems.starately.check import steps

    gm = starately
    me = first_pc(gm.store)
    gm.open_check(me.id)
    gm.step(steps.set_input, "difficulty", 6)  # Легко 6+
    for _ in range(5):
        assert gm.step(steps.roll).ok
        if _last(gm).success:
            break
    assert _last(gm).success
    s1 = gm.send(me, "s1", "risk", {})
    assert s1.status == "refused" and "только после провала" in s1.reason


def test_fate_before_a_check_is_declared_from_a_seat_and_undone_as_one_step(drevo):
    """«Судьба… (1) объявленная перед односторонней проверкой: автоматический критический
    успех»: accepted, the GM's open check counts it; Ctrl+Z takes the declaration back.

    Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_fate_before_a_check_is_declared_from_a_seat_and_undone_as_one_step``
    (the GM's Enter in Ctrl+P accepting is kept by ``tests/seats/test_hub.py``'s dialog test).
    """
    from tui.systems.drevo.check import steps

    gm = drevo
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    table = gm.open_check(me.id)
    offer = gm.offer(me.name)
    assert offer["character"] == me.id
    assert offer["stage"] == "before" and offer["kinds"] == ["fate"]
    payload = {"use": "before", "check": offer["id"]}
    gm.send(me, "d1", "fate", payload)
    hub.accept("d1")
    assert gm.status(me, "d1") == "accepted"
    assert table.state.inputs.fate_auto and table.view().check.fate_auto
    assert store.character(me.id).drevo.fate == me.drevo.fate  # paid when the dice are rolled
    entry = store.log(limit=1)[0]
    assert entry.actor == me.name and "автоматический критический успех" in entry.text
    assert f"Заявка игрока {me.name}" in entry.text
    gm.undo()
    assert gm.status(me, "d1") == "undone"
    assert not table.state.inputs.fate_auto
    gm.redo()
    assert table.state.inputs.fate_auto
    assert gm.step(steps.roll).ok  # the GM rolls: the declared point is paid, a critical success
    assert table.view().result.outcome == "crit_success"
    assert store.character(me.id).drevo.fate == me.drevo.fate - 1
    d2 = gm.send(me, "d2", "fate", payload)  # too late for the check it named
    assert d2.status == "refused" and "уже брошена" in d2.reason


def test_fate_shift_after_a_check_applies_the_points_and_undoes(drevo):
    """«(2) после броска: ±1 за очко»: the seat names the points; one undo step with the sheet.

    Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_fate_shift_after_a_check_applies_the_points_and_undoes``.
    """
    from tui.systems.drevo.check import steps

    gm = drevo
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    table = gm.open_check(me.id)
    assert gm.step(steps.roll).ok
    rolled = table.view().result
    offer = gm.offer(me.name)
    assert offer["stage"] == "rolled"
    check = offer["id"]
    p0 = gm.send(me, "p0", "fate", {"use": "shift", "points": 3, "check": check})
    if me.drevo.fate < 3:  # the rules' reason, at once
        assert p0.status == "refused" and p0.reason
    gm.send(me, "p1", "fate", {"use": "shift", "points": -1, "check": check})
    hub.accept("p1")
    assert gm.status(me, "p1") == "accepted"
    assert table.view().result.fate_shift == -1 and table.view().result.dice == rolled.dice
    assert store.character(me.id).drevo.fate == me.drevo.fate - 1
    assert store.log(limit=1)[0].data["request"] == "p1"
    gm.undo()
    assert table.view().result == rolled and store.character(me.id).drevo.fate == me.drevo.fate
    assert gm.status(me, "p1") == "undone"


def test_a_step_that_breaks_refuses_the_request_and_writes_nothing(starately, monkeypatch):
    """Whatever goes wrong inside the engine's step, the request is decided (refused with a
    reason), never left half-written, and the campaign is unchanged.

    Replaces the pilot test
    ``tests/seats/test_seat_check.py::test_a_step_that_breaks_refuses_the_request_and_writes_nothing``.
    """
    gm = starately
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    _failed_check(gm, me)
    payload = {"price": "фонарь", "check": gm.table.offer_id()}
    z1 = gm.send(me, "z1", "risk", payload)
    assert z1.status == "pending"

    def broken(*_args):
        raise KeyError("price")

    monkeypatch.setattr(gm.table.engine, "seat_step", broken)
    lines = len(store.log())
    hub.accept("z1")
    assert z1.status == "refused" and "не применить" in z1.reason
    assert len(store.log()) == lines and not store.get_doc("seat_requests")

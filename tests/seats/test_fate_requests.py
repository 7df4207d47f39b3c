"""An accepted Судьба request APPLIES in the fight (the Бой tab's own Судьба step, the fight
engine's), as one undo step logged under the player; one that cannot apply now stays pending
with the reason.

On the seats' hub and the fight engine, without the GM's app (:mod:`tests.seats.headless_gm`).
The seat's «p» stays a pilot test in ``tests/seats/test_seat_fate.py``; the GM's Ctrl+P (Enter
accepts, the reason shown in the dialog) in ``tests/seats/test_hub.py``.
"""

from __future__ import annotations

import pytest

from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import by_name, start_fight
from tui.seats.protocol import Request
from tui.seats.rules_check import edited


@pytest.fixture
def gm(folder, campaign_path):
    gm = HeadlessGM(folder, campaign_path)
    yield gm
    gm.close()


def to_dice(store) -> str:
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


def roll_the_exchange(gm) -> None:
    """The GM's Enter on the Бой tab at the dice: the fight engine's roll, one undo step."""
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.session import FightSession
    from tui.table.core import Dice

    outcome = FightSession(gm.store, Dice(gm.services.rng), gm.services.entry).run(steps.roll)
    assert outcome.ok, outcome.refused


def exchange(store) -> dict:
    return store.get_doc("encounter").get("exchange") or {}


def test_fate_before_the_roll_applies_in_the_exchange_and_undoes_as_one_step(gm):
    """Replaces the pilot test
    ``tests/seats/test_seat_fate.py::test_fate_before_the_roll_applies_in_the_exchange_and_undoes_as_one_step``."""
    store, hub = gm.store, gm.hub
    me = store.character(to_dice(store))
    gm.receive_now(me.name, Request("f1", "fate", me.id, {"use": "before"}))
    assert not exchange(store).get("fate_before")  # nothing before the GM accepts
    hub.accept("f1")
    shown = gm.shown(me.name, "f1")
    assert shown["status"] == "accepted"
    assert exchange(store)["fate_before"] == ["attacker"]
    assert store.character(me.id).drevo.fate == me.drevo.fate - 1
    assert not store.get_doc("seat_requests")  # applied, not just recorded
    entry = store.log(limit=1)[0]
    assert entry.actor == me.name and f"игрока {me.name}" in entry.text
    assert "+4 без броска" in entry.text
    state = hub._state(me.name)["state"]
    assert "+4 без броска" in str(state["log"])
    assert state["mine"][0]["fate"] == me.drevo.fate - 1  # the seat sees what changed
    assert shown["text"] == "Судьба: +4 к броску (до броска)"
    gm.undo()  # one step back: the Судьба and its line
    assert gm.shown(me.name, "f1")["status"] == "undone"
    assert not exchange(store).get("fate_before")
    assert store.character(me.id).drevo.fate == me.drevo.fate


def test_fate_outside_the_dice_stays_pending_with_the_reason(gm):
    """The declarations are still going: accepting says why and writes nothing.

    Replaces the pilot test
    ``tests/seats/test_seat_fate.py::test_fate_outside_the_dice_stays_pending_with_the_reason``
    (the reason shown in the GM's dialog: ``tests/seats/test_hub.py``'s dialog test)."""
    store, hub = gm.store, gm.hub
    start_fight(store)
    me = by_name(store, "Милава")
    gm.receive_now(me.name, Request("f2", "fate", me.id, {"use": "before"}))
    before = (store.get_doc("encounter"), store.character(me.id).drevo.fate, len(store.log()))
    hub.accept("f2")
    shown = gm.shown(me.name, "f2")
    assert shown["status"] == "pending"
    assert "не применить" in shown["reason"] and "бросков" in shown["reason"]
    assert [p.request.id for p in hub.pending()] == ["f2"]
    after = (store.get_doc("encounter"), store.character(me.id).drevo.fate, len(store.log()))
    assert after == before
    assert not store.get_doc("seat_requests")
    assert "не применить" in hub.log[-1]  # the GM's log line (the dialog shows it)


def test_fate_in_another_characters_exchange_stays_pending(gm):
    """Replaces the pilot test
    ``tests/seats/test_seat_fate.py::test_fate_in_another_characters_exchange_stays_pending``."""
    store, hub = gm.store, gm.hub
    attacker = to_dice(store)
    other = next(c for c in store.characters() if c.kind == "pc" and c.id != attacker)
    gm.receive_now(other.name, Request("f3", "fate", other.id, {"use": "before"}))
    hub.accept("f3")
    shown = gm.shown(other.name, "f3")
    assert shown["status"] == "pending"
    reason = shown["reason"]  # named, not «его» (Милава plays too)
    assert f"{other.name} не участвует в схватке" in reason and " его " not in reason
    assert not exchange(store).get("fate_before")


def test_fate_after_the_roll_shifts_by_the_points_the_gm_sets(gm):
    """«Судьба ±» needs the points: without them it waits for the GM's «e»; with them it
    shifts the result like the Бой tab's «p».

    Replaces the pilot test
    ``tests/seats/test_seat_fate.py::test_fate_after_the_roll_shifts_by_the_points_the_gm_sets``
    (the GM's «e» typing «+1» hands the hub ``rules_check.edited(request, "+1")``; the dialog's
    «e» is kept by ``tests/seats/test_hub.py``'s dialog test)."""
    store, hub = gm.store, gm.hub
    me = store.character(to_dice(store))
    roll_the_exchange(gm)
    assert exchange(store).get("dice")
    item = gm.receive_now(me.name, Request("f4", "fate", me.id, {"use": "shift"}))
    hub.accept("f4")
    shown = gm.shown(me.name, "f4")
    assert shown["status"] == "pending"
    assert "сколько очков" in shown["reason"]
    hub.accept("f4", edited(item.request, "+1"))
    assert gm.shown(me.name, "f4")["status"] == "accepted"
    assert [s[:2] for s in exchange(store)["shifts"]] == [["attacker", 1]]
    assert store.character(me.id).drevo.fate == me.drevo.fate - 1

"""IDE4™ choices from a player's seat APPLY to the GM's open check when accepted: the expanded
check on demand, energy before and after the roll, a reroll — each the step the GM's key
makes, one undo step logged under the player (Ctrl+Z puts it back and the seat sees it undone,
Ctrl+Y brings it again); what the rules or the check's state refuse is refused with the reason.

On the seats' hub and the table engine, without the GM's app (:mod:`tests.seats.headless_gm`):
what the hub does with a request is not a screen. The seat's own keys stay pilot tests in
``tests/seats/test_seat_ide4.py``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import ide4
from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import first_pc
from tui.systems.ide4.check import steps


@pytest.fixture
def gm(folder, campaign_path):
    gm = HeadlessGM(folder, campaign_path, system="ide4")
    yield gm
    gm.close()


def test_the_expanded_demand_then_energy_before_apply_and_undo_step_by_step(gm):
    """«Игрок может потребовать развёрнутую проверку в любой момент» and «Перед броском: до 10
    кубов в пределах номинала и запаса…»: energy before is a step of the expanded check.

    Replaces the pilot test
    ``tests/seats/test_seat_ide4.py::test_the_expanded_demand_then_energy_before_apply_and_undo_step_by_step``.
    """
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    table = gm.open_check(me.id)
    gm.step(steps.set_input, "level", "standard")
    offer = gm.offer(me.name)
    assert offer["character"] == me.id
    check = offer["id"]
    assert "energy" not in offer["kinds"]  # not before the expanded level
    energy = {"when": "before", "amount": 2, "check": check}
    e0 = gm.send(me, "e0", "energy", energy)
    assert e0.status == "refused" and "шаг развёрнутой проверки" in e0.reason
    gm.send(me, "x1", "expanded", {"check": check})
    hub.accept("x1")
    assert gm.status(me, "x1") == "accepted"
    assert table.state.inputs.player_demand and table.view().level == "expanded"
    line = store.log(limit=1)[0]
    assert line.actor == me.name and "Требует развёрнутую проверку" in line.text
    assert f"Заявка игрока {me.name}" in line.text
    gm.undo()
    assert gm.status(me, "x1") == "undone"
    assert not table.state.inputs.player_demand and table.view().level == "standard"
    gm.redo()
    assert table.state.inputs.player_demand and table.view().level == "expanded"
    gm.send(me, "e1", "energy", energy)
    hub.accept("e1")
    assert gm.status(me, "e1") == "accepted"
    assert table.view().input.energy_dice == 2
    nominal = table.view().input.nominal
    gm.undo()
    assert table.view().input.energy_dice == 0
    assert gm.status(me, "e1") == "undone"
    gm.redo()
    assert table.view().input.energy_dice == 2
    assert gm.step(steps.roll).ok  # the GM rolls: the energy is spent when declared
    assert store.character(me.id).ide4.energy == 100 - 2 * nominal
    assert table.view().check.energy_spent == 2 * nominal
    e2 = gm.send(me, "e2", "energy", energy)
    assert e2.status == "refused" and "уже брошена" in e2.reason


def test_energy_before_beyond_the_nominal_or_the_pool_is_refused_with_the_rules_reason(gm):
    """«…кубы не больше номинала…», «…в пределах номинала и запаса».

    Replaces the pilot test
    ``tests/seats/test_seat_ide4.py::test_energy_before_beyond_the_nominal_or_the_pool_is_refused_with_the_rules_reason``.
    """
    store = gm.store
    me = first_pc(store)
    store.upsert_character(replace(me, extra={**me.extra, "energy": 5}))
    table = gm.open_check(me.id)
    gm.step(steps.set_input, "level", "expanded")
    offer = gm.offer(me.name)
    assert "energy" in offer["kinds"]
    big = {"when": "before", "amount": 10, "die": 20, "check": offer["id"]}
    b1 = gm.send(me, "b1", "energy", big)
    assert b1.status == "refused"
    assert "больше d" in b1.reason and "нельзя" in b1.reason
    poor = {"when": "before", "amount": 2, "check": offer["id"]}
    b2 = gm.send(me, "b2", "energy", poor)
    assert b2.status == "refused"
    assert "Не хватает энергии" in b2.reason and "в запасе 5" in b2.reason
    assert table.view().input.energy_dice == 0


def test_energy_after_and_a_reroll_apply_to_the_rolled_check_and_undo(gm):
    """«После броска (после перебросов): до 3 кубов…» and «Переброс заменяет натуральный
    d100»: the order of the seed holds — no reroll once energy after is spent.

    Replaces the pilot test
    ``tests/seats/test_seat_ide4.py::test_energy_after_and_a_reroll_apply_to_the_rolled_check_and_undo``.
    """
    store, hub = gm.store, gm.hub
    me = first_pc(store)
    table = gm.open_check(me.id)
    assert gm.step(steps.roll).ok
    rolled = table.view().check
    assert rolled.status == "rolled"
    offer = gm.offer(me.name)
    assert offer["stage"] == "rolled"
    check = offer["id"]
    gm.send(me, "r1", "reroll", {"check": check})
    hub.accept("r1")
    assert gm.status(me, "r1") == "accepted"
    rerolled = table.view().check
    assert len(rerolled.rerolls) == 1 and rerolled.before_dice == rolled.before_dice
    assert rerolled.steps[-1].kind == "reroll"
    assert store.log(limit=1)[0].data["request"] == "r1"
    gm.undo()
    assert table.view().check == rolled
    assert gm.status(me, "r1") == "undone"
    gm.redo()
    assert table.view().check == rerolled  # the same die, never a new roll
    pool = store.character(me.id).ide4.energy
    why = ide4.energy_after_refusal(rerolled, 1)
    after = {"when": "after", "amount": 1, "check": check}
    a1 = gm.send(me, "a1", "energy", after)
    if why:  # Триумф or Трагедия: «не применяется»
        assert a1.status == "refused" and a1.reason == why
        return
    hub.accept("a1")
    assert gm.status(me, "a1") == "accepted"
    nominal = rerolled.input.nominal
    assert store.character(me.id).ide4.energy == pool - nominal
    assert table.view().check.after_dice
    r2 = gm.send(me, "r2", "reroll", {"check": check})
    assert r2.status == "refused" and "до энергии после броска" in r2.reason
    gm.undo()  # the energy comes back, the check is as before it
    assert store.character(me.id).ide4.energy == pool
    assert table.view().check == rerolled
    assert gm.status(me, "a1") == "undone"


def test_a_reroll_before_the_roll_and_a_closed_check_are_refused(gm):
    """Replaces the pilot test
    ``tests/seats/test_seat_ide4.py::test_a_reroll_before_the_roll_and_a_closed_check_are_refused``."""
    me = first_pc(gm.store)
    gm.open_check(me.id)
    offer = gm.offer(me.name)
    assert offer["character"] == me.id
    first = offer["id"]
    q1 = gm.send(me, "q1", "reroll", {"check": first})
    assert q1.status == "refused" and "ещё не брошена" in q1.reason
    assert gm.step(steps.roll).ok
    offer = gm.offer(me.name)
    assert offer["stage"] in ("rolled", "done")
    rolled_id = offer["id"]
    assert gm.step(steps.new_check).ok  # the GM starts another check
    offer = gm.offer(me.name)
    assert offer["stage"] == "before" and offer["id"] not in (first, rolled_id)
    q2 = gm.send(me, "q2", "reroll", {"check": rolled_id})
    assert q2.status == "refused" and "закрыта" in q2.reason

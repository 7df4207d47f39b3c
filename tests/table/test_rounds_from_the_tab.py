"""What the round tracker's pilot tests checked of its logic, one level down: the round
tracker (:mod:`tui.table.rounds`) and the bestiary (:mod:`tui.table.bestiary`) driven through
their sessions on a real store, no Textual. Each test names the pilot test it replaces; what
those showed on the screen or did with the keys stays in the pilot test named beside it."""

from __future__ import annotations

import random
from collections import Counter

from tests.table.tracker import table
from tui.table.bestiary import steps as bestiary
from tui.table.bestiary.session import BestiarySession
from tui.table.core import Dice
from tui.table.rounds import steps


def test_an_encounter_loaded_into_the_tracker_fights_a_round_and_leaves_after(tmp_path):
    """«in Бой setup one key lists them … and loads one: the NPCs join with their sides»;
    then initiative and a whole round of turns with them; after the fight, the NPCs the
    encounter brought leave the party (Старатели, «Вражеский катер»).

    Replaces the round fought in the pilot test ``tests/tui/test_bestiary.py::
    test_a_three_template_encounter_loaded_into_the_fight_fights_a_round`` (its keys — `l`,
    the filter, Enter, and `L` — stay there, shrunk to
    ``test_an_encounter_is_loaded_with_l_and_removed_with_shift_l``)."""
    t = table(tmp_path, "starately", seed=4)
    shelf = BestiarySession(t.store, Dice(random.Random(4)))
    e = shelf.read().shelf.bestiary.encounter("Вражеский катер")
    loaded = shelf.run(bestiary.load_encounter, e.name)
    assert loaded.ok, loaded.refused
    brought = [c for c in t.store.characters() if c.from_encounter]
    assert Counter(c.from_template for c in brought) == {g.template: g.count for g in e.groups}
    sides = {x.name: x.side for x in t.tracker.entrants}
    assert all(sides[c.name] == "Противники" for c in brought)
    t.ok(steps.roll_initiative)
    tracker = t.tracker
    assert tracker.round == 1 and set(tracker.order) >= {c.id for c in brought}
    for _ in tracker.order:
        t.ok(steps.next_turn)
    assert t.tracker.round == 2
    refused = shelf.run(bestiary.remove_brought, e.name)
    assert not refused.ok and "после боя" in refused.refused  # while the fight goes on
    t.ok(steps.end)
    removed = shelf.run(bestiary.remove_brought, e.name)
    assert removed.ok, removed.refused
    assert not [c for c in t.store.characters() if c.from_encounter]

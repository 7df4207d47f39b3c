"""A fight step made on what another window has changed since it was read (issue 14: one
truth), one level below the Бой tab: the engine's step written by the same session code the
tab's writer runs (``write`` of :mod:`tui.systems.drevo.fight.session` and
:mod:`tui.table.rounds.session`), as a delta against the documents read. Two stores on one
file are two windows; the first has not seen the second's write (no refresh in between), as
the tab that has not been told yet.

What the tab says when its write is refused stays a pilot test (it was
``TestStaleFight::test_a_fight_step_made_on_what_another_window_changed_is_refused``, now part 5
of tests/tui/test_one_truth.py::TestOneWindow).
"""

from __future__ import annotations

import random

import pytest

from tui.store import StaleWrite, Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.session import FightSession
from tui.systems.drevo.fight.session import write as write_fight
from tui.table.commit import plain_entry
from tui.table.core import Dice
from tui.table.rounds import steps as rounds_steps
from tui.table.rounds.session import read_rounds
from tui.table.rounds.session import write as write_rounds

REFUSED = "изменили то же самое"


def test_a_round_tracker_step_on_another_windows_fight_is_refused(tmp_path) -> None:
    """The round tracker (IDE4 and the others) writes a delta against the fight it read:
    initiative rolled on the setup this window read, after another window put its fight at
    round 3, is refused with «изменили то же самое»; theirs stays whole, the Журнал empty.

    Replaces the pilot test ``tests/tui/test_one_truth.py::TestStaleFight::
    test_a_round_tracker_step_on_another_windows_fight_is_refused`` (the tab's message when
    a write is refused: the Древо pilot test named in the module's docstring, through the
    same pending-write code, tui/widgets/combat/pending.py)."""
    path = tmp_path / "c.json"
    mine = Store.open(path, system="ide4")
    read = read_rounds(mine, Dice(random.Random(5)))
    other = Store.open(path)
    tracker = {"system": "ide4", "entrants": [], "order": [], "rolls": {}}
    other.put_doc("rounds", {**tracker, "round": 3, "turn": 0}, label="x")
    outcome = rounds_steps.roll_initiative(read.tracker, read.world)
    assert outcome.ok, outcome.refused
    with pytest.raises(StaleWrite, match=REFUSED):
        write_rounds(mine, outcome, read)
    stored = Store.open(path)
    assert stored.get_doc("rounds")["round"] == 3
    assert stored.log() == []


def test_a_fight_step_made_on_another_windows_fight_is_refused(tmp_path) -> None:
    """The Древо fight writes a delta against the fight it read: initiative rolled on the
    setup this window read, after another window put its fight at round 2, is refused;
    theirs stays whole and the refused roll is not in the Журнал.

    The engine's side of the pilot test ``tests/tui/test_one_truth.py::TestStaleFight::
    test_a_fight_step_made_on_what_another_window_changed_is_refused``, whose screen part
    (what the tab says) stays in ``TestOneWindow`` there."""
    path = tmp_path / "c.json"
    mine = Store.open(path, system="drevo")
    stored, enc, world = FightSession(mine, Dice(random.Random(5))).read()
    other = Store.open(path)
    theirs = {**enc.to_dict(), "round": 2, "phase": "declare"}
    other.put_doc("encounter", theirs | {"order": ["Отряд", "Противники"]}, label="x")
    outcome = steps.roll_initiative(enc, world)
    assert outcome.ok, outcome.refused
    with pytest.raises(StaleWrite, match=REFUSED):
        write_fight(mine, outcome, stored, plain_entry)
    again = Store.open(path)
    assert again.get_doc("encounter")["round"] == 2
    assert again.log() == []


def test_a_fight_step_keeps_what_another_window_changed_elsewhere(tmp_path) -> None:
    """A change elsewhere (the scene clock in another window) does not refuse the fight's
    step, and the step does not write it back: both stay.

    Replaces the pilot test ``tests/tui/test_one_truth.py::TestStaleFight::
    test_a_fight_step_keeps_what_another_window_changed_elsewhere``."""
    path = tmp_path / "c.json"
    mine = Store.open(path, system="drevo")
    stored, enc, world = FightSession(mine, Dice(random.Random(5))).read()
    Store.open(path).put_doc("effects", {"minute": 5, "effects": []}, label="Время сцены")
    outcome = steps.roll_initiative(enc, world)
    assert outcome.ok, outcome.refused
    write_fight(mine, outcome, stored, plain_entry)
    again = Store.open(path)
    assert again.get_doc("encounter")["phase"] == "declare"
    assert again.get_doc("effects")["minute"] == 5

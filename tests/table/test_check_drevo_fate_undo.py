"""Судьба spent after a Древо roll, undone and redone, through the engine alone (issue 14):
each point is one undo step with its Журнал line; Ctrl+Z takes the shift and the point back
and marks the line «отменено», Ctrl+Y re-applies the same shift to the same dice. Which key
spends a point and what the tab shows: tests/tui/test_builder_undo.py."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tests.hypo import examples
from tests.table.check_helpers import ok, table
from tui.present.markup import plain_text
from tui.store import Store
from tui.systems.drevo.check import steps
from tui.systems.drevo.undo import exchange_group

#: The keys of the Проверка tab (tui/systems/drevo/builder/builder.py): «+» and «−».
POINTS = {"plus": 1, "minus": -1}


def undo(t) -> str | None:
    """Ctrl+Z as the app makes it (the system's undo group)."""
    label = t.store.undo(together=exchange_group)
    t.follow()
    return label


def redo(t) -> str | None:
    label = t.store.redo(together=exchange_group)
    t.follow()
    return label


def fate(store: Store, name: str) -> int:
    return next(c for c in store.characters() if c.name == name).drevo.fate


def shown(t) -> str:
    """The result area as the tab shows it (its markup read)."""
    return plain_text("\n".join(t.view().result_lines()))


def test_the_undone_shift_is_marked_in_the_log(tmp_path):
    """Two points, Ctrl+Z: the check keeps one, the newer line is «отменено»; a point spent
    after an undo is one point and one shift. Replaces the pilot test
    `tests/tui/test_builder_undo.py::TestDrevoFateAfterTheRoll::
    test_the_undone_shift_is_marked_in_the_log` and the end of
    `…::test_undo_takes_the_shift_back_and_redo_reapplies_it` (its keys stay there)."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    t = table(store, seed=7)
    ok(t, steps.roll)
    name = t.view().character.name
    start = fate(store, name)
    ok(t, steps.fate_shift, 1)
    ok(t, steps.fate_shift, 1)
    undo(t)
    assert t.view().result.fate_shift == 1 and fate(store, name) == start - 1
    assert [e.undone for e in store.log() if e.text.startswith("Судьба")] == [True, False]
    undo(t)
    ok(t, steps.fate_shift, 1)  # again after the undo: one point, one shift
    assert fate(store, name) == start - 1 and t.view().result.fate_shift == 1
    shifts = [e for e in store.log() if e.text.startswith("Судьба +1")]
    assert [e.undone for e in shifts] == [False, True, True]


class DrevoFateMachine(RuleBasedStateMachine):
    """One rolled Древо check; Судьба spent after the roll, undone and redone in any order.
    Invariant: the check's shift equals the points the sheet has paid since the roll, and a
    redo never rolls new dice. Replaces the pilot machine
    `tests/tui/test_builder_undo.py::TestDrevoFateMachine` (the same rules and invariants,
    the shown result read from the view the tab draws; the keys: that file's
    `TestDrevoFateAfterTheRoll`)."""

    def __init__(self) -> None:
        super().__init__()
        path = Path(tempfile.mkdtemp(prefix="fate-")) / "c.json"
        self.store = Store.open(path, system="drevo")
        self.t = table(self.store, seed=7)
        ok(self.t, steps.roll)  # the first character, as «3» Enter rolls it
        self.name = self.t.view().character.name
        self.start = fate(self.store, self.name)
        self.dice = self.t.view().result.dice

    def teardown(self) -> None:
        self.store.close()

    def _shift(self, points: int) -> None:
        before = (self.store.depth, len(self.store.log()))
        outcome = self.t.run(steps.fate_shift, points)
        if not outcome.ok:  # no roll (undone), or no Судьба left: nothing written
            assert outcome.refused.strip()
            assert (self.store.depth, len(self.store.log())) == before

    @initialize()
    def first_point(self) -> None:
        self._shift(POINTS["plus"])

    @rule(key=st.sampled_from(sorted(POINTS)))
    def spend(self, key: str) -> None:
        self._shift(POINTS[key])

    @rule()
    def undo(self) -> None:
        undo(self.t)

    @rule()
    def redo(self) -> None:
        redo(self.t)

    @rule()
    def roll(self) -> None:
        """Enter: the roll again once it was undone (on a rolled check it is a new check)."""
        if self.t.state.rolled is None:
            ok(self.t, steps.roll)

    @invariant()
    def the_shift_is_what_the_sheet_paid(self) -> None:
        result = self.t.view().result
        standing = [
            e.text for e in self.store.log() if e.text.startswith("Судьба") and not e.undone
        ]
        assert self.start - fate(self.store, self.name) == len(standing)  # a point per step
        if result is None:  # the roll itself undone (it is an undo step): the form again
            assert standing == []
            return
        assert result.dice == self.dice  # never rerolled, not even after its undo
        assert result.fate_shift == sum(1 if t.startswith("Судьба +") else -1 for t in standing)
        assert ("Судьба:" in shown(self.t)) == (result.fate_shift != 0)


DrevoFateMachine.TestCase.settings = settings(
    max_examples=examples(8),
    stateful_step_count=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestDrevoFateMachine = DrevoFateMachine.TestCase

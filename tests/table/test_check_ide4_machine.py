"""An open IDE4™ check played as a table plays it, through the engine alone: any choice of the
form in any order, the roll, every move, undo, redo, a sheet edited in another window, a
restart (a new session on the file) — against the store. No Textual."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rules import ide4
from tests.hypo import examples
from tests.table.check_helpers import GmChecks, table
from tui.store import Store
from tui.systems.ide4.check import opposed as opp
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.state import Ide4Check, Opposed, replay
from tui.systems.ide4.check.view import view

CHOICES = {
    "level": st.sampled_from(ide4.LEVELS),
    "action": st.sampled_from(["", *ide4.actions()]),
    "base": st.integers(0, 8),
    "mods": st.sampled_from(["", "+1 темнота", "-2 подготовка", "+1 темнота, -1 инструменты"]),
    "hidden": st.booleans(),
    "reason": st.sampled_from(["", "стена"]),
    "special": st.sampled_from(["", "ключ от двери"]),
    "open": st.integers(1, 7),
    "die": st.sampled_from([0, 4, 6, 8, 12, 20]),
    "energy": st.integers(0, 4),
    "help": st.sampled_from(["", *ide4.HELP_KINDS]),
}


class CheckMachine(RuleBasedStateMachine):
    """Rules are what a GM (or another window) may do in any order; invariants are what must
    never happen."""

    def __init__(self) -> None:
        super().__init__()
        self.path = Path(tempfile.mkdtemp(prefix="kubik-check-")) / "c.json"
        self.store = Store.open(self.path, system="ide4")
        self.t = table(self.store, seed=3)
        self.picks = random.Random(0)
        self.dice: dict[str, tuple] = {}  # check id → the d100 and energy dice it rolled
        self.gm = GmChecks(self.t.state.id)

    def teardown(self) -> None:
        self.store.close()

    def _step(self, step, *args, new: bool = False):
        """Make ``step`` (``new``: one the GM makes to start a new check) and return it."""
        before = (self.store.get_doc("check"), self.store.depth, len(self.store.log()))
        outcome = self.t.run(step, *args)
        event(f"{step.__name__}: {'ok' if outcome.ok else 'refused'}")
        if not outcome.ok:
            assert outcome.refused.strip(), "a refusal without a reason"
            after = (self.store.get_doc("check"), self.store.depth, len(self.store.log()))
            assert after == before, f"a refused {step.__name__} wrote something"
        self.gm.follow(self.t.state.id, new=new)
        return outcome

    @initialize(level=st.sampled_from(ide4.LEVELS), roll=st.booleans())
    def start(self, level: str, roll: bool) -> None:
        """Half the tables start with a rolled check (the moves are what matters most)."""
        self._step(steps.set_input, "level", level)
        if roll:
            self._step(steps.roll)

    @rule(data=st.data())
    def choose(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(CHOICES)))
        self._step(steps.set_input, name, data.draw(CHOICES[name]))

    @rule(data=st.data())
    def character(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.store.characters()))
        self._step(steps.set_input, "character", c.id, new=True)

    @rule(data=st.data())
    def skill(self, data: st.DataObject) -> None:
        c = self.t.view().character
        if c is not None:
            names = ["", *(s.name for s in c.skills)]
            self._step(steps.set_input, "skill", data.draw(st.sampled_from(names)))

    @rule()
    def roll(self) -> None:
        """Enter in the form: refused on a rolled check (its Enter then concludes)."""
        rolled = self.t.state.rolled is not None
        outcome = self._step(steps.roll)
        assert not (rolled and outcome.ok), "a rolled check rolled again"

    @rule(
        move=st.sampled_from(["reroll", "energy_after", "bonus", "subroll", "level", "demand"]),
        data=st.data(),
    )
    def move(self, move: str, data: st.DataObject) -> None:
        if move == "reroll":
            self._step(steps.reroll, data.draw(st.sampled_from(list(ide4.REROLL_SOURCES))))
        elif move == "energy_after":
            self._step(steps.energy_after, data.draw(st.integers(1, 3)), 0)
        elif move == "bonus":
            self._step(steps.bonus, data.draw(st.sampled_from(["reroll", *ide4.AFTER_BONUSES])))
        elif move == "subroll":
            self._step(steps.subroll)
        elif move == "level":
            self._step(steps.set_level, data.draw(st.sampled_from(ide4.LEVELS)))
        else:
            self._step(steps.demand_expanded)

    @rule()
    def conclude(self) -> None:
        self._step(steps.conclude, "смысл", "последствие")

    @rule()
    def new_check(self) -> None:
        self._step(steps.new_check, new=True)

    # -- an opposed check on the form --------------------------------------------------------

    @rule(data=st.data())
    def open_opposed(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.store.characters()))
        self._step(opp.open_opposed, c.id)

    @rule(data=st.data())
    def choose_second_side(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(["character", "skill", "action", "base", "die", "energy"]))
        if name == "character":
            value = data.draw(st.sampled_from(self.store.characters())).id
        elif name == "skill":
            value = data.draw(st.sampled_from(["", "Переговоры", "Взлом", "Рукопашный бой"]))
        else:
            value = data.draw(CHOICES[name])
        self._step(opp.set_opposed, name, value)

    @rule(data=st.data())
    def roll_opposed(self, data: st.DataObject) -> None:
        if self.t.state.opposed is None:  # most tables open it and roll at once
            self._step(opp.open_opposed, data.draw(st.sampled_from(self.store.characters())).id)
        self._step(opp.roll_opposed)

    @rule(
        key=st.sampled_from("ab"),
        kind=st.sampled_from(opp.MOVES),
        source=st.sampled_from(["food", "calm", "skill", "soften", "triumph", "1x4", "2x6"]),
    )
    def opposed_move(self, key: str, kind: str, source: str) -> None:
        self._step(opp.opposed_move, key, kind, source)

    @rule(resolution=st.sampled_from(["", "status_quo", "price"]))
    def conclude_opposed(self, resolution: str) -> None:
        self._step(opp.conclude_opposed, resolution, "время")

    @rule()
    def cancel_opposed(self) -> None:
        self._step(opp.cancel_opposed)

    @rule()
    def undo(self) -> None:
        self.store.undo()
        self.t.follow()
        self.gm.follow(self.t.state.id)

    @rule()
    def redo(self) -> None:
        self.store.redo()
        self.t.follow()
        self.gm.follow(self.t.state.id)

    @rule(energy=st.integers(0, 100))
    def another_window_sets_energy(self, energy: int) -> None:
        c = self.picks.choice(self.store.characters())
        self.store.upsert_character(replace(c, extra={**c.extra, "energy": energy}))
        self.t.follow()

    @rule()
    def restart(self) -> None:
        """kubik quits (or is killed) and starts again on the file: a rolled, open check is
        the one it left."""
        before = self.t.state
        self.store.close()
        self.store = Store.open(self.path)
        self.t = table(self.store, seed=self.picks.randrange(1000))
        self.gm.follow(self.t.state.id, new=True)  # the form in memory is gone with kubik
        open_ = before.phase == "result" or before.opposed_open
        if open_ and self.store.get_doc("check") == before.to_doc():
            assert self.t.state == before

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def the_screen_is_a_fresh_check_of_its_inputs(self) -> None:
        """What is shown is derived: the same inputs in a check with no history show the
        same rows, inputs, difficulty and status."""
        state = self.t.state
        if state.rolled is not None:
            return
        shown = self.t.view()
        fresh = view(Ide4Check(inputs=state.inputs), self.t.world())
        assert {k: (r.options, r.value, r.shown) for k, r in shown.rows.items()} == {
            k: (r.options, r.value, r.shown) for k, r in fresh.rows.items()
        }
        assert (shown.input, shown.difficulty, shown.status_lines()) == (
            fresh.input,
            fresh.difficulty,
            fresh.status_lines(),
        )
        for name, row in shown.rows.items():  # never a value the options do not hold
            if row.options:
                assert row.value in [v for _, v in row.options], name

    @invariant()
    def a_rolled_check_is_what_the_store_has_and_its_dice_never_change(self) -> None:
        state = self.t.state
        if state.rolled is None:
            return
        assert self.store.get_doc("check") == state.to_doc()
        check = replay(state.rolled)
        dice = (state.rolled.natural, state.rolled.energy)
        assert self.dice.setdefault(state.id, dice) == dice  # rolled again after an undo: same
        # whatever came between (Enter again, Ctrl+Z, Ctrl+Y), one check has one d100
        self.gm.rolled(state.id, "", ((state.rolled.natural,),) if state.rolled.natural else ())
        shown = self.t.view().check  # the pool may follow the sheet; the dice never change
        assert [(s.kind, s.dice) for s in shown.steps] == [(s.kind, s.dice) for s in check.steps]

    @invariant()
    def an_opposed_second_side_is_derived_and_never_the_first(self) -> None:
        """The second side shown is a fresh one of its inputs; nobody opposes himself."""
        state = self.t.state
        if state.opposed is None or state.opposed.rolled:
            return
        world = self.t.world()
        shown = opp.opposed_view(state, world)
        fresh = replace(state, opposed=Opposed(inputs=state.opposed.inputs))
        again = opp.opposed_view(fresh, world)
        assert shown.rows() == again.rows() and shown.second == again.second
        assert shown.odds() == again.odds()
        first = self.t.view().character
        if first is not None and shown.side.character is not None:
            assert shown.side.character.id != first.id
            assert first.id not in [v for _, v in shown.rows()["character"][0]]

    @invariant()
    def a_rolled_opposed_check_is_the_stores_and_its_dice_never_change(self) -> None:
        state = self.t.state
        o = state.opposed
        if o is None or not o.rolled:
            return
        if state.opposed_open:
            assert self.store.get_doc("check") == state.to_doc()
        dice = tuple((r.natural, r.energy) for r in (o.a, o.b))
        had = self.dice.setdefault(o.id, dice)  # rolled again after an undo: the same d100s,
        for (d100, energy), (was, spent) in zip(dice, had, strict=True):  # the same energy
            assert d100 == was and (energy == spent or len(energy) != len(spent))  # dice
        shown = opp.opposed_view(state, self.t.world())
        for key, record in (("a", o.a), ("b", o.b)):
            steps_ = [(s.kind, s.dice) for s in shown.checks[key].steps]
            assert steps_ == [(s.kind, s.dice) for s in replay(record).steps]

    @invariant()
    def the_sheet_has_paid_what_the_check_spent(self) -> None:
        state = self.t.state
        if state.rolled is None:
            return
        c = self.store.character(state.rolled.character)
        if c is not None:
            assert int(c.ide4.energy) == self.t.view().check.pool_after


CheckMachine.TestCase.settings = settings(
    max_examples=examples(12),
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestCheckMachine = CheckMachine.TestCase

"""The open check of Старатели, Мир Тьмы and Древо played in any order through the engine alone
(IDE4's: test_check_ide4_machine.py): any row changed, rolls, their moves (Risk, an extended
action's rolls, Судьба), undo, redo, a sheet edited in another window, a restart — against the
store. Invariants: a rolled check is the store's; its dice never change (rolled again after an
undo, the same dice); no check the GM makes is rolled with two sets of dice, whatever keys
(Enter again, Ctrl+Z, Ctrl+Y, Судьба, «n») come between; what is shown is a fresh check of the
same inputs."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rules.drevo.sheet import DrevoSheet
from tests.hypo import examples
from tests.table.check_helpers import GmChecks, table
from tui.store import Store
from tui.systems.drevo.check import steps as drevo_steps
from tui.systems.starately.check import other as starately_other
from tui.systems.starately.check import steps as starately_steps
from tui.systems.wod.check import contest as wod_contest
from tui.systems.wod.check import steps as wod_steps


class Machine(RuleBasedStateMachine):
    """What every system shares; a subclass names its system, rows and moves."""

    SYSTEM = ""

    def __init__(self) -> None:
        super().__init__()
        self.path = Path(tempfile.mkdtemp(prefix=f"kubik-{self.SYSTEM}-")) / "c.json"
        self.store = Store.open(self.path, system=self.SYSTEM)
        self.t = table(self.store, seed=5)
        self.picks = random.Random(0)
        self.dice: dict[str, object] = {}
        self.gm = GmChecks(self.t.state.id)

    def teardown(self) -> None:
        self.store.close()

    def _step(self, step, *args, new: bool = False):
        """Make ``step`` (``new``: one the GM makes to start a new check) and return it."""
        before = (self.store.get_doc("check"), self.store.depth, len(self.store.log()))
        outcome = self.t.run(step, *args)
        if not outcome.ok:
            assert outcome.refused.strip(), "a refusal without a reason"
            after = (self.store.get_doc("check"), self.store.depth, len(self.store.log()))
            assert after == before, f"a refused {step.__name__} wrote something"
        self.gm.follow(self.t.state.id, new=new)
        return outcome

    def _rolls(self, step, *args, extends: bool = False):
        """A roll of the form (Enter, a dialog's roll or its opening): refused on a rolled
        check — ``extends``: but for Enter during an extended action, its next roll."""
        was = self.t.state
        outcome = self._step(step, *args)
        if was.rolled is not None and not (extends and getattr(was, "extending", False)):
            assert not outcome.ok, f"{step.__name__} on a rolled check: rolled it again"
        return outcome

    @rule(data=st.data())
    def character(self, data: st.DataObject) -> None:
        c = data.draw(st.sampled_from(self.store.characters()))
        self._step(self.steps.set_input, "character", c.id, new=True)

    @rule()
    def new_check(self) -> None:
        """«n»: the next check (the form kept)."""
        self._step(self.steps.new_check, new=True)

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

    @rule()
    def restart(self) -> None:
        before = self.t.state
        self.store.close()
        self.store = Store.open(self.path)
        self.t = table(self.store, seed=self.picks.randrange(1000))
        self.gm.follow(self.t.state.id, new=True)  # the form in memory is gone with kubik
        if before.rolled is not None and self.store.get_doc("check") == before.to_doc():
            for dialog in ("other", "opponent"):  # a dialog's choices are the form's: memory
                if hasattr(before, dialog):
                    before = replace(before, **{dialog: None})
            assert self.t.state == before

    @invariant()
    def a_rolled_check_is_the_stores_and_its_dice_never_change(self) -> None:
        state = self.t.state
        if state.rolled is None:
            return
        doc = self.store.get_doc("check")
        if doc is not None and doc.get("id") == state.id:  # the form may be the next check's
            assert doc["rolled"] == state.to_doc()["rolled"] or not self.written_every_change
        first = self.first_dice(state.rolled)
        if first:  # the same check rolled the same way: the same dice (another procedure on
            # a form whose roll was undone — an extended action, a contest — rolls its own)
            had = self.dice.setdefault((state.id, getattr(state.rolled, "kind", "")), first)
            assert all(a[: len(b)] == b[: len(a)] for a, b in zip(had, first, strict=False))

    @invariant()
    def no_check_is_rolled_with_two_sets_of_dice(self) -> None:
        """Enter again, Ctrl+Z, Ctrl+Y, Судьба, a dialog's roll: whatever came between, a check
        the GM did not leave («n», a row changed, another character) has one set of dice."""
        state = self.t.state
        if state.rolled is not None:
            kind = getattr(state.rolled, "kind", "")
            self.gm.rolled(state.id, kind, self.first_dice(state.rolled), self.bought(state))

    def bought(self, state) -> bool:
        return False

    @invariant()
    def the_screen_is_a_fresh_check_of_its_inputs(self) -> None:
        state = self.t.state
        shown = self.t.view()
        fresh = type(state)(inputs=state.inputs, rolled=state.rolled)
        again = self.t.engine.view(fresh, self.t.world())
        assert {k: (r.options, r.value) for k, r in shown.rows.items()} == {
            k: (r.options, r.value) for k, r in again.rows.items()
        }
        assert shown.result_lines() == again.result_lines()

    written_every_change = True


class StaratelyMachine(Machine):
    SYSTEM = "starately"
    steps = starately_steps

    def first_dice(self, rolled) -> object:
        return tuple(p.dice for p in rolled.parts)

    @initialize()
    def hard(self) -> None:
        self._step(self.steps.set_input, "difficulty", 12)

    @rule(name=st.sampled_from(["difficulty", "boons", "banes", "mods", "skill"]), data=st.data())
    def choose(self, name: str, data: st.DataObject) -> None:
        values = {
            "difficulty": st.sampled_from([6, 8, 10, 12]),
            "boons": st.integers(0, 2),
            "banes": st.integers(0, 2),
            "mods": st.sampled_from(["", "-2 темнота", "+1"]),
            "skill": st.sampled_from(["", "Стрельба", "Медицина"]),
        }
        self._step(self.steps.set_input, name, data.draw(values[name]), new=True)

    @rule()
    def roll(self) -> None:
        self._rolls(self.steps.roll)

    @rule(price=st.sampled_from(["", "аптечка"]))
    def risk(self, price: str) -> None:
        self._step(self.steps.risk, price)

    @rule(kind=st.sampled_from(starately_other.KINDS), data=st.data(), roll=st.booleans())
    def other_side(self, kind: str, data: st.DataObject, roll: bool) -> None:
        """A chain, a group or an встречный бросок: its dialog opened on anyone, a row
        changed, rolled (or left open: the next rule finds it)."""
        c = data.draw(st.sampled_from(self.store.characters()))
        self._rolls(starately_other.open_other, kind, c.id)
        if self.t.state.other is not None:
            name = data.draw(st.sampled_from(["character", "skill", "boons", "characteristic"]))
            values = {
                "character": st.sampled_from([x.id for x in self.store.characters()]),
                "skill": st.sampled_from(["", "Стрельба", "Медицина", None]),
                "boons": st.integers(0, 2),
                "characteristic": st.sampled_from(["", "Интеллект", "Сила"]),
            }
            self._step(starately_other.set_other, name, data.draw(values[name]))
        if roll:
            self._rolls(starately_other.roll_other)

    @invariant()
    def the_other_side_is_a_fresh_one_and_never_oneself(self) -> None:
        state = self.t.state
        if state.other is None:
            return
        world = self.t.world()
        shown = starately_other.other_view(state, world)
        again = starately_other.other_view(replace(state, other=state.other), world)
        assert shown.rows == again.rows and shown.side == again.side
        me = self.t.view().character
        if me is not None:
            assert me.id not in [v for _, v in shown.rows.get("character", ((), None))[0]]
            assert me.id not in [cid for _, cid, _ in shown.helpers]
            assert shown.character is None or shown.character.id != me.id

    @invariant()
    def risk_is_worth_what_the_rules_say(self) -> None:
        shown = self.t.view()
        odds = shown.risk_odds()
        if odds is not None:
            main = shown.rolled.main
            assert odds.better + odds.worse <= 1 and main is not None and not main.success


class WodMachine(Machine):
    SYSTEM = "wod"
    steps = wod_steps

    def first_dice(self, rolled) -> object:
        return tuple(t.faces for t in rolled.throws[:1]) if rolled.kind != "withdrawn" else ()

    @rule(name=st.sampled_from(["mods", "skill", "again", "rote"]), data=st.data())
    def choose(self, name: str, data: st.DataObject) -> None:
        values = {
            "mods": st.sampled_from(["", "-3 рана", "+2"]),
            "skill": st.sampled_from(["", "Драка", "Огнестрельное оружие"]),
            "again": st.sampled_from([10, 9, 8, None]),
            "rote": st.booleans(),
        }
        self._step(self.steps.set_input, name, data.draw(values[name]), new=True)

    @rule()
    def roll(self) -> None:
        self._rolls(self.steps.roll, extends=True)

    @rule(goal=st.integers(1, 12))
    def extended(self, goal: int) -> None:
        self._rolls(self.steps.start_extended, goal)

    @rule()
    def stop(self) -> None:
        self._step(self.steps.stop_extended)

    @rule(data=st.data(), roll=st.booleans())
    def contest(self, data: st.DataObject, roll: bool) -> None:
        """A contest: its dialog opened on anyone, a row changed, rolled (or left open)."""
        c = data.draw(st.sampled_from(self.store.characters()))
        self._rolls(wod_contest.open_contest, c.id)
        if self.t.state.opponent is not None:
            name = data.draw(st.sampled_from(["character", "skill", "attribute"]))
            values = {
                "character": st.sampled_from([x.id for x in self.store.characters()]),
                "skill": st.sampled_from(["", "Драка", "Огнестрельное оружие"]),
                "attribute": st.sampled_from(["", "Сила", "Ловкость"]),
            }
            self._step(wod_contest.set_contest, name, data.draw(values[name]))
        if roll:
            self._rolls(wod_contest.roll_contest)

    @invariant()
    def the_opponent_is_a_fresh_one_and_never_oneself(self) -> None:
        from tui.systems.wod.check.state import WodCheck

        state = self.t.state
        if state.opponent is None:
            return
        world = self.t.world()
        shown = wod_contest.contest_view(state, world)
        fresh = WodCheck(inputs=state.inputs, opponent=state.opponent)
        again = wod_contest.contest_view(fresh, world)
        assert shown.rows() == again.rows() and shown.pool == again.pool
        me = self.t.view().character
        if me is not None:
            assert me.id not in [v for _, v in shown.rows()["character"][0]]

    @rule(energy=st.integers(0, 3))
    def another_window_wounds(self, energy: int) -> None:
        c = self.picks.choice(self.store.characters())
        self.store.upsert_character(replace(c, extra={**c.extra, "health": ["lethal"] * energy}))
        self.t.follow()


class DrevoMachine(Machine):
    SYSTEM = "drevo"
    steps = drevo_steps

    def first_dice(self, rolled) -> object:
        return (rolled.dice,) if rolled.dice is not None else ()

    @initialize()
    def fate(self) -> None:
        self.had: dict[str, int] = {}  # a rolled check's id: its character's Судьба before it
        for c in self.store.characters():
            self.store.upsert_character(c.edit_sheet(DrevoSheet, fate=3))

    @rule(name=st.sampled_from(["action", "difficulty", "mods"]), data=st.data())
    def choose(self, name: str, data: st.DataObject) -> None:
        values = {
            "action": st.sampled_from(["other", "melee", "dodge", "shoot"]),
            "difficulty": st.integers(-2, 3),
            "mods": st.sampled_from(["", "-1 темнота", "+2"]),
        }
        self._step(self.steps.set_input, name, data.draw(values[name]), new=True)

    @rule()
    def declare_fate(self) -> None:
        """«f»: Судьба before the roll — refused once the check is rolled."""
        self._rolls(self.steps.declare_fate)

    def bought(self, state) -> bool:
        return state.rolled.fate_auto

    @rule()
    def roll(self) -> None:
        before = {c.id: c.drevo.fate for c in self.store.characters()}
        made = self._rolls(self.steps.roll)
        rolled = self.t.state.rolled
        if made.ok and rolled is not None and rolled.character in before:
            # what the sheet had when this check was rolled (3, or the demo's own after the
            # set-up was undone)
            self.had[self.t.state.id] = before[rolled.character]

    @rule(points=st.sampled_from([1, -1, 2]))
    def shift(self, points: int) -> None:
        self._step(self.steps.fate_shift, points)

    @invariant()
    def the_sheet_paid_every_point(self) -> None:
        rolled = self.t.state.rolled
        if rolled is None:
            return
        c = self.store.character(rolled.character)
        spent = sum(abs(p) for p in rolled.shifts) + (1 if rolled.fate_auto else 0)
        had = self.had.get(self.t.state.id, 3)
        if c is not None and self.store.get_doc("check") == self.t.state.to_doc():
            # an edit elsewhere may give points back
            assert c.drevo.fate <= had - spent or c.drevo.fate == had


for machine in (StaratelyMachine, WodMachine, DrevoMachine):
    machine.TestCase.settings = settings(
        max_examples=examples(10),
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )

TestStaratelyMachine = StaratelyMachine.TestCase
TestWodMachine = WodMachine.TestCase
TestDrevoMachine = DrevoMachine.TestCase

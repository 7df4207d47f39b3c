"""The round tracker and effects played as a table plays them, through the engine alone: sides,
initiative, turns, harm, effects added, hidden, removed, ticking and expiring, the scene
clock, undo, redo, a reopened store, a second kubik making steps, editing a sheet, removing a
character — against the real store. No Textual: every key of the Бой tab and the Партия tab's
effect keys is an engine step (:mod:`tui.table.rounds.steps`, :mod:`tui.table.effects.steps`)
written by the same session code.

The line of undo steps is modelled (each write one step, undo and redo walk it), with the
boundaries of the fight each step passed. Invariants: what the store holds is the line's
state (after undo, redo, reopen, the other kubik); a removed character is never in the order
nor on turn; no effect is still active past a boundary that ends it, and every stored effect
was added by a step that stands; no effect is ticked twice for one boundary (its expiry or
repeat written twice — two kubiks making the same step from the same state write it once,
the other is refused); a turn is never lost (each «next turn» passes to the next in the
order, and a new round only after the last).
"""

from __future__ import annotations

import random
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from rules.effects import DURATIONS, Boundary, EffectSpec, tick_all
from rules.rounds import Tracker
from tests.hypo import examples
from tests.table.tracker import Table
from tui.bridge.effects import EFFECTS_DOC, ROUNDS_DOC
from tui.store import UNDO_LIMIT, StaleWrite, Store
from tui.table.core import Dice
from tui.table.effects import session as effect_session
from tui.table.effects import steps as effect_steps
from tui.table.rounds import session as rounds_session
from tui.table.rounds import steps
from tui.table.rounds.session import RoundsSession

SYSTEMS = ("ide4", "starately", "wod")


@dataclass(frozen=True)
class Step:
    """One undo step of the line: the documents it left, the boundaries of the fight it
    passed, and the effects it added (each with how many boundaries had passed before)."""

    docs: Any
    boundaries: tuple[Boundary, ...] = ()
    added: tuple[str, ...] = ()


def ends_at(expires: tuple[str, str, int] | None, b: Boundary) -> bool:
    """RULES.md §5: an effect in rounds or turns ends at the boundary it names, in that
    round or a later one."""
    if expires is None:
        return False
    kind, who, first = expires
    return b.kind == kind and b.combatant == who and b.round >= first


@dataclass
class Line:
    """The undo line the store walks: ``steps[at]`` stands, the rest are undone."""

    steps: list[Step] = field(default_factory=list)
    at: int = 0
    #: Undo is per window (issue 30): this window's Ctrl+Z never takes another's step, so the
    #: line is walked back only down to the newest step another kubik made.
    floor: int = 0

    def push(self, step: Step, *, foreign: bool = False) -> None:
        self.steps = [*self.steps[: self.at + 1], step]
        self.at += 1
        if foreign:
            self.floor = self.at
        if len(self.steps) > UNDO_LIMIT + 1:  # the oldest step falls off the store's undo:
            first, second = self.steps[:2]  # it stands for good, folded into the start
            start = Step(
                second.docs, first.boundaries + second.boundaries, first.added + second.added
            )
            self.steps = [start, *self.steps[2:]]
            self.at -= 1
            self.floor = max(self.floor - 1, 0)

    @property
    def now(self) -> Step:
        return self.steps[self.at]

    def live(self) -> list[Step]:
        """The steps that stand (the start: what fell off the undo, for good)."""
        return self.steps[: self.at + 1]


class RoundsMachine(RuleBasedStateMachine):
    """Rules are what a GM (or a second kubik) may do in any order; invariants are what must
    never happen."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="kubik-rounds-"))
        self.store: Store | None = None
        #: Whether the step being written is another kubik's (a command: window "cli").
        self.elsewhere = False

    def _other(self) -> Store:
        """Another kubik on the same file (a command, whose steps only it may undo)."""
        self.elsewhere = True
        return Store.open(self.path, window="cli")

    def teardown(self) -> None:
        if self.store is not None:
            self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @initialize(system=st.sampled_from(SYSTEMS), seed=st.integers(0, 10_000), begin=st.booleans())
    def open(self, system: str, seed: int, begin: bool) -> None:
        """A demo campaign; maybe the fight already begun (the turns are what matter most)."""
        self.path = self.dir / "c.json"
        self.store = Store.open(self.path, system=system)
        self.table = Table(self.store, seed)
        self.picks = random.Random(seed)
        self.line = Line([Step(self._docs())])
        if begin:
            self.roll_initiative()

    # -- helpers ---------------------------------------------------------------------------------

    @property
    def t(self) -> Tracker:
        return self.table.tracker

    def _docs(self) -> Any:
        assert self.store is not None
        self.store.refresh()
        chars = sorted(
            (c.id, c.name, str(c.starately.harm), tuple(c.wod.health))
            for c in self.store.characters()
        )
        return self.store.get_doc(ROUNDS_DOC), self.store.get_doc(EFFECTS_DOC), tuple(chars)

    def _mark(self) -> tuple[tuple[int, int], int]:
        """Where the undo line and the Журнал stand before a write."""
        assert self.store is not None
        self.store.refresh()
        return self.store.depth, len(self.store.log())

    def _wrote(
        self,
        mark: tuple[tuple[int, int], int],
        boundaries: tuple[Boundary, ...] = (),
        added: Any = (),
    ) -> None:
        """Record the step just written (if it wrote one: one undo step, or, with the undo
        full, a change or a Журнал line)."""
        assert self.store is not None
        self.store.refresh()
        (before, lines), depth = mark, self.store.depth
        changed = self._docs() != self.line.now.docs or len(self.store.log()) != lines
        full = before[0] == depth[0] == UNDO_LIMIT
        if depth[0] == before[0] + 1 or (full and changed):
            step = Step(self._docs(), tuple(boundaries), tuple(added))
            self.line.push(step, foreign=self.elsewhere)
        else:
            assert depth == before and not changed

    def _step(self, step: Any, *args: Any, session: Any = None) -> Any:
        """Make a step of the round tracker; a refused one writes nothing at all."""
        assert self.store is not None
        session = session or self.table.rounds
        before = (self._docs(), self.store.depth, len(self.store.log()))
        outcome = session.run(step, *args)
        self.store.refresh()  # another kubik's step: this one reads it as the app would
        event(f"{step.__name__}: {'ok' if outcome.ok else 'refused'}")
        if not outcome.ok:
            assert outcome.refused.strip(), "a refusal without a reason"
            assert (self._docs(), self.store.depth, len(self.store.log())) == before
        return outcome

    def _effect(self, step: Any, *args: Any) -> Any:
        assert self.store is not None
        depth = self._mark()
        outcome = self.table.effect(step, *args)
        event(f"{step.__name__}: {'ok' if outcome.ok else 'refused'}")
        self._wrote(depth)
        return outcome

    # -- the setup -------------------------------------------------------------------------------

    @precondition(lambda self: not self.t.started)
    @rule(data=st.data(), side=st.sampled_from(steps.SIDE_CYCLE))
    def set_side(self, data: st.DataObject, side: str) -> None:
        assert self.store is not None
        c = data.draw(st.sampled_from(self.store.characters()))
        depth = self._mark()
        self._step(steps.set_side, c.id, side)
        self._wrote(depth)

    @precondition(lambda self: not self.t.started)
    @rule()
    def roll_initiative(self) -> None:
        assert self.store is not None
        depth, t = self._mark(), self.t
        effects = self.table.effects
        undone = self._undone_initiative()
        outcome = self._step(steps.roll_initiative)
        if not outcome.ok:
            assert not t.entrants, outcome.refused
            return
        line = outcome.log[0].data
        same = [u for u in undone if u.get("sides") == line["sides"]]
        if same:  # rolled again after an undo: Ctrl+Z is no reroll
            assert line["initiative"] == same[0]["initiative"], "initiative rolled twice"
            assert line["order"] == same[0]["order"]
        new = self.t
        events = (Boundary("round_start", 1), Boundary("turn_start", 1, new.order[0]))
        expected, _ = tick_all(effects, events, new.order)
        assert self.table.effects == expected, "initiative ticked the effects wrong"
        assert set(new.order) == {e.id for e in t.entrants}
        self._wrote(depth, events)

    def _undone_initiative(self) -> list[dict[str, Any]]:
        """The initiative lines undone since the fight's newest line that stands (newest
        first): what a roll of the same fighters on the same sides must give again."""
        assert self.store is not None
        system, found = self.store.campaign.system, []
        for entry in self.store.log():
            data = entry.data or {}
            if data.get("system") != system or "round" not in data:
                continue
            if not entry.undone:
                break
            if "initiative" in data:
                found.append(data)
        return found

    # -- turns -----------------------------------------------------------------------------------

    def _next_turn(self, session: Any) -> None:
        assert self.store is not None
        depth, t, effects = self._mark(), self.t, self.table.effects
        expected_t, events = t.next_turn()
        expected, _ = tick_all(effects, events, expected_t.order)
        outcome = self._step(steps.next_turn, session=session)
        for line in outcome.log:
            if line.data.get("notice"):
                event(f"an effect {line.data['notice']}")
        new = self.t
        # A turn is never lost: the next in the order acts; a new round only after the last.
        assert (new.round, new.turn, new.order) == (expected_t.round, expected_t.turn, t.order)
        assert new.round == t.round + (t.turn == len(t.order) - 1)
        assert self.table.effects == expected, "a turn ticked the effects wrong"
        self._wrote(depth, tuple(events))

    @precondition(lambda self: self.t.started)
    @rule(turns=st.integers(1, 12))
    def next_turn(self, turns: int) -> None:
        """Pass the turn (several times: effects in rounds need rounds to end)."""
        for _ in range(turns):
            self._next_turn(self.table.rounds)

    @precondition(lambda self: self.t.started)
    @rule()
    def second_kubik_passes_the_turn(self) -> None:
        """Another kubik on the same file makes the next turn (its own session and dice)."""
        other = self._other()
        try:
            self._next_turn(RoundsSession(other, Dice(random.Random(self.picks.random()))))
        finally:
            other.close()
            self.elsewhere = False

    @precondition(lambda self: self.t.started)
    @rule(clock=st.booleans())
    def two_windows_at_once(self, clock: bool) -> None:
        """Two kubiks make the same step from the same state (both GMs press «n», or «m»):
        one is written, the other refused as made on what another window changed — a turn
        (and the effects it ends) never passes twice for one press seen once."""
        assert self.store is not None
        if clock:  # a repeat every minute: the clock's step has a line to write
            self.add_effect_spec(EffectSpec("Патруль", repeat_every=1, repeat_unit="minute"))
        else:  # the last turn of the round: the next one has a line («Раунд N»)
            while self.t.started and self.t.turn < len(self.t.order) - 1:
                self._next_turn(self.table.rounds)
        other = self._other()
        try:
            mine, theirs = self._same_step(self.store, clock), self._same_step(other, clock)
            _, events = self.t.next_turn() if not clock else (None, [])
            mark = self._mark()
            theirs()
            self._wrote(mark, tuple(events))
            self.elsewhere = False
            mark = self._mark()
            try:
                mine()
            except StaleWrite as err:
                assert "Откройте заново" in str(err) and "version" not in str(err), err
            else:
                raise AssertionError("the same step, made on a stale read, was written again")
            self._wrote(mark)
        finally:
            other.close()
            self.elsewhere = False

    @staticmethod
    def _same_step(store: Store, clock: bool) -> Any:
        """Read ``store`` now and make the step (the next turn, or a minute of the clock);
        return what writes it."""
        if clock:
            e = effect_session.read_effects(store, Dice())
            moved = effect_steps.advance_clock(e.effects, e.world, 1)
            return lambda: effect_session.write(store, moved, e.base)
        read = RoundsSession(store).read()
        passed = steps.next_turn(read.tracker, read.world)
        return lambda: rounds_session.write(store, passed, read)

    @precondition(lambda self: self.t.started)
    @rule()
    def end(self) -> None:
        assert self.store is not None
        depth = self._mark()
        self._step(steps.end)
        assert not self.t.started
        left = self.table.effects.effects
        assert not [e for e in left if e.duration in effect_steps.COMBAT_DURATIONS]
        self._wrote(depth)

    # -- harm --------------------------------------------------------------------------------------

    @rule(data=st.data(), kind=st.sampled_from(["lethal", "bashing", "aggravated", "heal"]))
    def harm(self, data: st.DataObject, kind: str) -> None:
        assert self.store is not None
        c = data.draw(st.sampled_from(self.store.characters()))
        depth = self._mark()
        if self.store.campaign.system != "wod":
            note = data.draw(st.sampled_from(["", "сломана рука", "ожог"]))
            self._step(steps.harm_note, c.id, note)
            assert str(self.store.character(c.id).starately.harm) == note
        elif kind == "heal":
            self._step(steps.heal, c.id)
        else:
            self._step(steps.damage, c.id, kind)
        self._wrote(depth)

    # -- effects -----------------------------------------------------------------------------------

    @rule(
        data=st.data(),
        duration=st.sampled_from(DURATIONS),
        amount=st.integers(1, 3),
        modifier=st.integers(-2, 2),
        repeat=st.sampled_from([(0, "round"), (1, "round"), (2, "round"), (2, "minute")]),
        hidden=st.booleans(),
        on_scene=st.booleans(),
    )
    def add_effect(
        self,
        data: st.DataObject,
        duration: str,
        amount: int,
        modifier: int,
        repeat: tuple[int, str],
        hidden: bool,
        on_scene: bool,
    ) -> None:
        assert self.store is not None
        people = [c.id for c in self.store.characters()]
        target = "" if on_scene else data.draw(st.sampled_from(people))
        anchor = data.draw(st.sampled_from(people))
        spec = EffectSpec(
            "Эффект", target, modifier, duration, amount, anchor, repeat[0], repeat[1], "", hidden
        )
        event(f"add {duration}: {'ok' if self.add_effect_spec(spec).ok else 'refused'}")

    def add_effect_spec(self, spec: EffectSpec) -> Any:
        depth, before = self._mark(), {e.id for e in self.table.effects.effects}
        outcome = self.table.add(spec)
        added = [e.id for e in outcome.state.effects if e.id not in before] if outcome.ok else []
        self._wrote(depth, added=added)
        return outcome

    def _some_effect(self) -> str | None:
        effects = self.table.effects.effects
        return self.picks.choice(effects).id if effects else None

    @rule()
    def remove_effect(self) -> None:
        found = self._some_effect()
        if found:
            self._effect(effect_steps.remove, found)
            assert found not in {e.id for e in self.table.effects.effects}

    @rule()
    def toggle_hidden(self) -> None:
        found = self._some_effect()
        if found:
            self._effect(effect_steps.toggle_hidden, found)

    @rule(minutes=st.integers(-1, 5))
    def clock(self, minutes: int) -> None:
        before = self.table.effects.minute
        outcome = self._effect(effect_steps.advance_clock, minutes)
        assert self.table.effects.minute == before + (minutes if outcome.ok else 0)

    # -- undo, redo, reopen, a second kubik -------------------------------------------------------

    @precondition(lambda self: self.store is not None and self.line.at > self.line.floor)
    @rule()
    def undo(self) -> None:
        """This window's Ctrl+Z takes its own newest step (never another kubik's)."""
        assert self.store is not None
        self.store.refresh()
        assert self.store.undo() is not None
        self.line.at -= 1

    @precondition(lambda self: self.line.at + 1 < len(self.line.steps))
    @rule()
    def redo(self) -> None:
        assert self.store is not None
        self.store.refresh()
        assert self.store.redo() is not None
        self.line.at += 1

    @rule()
    def reopen(self) -> None:
        """Quit and start again (or a crash): the same fight and effects come back."""
        assert self.store is not None
        before = self._docs()
        self.store.close()
        self.store = Store.open(self.path)
        self.table = Table(self.store, self.picks.randrange(1000))
        assert self._docs() == before

    @rule(data=st.data(), note=st.sampled_from(["ранен", "", "устал"]))
    def second_kubik_edits_a_sheet(self, data: st.DataObject, note: str) -> None:
        """Another kubik writes a character's harm note (a sheet edited elsewhere)."""
        assert self.store is not None
        depth = self._mark()
        other = self._other()
        try:
            c = data.draw(st.sampled_from(other.characters()))
            other.upsert_character(replace(c, extra={**c.extra, "harm": note}))
        finally:
            other.close()
        self._wrote(depth)
        self.elsewhere = False

    @precondition(lambda self: self.store is not None and len(self.store.characters()) > 2)
    @rule(data=st.data())
    def second_kubik_removes_a_character(self, data: st.DataObject) -> None:
        """Another kubik deletes a character (maybe one in the fight, maybe on turn)."""
        assert self.store is not None
        depth = self._mark()
        other = self._other()
        try:
            c = data.draw(st.sampled_from(other.characters()))
            other.delete_character(c.id)
        finally:
            other.close()
        self._wrote(depth)
        self.elsewhere = False

    # -- invariants ------------------------------------------------------------------------------

    @invariant()
    def the_store_holds_the_lines_state(self) -> None:
        if self.store is not None:
            assert self._docs() == self.line.now.docs

    @invariant()
    def no_removed_character_in_the_order(self) -> None:
        if self.store is None:
            return
        people = {c.id for c in self.store.characters()}
        t, view = self.t, self.table.view()
        assert set(t.order) <= people and {e.id for e in t.entrants} <= people
        assert not t.started or t.actor in people, "a removed character is on turn"
        assert {r.id for r in view.rows} == people
        assert view.opponents == () or set(view.opponents) <= people

    @invariant()
    def nothing_expired_is_still_active(self) -> None:
        if self.store is None:
            return
        effects = self.table.effects
        passed: list[Boundary] = []
        since: dict[str, int] = {}
        for step in self.line.live():
            for eid in step.added:
                since[eid] = len(passed)
            passed += step.boundaries
        for e in effects.effects:
            assert e.id in since, f"{e.id} was not added by a step that stands"
            ended = [b for b in passed[since[e.id] :] if ends_at(e.expires, b)]
            assert not ended, f"{e.name} {e.expires} still active after {ended[0]}"
            assert e.until_minute is None or e.until_minute > effects.minute

    @invariant()
    def no_effect_is_ticked_twice_for_one_boundary(self) -> None:
        if self.store is None:
            return
        stored = {e.id for e in self.table.effects.effects}
        seen: set[Any] = set()
        for entry in self.store.log():
            data = entry.data or {}
            if entry.undone or not data.get("notice"):
                continue
            eid, kind = data["effect"]["id"], data["notice"]
            when = tuple(data["at"]) if "at" in data else data.get("minute")
            key = (eid, kind) if kind == "expired" else (eid, kind, when)
            assert key not in seen, f"{key} written twice"
            seen.add(key)
            if kind == "expired":
                assert eid not in stored, f"{eid} ended and still in the effects"


RoundsMachine.TestCase.settings = settings(
    max_examples=examples(10),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_rounds_at_the_table = RoundsMachine.TestCase

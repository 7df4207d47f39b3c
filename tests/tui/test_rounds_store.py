"""Effects and the round tracker through the real store, as a machine: turns, effects, the
scene clock, undo, redo, reopen and a second kubik on the same file, in any order."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from rules.effects import ClockStep, EffectSet, EffectSpec, Now, tick, tick_all
from rules.rounds import Entrant, Tracker
from tests.hypo import examples
from tui.bridge.effects import EFFECTS_DOC, ROUNDS_DOC, load_effects
from tui.store import Store


class RoundsInTheStore(RuleBasedStateMachine):
    """The model is the line of (tracker, effects) states the store's undo walks.

    Undo is per window (issue 30): the step on top is undone by the window that wrote it
    (``writers``), and the other window's Ctrl+Z never takes it.

    Invariants: what the store holds is always the model's current state (an undone
    expiry brings the effect back exactly; a reopen or the other writer's view agree); an
    effect past its boundary is never active.
    """

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name) / "c.json"
        self.a = Store.open(self.path, system="wod")
        self.b = Store.open(self.path)
        ids = [c.id for c in self.a.characters()][:3]
        t = Tracker("wod", tuple(Entrant(i, i, "x") for i in ids))
        t, _ = t.start(tuple(ids), {})
        self.states = [(t, EffectSet())]
        self.writers: list[str] = ["a"]  # who wrote each state (the first: the start)
        self.at = 0
        self.write(self.a, "start", t, EffectSet())

    def teardown(self) -> None:
        self.a.close()
        self.b.close()
        self.dir.cleanup()

    def write(self, store: Store, label: str, t: Tracker, e: EffectSet) -> None:
        store.refresh()
        store.apply(label, docs={ROUNDS_DOC: t.to_dict(), EFFECTS_DOC: e.to_dict()})
        if label != "start":
            self.states = self.states[: self.at + 1] + [(t, e)]
            self.writers = self.writers[: self.at + 1] + ["a" if store is self.a else "b"]
            self.at += 1

    @property
    def state(self):
        return self.states[self.at]

    @rule(
        writer=st.booleans(),
        kind=st.sampled_from(["rounds", "turn_start", "turn_end", "minutes", "removed"]),
        amount=st.integers(1, 3),
        who=st.integers(0, 2),
    )
    def add_effect(self, writer: bool, kind: str, amount: int, who: int) -> None:
        t, e = self.state
        anchor = t.order[who]
        spec = EffectSpec("E", anchor, -1, kind, amount, anchor)
        e2, _ = e.add(spec, Now(t.round, t.actor, e.minute))
        self.write(self.b if writer else self.a, "effect", t, e2)

    @rule(writer=st.booleans())
    def next_turn(self, writer: bool) -> None:
        t, e = self.state
        t2, events = t.next_turn()
        e2, _ = tick_all(e, events, t2.order)
        self.write(self.b if writer else self.a, "turn", t2, e2)

    @rule(minutes=st.integers(1, 4))
    def clock(self, minutes: int) -> None:
        t, e = self.state
        e2, _ = tick(e, ClockStep(e.minute, e.minute + minutes))
        self.write(self.a, "clock", t, e2)

    def _store(self, who: str) -> Store:
        return self.a if who == "a" else self.b

    @precondition(lambda self: self.at > 0)
    @rule()
    def undo(self) -> None:
        store = self._store(self.writers[self.at])
        store.refresh()
        assert store.undo() is not None
        self.at -= 1

    @precondition(lambda self: self.at + 1 < len(self.states))
    @rule()
    def redo(self) -> None:
        store = self._store(self.writers[self.at + 1])
        store.refresh()
        assert store.redo() is not None
        self.at += 1

    @rule()
    def reopen(self) -> None:
        self.a.close()
        self.a = Store.open(self.path)

    @invariant()
    def the_store_holds_the_models_state(self) -> None:
        t, e = self.state
        for store in (self.a, self.b):
            store.refresh()
            assert Tracker.from_dict(store.get_doc(ROUNDS_DOC)) == t
            assert load_effects(store) == e

    @invariant()
    def nothing_past_its_boundary_is_active(self) -> None:
        t, e = self.state
        for x in e.effects:
            assert x.until_minute is None or x.until_minute > e.minute
            if x.expires and x.expires[0] == "round_end":
                assert t.round <= x.expires[2]


RoundsInTheStore.TestCase.settings = settings(
    max_examples=examples(8), stateful_step_count=15, deadline=None
)
TestRoundsInTheStore = RoundsInTheStore.TestCase


def test_settings_refuse_a_round_table_the_tracker_cannot_use() -> None:
    """The settings form runs the tracker's loader: an unknown tie rule, a «per» that is
    neither, or Мир Тьмы attributes that are not a list are refused with the reason."""
    import pytest

    from rules.data import packaged_text
    from tui.screens.settings_tables import SettingsError, check_table

    text = packaged_text("rounds/initiative.toml")
    with pytest.raises(SettingsError, match="Правило ничьей «coin»"):
        check_table("rounds/initiative.toml", text.replace('tie = "bonus"', 'tie = "coin"'))
    with pytest.raises(SettingsError, match="per"):
        check_table("rounds/initiative.toml", text.replace('per = "combatant"', 'per = "x"'))
    with pytest.raises(SettingsError, match="атрибут|список"):
        check_table(
            "rounds/initiative.toml",
            text.replace('attributes = ["Ловкость", "Самообладание"]', 'attributes = "Ловкость"'),
        )
    effects = packaged_text("rounds/effects.toml")
    with pytest.raises(SettingsError, match="same_turn"):
        check_table("rounds/effects.toml", effects.replace('"same_turn"', '"later"', 1))
    assert check_table("rounds/health.toml", packaged_text("rounds/health.toml"))


def test_drevo_round_tick_for_the_fight_tab(tmp_path) -> None:
    """The Древо Бой tab's hook: «на 1 раунд» added before the fight ends with round 1; the
    returned document goes into the round's own store write, so undo brings it back."""
    from rules.effects import EffectSpec, Now
    from tui.bridge.effects import notice_lines, tick_round

    store = Store.open(tmp_path / "d.json", system="drevo")
    c = store.characters()[0]
    e, _ = EffectSet().add(EffectSpec("Оглушён", c.id, -1, "rounds", 1), Now())
    store.put_doc(EFFECTS_DOC, e.to_dict(), label="effect")
    docs, notices = tick_round(store, 1, [c.id])
    store.apply("Раунд 2", docs={**docs, "encounter": {"round": 2}})
    assert load_effects(store).effects == ()
    assert notice_lines(notices, {c.id: c.name}) == [
        (c.name, f"Эффект «Оглушён» закончился ({c.name})")
    ]
    store.undo()
    assert [x.name for x in load_effects(store).effects] == ["Оглушён"]
    store.close()

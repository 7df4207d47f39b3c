"""Effects with a duration (RULES.md §5 [default], issue 17): each duration kind ticks and
expires at its boundary; repeats come when due; modifiers are listed with their reason."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rules.data import packaged_table, set_overrides
from rules.effects import (
    Boundary,
    ClockStep,
    Effect,
    EffectSet,
    EffectSpec,
    Now,
    active_modifiers,
    make_effect,
    remaining_text,
    tick,
    tick_all,
)
from rules.errors import RulesError
from rules.rounds import Entrant, Tracker
from tests.every_case import assert_every_case
from tests.hypo import examples

ORDER = ("a", "b", "c")


def fight() -> Tracker:
    t = Tracker("ide4", tuple(Entrant(i, i.upper(), "x") for i in ORDER))
    return t.start(ORDER, {})[0]


def run(effects: EffectSet, tracker: Tracker, turns: int):
    """Advance ``turns`` turns; return effects, tracker and (round, actor, notice) list."""
    seen = []
    for _ in range(turns):
        tracker, events = tracker.next_turn()
        effects, notices = tick_all(effects, events, tracker.order)
        seen += [(tracker.round, tracker.actor, n.kind, n.effect.name) for n in notices]
    return effects, tracker, seen


def add(effects: EffectSet, tracker: Tracker, **spec) -> EffectSet:
    now = Now(tracker.round, tracker.actor, effects.minute)
    return effects.add(EffectSpec(**spec), now)[0]


def test_rounds_end_as_the_turn_they_began_in_comes_round() -> None:
    """«Оглушён на 2 раунда»: added in B's turn of round 1, it lasts through round 2 and ends
    as B's turn of round 3 begins (data/rounds/effects.toml ``ends = "same_turn"``)."""
    t, _ = fight().next_turn()  # round 1, B's turn
    e = add(EffectSet(), t, name="Оглушён", target="c", modifier=-1, duration="rounds", amount=2)
    assert remaining_text(e.effects[0], t.round, 0, {}) == "ещё 2 р."
    e, t, seen = run(e, t, 4)  # up to round 2, C's turn
    assert seen == [] and len(e.effects) == 1
    e, t, seen = run(e, t, 1)  # round 3, A's turn
    assert seen == [] and len(e.effects) == 1
    e, t, seen = run(e, t, 1)  # round 3, B's turn
    assert seen == [(3, "b", "expired", "Оглушён")] and e.effects == ()


def test_rounds_counted_whole_when_the_campaign_says_round_end() -> None:
    """``ends = "round_end"``: «на 2 раунда» added in round 1 ends with round 2."""
    table = {**packaged_table("rounds/effects.toml"), "rounds": {"ends": "round_end"}}
    set_overrides({"rounds/effects.toml": table})
    try:
        t, _ = fight().next_turn()
        e = add(EffectSet(), t, name="Горит", target="a", duration="rounds", amount=2)
        e, t, seen = run(e, t, 4)  # round 2, C's turn
        assert seen == []
        e, t, seen = run(e, t, 1)  # round 2 ends
        assert seen == [(3, "a", "expired", "Горит")]
    finally:
        set_overrides({})


def test_an_unknown_rounds_rule_is_refused() -> None:
    """A campaign table naming no known rule gets a message saying which values work."""
    set_overrides({"rounds/effects.toml": {"rounds": {"ends": "never"}}})
    try:
        with pytest.raises(RulesError, match="same_turn"):
            make_effect(EffectSpec("X", duration="rounds", amount=1), Now(1, "a"), "e1")
    finally:
        set_overrides({})


def test_rounds_added_before_the_fight_count_from_round_one() -> None:
    """Added outside combat, «на 1 раунд» ends with the first round."""
    e = EffectSet().add(EffectSpec("Туман", duration="rounds", amount=1), Now())[0]
    t, events = fight(), [Boundary("round_start", 1), Boundary("turn_start", 1, "a")]
    e, _ = tick_all(e, events)
    e, t, seen = run(e, t, 3)
    assert seen == [(2, "a", "expired", "Туман")]


def test_until_the_start_of_a_named_turn() -> None:
    """«До начала хода C», added in A's turn: ends as C's turn begins, this round."""
    t = fight()
    e = add(EffectSet(), t, name="Прикрыт", target="a", duration="turn_start", anchor="c")
    e, t, seen = run(e, t, 1)
    assert seen == []
    e, t, seen = run(e, t, 1)
    assert seen == [(1, "c", "expired", "Прикрыт")]


def test_until_the_end_of_ones_own_next_turn_skips_the_current_turn() -> None:
    """«До конца следующего хода A», said in A's turn: A's current turn does not count."""
    t = fight()
    e = add(EffectSet(), t, name="Уклон", target="a", duration="turn_end", anchor="a")
    e, t, seen = run(e, t, 3)  # A's turn ended once (round 1): not yet
    assert seen == [] and len(e.effects) == 1
    e, t, seen = run(e, t, 1)  # A's round-2 turn ends
    assert seen == [(2, "b", "expired", "Уклон")]


def test_until_the_end_of_anothers_turn_this_round() -> None:
    """«До конца хода C», said in A's turn: ends when C's turn ends, this round."""
    t = fight()
    e = add(EffectSet(), t, name="Ослеплён", target="b", duration="turn_end", anchor="c")
    e, t, seen = run(e, t, 3)
    assert seen == [(2, "a", "expired", "Ослеплён")]


def test_minutes_of_scene_time_expire_on_the_clock() -> None:
    """«На 10 минут сцены»: the clock passing 10 minutes ends it, not a minute earlier."""
    e = EffectSet().add(EffectSpec("Сигнализация", duration="minutes", amount=10), Now())[0]
    e, notices = tick(e, ClockStep(0, 9))
    assert notices == [] and e.minute == 9
    assert remaining_text(e.effects[0], 0, 9, {}) == "ещё 1 мин"
    e, notices = tick(e, ClockStep(9, 10))
    assert [n.text for n in notices] == ["Эффект «Сигнализация» закончился"]


def test_until_removed_never_expires() -> None:
    """«Пока не снимут»: no boundary and no clock step ends it; removing it does."""
    t = fight()
    e = add(EffectSet(), t, name="Яд", target="a", modifier=-2)
    e, t, seen = run(e, t, 12)
    e, notices = tick(e, ClockStep(0, 600))
    assert seen == [] and notices == [] and len(e.effects) == 1
    assert e.without(e.effects[0].id).effects == ()


def test_patrol_every_three_minutes_warns_when_it_comes() -> None:
    """«Патруль обходит здание каждые 3 минуты» (IDE4 example): due at 3, 6, … minutes."""
    spec = EffectSpec("Патруль", repeat_every=3, repeat_unit="minute", repeat_text="патруль")
    e = EffectSet().add(spec, Now())[0]
    due = []
    for minute in range(1, 10):
        e, notices = tick(e, ClockStep(minute - 1, minute))
        due += [minute for n in notices if n.kind == "due"]
    assert due == [3, 6, 9]
    e, notices = tick(e, ClockStep(9, 20))  # a long jump warns once
    assert [n.text for n in notices] == ["Пора: патруль (эффект «Патруль»)"]


def test_a_repeat_counts_from_the_minute_it_was_added() -> None:
    """«каждые 3 минуты» from when the GM added it: added at minute 5, due at 8, 11, 14."""
    spec = EffectSpec("Патруль", repeat_every=3, repeat_unit="minute", repeat_text="патруль")
    e = EffectSet(minute=5).add(spec, Now(minute=5))[0]
    due = []
    for minute in range(6, 15):
        e, notices = tick(e, ClockStep(minute - 1, minute))
        due += [minute for n in notices if n.kind == "due"]
    assert due == [8, 11, 14]


def test_poison_check_every_round_at_the_targets_turn() -> None:
    """«Яд: проверка каждый раунд» on B, added in round 1: due as B's turn begins, from the
    next round on, once a round."""
    t = fight()
    spec = dict(name="Яд", target="b", repeat_every=1, repeat_text="проверка Выносливости")
    e = add(EffectSet(), t, **spec)
    e, t, seen = run(e, t, 9)
    assert [(r, a) for r, a, k, _ in seen if k == "due"] == [(2, "b"), (3, "b")]


def test_scene_repeat_every_round_comes_at_round_start() -> None:
    """A repeat on the scene (no combatant) comes at each round's start."""
    t = fight()
    e = add(EffectSet(), t, name="Пожар", repeat_every=2)
    e, t, seen = run(e, t, 9)
    assert [r for r, _, k, _ in seen if k == "due"] == [3]
    fire = add(EffectSet(), fight(), name="Пожар", repeat_every=1)  # last due: round 1
    for event in (Boundary("turn_start", 2, "a"), Boundary("turn_end", 2, "a")):
        assert tick(fire, event, ORDER)[1] == [], event  # not at a turn of the round
    assert [n.kind for n in tick(fire, Boundary("round_start", 2), ORDER)[1]] == ["due"]


def test_modifiers_listed_with_reason_target_and_scene() -> None:
    """Active effects on a character and on the scene enter its checks, with their reason."""
    e = EffectSet()
    e = e.add(EffectSpec("Оглушён", target="a", modifier=-1), Now())[0]
    e = e.add(EffectSpec("Темнота", modifier=-2), Now())[0]
    e = e.add(EffectSpec("Вдохновлён", target="b", modifier=1), Now())[0]
    e = e.add(EffectSpec("Метка", target="a"), Now())[0]
    mods = active_modifiers(e, "a")
    assert [(m.value, m.reason) for m in mods] == [
        (-1, "эффект «Оглушён»"),
        (-2, "эффект «Темнота»"),
    ]
    assert e.effects[0].label == "Оглушён −1"


BAD_SPECS_ARE_REFUSED_WITH_A_MESSAGE = [
    (EffectSpec("  "), "Назовите эффект"),
    (EffectSpec("X", duration="forever"), "Длительность"),
    (EffectSpec("X", repeat_unit="hour"), "Повтор «hour»"),
    (EffectSpec("X", duration="rounds", amount=0), "целое число"),
    (EffectSpec("X", repeat_every=-1), "Повтор: каждые"),
    (EffectSpec("X", duration="turn_end"), "чей ход"),
]


def test_bad_specs_are_refused_with_a_message() -> None:
    """Bad input gets a clear Russian message saying what to do."""

    def check(spec: EffectSpec, message: str) -> None:
        with pytest.raises(RulesError, match=message):
            make_effect(spec, Now(), "e1")

    assert_every_case(BAD_SPECS_ARE_REFUSED_WITH_A_MESSAGE, check)


def test_counts_are_accepted_up_to_ten_thousand() -> None:
    """An effect lasts 1…10 000 rounds or minutes and repeats every 0…10 000: both ends are
    accepted, one past them refused, and the message names the limit."""
    for duration in ("rounds", "minutes"):
        effect = make_effect(EffectSpec("X", duration=duration, amount=10_000), Now(), "e1")
        assert effect.amount == 10_000
        with pytest.raises(RulesError, match="от 1 до 10000"):
            make_effect(EffectSpec("X", duration=duration, amount=10_001), Now(), "e1")
    assert make_effect(EffectSpec("X", repeat_every=10_000), Now(), "e1").repeat_every == 10_000
    with pytest.raises(RulesError, match="каждые 1…10000"):
        make_effect(EffectSpec("X", repeat_every=10_001), Now(), "e1")


def test_each_effect_added_gets_the_next_id() -> None:
    """Effects are numbered as they are added (e1, e2, e3) and the set counts them, so an id
    is never given twice, even after one is removed."""
    e = EffectSet()
    for name in ("А", "Б", "В"):
        e = e.add(EffectSpec(name), Now())[0]
    assert [x.id for x in e.effects] == ["e1", "e2", "e3"] and e.counter == 3
    e = e.without("e3").add(EffectSpec("Г"), Now())[0]
    assert [x.id for x in e.effects] == ["e1", "e2", "e4"]


def test_the_clock_never_goes_back() -> None:
    """The scene clock only moves forward: going back is the undo's job."""
    with pytest.raises(RulesError, match="не идёт назад"):
        tick(EffectSet(minute=5), ClockStep(5, 4))


def test_a_damaged_document_is_refused() -> None:
    """A campaign document that is not an effect list is reported, not half-read."""
    with pytest.raises(RulesError, match="повреждены"):
        EffectSet.from_dict({"effects": [1]})
    with pytest.raises(RulesError, match="повреждён"):
        Effect.from_dict({"name": "X"})


def test_an_effect_saved_with_only_its_name_loads_as_a_plain_effect() -> None:
    """A document written before a field existed (or trimmed by hand) loads each missing
    field as «nothing»: no modifier, the scene, until removed, no repeat, shown. A default of
    −1 would read every such effect as a penalty on the scene's checks."""
    e = Effect.from_dict({"id": "e1", "name": "Туман"})
    assert (e.target, e.modifier, e.reason, e.duration, e.amount, e.anchor) == (
        "",
        0,
        "",
        "removed",
        0,
        "",
    )
    assert (e.repeat_every, e.repeat_unit, e.repeat_text, e.hidden) == (0, "round", "", False)
    assert (e.started_round, e.started_minute, e.expires, e.until_minute) == (0, 0, None, None)
    assert e.last_repeat == 0 and e.label == "Туман"
    loaded = EffectSet.from_dict({"effects": [{"id": "e1", "name": "Туман"}]})
    assert (loaded.minute, loaded.counter) == (0, 0)
    assert active_modifiers(loaded, "c") == ()
    after, notices = tick(loaded, ClockStep(0, 600))
    assert notices == [] and after.effects == loaded.effects  # never expires, never repeats


def test_a_spec_with_only_a_name_adds_a_plain_scene_effect() -> None:
    """The form's untouched fields: no modifier, the scene, until removed, no repeat."""
    effect = make_effect(EffectSpec("Туман"), Now(2, "a", 30), "e7")
    assert (effect.id, effect.name, effect.reason, effect.target, effect.modifier) == (
        "e7",
        "Туман",
        "Туман",
        "",
        0,
    )
    assert (effect.duration, effect.expires, effect.until_minute, effect.hidden) == (
        "removed",
        None,
        None,
        False,
    )
    assert (effect.started_round, effect.started_minute, effect.last_repeat) == (2, 30, 2)


def test_round_trip_through_the_document() -> None:
    """What is saved is what comes back."""
    t, _ = fight().next_turn()
    e = add(EffectSet(), t, name="Оглушён", target="c", modifier=-1, duration="rounds", amount=2)
    assert EffectSet.from_dict(e.to_dict()) == e


class EffectsWithUndo(RuleBasedStateMachine):
    """A fight with effects, turns, the clock, undo and redo in any order.

    The history is a list of (tracker, effects) states as the store keeps them; undo goes
    back one step and redo forward. Invariants: an expired effect never comes back but by
    undo; an effect is active exactly until its boundary.
    """

    def __init__(self) -> None:
        super().__init__()
        self.history = [(fight(), EffectSet())]
        self.at = 0

    @property
    def state(self):
        return self.history[self.at]

    def push(self, state) -> None:
        self.history = self.history[: self.at + 1] + [state]
        self.at += 1

    @rule(
        kind=st.sampled_from(["rounds", "turn_start", "turn_end", "minutes", "removed"]),
        amount=st.integers(1, 3),
        anchor=st.sampled_from(ORDER),
    )
    def add_effect(self, kind: str, amount: int, anchor: str) -> None:
        t, e = self.state
        spec = EffectSpec("E", target=anchor, modifier=-1, duration=kind, amount=amount)
        spec = EffectSpec(**{**vars(spec), "anchor": anchor})
        self.push((t, e.add(spec, Now(t.round, t.actor, e.minute))[0]))

    @rule()
    def next_turn(self) -> None:
        t, e = self.state
        t2, events = t.next_turn()
        e2, notices = tick_all(e, events, t2.order)
        gone = {x.id for x in e.effects} - {x.id for x in e2.effects}
        assert gone == {n.effect.id for n in notices if n.kind == "expired"}
        for x in e2.effects:  # nothing still active had its boundary in these events
            assert not any(
                x.expires
                and ev.kind == x.expires[0]
                and ev.combatant == x.expires[1]
                and ev.round >= x.expires[2]
                for ev in events
            )
        self.push((t2, e2))

    @rule(minutes=st.integers(0, 4))
    def clock(self, minutes: int) -> None:
        t, e = self.state
        e2, _ = tick(e, ClockStep(e.minute, e.minute + minutes))
        assert all(x.until_minute is None or x.until_minute > e2.minute for x in e2.effects)
        self.push((t, e2))

    @rule()
    def undo(self) -> None:
        if self.at:
            before = self.history[self.at][1]
            self.at -= 1
            # undo across an expiry brings the effect back, as it was
            assert {x.id for x in before.effects} - {x.id for x in self.state[1].effects} <= {
                x.id for x in before.effects
            }

    @rule()
    def redo(self) -> None:
        if self.at + 1 < len(self.history):
            self.at += 1

    @invariant()
    def saved_state_round_trips(self) -> None:
        t, e = self.state
        assert EffectSet.from_dict(e.to_dict()) == e
        assert Tracker.from_dict(t.to_dict()) == t


EffectsWithUndo.TestCase.settings = settings(
    max_examples=examples(30), stateful_step_count=25, deadline=None
)
TestEffectsWithUndo = EffectsWithUndo.TestCase


def test_undo_across_an_expiry_brings_the_effect_back() -> None:
    """An expiry is part of the turn's step: undoing that step restores the effect as it was."""
    t = fight()
    e = add(EffectSet(), t, name="Прикрыт", target="a", duration="turn_start", anchor="b")
    before = (t, e)
    t2, events = t.next_turn()
    e2, notices = tick_all(e, events, t2.order)
    assert [n.kind for n in notices] == ["expired"] and e2.effects == ()
    history = [before, (t2, e2)]
    assert history[0][1].effects[0].name == "Прикрыт"  # the undone state keeps it
    assert active_modifiers(history[0][1], "a") == ()

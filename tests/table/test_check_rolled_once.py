"""A rolled check is never rolled again by a key (docs/guide/checks.md; issue 34: «no check can
be rolled twice»), in Древо, Старатели and Мир Тьмы as in IDE4: on a rolled check the roll
(Enter) and every other way of rolling the form are refused by the engine's step with what to
do («n — новая проверка»); a new check is the explicit ``new_check`` (the builders' «n»).
Судьба before the roll is refused once the dice are seen. Мир Тьмы's extended action is the
exception the rules make: each Enter is its next roll, not the same roll again."""

from __future__ import annotations

import pytest

from rules.drevo.sheet import DrevoSheet
from tests.table.check_helpers import ok, table, undo
from tui.store import Store
from tui.systems.drevo.check import engine as drevo_engine
from tui.systems.drevo.check import steps as drevo
from tui.systems.starately.check import other as starately_other
from tui.systems.starately.check import steps as starately
from tui.systems.wod.check import contest as wod_contest
from tui.systems.wod.check import steps as wod
from tui.systems.wod.check.state import extended_of

STEPS = {"drevo": drevo, "starately": starately, "wod": wod}


def opened(tmp_path, system: str):
    store = Store.open(tmp_path / "c.json", system=system)
    for c in store.characters():
        if system == "drevo":
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=3))
    return store, table(store, seed=5)


def dice_of(t) -> object:
    rolled = t.state.rolled
    if t.system == "drevo":
        return rolled.dice
    if t.system == "starately":
        return tuple(p.dice for p in rolled.parts)
    return tuple(th.faces for th in rolled.throws)


def written(store: Store) -> tuple:
    return (store.get_doc("check"), store.depth, len(store.log()))


def refused(t, step, *args) -> str:
    """Make a step that must be refused: nothing written, the check as it was."""
    before, state = written(t.store), t.state
    outcome = t.run(step, *args)
    assert not outcome.ok, f"{step.__name__} was allowed on a rolled check"
    assert written(t.store) == before and t.state == state
    return outcome.refused


@pytest.mark.parametrize("system", sorted(STEPS))
def test_enter_on_a_rolled_check_is_refused_and_n_starts_the_next(tmp_path, system) -> None:
    """«A rolled check is never rolled again»: the roll again is refused and says what to do;
    «n» is a new check (its own id, the form kept), rolled with its own dice."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    first, dice = t.state, dice_of(t)
    why = refused(t, steps.roll)
    assert "уже брошена" in why and "n — новая проверка" in why
    assert t.state == first and dice_of(t) == dice
    ok(t, steps.new_check)
    assert t.state.rolled is None and t.state.id != first.id
    assert t.state.inputs == first.inputs or system == "drevo"  # (Древо: Судьба cleared)
    ok(t, steps.roll)
    assert t.state.id != first.id and len(store.log()) == 2


@pytest.mark.parametrize("system", sorted(STEPS))
def test_an_undone_roll_rolled_again_has_its_own_dice_and_no_other_way(tmp_path, system) -> None:
    """Ctrl+Z of the roll puts the form back, the roll again gives the same dice; Ctrl+Z of
    that, Ctrl+Y, Enter: never a second set of dice for the check."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    first, dice = t.state.id, dice_of(t)
    undo(t)
    assert t.state.rolled is None and t.state.id == first
    ok(t, steps.roll)
    assert (t.state.id, dice_of(t)) == (first, dice)
    refused(t, steps.roll)
    undo(t)
    store.redo()
    t.follow()
    assert (t.state.id, dice_of(t)) == (first, dice)
    refused(t, steps.roll)


@pytest.mark.parametrize("system", sorted(STEPS))
def test_a_row_changed_after_the_roll_starts_the_next_check(tmp_path, system) -> None:
    """The rolled check's choices are the record of its roll (IDE4 refuses to change them;
    its form is gone after the roll): here the form stays on screen, and a GM who changes a
    row is making the next check — unrolled, its own id; the rolled one stays as rolled."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    first = t.state
    doc = store.get_doc("check")
    name, value = {"drevo": ("difficulty", 3), "starately": ("boons", 1)}.get(
        system, ("mods", "+2")
    )
    ok(t, steps.set_input, name, value)
    assert t.state.rolled is None and t.state.id != first.id
    assert getattr(t.state.inputs, name) == value
    assert store.get_doc("check") == doc  # the rolled check as it was rolled
    ok(t, steps.set_input, name, value)  # the same value again: nothing new
    second = t.state.id
    ok(t, steps.set_input, name, getattr(first.inputs, name))
    assert t.state.id == second  # an unrolled form is one check while it is changed


def test_drevo_fate_before_the_roll_is_refused_once_the_dice_are_seen(tmp_path) -> None:
    """Сид: «Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим)
    успехом пройти одностороннюю проверку (он должен объявить об этом до броска кубиков).»
    After the roll «f» was taken as a new check with Судьба: the critical success bought
    once the failure was seen. Refused after the roll, and after its undo too (the dice of
    this check are seen: rolled again it gets them); the player's seat is told the same."""
    store, t = opened(tmp_path, "drevo")
    c = t.view().character
    ok(t, drevo.roll)
    rolled, dice = t.state, t.state.rolled.dice
    why = refused(t, drevo.declare_fate)
    assert "уже брошена" in why and "до броска" in why and "n — новая проверка" in why
    refused(t, drevo_engine.seat_step, "fate", {"use": "before"})  # a player's seat
    assert t.state == rolled
    undo(t)
    assert t.state.rolled is None
    why = refused(t, drevo.declare_fate, True)
    assert "уже брошены" in why and "n — новая проверка" in why
    assert refused(t, drevo_engine.seat_step, "fate", {"use": "before"}) == why
    assert not drevo_engine.offer(t.state, t.world()).choices  # nor offered to the seat
    ok(t, drevo.roll)
    assert t.state.rolled.dice == dice and not t.state.rolled.fate_auto
    assert store.character(c.id).drevo.fate == 3  # no point paid: no critical success bought
    ok(t, drevo.new_check)
    ok(t, drevo.declare_fate, True)  # a new check: Судьба declared before its roll
    ok(t, drevo.roll)
    assert t.state.rolled.dice is None and store.character(c.id).drevo.fate == 2


def test_drevo_fate_declared_and_taken_back_before_any_dice_is_allowed(tmp_path) -> None:
    """Судьба declared, rolled (no dice), undone: the form has it declared; taken back, the
    check rolls its dice — nothing random was seen before the choice."""
    store, t = opened(tmp_path, "drevo")
    ok(t, drevo.declare_fate, True)
    ok(t, drevo.roll)
    assert t.state.rolled.dice is None
    undo(t)
    assert t.state.inputs.fate_auto
    ok(t, drevo.declare_fate, False)
    ok(t, drevo.roll)
    assert t.state.rolled.dice is not None


def test_starately_other_rolls_of_a_rolled_check_are_refused(tmp_path) -> None:
    """A chain, a group check or an встречный бросок after the roll rolled the form's
    character again as a new check: refused like Enter, their dialogs not opened."""
    store, t = opened(tmp_path, "starately")
    ok(t, starately.set_input, "skill", "Стрельба")
    ok(t, starately.roll)
    others = [c for c in store.characters() if c.id != t.state.inputs.character]
    for kind in starately_other.KINDS:
        assert "n — новая проверка" in refused(t, starately_other.open_other, kind)
    side = t.view().check.side
    refused(t, starately.chain, side, others[0].id)
    refused(t, starately.group, [(side, others[0].id)])
    refused(t, starately.opposed, side, others[0].id, None)


def test_wod_other_rolls_of_a_rolled_check_are_refused(tmp_path) -> None:
    """A contest, a withdrawal or an extended action after the roll was a new check rolled
    by one key: refused like Enter."""
    store, t = opened(tmp_path, "wod")
    ok(t, wod.roll)
    assert "n — новая проверка" in refused(t, wod_contest.open_contest)
    pool = t.view().pool
    other = next(c for c in store.characters() if c.id != t.state.inputs.character)
    refused(t, wod.contest, pool, other.id)
    refused(t, wod.withdraw)
    refused(t, wod.start_extended, 5)


def test_wod_each_enter_of_an_extended_action_is_its_next_roll(tmp_path) -> None:
    """[default] «extended — successes accumulate over rolls toward a target the GM sets»:
    Enter adds a roll to the action (one check, its rolls numbered); once it is over, Enter
    is refused as on any rolled check, and «n» starts the next."""
    store, t = opened(tmp_path, "wod")
    ok(t, wod.start_extended, 2)
    action = t.state.id
    ok(t, wod.set_input, "mods", "+1")  # the pool of the next roll: the same action
    assert t.state.id == action and t.state.extending
    while t.state.extending:
        ok(t, wod.roll)
        assert t.state.id == action
    rolls = len(extended_of(t.state.rolled).rolls)
    assert rolls >= 1
    assert "n — новая проверка" in refused(t, wod.roll)
    ok(t, wod.new_check)
    assert t.state.id != action and t.state.rolled is None


def agree(a: object, b: object) -> bool:
    """Whether two rolls' dice are the same as far as both go (per pool or side)."""
    if isinstance(a, tuple) and a and isinstance(a[0], tuple):
        return all(x[: len(y)] == y[: len(x)] for x, y in zip(a, b, strict=False))
    return a == b


ROW = {"drevo": ("difficulty", 3), "starately": ("boons", 1), "wod": ("mods", "+2")}


@pytest.mark.parametrize("system", sorted(STEPS))
def test_a_row_changed_after_the_roll_then_ctrl_z_rolls_the_same_dice(tmp_path, system) -> None:
    """Rolled; a row changed (the next check, unrolled); Ctrl+Z of the roll; Enter: the dice
    the undone roll had — the order of the two keys gives no new dice. Found by playing:
    both orders of «change a row» and «Ctrl+Z» were one key apart, and this one rolled new
    dice, then kept them when the row went back."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    dice = dice_of(t)
    name, value = ROW[system]
    back = getattr(t.state.inputs, name)
    ok(t, steps.set_input, name, value)
    undo(t)
    ok(t, steps.roll)
    assert agree(dice_of(t), dice)
    undo(t)
    ok(t, steps.set_input, name, back)
    ok(t, steps.roll)
    assert dice_of(t) == dice


@pytest.mark.parametrize("system", sorted(STEPS))
def test_an_undone_roll_is_rolled_again_after_n_a_restart_or_another_character(
    tmp_path, system
) -> None:
    """Rolled, Ctrl+Z; then «n», or another character and back, or kubik restarted: the form
    is another check, and its roll throws the undone roll's dice (they came out new)."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    dice, who = dice_of(t), t.state.rolled and t.state.inputs.character
    undo(t)
    ok(t, steps.new_check)
    ok(t, steps.roll)
    assert dice_of(t) == dice
    undo(t)
    other = next(c.id for c in store.characters() if c.id != who)
    ok(t, steps.set_input, "character", other)
    ok(t, steps.set_input, "character", who)
    ok(t, steps.roll)
    assert dice_of(t) == dice
    undo(t)
    store.close()
    store = Store.open(tmp_path / "c.json")
    t = table(store, seed=99)
    ok(t, steps.set_input, "character", who)
    ok(t, steps.roll)
    assert dice_of(t) == dice


@pytest.mark.parametrize("system", sorted(STEPS))
def test_a_roll_that_stands_leaves_the_next_check_its_own_dice(tmp_path, system) -> None:
    """A roll undone and rolled again stands; «n», Enter: new dice (the undone ones were
    thrown — the roll that stands used them)."""
    store, t = opened(tmp_path, system)
    steps = STEPS[system]
    ok(t, steps.roll)
    dice = dice_of(t)
    undo(t)
    ok(t, steps.roll)
    assert dice_of(t) == dice
    ok(t, steps.new_check)
    ok(t, steps.roll)
    assert dice_of(t) != dice

"""The GM's moves on an open IDE4™ check are undo steps (issue 14, issue 20), through the
engine alone: Ctrl+Z after a move puts the check back (the dice rolled stay), the move's
Журнал line is marked «отменено», the sheet is paid back; Ctrl+Y brings the same move again
(no new dice). Which key makes which move: tests/tui/test_gm_steps.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.table.check_helpers import energy, ok, redo, table, undo
from tui.store import Store
from tui.systems.ide4.check import steps


def rolled(tmp_path, level: str, natural: int = 20):
    """The first character's check at ``level``, rolled, its d100 rigged to ``natural`` (a
    Провал at 20: rerolls, energy and the sub-roll all apply), as its own step."""
    store = Store.open(tmp_path / "c.json", system="ide4")
    t = table(store)
    ok(t, steps.set_input, "level", level)
    ok(t, steps.roll)
    state = t.state
    rigged = replace(state, rolled=replace(state.rolled, natural=natural))
    store.put_doc("check", rigged.to_doc(), label="тест: d100")
    t.follow()
    return t


def newest(t, **data):
    """The newest Журнал entry whose data holds ``data``."""
    return next(e for e in t.store.log() if all(e.data.get(k) == v for k, v in data.items()))


def first_reroll(t) -> str:
    """The first source the check allows a reroll from (the dialog's first choice)."""
    from rules import ide4

    check = t.view().check
    return next(s for s in ide4.REROLL_SOURCES if not ide4.reroll_refusal(check, s))


MOVES = {
    # event: (level of the check, the move as the GM's key makes it)
    "reroll": ("expanded", lambda t: ok(t, steps.reroll, first_reroll(t))),
    "energy_after": ("expanded", lambda t: ok(t, steps.energy_after, 1)),
    "subroll": ("expanded", lambda t: ok(t, steps.subroll)),
    "level": ("standard", lambda t: ok(t, steps.set_level, "expanded", "мастер сменил уровень")),
    "demand": ("quick", lambda t: ok(t, steps.demand_expanded)),
}


@pytest.mark.parametrize("move", list(MOVES))
def test_undo_puts_the_check_back_and_redo_makes_the_same_move(tmp_path, move):
    """«Игрок имеет право потребовать Развёрнутую проверку в любой ситуации», a reroll,
    energy after, the sub-roll, the level: the move is one undo step, the dice stay as rolled."""
    level, make = MOVES[move]
    event = "level" if move == "demand" else move  # the demand on a quick check raises it
    t = rolled(tmp_path, level)
    before, name = t.view().check, t.view().check.input.actor
    start = energy(t.store, name)
    make(t)
    after = t.view().check
    assert after != before and after.steps[-1].kind == event
    assert newest(t, event=event).undone is False
    paid = energy(t.store, name)
    undo(t)
    assert t.view().check == before  # the d100 as rolled, the move gone
    assert newest(t, event=event).undone is True
    assert energy(t.store, name) == start  # the sheet paid back (energy after)
    redo(t)
    assert t.view().check == after  # the same move again, no new dice
    assert newest(t, event=event).undone is False
    assert energy(t.store, name) == paid


def test_a_level_raised_on_the_way_is_undone_with_the_move(tmp_path):
    """Energy after on a standard check raises the level first: both lines, one step."""
    t = rolled(tmp_path, "standard")
    before = t.view().check
    ok(t, steps.energy_after, 1)
    assert [s.kind for s in t.view().check.steps[-2:]] == ["level", "energy_after"]
    undo(t)
    assert t.view().check == before and t.view().check.level == "standard"
    marks = {e.data["event"]: e.undone for e in t.store.log()[:2]}
    assert marks == {"level": True, "energy_after": True}


def test_the_players_demand_before_the_roll(tmp_path):
    """The demand before the roll: its line, one undo step; undo puts the form back."""
    t = table(Store.open(tmp_path / "c.json", system="ide4"))
    ok(t, steps.set_input, "level", "standard")
    ok(t, steps.demand_expanded)
    assert t.state.inputs.player_demand and t.state.inputs.level == "expanded"
    assert newest(t, event="demand_expanded").undone is False
    undo(t)
    assert not t.state.inputs.player_demand and t.state.inputs.level == "standard"
    assert newest(t, event="demand_expanded").undone is True
    redo(t)
    assert t.state.inputs.player_demand and t.state.inputs.level == "expanded"


def test_the_demand_and_a_move_undone_and_redone_keep_the_moves(tmp_path):
    """The demand then energy after, undo twice, redo twice: the check has both again (the
    demand's step once kept its own copy of the check and brought it back over the move).
    Found by the state machine of the seats' check requests
    (tests/seats/test_check_requests_machine.py)."""
    t = rolled(tmp_path, "quick")
    ok(t, steps.demand_expanded)
    ok(t, steps.energy_after, 1)
    both, name = t.view().check, t.view().check.input.actor
    assert [s.kind for s in both.steps[-2:]] == ["level", "energy_after"]
    undo(t)
    undo(t)
    redo(t)
    redo(t)
    assert t.view().check == both and energy(t.store, name) == both.pool_after


def test_a_move_after_the_demand_on_an_expanded_check_stays(tmp_path):
    """The demand on a rolled expanded check (a line, no level step), then the sub-roll: the
    next store change must not bring the check back to before the sub-roll."""
    t = rolled(tmp_path, "expanded")
    ok(t, steps.demand_expanded)
    assert newest(t, event="demand_expanded").undone is False
    ok(t, steps.subroll)
    assert t.view().check.steps[-1].kind == "subroll"
    undo(t)
    assert t.view().check.steps[-1].kind != "subroll"
    assert newest(t, event="demand_expanded").undone is False
    redo(t)
    assert t.view().check.steps[-1].kind == "subroll"


def test_an_undone_roll_comes_back_after_another_character_or_a_restart(tmp_path):
    """Rolled, Ctrl+Z, another character and back, Enter: the same d100 (found by playing:
    «d100: 4» became «74»); Ctrl+Z, kubik restarted, Enter: the same d100 again."""
    store = Store.open(tmp_path / "c.json", system="ide4")
    t = table(store)
    ok(t, steps.roll)
    natural, who = t.state.rolled.natural, t.state.inputs.character
    undo(t)
    other = next(c.id for c in store.characters() if c.id != who)
    ok(t, steps.set_input, "character", other)
    ok(t, steps.set_input, "character", who)
    ok(t, steps.roll)
    assert t.state.rolled.natural == natural
    undo(t)
    store.close()
    t = table(Store.open(tmp_path / "c.json"), seed=99)
    ok(t, steps.set_input, "character", who)
    ok(t, steps.roll)
    assert t.state.rolled.natural == natural


def test_energy_after_chosen_again_keeps_its_dice_as_far_as_they_go(tmp_path):
    """Three energy dice after the roll, Ctrl+Z, two, Ctrl+Z, three: the first two dice,
    then all three of the first (found by playing: «3×d6: 4+4+3», then «4+6», then
    «4+5+4» — the earlier dice were taken only when their count was the same)."""
    t = rolled(tmp_path, "expanded")
    assert energy(t.store, t.view().check.input.actor) >= 3  # the demo's first character
    ok(t, steps.energy_after, 3)
    first = t.state.rolled.moves[-1].dice
    undo(t)
    ok(t, steps.energy_after, 2)
    assert t.state.rolled.moves[-1].dice == first[:2]
    undo(t)
    ok(t, steps.energy_after, 3)
    assert t.state.rolled.moves[-1].dice == first


def test_energy_after_an_undone_roll_comes_back_on_another_check_of_its_dice(tmp_path):
    """Roll and three energy dice, both undone; another character and back, the roll and
    the energy again; both undone, kubik restarted, again: the same d100 and energy dice
    (found by playing: «d100: 4» came back, «4+3+2» became «5+3+4»)."""
    store = Store.open(tmp_path / "c.json", system="ide4")
    t = table(store)
    ok(t, steps.set_input, "level", "expanded")
    ok(t, steps.roll)
    who = t.state.inputs.character
    ok(t, steps.energy_after, 3)
    natural, dice = t.state.rolled.natural, t.state.rolled.moves[-1].dice
    other = next(c.id for c in store.characters() if c.id != who)
    for restart in (False, True):
        undo(t)
        undo(t)
        if restart:
            store.close()
            store = Store.open(tmp_path / "c.json")
            t = table(store, seed=77)
        else:
            ok(t, steps.set_input, "character", other)
        ok(t, steps.set_input, "character", who)
        ok(t, steps.set_input, "level", "expanded")
        ok(t, steps.roll)
        ok(t, steps.energy_after, 3)
        assert (t.state.rolled.natural, t.state.rolled.moves[-1].dice) == (natural, dice)

"""The open Древо check (outside a fight) on the table engine, without Textual: kept in the
campaign as it is rolled and as each point of Судьба is spent, what each point would do shown."""

from __future__ import annotations

import os

import pytest

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from tests.table.check_helpers import REMOVERS, killed_after, ok, remove, table
from tui.store import Store
from tui.systems.drevo.check import steps


def store_of(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="drevo")


def snapshot(t) -> tuple:
    result = t.view().result
    return (t.state.to_doc(), result.dice, result.fate_shift, result.outcome)


def with_fate(store: Store, points: int = 3):
    c = next(iter(store.characters()))
    store.upsert_character(c.edit_sheet(DrevoSheet, fate=points))
    return c.id


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("shifts", [0, 1, 2])
def test_kill_9_after_the_roll_and_each_point_of_fate_restores_the_same_check(tmp_path, shifts):
    path = tmp_path / "c.json"
    store = store_of(tmp_path)
    with_fate(store)
    store.close()

    def play(t):
        ok(t, steps.roll)
        for _ in range(shifts):
            ok(t, steps.fate_shift, 1)
        return snapshot(t)

    seen = killed_after(path, "drevo", play)
    t = table(Store.open(path), seed=99)
    assert repr(snapshot(t)) == seen
    assert t.view().result.fate_shift == shifts


def test_a_roll_undone_is_rolled_again_with_the_same_dice_and_fate_paid_once(tmp_path):
    """Сид: Судьба до броска — «автоматический критический успех»: its point is paid at the
    roll; Ctrl+Z gives it back and the check is the form again."""
    store = store_of(tmp_path)
    cid = with_fate(store)
    t = table(store)
    ok(t, steps.roll)
    dice = t.view().result.dice
    store.undo()
    t.follow()
    assert t.state.rolled is None
    ok(t, steps.roll)
    assert t.view().result.dice == dice
    ok(t, steps.new_check)  # «n»: Судьба is declared before a roll
    ok(t, steps.declare_fate, True)
    ok(t, steps.roll)
    assert t.view().result.outcome == "crit_success" and store.character(cid).drevo.fate == 2
    store.undo()
    t.follow()
    assert store.character(cid).drevo.fate == 3 and t.state.inputs.fate_auto


def test_what_each_point_of_fate_would_do_is_shown(tmp_path):
    """Сид: Судьба после броска — ±1 к результату за очко: the fewest points that change the
    outcome are named, and they do what they say."""
    store = store_of(tmp_path)
    with_fate(store)
    t = table(store)
    ok(t, steps.roll)
    shown = t.view()
    for points, outcome, changes in shown.fate_offers():
        after = drevo.shift_one_sided(shown.result, points)
        assert after.outcome == outcome and changes == (outcome != shown.result.outcome)
    assert "очк" in shown.fate_words()


def test_another_action_ranks_its_traits_anew(tmp_path):
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "action", "melee")
    melee = t.view().rows["trait"].value
    ok(t, steps.set_input, "action", "dodge")
    shown = t.view()
    assert shown.rows["trait"].value in [v for _, v in shown.rows["trait"].options]
    assert shown.reason  # why the rules rank it first
    assert melee is not None


def test_a_check_redone_after_a_restart_and_undone_again_is_never_rolled_twice(tmp_path):
    """Found by the check machine: two checks rolled, the second undone, kubik restarted, the
    second redone and undone again. The open check must be the second one's form (rolled
    again, its own dice), never the first check — whose roll still stands — rolled anew."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.roll)
    first = t.state
    ok(t, steps.new_check)  # «n», Enter: the next check rolled
    ok(t, steps.roll)
    second = t.state
    assert second.id != first.id
    store.undo()
    store.close()
    store = Store.open(tmp_path / "c.json")
    t = table(store, seed=99)
    assert t.state == first  # the first check's roll stands: it is the open one
    store.redo()
    t.follow()
    assert t.state == second
    store.undo()
    t.follow()
    assert t.state.id == second.id and t.state.rolled is None
    ok(t, steps.roll)
    assert t.state.id == second.id and t.state.rolled.dice == second.rolled.dice


def test_a_roll_made_with_fate_declared_gives_back_its_form_and_never_new_dice(tmp_path):
    """Found by the check machine: a roll with Судьба declared (an automatic success: no dice
    thrown), kubik restarted, undone: the form is the one rolled (Судьба still declared), as
    it is without a restart. Судьба taken back and the check rolled, restarted, undone: the
    roll again takes the dice it had, never new ones — and Судьба is not declared on dice
    already seen (the seed: «он должен объявить об этом до броска кубиков»)."""
    store = store_of(tmp_path)
    with_fate(store)
    t = table(store, seed=5)
    ok(t, steps.declare_fate, True)
    ok(t, steps.roll)
    assert t.state.rolled.dice is None and t.state.rolled.fate_auto
    t = restarted_and_undone(store, tmp_path)
    assert t.state.rolled is None and t.state.inputs.fate_auto  # the form as it was rolled
    ok(t, steps.declare_fate, False)
    ok(t, steps.roll)
    first = t.state.rolled.dice
    assert first is not None
    t = restarted_and_undone(t.store, tmp_path)
    assert t.state.rolled is None and not t.state.inputs.fate_auto
    assert not t.run(steps.declare_fate, True).ok
    ok(t, steps.roll)
    assert t.state.rolled.dice == first


def restarted_and_undone(store: Store, tmp_path):
    """kubik quits and starts again on the campaign; Ctrl+Z."""
    store.close()
    store = Store.open(tmp_path / "c.json")
    t = table(store, seed=99)
    store.undo()
    t.follow()
    return t


@pytest.mark.parametrize("by", sorted(REMOVERS))
def test_a_rolled_check_whose_character_was_removed_says_so(tmp_path, by) -> None:
    """Богдан rolled; another window removes him: the form's rows fall back to the next
    character, and the check says the rolled one is gone (its result was shown under
    Горан's rows with no word of it). It says who removed him: another window, a ``kubik``
    command (it said «в другом окне» for ``kubik party remove`` too), or this window."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.roll)
    who = t.state.rolled.character
    name = store.character(who).name
    remove(store, who, by)
    t.follow()
    said = f"Персонаж {name} {REMOVERS[by]}"
    assert any(said in c for c in t.view().changes), t.view().changes
    assert any(said in line for line in t.view().result_lines())
    assert t.run(steps.fate_shift, 1).refused.startswith(said)


def test_a_check_rolled_with_fate_declared_shows_its_own_odds_and_words(tmp_path) -> None:
    """Seed: «Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим)
    успехом пройти одностороннюю проверку (он должен объявить об этом до броска кубиков)».
    Rolled with Судьба
    declared, the check's odds stay those of its roll (a critical success, certain) and its
    words never say the dice decide it (found by playing: after Enter the chart went back to
    «Критический успех 1,2%» and the line said «крит решают кубики» — no dice were thrown)."""
    from rules import drevo as rules_drevo

    store = store_of(tmp_path)
    with_fate(store)
    t = table(store, seed=5)
    ok(t, steps.declare_fate, True)
    before = rules_drevo.one_sided_odds(t.view().check)
    ok(t, steps.roll)
    shown = t.view()
    assert shown.result.fate_auto and shown.check.fate_auto
    assert rules_drevo.one_sided_odds(shown.check) == before
    assert before["crit_success"] == 1
    assert "крит решают кубики" not in " ".join(shown.result_lines())
    assert "Кубики не бросались" in " ".join(shown.result_lines())
    refused = t.run(steps.fate_shift, 1)  # no dice: no point moves it (it spent one)
    assert not refused.ok and "Кубики не бросались" in refused.refused
    from tui.systems.drevo.check import engine  # a player's seat: neither offered nor taken

    offer = engine.offer(t.state, t.world())
    assert offer is not None and not any("после броска" in x for x in offer.choices)
    why = engine.seat_refusal(t.state, t.world(), "fate", {"use": "after", "points": 1})
    assert "Кубики не бросались" in why

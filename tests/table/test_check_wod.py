"""The open Мир Тьмы check on the table engine, without Textual: kept in the campaign as it is
rolled (an extended action roll by roll), never stale."""

from __future__ import annotations

import os

import pytest

from rules import wod
from tests.table.check_helpers import killed_after, ok, table
from tui.store import Store
from tui.table.check import wod_steps as steps
from tui.table.check.wod import extended_of


def store_of(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="wod")


def person(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def snapshot(t) -> tuple:
    rolled = t.state.rolled
    return (t.state.to_doc(), [list(th.faces) for th in rolled.throws], t.view().result_lines())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("rolls", [0, 1, 2])
def test_kill_9_after_a_roll_or_an_extended_actions_rolls_restores_them(tmp_path, rolls):
    """A pool rolled (``rolls`` 0), or an extended action after each roll, outlives kill -9:
    the same faces, the same successes, the action still going."""
    path = tmp_path / "c.json"
    store_of(tmp_path).close()

    def play(t):
        if rolls == 0:
            ok(t, steps.roll)
        else:
            ok(t, steps.start_extended, 30)
            for _ in range(rolls):
                ok(t, steps.roll)
        return snapshot(t)

    seen = killed_after(path, "wod", play)
    t = table(Store.open(path), seed=99)
    assert repr(snapshot(t)) == seen
    if rolls:
        assert t.state.extending and len(extended_of(t.state.rolled).rolls) == rolls


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_an_extended_action_started_outlives_kill_9_before_its_first_roll(tmp_path):
    """«the extended action's start is not saved»: started with its target, then kill -9 —
    the restarted check is that action (its target, no roll yet), Enter rolls into it; its
    line names the target, and the luck ledger counts no dice for it."""
    from rules.ledger import entry_luck

    path = tmp_path / "c.json"
    store_of(tmp_path).close()

    def play(t):
        ok(t, steps.start_extended, 7)
        return t.state.to_doc()

    seen = killed_after(path, "wod", play)
    store = Store.open(path)
    t = table(store, seed=99)
    assert repr(t.state.to_doc()) == seen
    assert t.state.extending and t.state.rolled.target == 7
    (line,) = store.log()
    assert "цель — 7 успехов" in line.text and entry_luck(line.kind, line.actor, line.data) is None
    ok(t, steps.roll)
    assert len(extended_of(t.state.rolled).rolls) == 1 and t.state.rolled.target == 7
    store.undo()
    store.undo()
    t.follow()
    assert t.state.rolled is None  # the start undone: the form


def test_an_extended_action_stopped_before_its_first_roll_is_written(tmp_path) -> None:
    """Stopped before any roll: written too, so a restart does not bring it back."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.start_extended, 5)
    ok(t, steps.stop_extended)
    assert t.state.rolled is None
    assert table(Store.open(tmp_path / "c.json"), seed=3).state.rolled is None
    assert store.log()[0].text == "Продолжительное действие отменено до первого броска"


def test_a_skill_brings_its_usual_attribute(tmp_path) -> None:
    """«Мир Тьмы «Огнестрельное оружие» defaults to Интеллект»: Глеб's firearms are rolled
    with Ловкость (the campaign's table of usual attributes), unless the GM takes another."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "character", person(store, "Глеб Орлов").id)
    ok(t, steps.set_input, "skill", "Огнестрельное оружие")
    assert wod.usual_attribute("Огнестрельное оружие") == "Ловкость"
    assert t.view().pool.attribute_name == "Ловкость"
    ok(t, steps.set_input, "attribute", "Сообразительность")
    assert t.view().pool.attribute_name == "Сообразительность"
    ok(t, steps.set_input, "skill", "Драка")
    assert t.view().pool.attribute_name == "Сила"


def test_another_character_starts_from_his_own_sheet(tmp_path) -> None:
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "character", person(store, "Глеб Орлов").id)
    ok(t, steps.set_input, "attribute", "Решимость")
    ok(t, steps.set_input, "character", person(store, "Вера Соколова").id)
    pool = t.view().pool
    assert (pool.attribute_name, pool.skill_name) == ("Интеллект", "Расследование")


def test_a_roll_undone_is_rolled_again_with_the_same_faces(tmp_path) -> None:
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.roll)
    faces = t.state.rolled.throws[0].faces
    store.undo()
    t.follow()
    assert t.state.rolled is None
    ok(t, steps.roll)
    assert t.state.rolled.throws[0].faces == faces

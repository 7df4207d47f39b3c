"""The other side of a Старатели chain, group or встречный бросок and a Мир Тьмы contest's
opponent, on the table engine (issue 34): derived from the chosen character's own sheet, never
oneself, and the roll kept in the campaign — the same record after kill -9."""

from __future__ import annotations

import os

import pytest

from rules import starately, wod
from tests.table.check_helpers import killed_after, ok, table
from tui.present.rolls import percent
from tui.store import Store
from tui.systems.starately.check import other as so
from tui.systems.starately.check import steps as st_steps
from tui.systems.wod.check import contest
from tui.systems.wod.check import steps as wod_steps


def person(store: Store, name: str) -> str:
    return next(c.id for c in store.characters() if c.name == name)


def test_a_starately_opponent_is_derived_from_his_own_sheet(tmp_path) -> None:
    """«Старатели carries Борис's Образование over to Хаим; its opposed dialog always starts
    on Борис»: another opponent gets the first side's characteristic when he has it and his
    own skills; Борис, whose check it is, is never offered; a sheet edited in another window
    is what the rows show."""
    store = Store.open(tmp_path / "c.json", system="starately")
    t = table(store)
    boris, haim = person(store, "Борис"), person(store, "Хаим")
    ok(t, st_steps.set_input, "character", boris)
    ok(t, st_steps.set_input, "characteristic", "Образование")
    ok(t, so.open_other, "opposed", haim)
    shown = so.other_view(t.state, t.world())
    assert boris not in [v for _, v in shown.rows["character"][0]]
    assert shown.rows["characteristic"][1] == "Образование"
    assert shown.rows["skill"][1] == "Стрельба" and shown.side.name == "Хаим"
    ok(t, so.set_other, "skill", "Драка")
    ok(t, so.set_other, "character", person(store, "Дарина"))
    shown = so.other_view(t.state, t.world())
    assert shown.rows["skill"][1] == "Стрельба" and shown.side.skill == 4  # hers, not Хаим's
    assert t.run(so.set_other, "character", boris).refused == so.HIMSELF
    dar = store.character(person(store, "Дарина"))
    store.upsert_character(dar.__class__(**{**dar.__dict__, "skills": dar.skills[1:]}))
    shown = so.other_view(t.state, t.world())
    assert shown.rows["skill"][1] == "Скрытность"  # her first skill now
    assert shown.lines()[0].startswith("Борис")
    assert starately.opposed_odds(shown.opposed()).a > 0


def test_a_group_leaves_out_whom_the_gm_chose(tmp_path) -> None:
    """«Для помощи необходимо иметь тот же навык хотя бы на 1 уровне»: Алик and Сергей
    (Медицина-1) may help Борис, Дарина may not; the GM leaves Алик out — only Сергей rolls."""
    store = Store.open(tmp_path / "c.json", system="starately")
    t = table(store)
    ok(t, st_steps.set_input, "character", person(store, "Борис"))
    ok(t, st_steps.set_input, "characteristic", "Интеллект")
    ok(t, so.open_other, "group")
    shown = so.other_view(t.state, t.world())
    assert sorted(s.name for s, _ in shown.sides()) == ["Алик", "Сергей"]
    assert any("Дарина" in r for r in shown.refused)
    ok(t, so.set_other, "help:" + person(store, "Алик"), False)
    ok(t, so.roll_other)
    assert [p.side.name for p in t.state.rolled.parts] == ["Сергей", "Борис"]
    assert t.state.other is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("kind", so.KINDS)
def test_kill_9_after_a_chain_group_or_opposed_roll_restores_it(tmp_path, kind) -> None:
    path = tmp_path / "c.json"
    Store.open(path, system="starately").close()

    def play(t):
        ok(t, st_steps.set_input, "characteristic", "Интеллект")
        ok(t, so.open_other, kind)
        ok(t, so.roll_other)
        return t.state.to_doc()

    seen = killed_after(path, "starately", play)
    t = table(Store.open(path), seed=99)
    assert repr(t.state.to_doc()) == seen and t.state.rolled.kind == kind
    assert t.view().rolled is not None


def test_a_wod_opponent_takes_his_skills_usual_attribute_and_never_oneself(tmp_path) -> None:
    """«Мир Тьмы «Огнестрельное оружие» defaults to Интеллект» — in the contest's dialog too:
    Глеб's firearms are rolled with Ловкость; Вера, whose check it is, is never offered."""
    store = Store.open(tmp_path / "c.json", system="wod")
    t = table(store)
    vera, gleb = person(store, "Вера Соколова"), person(store, "Глеб Орлов")
    ok(t, wod_steps.set_input, "character", vera)
    ok(t, contest.open_contest, person(store, "Нина Лаврова"))
    ok(t, contest.set_contest, "character", gleb)
    ok(t, contest.set_contest, "skill", "Огнестрельное оружие")
    shown = contest.contest_view(t.state, t.world())
    assert shown.rows()["attribute"][1] == "Ловкость"
    assert vera not in [v for _, v in shown.rows()["character"][0]]
    assert t.run(contest.set_contest, "character", vera).refused == contest.HIMSELF
    odds = wod.contested_odds(shown.main, shown.pool)
    assert f"ничья {percent(odds.tie)}" in shown.lines()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_kill_9_after_a_contest_restores_it_and_an_undo_rolls_the_same_faces(tmp_path) -> None:
    path = tmp_path / "c.json"
    Store.open(path, system="wod").close()

    def play(t):
        ok(t, contest.open_contest)
        ok(t, contest.roll_contest)
        return t.state.to_doc()

    seen = killed_after(path, "wod", play)
    store = Store.open(path)
    t = table(store, seed=99)
    assert repr(t.state.to_doc()) == seen and t.state.rolled.kind == "contest"
    faces = [th.faces for th in t.state.rolled.throws]
    store.undo()
    t.follow()
    assert t.state.rolled is None
    ok(t, contest.open_contest)
    ok(t, contest.roll_contest)
    assert [th.faces for th in t.state.rolled.throws] == faces


# -- a side removed in another window while its dialog is open (PLAYBOOK «a second kubik») --


def test_a_wod_opponent_removed_elsewhere_is_not_silently_replaced(tmp_path) -> None:
    """«with the Состязание dialog open on Глеб Орлов, `kubik party remove "Глеб Орлов"` → the
    dialog switched to Нина Лаврова with no notice and Enter rolled against her»: the view says
    he is gone and whom it shows, the roll is refused until the GM confirms the one shown."""
    store = Store.open(tmp_path / "c.json", system="wod")
    t = table(store)
    gleb = person(store, "Глеб Орлов")
    ok(t, contest.open_contest, gleb)
    assert contest.contest_view(t.state, t.world()).swapped == ""
    store.delete_character(gleb)
    shown = contest.contest_view(t.state, t.world())
    substitute = shown.side.character
    assert substitute is not None and substitute.id != gleb
    assert "удалён" in shown.swapped and substitute.name in shown.swapped
    assert shown.swapped in shown.lines() and shown.pool is None
    assert t.run(contest.roll_contest).refused == shown.swapped
    assert store.log() == []  # nothing rolled against the one shown in his place
    ok(t, contest.confirm_contest)
    assert contest.contest_view(t.state, t.world()).swapped == ""
    ok(t, contest.roll_contest)
    [entry] = store.log()
    assert entry.data["b"]["pool"]["name"] == substitute.name


def test_an_ide4_second_side_removed_elsewhere_is_not_silently_replaced(tmp_path) -> None:
    """The same for IDE4's opposed check: its second side removed in another window."""
    from tui.systems.ide4.check import opposed as opp
    from tui.systems.ide4.check import steps as ide4_steps

    store = Store.open(tmp_path / "c.json", system="ide4")
    t = table(store)
    ok(t, ide4_steps.set_input, "character", person(store, "Ольга Ренн"))
    ok(t, ide4_steps.set_input, "level", "expanded")
    ok(t, ide4_steps.set_input, "action", "Переговоры")
    vera = person(store, "Вера Стрижова")
    ok(t, opp.open_opposed, vera)
    store.delete_character(vera)
    shown = opp.opposed_view(t.state, t.world())
    substitute = shown.side.character
    assert substitute is not None and substitute.id != vera
    assert "удалён" in shown.swapped and substitute.name in shown.swapped
    assert t.run(opp.roll_opposed).refused == shown.swapped
    assert store.log() == []
    ok(t, opp.confirm_opposed)
    assert opp.opposed_view(t.state, t.world()).swapped == ""
    ok(t, opp.roll_opposed)
    assert len(store.log()) == 1


@pytest.mark.parametrize("kind", ["chain", "opposed"])
def test_a_starately_other_side_removed_elsewhere_is_not_silently_replaced(tmp_path, kind):
    """The same for Старатели's helper of a chain and opponent of a встречный бросок."""
    store = Store.open(tmp_path / "c.json", system="starately")
    t = table(store)
    ok(t, st_steps.set_input, "character", person(store, "Борис"))
    ok(t, st_steps.set_input, "characteristic", "Интеллект")
    haim = person(store, "Хаим")
    ok(t, so.open_other, kind, haim)
    store.delete_character(haim)
    shown = so.other_view(t.state, t.world())
    assert shown.character is not None and shown.character.id != haim
    assert "удалён" in shown.swapped and shown.character.name in shown.swapped
    assert t.run(so.roll_other).refused == shown.swapped
    assert store.log() == []
    ok(t, so.confirm_other)
    assert so.other_view(t.state, t.world()).swapped == ""
    ok(t, so.roll_other)
    assert len(store.log()) == 1

"""The open Старатели check on the table engine, without Textual: kept in the campaign as it
is rolled and as Risk is declared, never stale, Risk's worth shown before it is declared."""

from __future__ import annotations

import os

import pytest

from rules import starately
from tests.table.check_helpers import killed_after, ok, remove, table
from tui.store import Store
from tui.systems.starately.check import steps


def store_of(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="starately")


def person(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def failing(t) -> None:
    """Хаим without a skill at Подвиг 12+: a failure on all but a natural 12."""
    ok(t, steps.set_input, "character", person(t.store, "Хаим").id)
    ok(t, steps.set_input, "skill", "")
    ok(t, steps.set_input, "difficulty", 12)


def a_failure(store: Store):
    """Хаим's check rolled (:func:`failing`) until it fails (a natural 12 succeeds)."""
    t = table(store)
    failing(t)
    ok(t, steps.roll)
    while t.view().rolled.main.success:
        ok(t, steps.new_check)
        ok(t, steps.roll)
    return t


def snapshot(t) -> tuple:
    found = t.view().rolled
    last = found.last
    return (t.state.to_doc(), [d.value for d in last.dice], last.outcome, last.effect)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("risk", [False, True])
def test_kill_9_after_the_roll_and_after_risk_restores_the_same_check(tmp_path, risk) -> None:
    """A rolled check (and its Risk) outlives kill -9: the same dice, Risk still open or made."""
    path = tmp_path / "c.json"
    store_of(tmp_path).close()

    def play(t):
        failing(t)
        ok(t, steps.roll)
        while t.view().rolled.main.success:  # a natural 12: roll a new check
            ok(t, steps.new_check)
            ok(t, steps.roll)
        if risk:
            ok(t, steps.risk, "аптечка")
        return snapshot(t)

    seen = killed_after(path, "starately", play)
    t = table(Store.open(path), seed=99)
    assert repr(snapshot(t)) == seen
    assert (t.view().risk_refusal() is None) is (not risk)


def test_another_character_starts_from_his_own_sheet(tmp_path) -> None:
    """«Старатели carries Борис's Образование over to Хаим»: another character is another
    check, his own sheet's rows."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "character", person(store, "Борис").id)
    ok(t, steps.set_input, "characteristic", "Образование")
    ok(t, steps.set_input, "skill", "Медицина")
    assert t.view().check.side.characteristic == "Образование"
    first = t.state.id
    ok(t, steps.set_input, "character", person(store, "Хаим").id)
    shown = t.view()
    assert shown.check.side.characteristic == "Сила"  # his sheet's first, not Борис's choice
    assert shown.check.side.skill_name == "Стрельба" and t.state.id != first


def test_a_roll_undone_is_rolled_again_with_the_same_dice(tmp_path) -> None:
    store = store_of(tmp_path)
    t = table(store)
    failing(t)
    ok(t, steps.roll)
    dice = snapshot(t)[1]
    store.undo()
    t.follow()
    assert t.state.rolled is None
    ok(t, steps.roll)
    assert snapshot(t)[1] == dice


def test_a_boon_taken_back_and_given_again_after_undos_rolls_its_first_dice(tmp_path) -> None:
    """Rolled with a boon (three dice), undone, rolled without it (two), undone, rolled with
    the boon again: the first roll's three dice, the third one too."""
    store = store_of(tmp_path)
    t = table(store)
    failing(t)
    ok(t, steps.set_input, "boons", 1)
    ok(t, steps.roll)
    first = snapshot(t)[1]
    assert len(first) == 3
    store.undo()
    t.follow()
    ok(t, steps.set_input, "boons", 0)
    ok(t, steps.roll)
    assert snapshot(t)[1] == first[:2]
    store.undo()
    t.follow()
    ok(t, steps.set_input, "boons", 1)
    ok(t, steps.roll)
    assert snapshot(t)[1] == first


def test_risk_shows_what_it_is_worth_and_is_made_once(tmp_path) -> None:
    """Сид: «Игрок может заявить Риск и совершить проверку ещё раз. Вне зависимости от
    результата этой повторной проверки игрок заплатит за это»: the retry's odds are shown
    before it (the same numbers as the rules'), Risk once, the price written."""
    store = store_of(tmp_path)
    t = a_failure(store)
    shown = t.view()
    main = shown.rolled.main
    assert shown.risk_odds() == starately.risk_odds(main.check, main.effect)
    assert "r — Риск: успех" in "\n".join(shown.result_lines())
    assert "цену назначает ведущий" in shown.risk_words()
    ok(t, steps.risk, "аптечка")
    assert t.view().rolled.risk is not None and "цена: аптечка" in store.log()[0].text
    assert "уже заявлен" in t.run(steps.risk, "ещё").refused


def test_an_opposed_roll_is_never_against_oneself_and_starts_at_the_last_opponent(tmp_path):
    """«its opposed dialog always starts on Борис»; «a character can oppose himself»."""
    store = store_of(tmp_path)
    t = table(store)
    haim, dima = person(store, "Хаим"), person(store, "Дмитрий")
    ok(t, steps.set_input, "character", haim.id)
    me = t.view().check.side
    assert "не против себя" in t.run(steps.opposed, me, haim.id, "a").refused
    other = starately.Side(dm=0, skill=1, name=dima.name, pc=True)
    ok(t, steps.opposed, other, dima.id, "a")
    assert steps.last_opponent(t.world(), haim.id) == dima.id
    assert steps.last_opponent(t.world(), dima.id) is None


def test_boons_and_banes_are_two_counters_that_cancel(tmp_path) -> None:
    """«Несколько таких модификаторов могут отменять друг друга, но в любом случае кидается не
    более 3 костей и из них выбирается 2»: two +d6 and one −d6 roll 3d6, keep the two highest;
    two of each cancel to 2d6. (The builder's rows and Enter:
    tests/tui/test_builder_starately.py.)"""
    store = Store.open(tmp_path / "c.json", system="starately")
    t = table(store)
    ok(t, steps.set_input, "boons", 3)
    ok(t, steps.set_input, "banes", 1)
    assert "+d6 ×3, −d6 ×1 → 3d6 (+d6)" in t.view().formula()
    ok(t, steps.roll)
    [entry] = store.log()
    side = entry.data["side"]
    assert (side["boons"], side["banes"]) == (3, 1)
    assert len(entry.data["dice"]) == 3
    ok(t, steps.new_check)
    ok(t, steps.set_input, "boons", 2)
    ok(t, steps.set_input, "banes", 2)
    assert t.view().formula().startswith("+d6 ×2, −d6 ×2 → 2d6")


def test_an_unskilled_roll_names_the_skill_tried(tmp_path) -> None:
    """«Если навыка у вас нет, бросок совершается со штрафом -3»: without a skill the form asks
    which one is tried, and the Журнал says it."""
    store = Store.open(tmp_path / "c.json", system="starately")
    t = table(store)
    assert not t.view().tried_shown  # the sheet's first skill: nothing to ask
    ok(t, steps.set_input, "skill", "")
    assert t.view().tried_shown
    ok(t, steps.set_input, "tried", "Вождение")
    ok(t, steps.roll)
    [entry] = store.log()
    assert entry.data["side"]["skill"] is None
    assert entry.data["side"]["skill_name"] == "Вождение"
    assert "без навыка «Вождение»" in entry.text


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rows_make_the_check_and_a_boon_rolls_three_dice(tmp_path, seed) -> None:
    """«…кидается не более 3 костей и из них выбирается 2»: +d6 rolls 3d6, the lowest is
    dropped; the Журнал keeps every die, the total and Effect (moved from the builder's pilot
    test; the rows' keys: tests/tui/test_builder_starately.py)."""
    store = store_of(tmp_path)
    t = table(store, seed=seed)
    ok(t, steps.set_input, "characteristic", "Интеллект")
    ok(t, steps.set_input, "difficulty", 10)
    ok(t, steps.set_input, "boons", 1)
    ok(t, steps.roll)
    [entry] = store.log()
    data = entry.data
    assert entry.kind == "check" and entry.actor == "Борис"
    assert data["system"] == "starately" and data["kind"] == "check"
    assert data["side"]["characteristic"] == "Интеллект" and data["side"]["dm"] == 1
    assert data["side"]["skill_name"] == "Медицина" and data["side"]["skill"] == 3
    assert data["side"]["boons"] == 1 and data["difficulty"] == 10
    assert len(data["dice"]) == 3
    assert [d["kept"] for d in data["dice"]].count(False) == 1
    kept = [d["value"] for d in data["dice"] if d["kept"]]
    dropped = [d["value"] for d in data["dice"] if not d["kept"]]
    assert min(kept) >= dropped[0]  # the boon drops the lowest die
    assert data["natural"] == sum(kept)
    assert data["total"] == data["natural"] + 1 + 3
    assert data["effect"] == data["total"] - 10
    for value in (str(d["value"]) for d in data["dice"]):
        assert value in entry.text


def test_a_task_chain_carries_the_helper_effect(tmp_path) -> None:
    """«…Эффект первой проверки будет добавлен как модификатор ко второй.»: the helper rolls
    a step easier (Подвиг 12+ → 10+), his Effect is the main roll's last modifier."""
    from tui.systems.starately.check import other as so

    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "difficulty", 12)  # Борис, Медицина-3, Подвиг 12+
    ok(t, so.open_other, "chain")
    ok(t, so.roll_other)
    [entry] = store.log()
    data = entry.data
    assert data["kind"] == "chain"
    assert data["helper"]["difficulty"] == 10  # one step below Подвиг 12+
    assert data["helper"]["side"]["name"] != "Борис"
    assert data["main"]["side"]["modifiers"][-1]["value"] == data["carried"]
    assert data["carried"] == data["helper"]["effect"]
    assert len(data["helper"]["dice"]) == 2 and len(data["main"]["dice"]) == 2


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_group_check_adds_one_per_helper_success(tmp_path, seed) -> None:
    """«…в случае успеха к основному броску добавляется модификатор +1…»; «Для помощи
    необходимо иметь тот же навык хотя бы на 1 уровне … Снайперша Дарина, не владеющая
    навыком Медицина, не может помочь»: Сергей and Алик help Борис, Дарина is refused with
    the reason."""
    from tui.systems.starately.check import other as so

    store = store_of(tmp_path)
    t = table(store, seed=seed)
    ok(t, steps.set_input, "characteristic", "Интеллект")  # Интеллект, Медицина-3
    ok(t, so.open_other, "group")
    shown = so.other_view(t.state, t.world())
    assert "Дарина не может помочь: для помощи нужен навык «Медицина»" in " ".join(shown.refused)
    assert all(s.characteristic == "Интеллект" for s, _ in shown.sides())
    ok(t, so.roll_other)
    [entry] = store.log()
    data = entry.data
    assert data["kind"] == "group"
    assert sorted(h["side"]["name"] for h in data["helpers"]) == ["Алик", "Сергей"]
    assert data["bonus"] == sum(h["outcome"] == "success" for h in data["helpers"])


def test_a_rolled_check_whose_character_was_removed_says_so(tmp_path) -> None:
    """Хаим rolled; another window removes him: the form's rows fall back to the next
    character, and the check says the rolled one is gone."""
    store = store_of(tmp_path)
    t = table(store)
    failing(t)
    ok(t, steps.roll)
    haim = person(store, "Хаим")
    remove(store, haim.id)
    t.follow()
    assert any("Хаим удалён в другом окне" in c for c in t.view().changes)
    assert any("Хаим удалён в другом окне" in line for line in t.view().result_lines())


def test_risk_taken_back_with_its_roll_keeps_its_dice_as_far_as_they_go(tmp_path) -> None:
    """Risk on a failure, then Ctrl+Z of it and of the roll; a boon given (three dice), the
    roll and Risk again; both undone, the boon taken back, the roll and Risk again: the first
    Risk's dice, both of them (found by playing: «Повторно: 2d6 [6] [1]» came back as
    «[2] [1]» — Risk took earlier dice only when their count was the same)."""
    store = store_of(tmp_path)
    t = a_failure(store)
    ok(t, steps.risk, "аптечка")
    first = t.state.rolled.risk.dice
    for boons, count in ((1, 3), (0, 2)):
        store.undo()
        store.undo()
        t.follow()
        assert t.state.rolled is None
        ok(t, steps.set_input, "boons", boons)
        ok(t, steps.roll)
        assert not t.view().rolled.main.success  # the same dice: a failure again
        ok(t, steps.risk, "аптечка")
        dice = t.state.rolled.risk.dice
        assert len(dice) == count and dice[:2] == first[:count]


def test_risk_after_an_undone_roll_comes_back_on_another_check_of_its_dice(tmp_path) -> None:
    """Roll and Risk, both undone; another character and back (another check), the roll and
    Risk again; both undone, kubik restarted, the roll and Risk again: the roll's dice and
    the Risk's, each time (found by playing: the roll came back, «Повторно: 2d6 [1] [5]»
    became «[5] [3]»)."""
    store = store_of(tmp_path)
    t = a_failure(store)
    ok(t, steps.risk, "аптечка")
    roll, risk = t.state.rolled.main.dice, t.state.rolled.risk.dice
    haim = t.state.inputs.character
    other = next(c.id for c in store.characters() if c.id != haim)
    for restart in (False, True):
        store.undo()
        store.undo()
        t.follow()
        if restart:
            store.close()
            store = Store.open(tmp_path / "c.json")
            t = table(store, seed=77)
            failing(t)
        else:
            ok(t, steps.set_input, "character", other)
            failing(t)
        ok(t, steps.roll)
        ok(t, steps.risk, "аптечка")
        assert (t.state.rolled.main.dice, t.state.rolled.risk.dice) == (roll, risk)

"""What the Старатели and Мир Тьмы builders' pilot tests used to check of the check itself —
a refusal, Risk, the встречный бросок, the chance die, a contest, an extended action — on the
table engine, without Textual. The keys and what the dialogs show stay pilot tests
(tests/tui/test_builder_starately.py, tests/tui/test_builder_wod.py)."""

from __future__ import annotations

from rules import starately
from tests.table.check_helpers import ok, table
from tui.store import Store
from tui.systems.starately.check import other as so
from tui.systems.starately.check import steps as st_steps
from tui.systems.wod.check import steps as wod_steps


def starately_store(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="starately")


def failed_unskilled(t) -> None:
    """Борис (the demo party's first) without a skill at Подвиг 12+, trying «Вождение»,
    rolled once: a failure (all but a natural 12 fail; seeded dice)."""
    ok(t, st_steps.set_input, "skill", "")
    ok(t, st_steps.set_input, "difficulty", 12)
    ok(t, st_steps.set_input, "tried", "Вождение")
    ok(t, st_steps.roll)
    assert not t.view().rolled.main.success, "the seed rolled a natural 12: pick another"


def test_a_bad_starately_modifier_is_refused_and_nothing_is_logged(tmp_path) -> None:
    """Replaces the pilot test `tests/tui/test_builder_starately.py::
    test_bad_modifier_is_refused_and_nothing_is_logged` (its screen part — the refusal shown
    as an error — stays in `…::test_the_rows_keys_and_the_chain_and_group_dialogs`): «темно»
    has no number, so the roll is refused saying how to write it and nothing is logged."""
    store = starately_store(tmp_path)
    t = table(store)
    ok(t, st_steps.set_input, "mods", "темно")
    outcome = t.run(st_steps.roll)
    assert not outcome.ok and "начните с числа" in outcome.refused
    assert store.log() == []


def test_risk_needs_a_price_then_rolls_again_and_logs_both(tmp_path) -> None:
    """«…Вне зависимости от результата этой повторной проверки игрок заплатит за это…»
    Replaces the pilot test `tests/tui/test_builder_starately.py::
    test_risk_needs_a_price_then_rolls_again_and_logs_both` (its screen part — the Risk
    dialog, its refusal shown, «r» off afterwards — stays in `…::test_risk_and_the_opposed_
    dialog`): an unskilled failure names the skill tried; Risk without a price is refused
    and writes nothing; with one it rerolls both dice, logs the price and both rolls, once."""
    store = starately_store(tmp_path)
    t = table(store)
    failed_unskilled(t)
    [first] = store.log()
    assert first.data["outcome"] == "failure" and "без навыка «Вождение»" in first.text
    refused = t.run(st_steps.risk, "")
    assert not refused.ok and "цену Риска" in refused.refused
    assert len(store.log()) == 1
    ok(t, st_steps.risk, "кобура")
    assert t.view().risk_refusal() is not None  # once only: «r» is off
    newest, again = store.log()
    assert again == first
    data = newest.data
    assert data["kind"] == "risk" and data["price"] == "кобура"
    assert data["first"]["dice"] == first.data["dice"]
    assert len(data["retry"]["dice"]) == 2
    assert all(d["rerolled"] for d in data["retry"]["dice"])
    assert data["outcome"] == data["retry"]["outcome"]
    assert "кобура" in newest.text


def test_forbidden_risk_rolls_nothing(tmp_path) -> None:
    """Replaces the pilot test `tests/tui/test_builder_starately.py::
    test_forbidden_risk_rolls_nothing` (its screen part — the «Запретить» button, «r» off —
    stays in `…::test_risk_and_the_opposed_dialog`): the GM forbids Risk after a failure;
    nothing is rolled or written and Risk can no longer be declared."""
    store = starately_store(tmp_path)
    t = table(store)
    failed_unskilled(t)
    assert t.view().risk_refusal() is None
    ok(t, st_steps.risk, "", True)  # what the dialog's «Запретить» answers
    assert t.view().risk_refusal() is not None
    assert len(store.log()) == 1


def test_an_opposed_roll_outside_a_fight(tmp_path) -> None:
    """«В случае соперничества двух персонажей можно кинуть встречный бросок - у такого броска
    нет сложности, кто бросит выше, тот и победил. В случае ничьёй побеждает инициатор
    проверки, если такого нельзя определить однозначно – то персонаж игрока».
    Replaces the logic of the pilot test `tests/tui/test_builder_starately.py::
    test_opposed_roll_outside_a_fight` (its screen part — the odds and the initiator's
    words shown, Enter rolls — stays in `…::test_risk_and_the_opposed_dialog`): Борис
    starts it; with no initiator between two player characters it is refused with the
    reason; the other's two +d6 and one −d6 roll 3d6; the higher total wins, a tie the
    initiator."""
    store = starately_store(tmp_path)
    t = table(store)
    ok(t, st_steps.set_input, "characteristic", "Интеллект")
    ok(t, so.open_other, "opposed")
    check = so.other_view(t.state, t.world()).opposed()
    assert check.a.name == "Борис" and check.initiator == "a"
    ok(t, so.set_other, "initiator", None)
    shown = so.other_view(t.state, t.world())
    assert "укажите инициатора" in " ".join(shown.lines())
    assert "укажите инициатора" in t.run(so.roll_other).refused and store.log() == []
    ok(t, so.set_other, "initiator", "b")
    ok(t, so.set_other, "boons", 2)
    ok(t, so.set_other, "banes", 1)
    assert starately.opposed_odds(so.other_view(t.state, t.world()).opposed()).a > 0
    ok(t, so.roll_other)
    [entry] = store.log()
    data = entry.data
    assert data["kind"] == "opposed" and data["initiator"] == "b"
    assert len(data["b"]["dice"]) == 3  # two +d6 and one −d6: 3d6
    a, b = data["a"]["total"], data["b"]["total"]
    assert data["winner"] == ("a" if a > b else "b")  # a tie goes to the initiator, b
    assert data["initiator_wins"] == (data["winner"] == "b")
    assert "Встречный бросок" in entry.text


def pool_dice(dice: list[dict]) -> list[dict]:
    """The dice of a Мир Тьмы pool itself (not rote rerolls, not dice added by explosions)."""
    return [d for d in dice if not d["rerolled"] and not d["added"]]


def test_a_chance_die_may_be_withdrawn_and_is_logged_either_way(tmp_path) -> None:
    """«Рассказчик может позволить вам отказаться от выполнения действия…»; RULES: «A
    withdrawal is logged»; «…Рассказчик может заявить, что объявленное игроком действие уже
    нельзя отменить». Replaces the logic of the pilot test `tests/tui/test_builder_wod.py::
    test_chance_die_asks_first_withdrawing_is_logged` (its screen part — the question, its
    buttons, «x», Esc refused — stays in `…::test_the_rows_keys_the_chance_die_the_contest_
    and_the_extended_action`): Вера's pool 3 + 3 − 7 is a chance die; withdrawing logs no
    dice; rolled with withdrawing forbidden, one die decides (1 a dramatic failure, 10 a
    success that explodes)."""
    store = Store.open(tmp_path / "c.json", system="wod")
    t = table(store)
    ok(t, wod_steps.set_input, "mods", "-7 рана")
    assert "бросок на удачу" in t.view().formula()
    ok(t, wod_steps.withdraw)
    [withdrawn] = store.log()
    assert withdrawn.data["kind"] == "withdrawn" and withdrawn.data["dice"] == []
    assert "отказ от броска на удачу" in withdrawn.text
    ok(t, wod_steps.new_check)  # «n»: the withdrawal was this check's end
    ok(t, wod_steps.roll, False)  # the Storyteller forbade withdrawing
    entry, _ = store.log()
    data = entry.data
    assert data["kind"] == "chance" and data["pool"]["size"] == -1
    assert data["pool"]["withdrawal_allowed"] is False
    assert len(pool_dice(data["dice"])) == 1  # one chance die (a 10 would add more)
    first = data["dice"][0]["value"]
    if first == 1:
        assert data["outcome"] == "dramatic_failure"
    elif first < 10:
        assert data["outcome"] == "failure" and data["successes"] == 0
    else:
        assert data["successes"] >= 1

"""The open Мир Тьмы check on the table engine, without Textual: kept in the campaign as it is
rolled (an extended action roll by roll), never stale."""

from __future__ import annotations

import os

import pytest

from rules import wod
from tests.table.check_helpers import killed_after, ok, remove, table
from tui.store import Store
from tui.systems.wod.check import steps
from tui.systems.wod.check.state import extended_of


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


def test_a_pool_shrunk_and_grown_back_after_undos_rolls_its_first_dice_again(tmp_path) -> None:
    """Rolled, undone, rolled with a smaller pool (a wound), undone, rolled with the first
    pool again: the first roll's faces, every one of them. The smaller roll kept the first
    ones it had; the dice it never threw are still the first roll's (found by the check
    machine: the last three dice were new)."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.roll)
    first = t.state.rolled.throws[0].faces
    store.undo()
    t.follow()
    ok(t, steps.set_input, "mods", "-3 рана")
    ok(t, steps.roll)
    smaller = t.state.rolled.throws[0].faces
    assert len(smaller) < len(first) and first[: len(smaller)] == smaller
    store.undo()
    t.follow()
    ok(t, steps.set_input, "mods", "")
    ok(t, steps.roll)
    assert t.state.rolled.throws[0].faces == first


def pool_dice(dice: list[dict]) -> list[dict]:
    """The dice of the pool itself (not rote rerolls, not dice added by explosions)."""
    return [d for d in dice if not d["rerolled"] and not d["added"]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rows_make_the_pool_and_every_die_is_logged(tmp_path, seed) -> None:
    """Pool = attribute + skill + modifiers; 8-again adds dice, rote rerolls failures once:
    the roll's Журнал line keeps every die (moved from the builder's pilot test; the keys
    that set these rows: tests/tui/test_builder_wod.py)."""
    store = store_of(tmp_path)
    t = table(store, seed=seed)
    ok(t, steps.set_input, "attribute", "Сообразительность")
    ok(t, steps.set_input, "mods", "+2")
    ok(t, steps.set_input, "again", 8)
    ok(t, steps.set_input, "rote", True)
    ok(t, steps.roll)
    [entry] = store.log()
    data = entry.data
    assert entry.kind == "check" and entry.actor == "Вера Соколова"
    assert data["system"] == "wod" and data["kind"] == "pool"
    pool = data["pool"]
    assert pool["attribute_name"] == "Сообразительность" and pool["skill_name"] == "Расследование"
    assert (pool["size"], pool["again"], pool["rote"]) == (8, 8, True)
    assert len(pool_dice(data["dice"])) == 8
    kept = [d for d in data["dice"] if d["kept"]]
    assert data["successes"] == sum(d["value"] >= 8 for d in kept)
    assert all(d["exploded"] == (d["value"] >= 8) for d in kept)
    assert sum(d["added"] for d in data["dice"]) == sum(d["exploded"] for d in data["dice"])
    replaced = [d for d in data["dice"] if not d["kept"]]
    assert all(d["value"] < 8 for d in replaced)
    assert sum(d["rerolled"] for d in data["dice"]) == len(replaced)


def test_a_bad_modifier_is_refused_with_the_reason_and_nothing_is_logged(tmp_path) -> None:
    """A modifier without a number («рана») rolls nothing: the roll is refused saying how to
    write it (the builder shows a refusal as an error: tests/tui/test_builder_starately.py)."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "mods", "рана")
    outcome = t.run(steps.roll)
    assert not outcome.ok and "начните с числа" in outcome.refused
    assert "начните с числа" in t.view().formula()
    assert store.log() == []


def test_a_contested_roll_logs_both_sides_and_the_winner(tmp_path) -> None:
    """[default] «contested — both roll their pools, more successes wins, equal is a tie»: the
    dialog's odds say the tie, the Журнал keeps both sides and the winner."""
    from rules import wod as rules_wod
    from tui.present.rolls import percent
    from tui.systems.wod.check import contest

    seen = set()
    for seed in range(1, 40):
        store = Store.open(tmp_path / f"c{seed}.json", system="wod")
        t = table(store, seed=seed)
        ok(t, contest.open_contest)
        shown = contest.contest_view(t.state, t.world())
        odds = rules_wod.contested_odds(shown.main, shown.pool)
        assert "Точные шансы" in shown.lines() and f"ничья {percent(odds.tie)}" in shown.lines()
        ok(t, contest.roll_contest)
        [entry] = store.log()
        data = entry.data
        assert data["kind"] == "contested"
        assert data["a"]["pool"]["name"] == "Вера Соколова"
        assert data["b"]["pool"]["name"] != "Вера Соколова"
        a, b = data["a"]["successes"], data["b"]["successes"]
        assert data["winner"] == ("a" if a > b else "b" if b > a else None)
        assert entry.text.startswith("Состязание: Вера Соколова: ")
        assert ("ничья: " if a == b else "побеждает") in entry.text
        seen.add(data["winner"])
        if len(seen) == 3:
            break
    assert seen == {"a", "b", None}  # each verdict was reached and checked


def test_an_extended_action_accumulates_and_logs_each_roll(tmp_path) -> None:
    """[default] «extended — successes accumulate over rolls toward a target the GM sets»:
    its start, each roll (the running total) and its stop are Журнал lines of plain text."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.start_extended, 10)
    assert t.state.extending and t.state.rolled.target == 10
    ok(t, steps.roll)
    ok(t, steps.roll)
    ok(t, steps.stop_extended)
    assert not t.state.extending
    start, *entries = list(reversed(store.log()))
    assert (start.data["event"], start.data["target"]) == ("extended_start", 10)
    assert [e.data["kind"] for e in entries] == ["extended"] * 3
    assert [len(e.data["rolls"]) for e in entries] == [1, 2, 2]
    assert entries[1].data["successes"] == sum(r["successes"] for r in entries[1].data["rolls"])
    assert entries[-1].data["event"] == "stopped"
    assert entries[-1].text.endswith("за 2 броска")  # it read «за 2 бросков»
    assert all("[" not in e.text for e in entries)  # plain text, no markup in the Журнал


def test_the_success_rows_end_at_the_campaign_exceptional(tmp_path) -> None:
    """Rows 0 … E−1 and «E+»: the exceptional threshold is campaign data, not a fixed 5."""
    from rules import data
    from tui.screens.settings_tables import check_table
    from tui.systems.wod.check.text import success_rows

    text = data.packaged_text("wod/pool.toml").replace("exceptional = 5", "exceptional = 3")
    t = table(store_of(tmp_path))  # Вера Соколова: Интеллект 3 + Расследование 3
    assert [label for label, _, _ in success_rows(t.view().odds())][-1] == "5+"
    data.set_overrides({"wod/pool.toml": check_table("wod/pool.toml", text)})
    try:
        rows = success_rows(t.view().odds())
    finally:
        data.set_overrides({})  # the campaign's tables are process-wide in the rules
    assert [label for label, _, _ in rows] == ["0", "1", "2", "3+"]


def test_a_row_changed_for_an_extended_roll_stays_when_the_roll_is_undone(tmp_path) -> None:
    """An extended action's next roll with a row changed for it (a wound: «−3 рана»), then
    Ctrl+Z of that roll: the form keeps the row as it was rolled (as Ctrl+Z of a plain roll
    does), so Enter rolls the same pool again — the same dice. The row went back to the
    action's start before: the roll made again threw seven dice where it had thrown four."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.start_extended, 5)
    ok(t, steps.set_input, "mods", "-3 рана")
    ok(t, steps.roll)
    faces = t.state.rolled.throws[0].faces
    store.undo()
    t.follow()
    assert t.state.extending and not t.state.rolled.throws
    assert t.state.inputs.mods == "-3 рана"
    ok(t, steps.roll)
    assert t.state.rolled.throws[0].faces == faces


def test_an_extended_action_whose_character_was_removed_is_not_rolled_for_another(tmp_path):
    """Вера's extended action, one roll made; another window removes Вера: Enter is refused
    with the reason and nothing is logged (the form fell back to the next character, and his
    pool rolled into her action: «Продолжительное, бросок 2: Ловкость + Огнестрельное …»).
    The check says whose it was, and its status line offers «e — стоп» alone (it said
    «Enter — следующий бросок», which is refused). The form's rows above are the next
    character's: the check says so while the action goes on (they read as if Enter rolled
    him)."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.start_extended, 5)
    ok(t, steps.roll)
    vera = person(store, "Вера Соколова")
    remove(store, vera.id)
    t.follow()
    lines = len(store.log())
    refused = t.run(steps.roll)
    assert not refused.ok and "Вера Соколова удалён" in refused.refused
    assert len(store.log()) == lines and len(t.state.rolled.throws) == 1
    assert any("Вера Соколова удалён в другом окне" in c for c in t.view().changes)
    status = next(x for x in t.view().result_lines() if "Продолжительное" in x)
    assert "e — стоп" in status and "Enter" not in status, "what the action's keys do now"
    # the rows above are the next character's now: said, with how his pool is rolled
    shown = t.view().character.name
    assert shown != "Вера Соколова"
    status = next(x for x in t.view().result_lines() if "Продолжительное" in x)
    assert f"e — стоп, затем n — новая проверка ({shown}, строки выше)" in status
    ok(t, steps.stop_extended)
    assert not any("строки выше" in x for x in t.view().result_lines()), "stopped: a record"


@pytest.mark.parametrize("restart", [False, True], ids=["same-run", "restart"])
def test_ctrl_z_back_into_an_action_left_for_another_character_shows_that_action(tmp_path, restart):
    """Вера's extended action, two rolls; the GM picks Глеб and rolls him, then Ctrl+Z twice.
    The first undoes Глеб's roll (his form, unrolled); the second undoes Вера's second roll,
    and the form is her action again, after its first roll: Enter rolls the action on, with
    the dice the undone roll threw. The form stayed on Глеб, and his roll replaced her open
    action, which the Журнал kept open with no end. With kubik restarted after Глеб's roll
    (the helper's replay) it stayed on Глеб too: what this window's writes began from was
    kept in memory only; the undo that put her action back is this window's own (its newest
    undone step changed the check), so the form is her action as stored."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.start_extended, 9)
    ok(t, steps.roll)
    ok(t, steps.roll)
    second = t.state.rolled.throws[1].faces
    gleb = person(store, "Глеб Орлов")
    ok(t, steps.set_input, "character", gleb.id)
    ok(t, steps.roll)
    if restart:
        store.close()  # Ctrl+Q; the next run takes this window's steps back
        store = Store.open(store.path)
        t = table(store, seed=5)
    store.undo()
    t.follow()
    assert t.state.inputs.character == gleb.id and t.state.rolled is None, "Глеб's form"
    store.undo()
    t.follow()
    assert t.state.extending and len(t.state.rolled.throws) == 1, "her action, one roll"
    assert t.state.inputs.character == person(store, "Вера Соколова").id
    ok(t, steps.roll)
    assert t.state.rolled.throws[1].faces == second, "the undone roll's dice"
    assert store.get_doc("check")["id"] == t.state.id, "her action is the stored one"


def test_an_extended_action_with_no_roll_names_its_removed_character(tmp_path):
    """Вера's extended action with its one roll undone (Ctrl+Z), then another window removes
    her: the check said «Персонаж проверки удалён в другом окне» — the action's pool, which
    names her, was in the roll just undone. It names her from the action's first line."""
    store = store_of(tmp_path)
    t = table(store, seed=5)
    ok(t, steps.start_extended, 5)
    ok(t, steps.roll)
    store.undo()
    t.follow()
    assert t.state.extending and not t.state.rolled.throws
    remove(store, person(store, "Вера Соколова").id, "command")
    t.follow()
    said = [*t.view().changes, *t.view().result_lines()]
    assert any("Персонаж Вера Соколова удалён командой kubik" in x for x in said), said
    assert not any("Персонаж проверки" in x for x in said), said


def test_the_keys_of_an_action_left_name_a_long_named_next_character_cut() -> None:
    """Replay: with the next character named with 10,000 letters, the status line pushed the
    removal's words below the screen."""
    from tui.systems.wod.check.view import gone_keys

    said = gone_keys("Я" * 10_000)
    assert said.startswith("e — стоп, затем n — новая проверка (ЯЯЯ") and len(said) < 80

"""The open IDE4™ check on the table engine, without Textual: kept in the campaign as it is
rolled and as each move is made, never rolled twice, never stale, every move's odds shown."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from rules import ide4
from tests.table.check_helpers import killed_after, ok, table
from tui.store import Store
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.state import Ide4Check

MOVES = [
    ("reroll", ("food",)),
    ("energy_after", (1, 0)),
    ("bonus", ("soften",)),
    ("subroll", ()),
]


def store_of(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="ide4")


def person(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def lock_picking(store: Store):
    """The cellar door: Вера, expanded, Взлом, +1 darkness, −1 tools, 1 energy die."""
    t = table(store)
    ok(t, steps.set_input, "character", person(store, "Вера Стрижова").id)
    ok(t, steps.set_input, "level", "expanded")
    ok(t, steps.set_input, "action", "Взлом")
    ok(t, steps.set_input, "mods", "+1 темнота, -1 инструменты")
    ok(t, steps.set_input, "energy", 1)
    return t


def make_moves(t, count: int) -> list[str]:
    """Roll, then make the first ``count`` moves the check allows (rigged to Провал at 20 so
    that rerolls, energy and smoothing all apply); return what was made."""
    ok(t, steps.roll)
    state = t.state
    rigged = replace(state, rolled=replace(state.rolled, natural=20))
    t.store.put_doc("check", rigged.to_doc(), label="тест: d100")
    t.follow()
    made = []
    for name, args in MOVES[:count]:
        outcome = t.run(getattr(steps, name), *args)
        if outcome.ok:
            made.append(name)
    return made


def snapshot(t) -> tuple:
    """What a restarted kubik must show the same: the record, the dice, the outcome."""
    check = t.view().check
    return (t.state.to_doc(), [s.to_dict() for s in check.steps], check.outcome, check.pool_after)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
@pytest.mark.parametrize("moves", range(len(MOVES) + 1))
def test_kill_9_after_the_roll_and_each_move_restores_the_same_check(tmp_path, moves) -> None:
    """«IDE4, Вера, Enter: d100 14 → Провал with three rerolls and energy after still open;
    kill -9 and restart: Проверка is an empty form»: now the restarted check is the one
    rolled, with the same dice and moves, and it cannot be rolled again."""
    path = tmp_path / "c.json"
    store_of(tmp_path).close()

    def play(t):
        lock_picking_on(t)
        make_moves(t, moves)
        return snapshot(t)

    seen = killed_after(path, "ide4", play)
    store = Store.open(path)
    t = table(store, seed=99)
    assert repr(snapshot(t)) == seen
    assert t.state.phase == "result"
    assert t.run(steps.roll).refused == steps.ROLLED_TWICE


def lock_picking_on(t):
    store = t.store
    for name, value in (
        ("character", person(store, "Вера Стрижова").id),
        ("level", "expanded"),
        ("action", "Взлом"),
        ("mods", "+1 темнота, -1 инструменты"),
        ("energy", 1),
    ):
        ok(t, steps.set_input, name, value)


def test_a_rolled_check_is_never_rolled_twice_and_an_undone_roll_keeps_its_dice(tmp_path):
    """Сид: «игрок бросает d100» once: a second Enter is refused; Ctrl+Z of the roll puts the
    form back, and rolling it again gives the same d100 and energy dice, paid once."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    vera = person(store, "Вера Стрижова").id
    ok(t, steps.roll)
    first = t.view().check
    assert t.run(steps.roll).refused == steps.ROLLED_TWICE
    assert store.undo() is not None
    t.follow()
    assert t.state.phase == "setup" and t.state.inputs.action == "Взлом"
    assert store.character(vera).ide4.energy == 100
    ok(t, steps.roll)
    again = t.view().check
    assert (again.natural, again.before_dice) == (first.natural, first.before_dice)
    assert store.character(vera).ide4.energy == 100 - first.energy_spent


def test_a_move_made_again_after_its_undo_takes_the_same_dice(tmp_path):
    """Ctrl+Z of a reroll, then `r` again: the same new d100, not a second chance."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    make_moves(t, 0)
    ok(t, steps.reroll, "food")
    rerolled = t.view().check.natural
    store.undo()
    t.follow()
    assert t.view().check.natural == 20
    ok(t, steps.reroll, "calm")
    assert t.view().check.natural == rerolled


def test_the_skill_follows_the_action(tmp_path):
    """«Действие «Взлом», then ← to «Переговоры»: the skill stays «Взлом 65», and `r` offers
    the lock-picking mastery reroll on a negotiation check.»"""
    store = store_of(tmp_path)
    t = lock_picking(store)
    assert t.view().rows["skill"].value == "Взлом"
    ok(t, steps.set_input, "action", "Переговоры")
    shown = t.view()
    assert shown.rows["skill"].value == "" and shown.input.skill == ""
    assert shown.rows["attribute"].value in ide4.action("Переговоры").attributes
    ok(t, steps.roll)
    skill = next(o for o in t.view().offers() if o.kind == "reroll" and o.source == "skill")
    assert not skill.allowed and "Без навыка" in skill.reason


def test_another_characters_energy_die_is_his_nominal(tmp_path):
    """«cycle the opponent to Хозяин подвала: the energy die stays «d4 — меньше номинала»
    though his Риторика 5 gives d12» — a new character's die is his own nominal."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "level", "expanded")
    ok(t, steps.set_input, "die", 4)
    assert t.view().rows["die"].label == "d4 — меньше номинала"
    ok(t, steps.set_input, "character", person(store, "Хозяин подвала").id)
    ok(t, steps.set_input, "action", "Переговоры")
    shown = t.view()
    assert shown.rows["attribute"].value == "Риторика"
    assert shown.rows["die"].label == "d12 — номинал"


def test_a_skill_removed_elsewhere_is_said_and_not_rolled(tmp_path):
    """A sheet edited in another window: the form shows what the sheet gives now and says so."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    vera = person(store, "Вера Стрижова")
    store.upsert_character(replace(vera, skills=tuple(s for s in vera.skills if s.name != "Взлом")))
    shown = t.view()
    assert shown.input.skill == "" and shown.rows["skill"].value == ""
    assert any("Навыка «Взлом» больше нет" in c for c in shown.changes)


def test_energy_changed_elsewhere_rebases_the_rolled_check(tmp_path):
    """Energy changed outside the open check: the check goes on from the stored energy (what
    it spent itself stays spent) and says so."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    ok(t, steps.roll)
    spent = t.view().check.energy_spent
    vera = person(store, "Вера Стрижова")
    store.upsert_character(replace(vera, extra={**vera.extra, "energy": 50}))
    shown = t.view()
    assert shown.check.pool_after == 50 and shown.check.input.energy_pool == 50 + spent
    assert any("изменена вне проверки" in c for c in shown.changes)


def test_energy_given_back_elsewhere_past_the_maximum_is_what_the_check_says_is_left(tmp_path):
    """Found by the check machine: a check that spent energy, then the sheet set elsewhere to
    more than the maximum less what it spent (95 after spending 6 from 100): the re-based pool
    is past any a check may start from, and the check kept saying the old «в запасе 94»."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    ok(t, steps.roll)
    spent = t.view().check.energy_spent
    assert spent > 0, "the lock-picking check spends energy before the roll"
    vera = person(store, "Вера Стрижова")
    left = ide4.energy_rules().pool_max - spent + 1
    store.upsert_character(replace(vera, extra={**vera.extra, "energy": left}))
    shown = t.view()
    assert shown.check.pool_after == left == person(store, "Вера Стрижова").ide4.energy
    assert any("изменена вне проверки" in c for c in shown.changes)


def _moved_and_read_back(store, t, who: str, paid: int, *, rebased: bool) -> None:
    """Energy after 1×d12 on ``t``'s rolled check: the stored check reads back as the window's
    (with the move), the sheet paid ``paid``, and kubik started again shows the same check.
    ``rebased``: the check still says its energy changed outside it (a pool past the maximum
    is shown from the sheet, recorded at the maximum); else the move put the base on record."""
    before = person(store, who).ide4.energy
    ok(t, steps.energy_after, 1, 12)
    assert Ide4Check.from_doc(store.get_doc("check")) == t.state, "it reads back as the window's"
    assert [m.kind for m in t.state.rolled.moves][-1] == "energy_after"
    assert person(store, who).ide4.energy == before - paid
    said = any("изменена вне проверки" in c for c in t.view().changes)
    assert said == rebased
    store.close()
    again = table(Store.open(store.path))
    assert again.state == t.state and not again.notices, "kubik started again: the same check"


def test_a_move_paid_from_energy_given_after_the_roll_is_stored_as_a_check_that_reads_back(
    tmp_path,
):
    """Found by the check machine: Тимур rolled with no energy; another window gave him 12,
    and «energy after» 1×d12 (12 energy, the check re-based on the sheet) was allowed and
    written — with the roll's pool of 0 in its record. Replayed from its own record the move
    was refused («Не хватает энергии: 1×d12 стоят 12, в запасе 0»): the stored check read as
    damaged («Сохранённая проверка IDE4 повреждена — начните новую (n)»), the window kept the
    check without the move, and a restart lost it. The record now takes the base it was moved
    on."""
    store = store_of(tmp_path)
    timur = person(store, "Тимур Аскаров")
    store.upsert_character(replace(timur, extra={**timur.extra, "energy": 0}))
    t = table(store)
    ok(t, steps.set_input, "character", timur.id)
    ok(t, steps.roll)
    timur = person(store, "Тимур Аскаров")
    store.upsert_character(replace(timur, extra={**timur.extra, "energy": 12}))
    t.follow()
    _moved_and_read_back(store, t, "Тимур Аскаров", 12, rebased=False)


def test_a_move_after_energy_given_back_past_the_maximum_is_stored_from_the_maximum(tmp_path):
    """The same move after energy given back past what a check may start from (the sheet at
    the maximum after a check that spent some): the record is moved from the maximum, as the
    check is shown, and reads back."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    ok(t, steps.roll)
    assert t.view().check.energy_spent > 0
    vera = person(store, "Вера Стрижова")
    store.upsert_character(replace(vera, extra={**vera.extra, "energy": 100}))
    t.follow()
    _moved_and_read_back(store, t, "Вера Стрижова", 12, rebased=True)


def test_the_days_triumph_given_back_after_the_roll_is_recorded_with_the_bonus(tmp_path):
    """The day's Успех → Триумф, used when Ольга rolled and given back by a new day in
    another window, re-bases the check as energy does: the bonus is offered, and its record
    must carry the day given back, else it does not replay («не чаще раза за игровой день»)
    and the stored check reads as damaged."""
    store = store_of(tmp_path)
    olga = person(store, "Ольга Ренн")
    store.upsert_character(replace(olga, extra={**olga.extra, "daily_triumph_used": True}))
    t = table(store, seed=5)  # its d100 gives Успех
    ok(t, steps.set_input, "character", olga.id)
    ok(t, steps.set_input, "action", "Переговоры")
    ok(t, steps.roll)
    assert t.view().check.outcome == "success"
    olga = person(store, "Ольга Ренн")
    store.upsert_character(replace(olga, extra={**olga.extra, "daily_triumph_used": False}))
    t.follow()
    ok(t, steps.bonus, "triumph")
    assert Ide4Check.from_doc(store.get_doc("check")) == t.state, "it reads back as the window's"
    assert t.view().check.outcome == "triumph"
    assert person(store, "Ольга Ренн").ide4.daily_triumph_used, "the day's Триумф, used again"


def test_every_offered_move_carries_its_exact_odds(tmp_path):
    """After the roll every allowed move shows its chance to improve and to worsen, the same
    numbers as the rules' own (proved against brute force in tests/rules)."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    make_moves(t, 0)
    check = t.view().check
    offers = {(o.kind, o.source): o for o in t.view().offers()}
    assert offers[("reroll", "food")].odds == ide4.reroll_odds(check)
    energy = offers[("energy_after", f"2x{check.input.nominal}")]
    assert energy.odds == ide4.energy_after_odds(check, 2, check.input.nominal)
    assert offers[("bonus", "soften")].odds.better == 1
    assert not offers[("reroll", "help")].allowed and offers[("reroll", "help")].odds is None
    lines = " ".join(text for _, text in t.view().move_lines())
    assert "лучше" in lines and "хуже" in lines


def test_the_conclusion_is_a_line_of_its_own_with_the_meaning(tmp_path):
    """«Every finished IDE4 check is written to the Журнал twice, and the GM's «Смысл исхода»
    shows nowhere but --json»: the closing line carries the meaning and the consequences."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    ok(t, steps.roll)
    ok(t, steps.conclude, "дверь поддалась", "патруль далеко")
    roll, close = store.log()[1], store.log()[0]
    assert close.text != roll.text
    assert "смысл исхода: дверь поддалась" in close.text
    assert "последствия: патруль далеко" in close.text
    assert t.state.phase == "done"


def test_the_last_check_of_the_same_kind_is_one_step_away(tmp_path):
    """«the character's last check of the same kind one key away»: a new check for Вера,
    «Взлом» chosen, and the last lock-picking check's inputs are back in the form."""
    store = store_of(tmp_path)
    t = lock_picking(store)
    ok(t, steps.set_input, "base", 4)
    ok(t, steps.roll)
    ok(t, steps.new_check)
    assert t.state.inputs.mods == ""
    outcome = ok(t, steps.repeat_last)
    inputs = t.state.inputs
    assert (inputs.action, inputs.mods, inputs.energy, inputs.base) == (
        "Взлом",
        "+1 темнота, -1 инструменты",
        1,
        4,
    )
    assert "Как в прошлый раз" in outcome.notices[0]
    ok(t, steps.set_input, "character", person(store, "Ольга Ренн").id)
    assert "ещё не было проверки" in t.run(steps.repeat_last).refused


def test_the_status_says_what_the_modifiers_do_to_an_opened_00(tmp_path):
    """«[00] made possible with «−2 подготовка» reads «подготовка −2 → [5]» but the odds are
    those of [5] without the −2: say what the −2 does» — it does nothing there, and says so."""
    store = store_of(tmp_path)
    t = table(store)
    for name, value in (("level", "expanded"), ("base", 8), ("mods", "-2 подготовка")):
        ok(t, steps.set_input, name, value)
    ok(t, steps.set_input, "help", "possible")
    ok(t, steps.set_input, "open", 5)
    shown = t.view()
    assert shown.difficulty.final == 5 and shown.odds == ide4.outcome_odds(5)
    assert "не действуют: после исключения сложность назначает мастер" in shown.status_lines()[0]


def test_a_seven_by_modifiers_names_the_setting(tmp_path):
    """«A [7] reached by modifiers says only «настройка кампании»; name the setting»."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "base", 5)
    ok(t, steps.set_input, "mods", "+2 ливень")
    text = " ".join(t.view().status_lines())
    assert "[7] от модификаторов запрещает бонусы" in text and "Ctrl+T → Пороги мастерства" in text


def test_always_expanded_and_combat_distance(tmp_path):
    """A character who always demands the expanded check opens at that level; a combat
    skill brings its usual distance, and at a distance it does not work at the status says
    so and the roll is refused with the same words (nothing in the Журнал)."""
    store = store_of(tmp_path)
    t = table(store)
    assert t.state.inputs.level == "standard"
    ok(t, steps.set_input, "character", person(store, "Тимур Аскаров").id)
    assert t.view().input.level == "expanded"  # he always demands it
    ok(t, steps.set_input, "skill", "Рукопашный бой")
    assert t.view().rows["distance"].value == "К"
    ok(t, steps.set_input, "distance", "Д")
    status = "\n".join(t.view().status_lines())
    assert "работает на дистанциях К / Б, не на Д" in status
    refused = t.run(steps.roll).refused
    assert "не на Д" in refused and t.view().check is None
    assert store.log() == []


def test_a_new_day_gives_the_daily_triumph_back_as_one_step(tmp_path):
    """«Успех → Триумф» once a game day: a new day clears every character's mark, one undo
    step. (The key d: tests/tui/test_builder_ide4.py.)"""
    store = store_of(tmp_path)
    t = table(store)
    for name in ("Ольга Ренн", "Вера Стрижова"):
        c = person(store, name)
        store.upsert_character(replace(c, extra={**c.extra, "daily_triumph_used": True}))
    ok(t, steps.new_day)
    assert not any(c.ide4.daily_triumph_used for c in store.characters())
    assert store.undo() is not None
    used = {c.name for c in store.characters() if c.ide4.daily_triumph_used}
    assert used == {"Ольга Ренн", "Вера Стрижова"}


def test_the_action_preselects_the_skill_of_its_name(tmp_path):
    """Choosing the action Взлом left «без навыка» for Вера, who has the skill Взлом: the
    action brings the skill of its name and that skill's attribute."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "level", "expanded")  # the action row is shown
    assert t.view().rows["character"].value
    ok(t, steps.set_input, "action", "Взлом")
    shown = t.view()
    assert shown.rows["skill"].value == "Взлом"
    assert shown.rows["attribute"].value == "Мелкая моторика"


def test_the_energy_die_follows_the_attribute_nominal(tmp_path):
    """Сила ур. 2 (d6) → Мелкая моторика ур. 5 (d12) left «d6 — меньше номинала», a smaller die
    the GM never chose; a smaller die the GM did choose stays chosen."""
    store = store_of(tmp_path)
    t = table(store)
    ok(t, steps.set_input, "level", "expanded")
    assert t.view().rows["die"].value == 6  # Вера, Сила ур. 2
    ok(t, steps.set_input, "attribute", "Мелкая моторика")
    assert t.view().rows["die"].value == 12
    ok(t, steps.set_input, "die", 8)  # the GM picks a smaller die
    ok(t, steps.set_input, "attribute", "Внимание")  # ур. 4
    assert t.view().rows["die"].value == 8

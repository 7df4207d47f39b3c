"""A Древо round at the table's pace, one level below the screen: each fighter's form starts
on his own last declaration, a round of unchanged declarations is one step, one declaration
is changed without undoing the later ones."""

from __future__ import annotations

from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from tests.table.helpers import skirmish
from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.declare import redeclare, repeat_round, suggestion

THREE = {
    "Горан Рябой": "Отряд",
    "Милава": "Отряд",
    "Ярослав Кречет": "Отряд",
    "Атаман Шкуро": "Противники",
    "Лыко": "Противники",
    "Сотник Вышата": "Противники",
}
ROUND = [
    ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
    ("Милава", "dodge", None, None),
    ("Ярослав Кречет", "melee", "Сотник Вышата", "Меч"),
    ("Атаман Шкуро", "melee", "Горан Рябой", "Сабля"),
    ("Лыко", "dodge", None, None),
    ("Сотник Вышата", "melee", "Ярослав Кречет", "Булава"),
]


def _to_next_round(table) -> None:
    while (view := table.view()) is not None:
        if view.stage == "plan":
            table.ok(steps.roll)
        elif view.stage == "refused":
            table.ok(steps.skip)
        else:
            table.ok(steps.accept)
    table.ok(steps.next_round)


def test_a_new_fight_starts_each_form_on_his_own_weapon_not_the_last_declarer(tmp_path):
    """Issue 30: «The declaration form opens with the previous fighter's choices, even in a
    new fight». Милава's form starts on her own knife against the first opponent."""
    table, store, people = skirmish(tmp_path, THREE, ROUND[:1])
    d = suggestion(table.enc, table.session.read()[2], people["Милава"].id)
    assert (d.action, d.target, d.weapon) == ("melee", people["Атаман Шкуро"].id, "Нож")


def test_round_two_starts_each_form_on_his_own_last_declaration(tmp_path):
    table, store, people = skirmish(tmp_path, THREE, ROUND)
    _to_next_round(table)
    world = table.session.read()[2]
    for name, action, target, weapon in ROUND:
        d = suggestion(table.enc, world, people[name].id)
        if not store.character(people[name].id).drevo.wounds.get("heavy"):
            aim = people[target].id if target else None
            assert (d.action, d.target, d.weapon) == (action, aim, weapon), name


def test_a_round_of_unchanged_declarations_is_one_step(tmp_path):
    """«как в прошлом раунде»: every declaration of round 2 in one step and one undo step,
    then the dice; an undo takes all of them back."""
    table, store, people = skirmish(tmp_path, THREE, ROUND)
    _to_next_round(table)
    before = store.undo_labels(100)
    if any(store.character(c.id).drevo.wounds.get("heavy") for c in people.values()):
        return  # the seeded round left someone down: covered by the next test
    table.ok(repeat_round)
    assert table.enc.phase == "resolve"
    assert len(table.enc.declarations) == 6
    assert len(store.undo_labels(100)) == len(before) + 1
    table.undo()
    assert table.enc.phase == "declare" and table.enc.declarations == ()


def test_repeating_stops_at_a_fighter_whose_target_fell(tmp_path):
    """A repeated declaration at a dead target is not made: the round stops at him."""
    table, store, people = skirmish(tmp_path, THREE, ROUND)
    _to_next_round(table)
    c = store.character(people["Атаман Шкуро"].id)
    store.upsert_character(replace(c, extra={**c.extra, "dead": True}))
    alive = lambda cid: cid != c.id  # noqa: E731 - Шкуро is dead
    first = table.enc.next_declarer(alive)
    outcome = table.run(repeat_round)
    if first.character_id == people["Горан Рябой"].id:
        assert not outcome.ok and "Горан Рябой" in outcome.refused
    else:
        assert outcome.ok
        assert table.enc.next_declarer(alive).character_id == people["Горан Рябой"].id
        assert outcome.notices and "Горан Рябой" in outcome.notices[0]
        # Why, in words that fit Милава as well as Горан (no «его»): the target fell.
        notice = outcome.notices[0]
        assert "Атаман Шкуро" in notice and " его " not in f" {notice} ", notice


def test_one_declaration_changes_without_undoing_the_later_ones(tmp_path):
    """The GM corrects Горан's declaration after the others declared: only his changes,
    one undo step; once the round's dice fell it is refused with the reason."""
    table, store, people = skirmish(tmp_path, THREE, ROUND)
    goran = people["Горан Рябой"].id
    enc = table.enc
    old = [d for d in enc.declarations if d.actor != goran]
    new = replace(next(d for d in enc.declarations if d.actor == goran), target=people["Лыко"].id)
    table.ok(redeclare, new)
    assert [d for d in table.enc.declarations if d.actor != goran] == old
    assert next(d for d in table.enc.declarations if d.actor == goran).target == new.target
    table.ok(steps.roll)
    assert "уже брошены" in table.run(redeclare, new).refused


def test_the_order_shows_each_fighters_wounds_effects_and_fate(tmp_path):
    """Issue 30: the order table shows each fighter's wounds, penalties, effects, Судьба."""
    from tui.systems.drevo.fight.text import fighter_state

    table, store, people = skirmish(tmp_path, THREE, ROUND[:1])
    c = store.character(people["Горан Рябой"].id)
    hurt = c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, "wound": 1}, fate=2)
    assert fighter_state(hurt, [(-2, "Оглушён")]) == "Ранение −2, Оглушён −2, Судьба 2"
    down = c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, "heavy": 1}, fate=0)
    assert fighter_state(down, []) == "тяжело ранен, Судьба 0"


def test_a_removal_elsewhere_says_who_left_and_why(tmp_path):
    """Issue 30: a CLI removal during declarations moved the app to the dice with no notice.
    The departures say who left, why, and that the dice began."""
    from tui.systems.drevo.fight.text import departures

    table, store, people = skirmish(tmp_path, THREE, ROUND[:5])
    world = table.session.read()[2]
    before = table.enc
    assert before.phase == "declare"
    shell = Store.open(store.path, window="cli")  # `kubik party remove`
    shell.delete_character(people["Сотник Вышата"].id)
    shell.close()
    store.refresh()
    after, now = table.enc, table.session.read()[2]
    assert after.phase == "resolve"
    said = departures(before, after, world.characters, now.characters, store.removed_where)
    assert said == [  # it said «(изменено в другом окне или командой kubik)» for any of them
        "Сотник Вышата выбывает: персонажа удалили из партии командой kubik.",
        "Все оставшиеся заявили — броски.",
    ]


def test_an_effect_of_two_rounds_added_between_rounds_lasts_two_rounds_of_play(tmp_path):
    """RULES.md: «added between rounds it must still last N rounds of play, as its label
    promises» — «2 раунда» added after round 1 resolved lasted only round 2."""
    from rules.effects import EffectSet, EffectSpec, Now
    from tui.bridge.effects import current_round

    table, store, people = skirmish(tmp_path, THREE, ROUND)
    while (view := table.view()) is not None:
        table.ok(steps.roll if view.stage == "plan" else steps.accept)
    assert table.enc.phase == "resolve" and table.enc.round == 1
    now = current_round("drevo", store.get_doc)
    assert now == 2  # between rounds: the effect starts with the next round
    goran = people["Горан Рябой"].id
    effects, _ = EffectSet().add(EffectSpec("Оглушён", goran, -2, "rounds", 2), Now(now))
    (effect,) = effects.effects
    assert effect.expires == ("round_end", "", 3)  # rounds 2 and 3


def test_a_fighter_taken_out_keeps_his_reason_in_the_fight(tmp_path):
    """Issue 30: «show a removed PC's reason in the order too»."""
    table, store, people = skirmish(tmp_path, THREE, ROUND)
    goran = store.character(people["Горан Рябой"].id)
    store.upsert_character(goran.edit_sheet(DrevoSheet, wounds={**goran.drevo.wounds, "heavy": 1}))
    table.ok(steps.remove_fallen, goran.id)
    (gone,) = table.enc.left
    assert gone["name"] == "Горан Рябой" and gone["reason"] == "тяжело ранен, решение ведущего"

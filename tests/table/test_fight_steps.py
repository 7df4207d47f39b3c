"""The Древо fight's steps, one level below the screen: what each step writes and says."""

from __future__ import annotations

from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from rules.encounter import Declaration
from tests.table.helpers import duel, skirmish
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.text import exchange_lines, reduce_label


def _roll_until_won(table) -> None:
    table.ok(steps.roll)
    while table.view().result.tie:  # seeded: reroll ties until someone wins
        table.ok(steps.reroll_tie)


def test_the_fate_offer_says_which_reduction_still_saves(tmp_path) -> None:
    """Сид: «Тяжелораненого … можно добить, нанеся ему любое повреждение уровнем выше
    Царапины»: for a heavily wounded character only a Царапина saves — the offer says so."""
    table, store, target = duel(tmp_path, {"heavy": 1})
    c = store.character(target.id)
    labels = [
        reduce_label(c, "wound", level, cost) for level, cost in (("light", 1), ("scratch", 2))
    ]
    assert labels == [
        "−1 — до лёгкой раны (всё равно смерть)",
        "−2 — до царапины (спасает жизнь, но тяжело ранен)",
    ]
    fresh = c.edit_sheet(DrevoSheet, wounds={k: 0 for k in c.drevo.wounds})
    assert reduce_label(fresh, "death", "heavy", 1) == (
        "−1 — до тяжёлой раны (спасает жизнь, но тяжело ранен)"
    )
    assert reduce_label(fresh, "heavy", "wound", 1) == "−1 — до ранения (остаётся в строю)"


def test_the_log_names_who_spent_fate_and_the_final_wound(tmp_path) -> None:
    """The Журнал's «Кто» of a Судьба line is whoever spent it; the damage line declines the
    wound («получает лёгкую рану»); the exchange shows the final wound before the next one."""
    table, store, target = duel(tmp_path)
    _roll_until_won(table)
    offer = table.view().shift_offers()[0]  # the first choice: the attacker +1
    table.ok(steps.fate_shift, *offer.value)
    shift = next(e for e in store.log() if e.text.startswith("Судьба:"))
    assert shift.actor == "Атаман Шкуро"
    result = table.view().result
    assert result.winner == "attacker" and result.hits  # the seeded dice: Шкуро hits
    table.ok(steps.accept)
    if table.stage() == "damage":
        table.ok(steps.damage, 0)
    assert table.stage() == "done"
    lines = exchange_lines(table.view())
    assert any(line.startswith("[b]Итог:[/b] Горан Рябой получает ") for line in lines)
    damage = next(e for e in store.log() if e.text.startswith("Урон:"))
    assert damage.actor == target.name and " получает " in damage.text
    assert not any(name in damage.text for name in ("получает Лёгкая", "получает Ранение"))


def test_an_attack_on_the_dead_is_refused_and_skipped_on_the_record(tmp_path) -> None:
    """Сид: «Смерть» — a blow at the dead needs the GM's skip, which the log records."""
    table, store, target = duel(tmp_path)
    store.upsert_character(replace(target, extra={**target.extra, "dead": True}))
    view = table.view()
    refusal = view.refusal
    assert refusal == "Горан Рябой уже мёртв."
    assert view.stage == "refused"
    assert table.run(steps.roll).refused == refusal  # the roll is refused with the reason
    table.ok(steps.skip)
    assert table.enc.pending() == []
    assert store.log()[1].text == f"Схватка пропущена: {refusal}"


def test_no_key_that_changes_the_fight_is_a_tab_key() -> None:
    """Issue 30: at «Урон … Судьба» the digits spent Судьба (`1` meant «Партия» spent a
    point). No key of the Бой tab that changes state shares a key with navigation."""
    from tui.app import KubikApp
    from tui.systems.drevo.fight_pane.pane import CombatPane

    navigation = {b.key for b in KubikApp.BINDINGS if str(b.action).startswith("show_tab")}
    navigation |= {"up", "down", "left", "right", "tab", "shift+tab", "home", "end"}
    shared = [b.key for b in CombatPane.BINDINGS if b.key in navigation]
    assert shared == [], shared


def test_accepting_lethal_damage_with_unspent_fate_is_asked(tmp_path) -> None:
    """Issue 30: Enter accepted a killing blow while the victim still had Судьба, without a
    word. The exchange says why it asks; without points, it does not."""
    table, store, target = duel(tmp_path, {"heavy": 1}, fate=5)
    _roll_until_won(table)
    if table.view().result.winner != "attacker":
        raise AssertionError("the seeded dice no longer give Шкуро the win")
    table.ok(steps.accept)
    view = table.view()
    assert view.stage == "damage"
    assert view.unspent_fate_warning().startswith("Горан Рябой: этот урон — смерть")
    c = store.character(target.id)
    to_scratch = max(cost for _level, cost in view.reduce_options())
    if to_scratch > 1:  # fewer points than a Царапина costs cannot save him: nothing to ask
        store.upsert_character(c.edit_sheet(DrevoSheet, fate=to_scratch - 1))
        assert table.view().reduce_options() and table.view().unspent_fate_warning() == ""
    store.upsert_character(store.character(target.id).edit_sheet(DrevoSheet, fate=0))
    assert table.view().unspent_fate_warning() == ""


def test_skipping_the_last_exchange_marks_both_its_lines_when_undone(tmp_path) -> None:
    """Play-test: a skip of the round's last exchange writes «Схватка пропущена» and «Раунд 1
    разрешён»; after Ctrl+Z only the first was «отменено» — players saw a round summary of a
    round that was not over. Undone, both are marked and the exchange waits again. (The key
    `s` and Ctrl+Z: tests/tui/test_combat_fight.py.)"""
    table, store, _target = duel(tmp_path)
    table.ok(steps.skip)
    assert table.enc.pending() == []
    assert table.undo() is not None
    assert table.enc.pending()
    newest = store.log()[:2]
    assert {e.text.split(":")[0].split(".")[0] for e in newest} == {
        "Раунд 1 разрешён",
        "Схватка пропущена",
    }
    assert [e.undone for e in newest] == [True, True]


def test_an_undone_fights_initiative_line_is_marked(tmp_path) -> None:
    """The sides' initiative of a new fight (the whole party, as the Бой tab opens) is one
    undo step: undone, its Журнал line is marked «отменено». (The keys i and Ctrl+Z:
    tests/tui/test_combat.py.)"""
    from tests.table.helpers import Table
    from tui.store import Store

    store = Store.open(tmp_path / "c.json", system="drevo")
    table = Table(store)
    table.ok(steps.roll_initiative)
    assert table.undo() is not None
    (entry,) = store.log()
    assert entry.text.startswith("Инициатива") and entry.undone


def test_a_shield_against_a_pistol_does_not_cancel_the_shot(tmp_path) -> None:
    """Сид: «от выстрела из огнестрельного оружия, как правило, нельзя защититься при помощи
    щита»: Ярослав raises his shield, Атаман Шкуро shoots him with a pistol — the exchange is
    «Нападение на беззащитного» and is rolled, not lost (moved from the Бой tab's pilot test;
    the declaration form's keys: tests/tui/test_combat.py)."""
    from rules.encounter import Declaration

    table, store, people = skirmish(
        tmp_path, {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}, []
    )
    yaroslav, ataman = people["Ярослав Кречет"], people["Атаман Шкуро"]
    table.ok(steps.declare, Declaration(yaroslav.id, "shield", weapon="Щит"))
    shot = Declaration(ataman.id, "shoot", yaroslav.id, "Пистолет", distance="near")
    table.ok(steps.declare, shot)  # the last declaration: the dice phase begins
    assert table.enc.phase == "resolve" and table.stage() == "plan"
    view = table.view()
    assert view.refusal == "" and view.plan is not None and view.plan.kind == "one_sided"
    assert view.plan.notes[0].startswith("Нападение на беззащитного")
    assert "щит, как правило, не останавливает пулю" in view.plan.notes[0]
    table.ok(steps.roll)
    assert table.stage() in ("rolled", "damage", "done")
    assert table.enc.exchange["dice"]["attacker"] is not None


def test_initiative_rolled_again_after_an_undo_has_the_same_dice(tmp_path) -> None:
    """Сид: «Какая сторона ходит первой — в большинстве случаев определяется броском кубиков
    на инициативу»: one throw. Play-test: `i`, Ctrl+Z, `i` rolled new dice («Отряд +2,
    Противники 0», then «Противники 0, Отряд −3»). Rolled again after the undo — here, from
    ``kubik fight`` (its own dice) or after a restart — it takes the dice it had from the
    Журнал, says so, and keeps the fight's id (its exchanges' dice stay named by it)."""
    from tests.table.helpers import Table
    from tui.store import Store
    from tui.systems.drevo.fight.text import status_lines
    from tui.systems.drevo.fight.view import earlier_initiative

    store = Store.open(tmp_path / "c.json", system="drevo")
    first = Table(store, seed=1).ok(steps.roll_initiative)
    fight_id = Table(store).enc.id
    assert Table(store).undo() is not None
    _stored, enc, world = Table(store).session.read()
    assert earlier_initiative(enc.sides, world) is not None
    assert "Инициатива уже брошена — i покажет ту же." in status_lines(enc, world)[-1]
    for seed in (2, 3, 4):  # another window, kubik fight, a restart: other dice each
        store.close()
        store = Store.open(tmp_path / "c.json")
        again = Table(store, seed=seed).ok(steps.roll_initiative)
        assert again.log[0].data["initiative"] == first.log[0].data["initiative"]
        assert again.log[0].text == first.log[0].text.replace(
            "Инициатива: ", "Инициатива (те же кубики, что до отмены): "
        )
        assert Table(store).enc.id == fight_id
        assert Table(store).undo() is not None


def test_initiative_after_a_fight_that_stood_is_a_new_roll(tmp_path) -> None:
    """A fight that was fought (its lines not undone) ends the reach of an undone initiative:
    the next fight rolls its own dice; so does a fight of other sides."""
    from tests.table.helpers import Table
    from tui.store import Store
    from tui.systems.drevo.fight.view import earlier_initiative

    store = Store.open(tmp_path / "c.json", system="drevo")
    table = Table(store, seed=1)
    table.ok(steps.roll_initiative)
    table.ok(steps.end)
    _stored, enc, world = table.session.read()
    assert earlier_initiative(enc.sides, world) is None
    third = next(c for c in store.characters() if c.kind == "pc")
    table.ok(steps.roll_initiative)
    assert table.undo() is not None
    table.ok(steps.set_side, third.id, "Третья сторона")
    _stored, enc, world = table.session.read()
    assert earlier_initiative(enc.sides, world) is None  # three sides: not the roll undone
    assert "те же кубики" not in table.ok(steps.roll_initiative).log[0].text


def test_a_note_longer_than_300_characters_is_refused_and_the_fight_unchanged(tmp_path):
    """Play-test: 10,000 «Я» in Ярослав's «Заметка» were stored whole, in the declaration
    and again in its exchange. A new declaration's note holds at most 300 characters (as a
    player's seat sends it): a longer one is refused, whichever way it comes — the Бой tab's
    Enter, a seat, ``kubik fight declare --note`` — and so is a declaration changed to one."""
    from rules.encounter import MAX_NOTE, Declaration
    from tui.systems.drevo.fight.declare import redeclare

    sides = {"Атаман Шкуро": "Противники", "Горан Рябой": "Отряд", "Лыко": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    shkuro, goran = people["Атаман Шкуро"].id, people["Горан Рябой"].id
    blow = Declaration(shkuro, "melee", goran, "Сабля", note="Я" * 10_000)
    before = table.enc
    refused = table.run(steps.declare, blow).refused
    assert refused == "заметка к заявке — не больше 300 знаков (в ней 10000): сократите её."
    assert table.enc == before and not store.log()
    table.ok(steps.declare, replace(blow, note="Я" * MAX_NOTE))
    assert table.enc.declarations[0].note == "Я" * MAX_NOTE
    longer = replace(blow, note="Я" * (MAX_NOTE + 1))
    assert "не больше 300 знаков (в ней 301)" in table.run(redeclare, longer).refused
    assert table.enc.declarations[0].note == "Я" * MAX_NOTE


def test_an_ambush_set_again_after_an_undo_is_the_same_fight_and_its_dice_come_back(tmp_path):
    """Ctrl+Z is never a new throw. An ambush (the GM's order) took a new fight id each time:
    set again after Ctrl+Z back to the setup, its exchanges (named by the fight's id) rolled
    new dice, where rolled initiative keeps its id (and dice). Now the ambush's line keeps the
    fight's id, and the same ambush takes it again."""
    from tests.table.helpers import Table
    from tui.store import Store

    store = Store.open(tmp_path / "c.json", system="drevo")
    people = {c.name: c for c in store.characters()}
    sides = {people["Горан Рябой"].id: "Отряд", people["Атаман Шкуро"].id: "Противники"}
    order = ["Противники", "Отряд"]
    blows = [
        Declaration(people["Атаман Шкуро"].id, "melee", people["Горан Рябой"].id, "Сабля"),
        Declaration(people["Горан Рябой"].id, "melee", people["Атаман Шкуро"].id, "Топор"),
    ]

    def fight(seed: int) -> tuple[str, object]:
        table = Table(store, seed=seed)
        table.ok(steps.start, sides, order)
        for d in blows:
            table.ok(steps.declare, d)
        table.ok(steps.roll)
        return table.enc.id, table.enc.exchange["dice"]

    first_id, first_dice = fight(seed=1)
    table = Table(store)
    while table.enc.phase != "setup":  # Ctrl+Z back to the setup
        assert table.undo() is not None
    again_id, again_dice = fight(seed=2)  # another window, kubik fight, a restart: other dice
    assert again_id == first_id
    assert again_dice == first_dice
    line = next(e for e in store.log() if e.text.startswith("Засада"))
    assert line.data["ambush"] is True and line.data["fight"] == first_id
    table = Table(store)
    table.ok(steps.end)
    third_id, _dice = fight(seed=3)  # a fight fought and ended: the next ambush is new
    assert third_id != first_id

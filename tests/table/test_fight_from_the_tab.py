"""What the Бой tab's pilot tests checked of the Древо fight's logic, one level down: the
fight driven through the table engine (:class:`tests.table.helpers.Table`) on a real store,
no Textual. Each test names the pilot test it replaces; what those showed on the screen or
did with the keys stays in the pilot test named beside it."""

from __future__ import annotations

from dataclasses import replace

from rules import drevo
from rules.encounter import Declaration
from tests.table.helpers import Table, skirmish
from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.declare import suggestion
from tui.systems.drevo.fight.text import exchange_lines
from tui.systems.drevo.fight.view import can_act

ONE_ON_ONE = ("Ярослав Кречет", "Атаман Шкуро")


def only(enc, names):
    """``enc`` with everyone but ``names`` out of the fight (as Space on the roster leaves
    it; the same as ``only`` in tests/tui/test_combat.py)."""
    for c in enc.combatants:
        if c.name not in names:
            enc = enc.without(c.character_id)
    return enc


def declare_as_suggested(table: Table) -> None:
    """Enter on each declaration form: each one left declares what his form starts on
    (:func:`suggestion`); the last declaration begins the dice."""
    while (current := table.enc.next_declarer(can_act(table.session.read()[2]))) is not None:
        world = table.session.read()[2]
        table.ok(steps.declare, suggestion(table.enc, world, current.character_id))


def resolve_as_enter(table: Table) -> None:
    """Enter on each exchange until none is left, as the tab's Enter maps the stage: roll at
    «plan», skip at «refused», accept at «rolled»/«damage» (and «y», take it as it is, when
    the tab asks about a hit with Судьба unspent), next at «done»."""
    for _ in range(40):
        view = table.view()
        if view is None or not table.enc.pending():
            return
        step = {
            "plan": steps.roll,
            "refused": steps.skip,
            "rolled": steps.accept,
            "damage": steps.accept,
            "done": steps.finish,
        }[view.stage]
        table.ok(step)
    raise AssertionError("the round does not end")


def test_three_rounds_of_one_on_one_write_the_wounds_the_journal_says(tmp_path) -> None:
    """Сид: «Бой ведётся пошагово (по раундам)… Только после этого происходят проверки»;
    RULES §4: damage «value = margin + attacker's МУ» goes into the loser's wound track.

    Replaces the pilot test
    ``tests/tui/test_combat.py::test_three_round_fight_from_the_keyboard`` (its keys part —
    Space on the roster leaves the two, and `i` — stays in
    ``test_one_on_one_from_the_keys_and_the_last_declarations_undo`` there): Ярослав Кречет
    against Атаман Шкуро, side initiative, up to three rounds of the form's blows resolved as
    Enter resolves them; the side order reverses each round, every exchange is in the Журнал
    with its round, and the Журнал's damage lines add up to the wound tracks stored."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    table = Table(store, seed=11)
    _, everyone, _ = table.session.read()
    store.put_doc(steps.DOC, only(everyone, ONE_ON_ONE).to_dict(), label="Бой: двое")
    table.ok(steps.roll_initiative)
    first_order = table.enc.side_order()
    played = 0
    for number in range(1, 4):
        assert table.enc.round == number
        declare_as_suggested(table)
        resolve_as_enter(table)
        assert table.enc.phase == "resolve" and table.enc.pending() == []
        played = number
        if any(
            drevo.WoundTrack.from_dict(c.drevo.wounds).dead or c.drevo.dead
            for c in store.characters()
        ):
            break  # a dead fighter leaves the target lists: the fight is over
        if number < 3:
            table.ok(steps.next_round)
            assert table.enc.side_order() == (first_order[::-1] if number % 2 else first_order)
    saved = store.get_doc(steps.DOC)
    assert saved["round"] == played >= 2
    entries = list(reversed(store.log()))
    exchanges = [e for e in entries if e.text.startswith("Схватка")]
    assert len(exchanges) >= played  # ties rerolled or not, one per round at least
    assert all(e.data["round"] in range(1, played + 1) for e in exchanges)
    tracks = {c.name: drevo.WoundTrack() for c in store.characters()}
    for e in entries:
        if e.text.startswith("Урон"):
            tracks[e.actor] = tracks[e.actor].take(e.data["damage"])
    for c in store.characters():
        assert tracks[c.name].counts == c.drevo.wounds, c.name


def test_after_an_archer_the_swordsmans_form_starts_on_his_sword_close_by(tmp_path) -> None:
    """Play-test: Милава declared «Стрельба (Лук), средне»; Ярослав (Меч, Щит) then got the
    form with «Стрельба», «Меч», «средне» and an instant «Нельзя: для стрельбы выберите
    лук…». His form starts on «Ближний бой», «вплотную», with nothing to refuse; each of the
    three declares what his form starts on.

    The engine's side of the pilot test ``tests/tui/test_combat.py::
    test_the_next_declarer_gets_no_action_the_rules_refuse_for_them``, which stays: the form
    starts on what the engine suggests, and keeps nothing of the last declarer's."""
    sides = {"Милава": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    seen = []
    while (current := table.enc.next_declarer(lambda cid: True)) is not None:
        seen.append(current.name)
        world = table.session.read()[2]
        if current.name == "Милава":
            shot = Declaration(
                current.character_id, "shoot", people["Атаман Шкуро"].id, "Лук", "medium"
            )
            table.ok(steps.declare, shot)
            continue
        d = suggestion(table.enc, world, current.character_id)
        if current.name == "Ярослав Кречет" and "Милава" in seen:
            assert (d.action, d.distance) == ("melee", "close")
            assert steps.declaration_problem(table.enc, world, d) == ("", True)
        table.ok(steps.declare, d)
    assert set(seen) == set(sides)
    assert "Милава" in seen[: seen.index("Ярослав Кречет")], "Милава did not declare first"


def _stun(store: Store, name: str, amount: int) -> None:
    """Put «Оглушён −2» for ``amount`` rounds on ``name`` (as `+` on Партия would)."""
    from rules.effects import EffectSet, EffectSpec, Now
    from tui.bridge.effects import EFFECTS_DOC

    c = next(x for x in store.characters() if x.name == name)
    effects, _ = EffectSet().add(EffectSpec("Оглушён", c.id, -2, "rounds", amount), Now())
    store.put_doc(EFFECTS_DOC, effects.to_dict(), label="Эффект")


def test_an_effect_enters_the_exchange_and_stays_with_its_dice(tmp_path) -> None:
    """Play-test: «Оглушён −2» on Шкуро (`+` on Партия) was missing from his side of the
    Древо exchange; it is now among his modifiers, named in the exchange's lines (what the
    Бой tab draws) and in the odds; once rolled, the exchange keeps it when it is taken off.

    Replaces the pilot test ``tests/tui/test_combat_fight.py::
    test_an_effect_enters_the_exchange_next_to_the_wound_penalty`` (the tab draws
    ``exchange_lines``: tests/tui/test_combat_fight.py::
    test_the_dice_phase_undone_redraws_exactly_and_keys_work_after_the_end_undone)."""
    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "melee", "Ярослав Кречет", "Сабля"),
    ]
    table, store, _ = skirmish(tmp_path, sides, blows, seed=5)
    plain = table.view().plan
    assert not any("Оглушён" in line for line in exchange_lines(table.view()))
    _stun(store, "Атаман Шкуро", 2)
    plan = table.view().plan
    side = next(s for s in (plan.attacker, plan.defender) if s.fighter.name == "Атаман Шкуро")
    assert [(m.value, m.reason) for m in side.modifiers][-1] == (-2, "эффект «Оглушён»")
    assert any("Оглушён" in line for line in exchange_lines(table.view()))
    assert plan.odds != plain.odds
    table.ok(steps.roll)  # the effect is kept with the dice
    rolled = exchange_lines(table.view())
    store.put_doc("effects", None, label="Эффект снят")
    assert exchange_lines(table.view()) == rolled


def test_a_rolled_exchange_is_read_back_with_its_dice_and_not_rolled_again(tmp_path) -> None:
    """Сид: «Только после этого происходят проверки (бросаются кубики)» — once: a kubik
    started anew (other dice) reads the rolled exchange at «Принять» with the same dice and
    the same lines; a roll is refused; the Журнал has the one roll.

    Replaces the engine half of the pilot test ``tests/tui/test_combat_fight.py::
    test_a_quit_between_roll_and_accept_keeps_the_roll`` (the restarted tab's screen and its
    keys stay there, one app instead of two)."""
    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "melee", "Ярослав Кречет", "Сабля"),
    ]
    table, store, _ = skirmish(tmp_path, sides, blows, seed=5)
    table.ok(steps.roll)
    assert table.stage() == "rolled"
    dice, lines = table.enc.exchange["dice"], exchange_lines(table.view())
    store.close()
    again = Table(Store.open(tmp_path / "c.json"), seed=99)  # other dice, were any rolled
    assert again.stage() == "rolled"
    assert again.enc.exchange["dice"] == dice
    assert exchange_lines(again.view()) == lines
    assert again.run(steps.roll).refused
    assert len([e for e in again.store.log() if e.text.startswith("Схватка")]) == 1


def test_the_last_declarer_removed_elsewhere_brings_the_dice(tmp_path) -> None:
    """A fighter removed (``kubik party remove``, another window) while the others have all
    declared: the fight read back is at the dice, with the exchanges of those who declared.

    Replaces the engine half of the pilot test ``tests/tui/test_combat_removal.py::
    test_the_last_declarer_removed_elsewhere_brings_the_dice_at_once`` (what the tab shows
    and where its keys go stay in its successor there,
    ``test_removals_during_declarations_are_said_hand_the_form_on_and_bring_the_dice``)."""
    sides = {"Ярослав Кречет": "Отряд", "Милава": "Отряд", "Атаман Шкуро": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    while len(table.enc.declaring_order(lambda cid: True)) - len(table.enc.declarations) > 1:
        current = table.enc.next_declarer(lambda cid: True)
        world = table.session.read()[2]
        table.ok(steps.declare, suggestion(table.enc, world, current.character_id))
    last = table.enc.next_declarer(lambda cid: True)
    assert table.enc.phase == "declare" and last is not None
    Store.open(tmp_path / "c.json").delete_character(last.character_id)
    assert store.refresh()  # what the file watch does
    assert table.enc.phase == "resolve"
    assert table.enc.pending()  # the exchanges of those who declared
    assert table.stage() in ("plan", "refused")
    table.ok(steps.roll if table.stage() == "plan" else steps.skip)  # its first step is saved
    assert Store.open(tmp_path / "c.json").get_doc(steps.DOC)["phase"] == "resolve"


def test_a_declaration_is_one_undo_step(tmp_path) -> None:
    """Written, a declaration is one step undo takes back (the fight's first).

    Replaces the undo half of the pilot test ``tests/tui/test_combat.py::
    test_a_refused_write_changes_nothing_and_undo_restores_the_encounter_step`` (the refused
    write's message and the setup kept on the screen stay in its successor there,
    ``test_a_one_on_one_refused_write_illegal_declaration_and_a_dead_target``)."""
    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    current = table.enc.next_declarer(lambda cid: True)
    world = table.session.read()[2]
    table.ok(steps.declare, suggestion(table.enc, world, current.character_id))
    assert len(table.enc.declarations) == 1
    table.undo()
    assert len(table.enc.declarations) == 0
    assert table.enc.phase == "declare"


def test_the_end_of_a_fight_undone_and_ended_again_logs_both(tmp_path) -> None:
    """Ending a fight after round 1, undoing it, playing on to round 2 and ending it again:
    the Журнал says «Бой завершён после 1 раунда» (undone) and «… после 2 раундов».

    Replaces the Журнал half of the pilot test ``tests/tui/test_combat_fight.py::
    test_keys_work_after_undoing_the_end_of_the_fight`` (its keys — `x`, its question, `n`
    after Ctrl+Z — stay in its successor there,
    ``test_the_dice_phase_undone_redraws_exactly_and_keys_work_after_the_end_undone``)."""
    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    declare_as_suggested(table)
    resolve_as_enter(table)
    table.ok(steps.end)
    assert table.enc.phase == "setup"
    table.undo()
    assert table.enc.phase == "resolve"
    table.ok(steps.next_round)
    assert table.enc.phase == "declare" and table.enc.round == 2
    table.ok(steps.end)
    texts = {e.text: e.undone for e in store.log()}
    assert texts["Бой завершён после 2 раундов"] is False
    assert texts["Бой завершён после 1 раунда"] is True


def test_a_dead_fighter_is_no_target_and_may_be_removed(tmp_path) -> None:
    """Сид: «Смерть»: a dead fighter is no one's target (the form's targets), and the GM may
    take him out of the order; the one left to declare may still dodge.

    Replaces the dodge declared at the end of the pilot test
    ``tests/tui/test_combat_fight.py::test_dead_leave_the_target_list_and_are_marked`` (the
    form's list, the order's «погиб» and `d` offered, on the screen, stay in
    tests/tui/test_combat.py::
    test_a_one_on_one_refused_write_illegal_declaration_and_a_dead_target)."""
    from tui.systems.drevo.fight.declare import opponents

    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    declarer = table.enc.next_declarer(lambda cid: True)
    target = next(c for c in table.enc.combatants if c.side != declarer.side)
    c = store.character(target.character_id)
    store.upsert_character(replace(c, extra={**c.extra, "dead": True}))
    world = table.session.read()[2]
    assert target.character_id not in opponents(table.enc, world, declarer.character_id)
    assert steps.remove_fallen(table.enc, world, target.character_id).ok
    table.ok(steps.declare, Declaration(declarer.character_id, "dodge"))
    assert table.enc.declarations[0].action == "dodge"


def test_the_players_view_names_mark_the_fallen(tmp_path) -> None:
    """Сид: «Тяжелораненый персонаж не может ничего делать»; the players' view names the
    fighters «(тяжело ранен)» and «(погиб)» at a glance.

    Replaces the players' view half of the pilot test ``tests/tui/test_combat_fight.py::
    test_party_and_players_view_mark_the_fallen`` (Партия's cells stay in
    ``test_npcs_added_in_the_setup_then_the_fight_goes_on_from_the_shell_and_back`` there)."""
    from rules.drevo.sheet import DrevoSheet
    from rules.encounter import Combatant, Encounter
    from tui.bridge.public import combat_names

    store = Store.open(tmp_path / "c.json", system="drevo")
    first, second = store.characters()[:2]
    store.upsert_character(first.edit_sheet(DrevoSheet, wounds={**first.drevo.wounds, "heavy": 1}))
    store.upsert_character(replace(second, extra={**second.extra, "dead": True}))
    chars = {c.id: c for c in store.characters()}
    enc = Encounter(
        combatants=(Combatant(first.id, first.name, "А"), Combatant(second.id, second.name, "Б"))
    )
    assert combat_names(enc, chars) == {
        first.id: f"{first.name} (тяжело ранен)",
        second.id: f"{second.name} (погиб)",
    }

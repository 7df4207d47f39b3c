"""The Бой tab: a fight driven from the keyboard, checked against the store and the rules."""

from __future__ import annotations

from rules import drevo
from tui.store import Store


def pane(app):
    return app.query_one("#combat-pane")


ONE_ON_ONE = ("Ярослав Кречет", "Атаман Шкуро")


def only(encounter, names):
    """The setup ``encounter`` with everyone but ``names`` out of the fight, as Space on the
    roster leaves it (each kept one on the side they had)."""
    for c in encounter.combatants:
        if c.name not in names:
            encounter = encounter.without(c.character_id)
    return encounter


async def keep_only(pilot, app, names) -> None:
    """Open the Бой tab and keep only ``names`` in the fight, written through the store as
    one step (the keys' path: :func:`one_on_one_by_keys`, compared in
    ``test_one_on_one_from_the_keys_and_the_last_declarations_undo``)."""
    await pilot.press("2")  # the Бой tab: setup, focus on the roster
    await pilot.pause()
    enc = only(pane(app).encounter, names)
    app.store.put_doc("encounter", enc.to_dict(), label="Бой: " + ", ".join(names))
    await pilot.pause()
    assert pane(app).encounter == enc


def blows(app, encounter):
    """``encounter`` with each one left to declare striking the other side's first fighter
    in melee with their first melee weapon, вплотную, and the dice phase begun: what Enter on
    each declaration form declares (compared in
    ``test_one_on_one_from_the_keys_and_the_last_declarations_undo``)."""
    from rules.encounter import Declaration
    from tui.systems.drevo import combat as bridge
    from tui.systems.drevo.fight_pane.forms import WEAPON_KINDS

    p = pane(app)
    can_act = p._can_act()
    while (current := encounter.next_declarer(can_act)) is not None:
        actor = p.characters[current.character_id]
        target = next(
            c
            for c in encounter.combatants
            if c.side != current.side and not bridge.is_dead(p.characters[c.character_id])
        )
        weapons = bridge.weapon_names(actor)
        melee = [w for w in weapons if drevo.weapon(w).kind in WEAPON_KINDS["melee"]]
        weapon = (melee or [None])[0]
        blow = Declaration(
            actor.id,
            "melee",
            target=target.character_id,
            weapon=weapon,
            others=drevo.fight_settings().others,  # the campaign's way, as `declare` fills it
        )
        encounter = encounter.declare(blow, can_act)
    return encounter.start_resolution(can_act)


async def declare_blows(pilot, app) -> None:
    """Write :func:`blows` through the store as one step (the keys: Enter on each form)."""
    enc = blows(app, pane(app).encounter)
    app.store.put_doc("encounter", enc.to_dict(), label="Бой: заявки")
    await pilot.pause()
    assert pane(app).encounter == enc


async def declare_as_the_forms_start(pilot, app, left: int = 0) -> None:
    """Have each one left to declare declare what his form starts on (what Enter on each
    form declares) until ``left`` remain, written through the store as one step; the last
    declaration begins the dice."""
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.declare import suggestion

    p = pane(app)
    enc, world, act = p.encounter, p.world(), p._can_act()
    while len(enc.declaring_order(act)) - len(enc.declarations) > left:
        current = enc.next_declarer(act)
        made = steps.declare(enc, world, suggestion(enc, world, current.character_id))
        assert made.ok, made.refused
        enc = made.state
    app.store.put_doc("encounter", enc.to_dict(), label="Бой: заявки")
    await pilot.pause()


async def one_on_one(pilot, app):
    """Keep Ярослав Кречет (Отряд) against Атаман Шкуро (Противники); others leave."""
    await keep_only(pilot, app, ONE_ON_ONE)


async def one_on_one_by_keys(pilot, app):
    """:func:`one_on_one` from the keyboard: Space cycles each other one out of the fight."""
    await pilot.press("2")  # the Бой tab: setup, focus on the roster
    await pilot.pause()
    names = [c.name for c in pane(app).characters.values()]
    for index, name in enumerate(names):
        side = next((c.side for c in pane(app).encounter.combatants if c.name == name), "—")
        presses = {"Отряд": 3, "Противники": 2, "Третья сторона": 1, "—": 0}[side]
        if name in ONE_ON_ONE:
            presses = 0
        table = app.query_one("#combat-roster")
        table.move_cursor(row=index)
        for _ in range(presses):
            await pilot.press("space")  # cycle the side until out of the fight
    await pilot.pause()


async def test_one_on_one_from_the_keys_and_the_last_declarations_undo(
    make_test_app, campaign_path
):
    """Space on the roster cycles a character's side until he is out of the fight: the
    roster's keys leave Ярослав Кречет against Атаман Шкуро, as :func:`one_on_one` writes it
    for the other tests; `i` rolls side initiative; Enter on each form declares what
    :func:`blows` writes for the other tests, the last one with the move to the dice. One
    Enter, one undo step: Ctrl+Z reopens the last declaration, its form shown and focused,
    and Enter declares it again.

    One app for what were two pilot tests on the same one-on-one fight,
    ``test_three_round_fight_from_the_keyboard`` (its keys part; its three rounds are tested
    on the engine: tests/table/test_fight_from_the_tab.py::
    test_three_rounds_of_one_on_one_write_the_wounds_the_journal_says) and
    tests/tui/test_combat_fight.py::test_undo_of_the_last_declaration_reopens_it. The keys
    of the dice (Enter on each exchange, `n`) are pressed in tests/tui/test_combat_pace.py::
    test_a_three_against_three_round_of_unchanged_declarations_is_under_twenty_keys."""
    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        everyone = pane(app).encounter
        await one_on_one_by_keys(pilot, app)
        enc = pane(app).encounter
        assert enc == only(everyone, ONE_ON_ONE), "Space left another fight"
        assert app.store.get_doc("encounter") == enc.to_dict()
        assert sorted(c.name for c in enc.combatants) == ["Атаман Шкуро", "Ярослав Кречет"]
        await pilot.press("i")  # side initiative
        await pilot.pause()
        p = pane(app)
        assert p.encounter.phase == "declare" and p.encounter.round == 1, "i started nothing"
        declaring = p.encounter
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert p.encounter.phase == "resolve" and p.stage() == "plan", "no dice after Enter"
        stored = app.store.get_doc("encounter")
        assert stored == blows(app, declaring).to_dict(), "Enter declared otherwise"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert p.encounter.phase == "declare", "Ctrl+Z left the dice"
        assert len(p.encounter.declarations) == 1, "Ctrl+Z took more or less than one"
        assert app.query_one("#combat-form").display, "the form not shown"
        assert app.focused is app.query_one("#declare-action"), "the form not focused"
        await pilot.press("enter")
        await pilot.pause()
        assert p.encounter.phase == "resolve", "Enter did not declare again"
    assert Store.open(campaign_path).get_doc("encounter")["round"] == 1


async def declare(pilot, app, action, *, weapon=None, distance="close"):
    """Fill the declaration form through its steppers and press Enter."""
    form = app.query_one("#combat-form")
    form.query_one("#declare-action").select(action)
    await pilot.pause()
    if weapon:
        form.query_one("#declare-weapon").select(weapon)
    form.query_one("#declare-distance").select(distance)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_a_one_on_one_refused_write_illegal_declaration_and_a_dead_target(
    make_test_app, monkeypatch
):
    """A one-on-one fight at its start, on the Бой tab:

    - Issue 6: «A full disk or a read-only folder is a clear message and no lost state»: the
      initiative's write refused leaves the setup as it was and says so; with room again,
      `i` starts the fight.
    - Сид: «Сражаться оружием ближнего боя … можно, разумеется, только в ближнем бою»;
      «исключения определяет ведущий»: melee at «далеко» is refused in the form, with the
      reason, and the GM may allow it with «!» (written to the log).
    - Сид: «Смерть»: the dead are marked «погиб» in the order and are no one's target in the
      form; `d` is offered.

    One app for what were three pilot tests on the same setup,
    ``test_a_refused_write_changes_nothing_and_undo_restores_the_encounter_step`` (that a
    declaration is one undo step, its last part: tests/table/test_fight_from_the_tab.py::
    test_a_declaration_is_one_undo_step), ``test_an_illegal_declaration_is_refused_in_the_form``
    and tests/tui/test_combat_fight.py::test_dead_leave_the_target_list_and_are_marked (that
    the one left may still dodge and that `d`'s step takes the dead out:
    tests/table/test_fight_from_the_tab.py::test_a_dead_fighter_is_no_target_and_may_be_removed)."""
    from dataclasses import replace

    from tui.store import StoreError

    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_on_one(pilot, app)
        p = pane(app)
        before = p.encounter

        def full_disk(*args, **kwargs):
            raise StoreError("Диск заполнен: освободите место — изменения не сохранены.")

        monkeypatch.setattr(app.store, "apply", full_disk)  # every Бой step writes through it
        await pilot.press("i")  # initiative would start round 1 — the write fails
        await pilot.pause()
        assert p.encounter == before, "a refused write changed the fight"
        assert p.encounter.phase == "setup"
        messages = [n.message for n in app._notifications]
        assert any("Диск заполнен" in m for m in messages), messages
        monkeypatch.undo()  # the disk has room again
        await pilot.press("i")
        await pilot.pause()
        assert p.encounter.phase == "declare", "i did not start the fight"
        # The first declarer: melee at «далеко» (the form's rows set directly; their keys are
        # pressed in tests/tui/test_combat_pace.py::
        # test_a_three_against_three_round_of_unchanged_declarations_is_under_twenty_keys).
        await declare(pilot, app, "melee", distance="far")
        assert p.encounter.declarations == (), "an illegal declaration was made"
        problem = str(app.query_one("#declare-problem").render())
        assert "ближний бой только вплотную" in problem and "исключение ведущего" in problem
        await pilot.press("exclamation_mark")
        await pilot.pause()
        (declared,) = p.encounter.declarations
        assert declared.distance == "far" and "вплотную" in declared.exception
        texts = [e.text for e in app.store.log()]
        assert any(t.startswith("Заявка (исключение ведущего") for t in texts), texts
        # The next declarer's only opponent dies.
        target = next(
            c
            for c in p.encounter.combatants
            if c.side != p.encounter.next_declarer(p._can_act()).side
        )
        c = app.store.character(target.character_id)
        app.store.upsert_character(replace(c, extra={**c.extra, "dead": True}))
        await pilot.pause()
        options = [v for _, v in app.query_one("#declare-target")._options]
        assert target.character_id not in options, "the dead is a target"
        order = app.query_one("#combat-order")
        rows = [[str(x) for x in order.get_row_at(i)] for i in range(order.row_count)]
        assert any(r[1] == target.name and r[2].startswith("погиб") for r in rows), rows
        assert p.check_action("remove_fallen", ()), "d not offered"


async def test_the_next_declarer_gets_no_action_the_rules_refuse_for_them(make_test_app):
    """Play-test: Милава declared «Стрельба (Лук), средне»; Ярослав (Меч, Щит) then got the
    form with «Стрельба», «Меч», «средне» and an instant «Нельзя: для стрельбы выберите лук…».
    A kept choice the next declarer cannot make falls back to «Ближний бой», «вплотную»; one
    he can make (an archer after an archer) stays."""
    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        keep = {"Милава", "Ярослав Кречет", "Атаман Шкуро"}
        await keep_only(pilot, app, keep)
        await pilot.press("i")
        await pilot.pause()
        form = app.query_one("#combat-form")
        seen = []
        for _ in range(3):
            actor = form._actor.name
            seen.append(actor)
            if actor == "Милава":
                await declare(pilot, app, "shoot", weapon="Лук", distance="medium")
                continue
            if actor == "Ярослав Кречет" and "Милава" in seen:
                assert form.problem() == ("", True)
                assert form.query_one("#declare-action").value == "melee"
                assert form.query_one("#declare-distance").value == "close"
            await pilot.press("enter")
            await pilot.pause()
        assert set(seen) == keep


def test_an_npcs_skills_on_the_spot_are_the_digits_0_to_9():
    """The «Новый НИП» form (tui/systems/drevo/combat.py: parse_skills): «Драка ٢» was read as
    Драка 2, «\\d» taking any script's digits; it is refused as «Драка два» is."""
    import pytest

    from rules.errors import RulesError
    from tui.systems.drevo.combat import parse_skills

    assert [(s.name, s.value) for s in parse_skills("Драка 2, Уклонение −1")] == [
        ("Драка", 2),
        ("Уклонение", -1),
    ]
    for typed in ("Драка два", "Драка ٢", "Драка ２", "Драка 1٢"):
        with pytest.raises(RulesError, match="нужно «название число», например «Драка 2»"):
            parse_skills(typed)

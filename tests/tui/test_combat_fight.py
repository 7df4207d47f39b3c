"""Issue 13: a Древо fight that holds at the table — stored rolls, whole-exchange undo, keys."""

from __future__ import annotations

import json

from textual import events

from rules.drevo.sheet import DrevoSheet
from tests.tui.test_combat import declare_blows, keep_only, one_on_one, pane
from tui.store import Store


async def to_dice(pilot, app):
    """Ярослав and Шкуро strike each other with the first weapons; the dice phase begins.
    Initiative by its key (the seeded dice roll as a GM's would); the two declarations are
    written through the store as one step (their keys: tests/tui/test_combat.py::
    test_one_on_one_from_the_keys_and_the_last_declarations_undo)."""
    await one_on_one(pilot, app)
    await pilot.press("i")
    await pilot.pause()
    await declare_blows(pilot, app)
    assert pane(app).encounter.phase == "resolve" and pane(app).stage() == "plan"


async def resolve_all(pilot, app):
    """Resolve every exchange of the round on the engine (rolled and accepted as Enter
    would: tests/table/test_fight_from_the_tab.py::resolve_as_enter), through a second store
    on the campaign; the tab picks the whole round up at once, as from another kubik."""
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.session import FightSession

    with Store.open(app.store.path) as other:
        session = FightSession(other, pane(app).world().dice)
        for _ in range(30):
            if not session.read()[1].pending():
                break
            assert session.run(steps.accept).ok or session.run(steps.roll).ok
    app._refresh_store()  # what the file watch does
    await pilot.pause()
    assert not pane(app).encounter.pending()


EARLIER = "\nКубики этой схватки уже брошены — Enter покажет те же."


def screen_text(app) -> str:
    p = pane(app)
    return str(p.query_one("#combat-exchange").render()) + str(
        p.query_one("#combat-status").render()
    )


async def test_a_quit_between_roll_and_accept_keeps_the_roll(make_test_app, tmp_path):
    """Сид: «Только после этого происходят проверки (бросаются кубики)» — once: a restart
    shows the same dice at «Принять», never «Бросить» again. The exchange is rolled on the
    engine (what is read back, and that no roll is made again:
    tests/table/test_fight_from_the_tab.py::
    test_a_rolled_exchange_is_read_back_with_its_dice_and_not_rolled_again, which replaces
    this test's first app); the tab opened on it shows those dice, and Enter accepts.

    Issue 30: after a restart the app opened on Партия; with a fight in progress it opens on
    the fight. Replaces the second app of the pilot test `tests/tui/test_combat_pace.py::
    test_a_round_as_the_last_is_one_key_and_a_declaration_changes_in_place` (a restart on its
    fight in the dice phase, declared; here a restart on a fight in the dice phase, rolled:
    the same «fight in progress», the same tab asserted)."""
    from tests.table.helpers import skirmish
    from tui.present.rolls import fudge_dice
    from tui.systems.drevo.fight import steps

    sides = {"Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows_ = [
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "melee", "Ярослав Кречет", "Сабля"),
    ]
    table, store, _ = skirmish(tmp_path, sides, blows_, seed=5)
    table.ok(steps.roll)
    dice = table.enc.exchange["dice"]
    store.close()
    again = make_test_app(seed=99, path=tmp_path / "c.json")  # other dice, were any rolled
    async with again.run_test(size=(80, 24)) as pilot:
        from textual.widgets import TabbedContent

        await pilot.pause()
        await pilot.pause()
        assert again.query_one(TabbedContent).active == "combat", "a restart not on the fight"
        await pilot.press("2")
        await pilot.pause()
        assert pane(again).stage() == "rolled"
        assert pane(again).encounter.exchange["dice"] == dice
        shown = screen_text(again)
        rolled = [d for d in dice.values() if d]
        assert rolled and all(fudge_dice(tuple(d)) in shown for d in rolled), shown
        assert not pane(again).check_action("roll", ())
        assert pane(again).check_action("apply", ())
    rolls = [e for e in Store.open(tmp_path / "c.json").log() if e.text.startswith("Схватка")]
    assert len(rolls) == 1


async def test_the_dice_phase_undone_redraws_exactly_and_keys_work_after_the_end_undone(
    make_test_app,
):
    """One fight's dice phase at the keys (Ярослав against Шкуро, the exchange planned):

    - `s` skips the exchange and Ctrl+Z brings it back (what the skip writes and its undo
      marks: tests/table/test_fight_steps.py).
    - Roll, damage and Судьба are one undo step; undo and redo redraw the tab exactly, and
      rolling again after the undo shows the same dice (the Журнал keeps them).
    - Issue 30: x asks before it ends the fight (Enter on «Нет» keeps it). After an undo of
      «Бой завершён», n and x act at once (no tab switch needed), and a key typed right
      after n reaches the new round's form (Play16).

    One app for what were three pilot tests on the same fight at the same point,
    ``test_undo_in_the_dice_phase_is_one_exchange_and_redraws_exactly``,
    ``test_keys_work_after_undoing_the_end_of_the_fight`` (its Журнал lines: tests/table/
    test_fight_from_the_tab.py::test_the_end_of_a_fight_undone_and_ended_again_logs_both) and
    tests/tui/test_keys_after_n.py::test_a_key_typed_right_after_n_reaches_the_declaration_form.
    The round is resolved on the engine between the undo and the end."""
    from tests.tui.test_focus import bar
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.session import FightSession
    from tui.widgets.common.withdrawn import WithdrawnNote

    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_dice(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert not pane(app).encounter.pending(), "s did not skip"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert pane(app).encounter.pending(), "Ctrl+Z did not bring the exchange back"
        # The exchange: Enter through it, then undo and redo.
        planned = screen_text(app)
        wounds = {c.id: dict(c.drevo.wounds) for c in app.store.characters()}
        for _ in range(4):  # roll, accept, damage, next
            if not pane(app).encounter.pending():
                break
            await pilot.press("enter")
            await pilot.pause()
        rolls = [e for e in app.store.log() if e.text.startswith("Схватка") and "dice" in e.data]
        dice = [e.data["dice"] for e in rolls]
        after = screen_text(app)
        docs = (app.store.get_doc("encounter"), [c.drevo.wounds for c in app.store.characters()])
        await pilot.press("ctrl+z")
        await pilot.pause()
        # The plan as before, and one more line: these dice are already in the Журнал.
        assert screen_text(app).replace(EARLIER, "") == planned, "the undo drew otherwise"
        assert EARLIER in screen_text(app)
        assert {c.id: dict(c.drevo.wounds) for c in app.store.characters()} == wounds
        assert pane(app).stage() == "plan"
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert screen_text(app) == after, "the redo drew otherwise"
        assert (
            app.store.get_doc("encounter"),
            [c.drevo.wounds for c in app.store.characters()],
        ) == docs
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.press("enter")  # roll again: the same dice
        await pilot.pause()
        assert pane(app).encounter.exchange["dice"] == dice[0], "new dice after the undo"
        # The end of the fight, undone.
        await resolve_all(pilot, app)
        await pilot.press("x")
        await pilot.pause()
        assert "Завершить бой" in app.screen.title_text
        await pilot.press("enter")  # the first choice: «Нет, продолжить бой»
        await pilot.pause()
        assert pane(app).encounter.phase == "resolve", "«Нет» ended the fight"
        await pilot.press("x", "down", "enter")
        await pilot.pause()
        assert pane(app).encounter.phase == "setup", "«Да» did not end the fight"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert pane(app).encounter.phase == "resolve"
        # Play16: «n →» typed at once — the → reaches the new round's form.
        before = str(pane(app).query_one("#declare-action").render())
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("right", None))
        await pilot.pause()
        await pilot.pause()
        assert pane(app).encounter.phase == "declare" and pane(app).encounter.round == 2
        now = str(pane(app).query_one("#declare-action").render())
        assert now != before, f"the → typed right after n was lost: {now}"
        # Play-test: «Завершить бой?» open while ``kubik fight end`` ended the fight; Enter
        # on «Да» then said «Бой ещё не начат.» The question follows the store: it says the
        # fight is gone and Enter writes nothing; Esc closes it; the other window's undo
        # brings the fight back.
        await pilot.press("x")
        await pilot.pause()
        with Store.open(app.store.path) as other:
            assert FightSession(other, pane(app).world().dice).run(steps.end).ok
            app._refresh_store()  # what the file watch does
            await pilot.pause()
            note = str(app.screen.query_one(WithdrawnNote).render())
            assert "Боя нет" in note and "Esc" in note, note
            assert not any(k.startswith("⏎") for k in bar(app)), f"Enter offered: {bar(app)}"
            logged = len(app.store.log())
            await pilot.press("down", "enter")
            await pilot.pause()
            assert len(app.screen_stack) == 2 and len(app.store.log()) == logged
            await pilot.press("escape")
            await pilot.pause()
            assert len(app.screen_stack) == 1, "Esc did not close the question"
            other.undo()
        app._refresh_store()
        await pilot.pause()
        assert pane(app).encounter.phase == "declare", "the other window's undo not followed"
        await pilot.press("x", "down", "enter")
        await pilot.pause()
        assert pane(app).encounter.phase == "setup", "x did not act after the undo"


def shown_text(app) -> str:
    """What the terminal shows of the Бой tab's screen now (under a dialog too): its rows as
    composed, no-break spaces plain."""
    strips = pane(app).screen._compositor.render_strips()
    return "\n".join(strip.text.replace("\xa0", " ").rstrip() for strip in strips)


async def test_the_last_line_of_a_long_exchange_is_on_the_screen_at_80x24(make_test_app):
    """Play-test: Горан's dart against Лыко's musket at «средне» (two one-sided checks, both
    hit) — at 80×24 the Судьба offer after the damage and then the final wounds fell below
    the key bar. The bottom of the exchange (what Enter does next) is always visible.

    The ambush and the two declarations (`z`, the form: what those keys do is pressed in
    tests/tui/test_combat.py) are made on the engine, as one step each; Enter resolves."""
    from rules import drevo
    from rules.encounter import Declaration
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.session import FightSession

    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await keep_only(pilot, app, ("Горан Рябой", "Лыко"))
        people = {c.name: c.id for c in app.store.characters()}
        session = FightSession(app.store, pane(app).world().dice)
        assert session.run(steps.ambush, ["Отряд", "Противники"]).ok  # Отряд declares first
        others = drevo.fight_settings().others  # what the form starts on
        for who, action, whom, weapon in (
            ("Горан Рябой", "throw", "Лыко", "Дротик"),
            ("Лыко", "shoot", "Горан Рябой", "Ружьё"),
        ):
            d = Declaration(people[who], action, people[whom], weapon, "medium", others=others)
            assert session.run(steps.declare, d).ok
        await pilot.pause()
        assert pane(app).encounter.phase == "resolve"
        seen = 0
        for _ in range(6):
            if not pane(app).encounter.pending():
                break
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause()
            view = str(pane(app).query_one("#combat-exchange").render()).rstrip()
            last = view.splitlines()[-1].strip()
            assert last[-30:] in shown_text(app).replace("\n", " "), view
            seen += 1
        assert seen >= 3


async def test_npcs_added_in_the_setup_then_the_fight_goes_on_from_the_shell_and_back(
    make_test_app, campaign_path, capsys
):
    """The default fight's setup, then its first declarations:

    - Сид: «Тяжелораненый персонаж не может ничего делать»: Партия says «тяжело ранен» and
      «погиб» at a glance (the first two of the party, before the fight).
    - Enter in the new-NPC dialog adds the NPC and nothing else: the highlighted character
      keeps its side, the roster keeps the keys (Enter in the skills field, then on the
      weapon row).
    - Issue 37: the fight started in the app is continued by ``kubik fight`` and the app
      follows at once; the app's next key goes on from what the shell did.

    One app for what were three pilot tests on the default campaign,
    ``test_party_and_players_view_mark_the_fallen`` (its players' view names:
    tests/table/test_fight_from_the_tab.py::test_the_players_view_names_mark_the_fallen),
    ``test_enter_in_the_new_npc_dialog_does_not_move_a_row`` and
    ``test_a_fight_goes_on_from_the_shell_and_back``."""
    from dataclasses import replace

    from tui.systems.drevo.fight_cli import fight

    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        # Партия marks the fallen at a glance (they are out of the default fight).
        first, second = app.store.characters()[:2]
        app.store.upsert_character(
            first.edit_sheet(DrevoSheet, wounds={**first.drevo.wounds, "heavy": 1})
        )
        app.store.upsert_character(replace(second, extra={**second.extra, "dead": True}))
        await pilot.pause()
        table = app.query_one("#party-table")
        cells = {str(table.get_row(first.id)[0]): str(table.get_row(first.id)[3])}
        cells[str(table.get_row(second.id)[0])] = str(table.get_row(second.id)[3])
        assert cells[first.name].endswith("— тяжело ранен"), cells
        assert cells[second.name].endswith("— погиб"), cells
        await pilot.press("2")
        await pilot.pause()
        sides = {c.character_id: c.side for c in pane(app).encounter.combatants}
        await pilot.press("a")
        await pilot.pause()
        # The fields filled in one go (the subject is Enter, not typing); Enter in the
        # skills field adds.
        app.screen.query_one("#npc-name").value = "Тать"
        app.screen.query_one("#npc-skills").value = "Драка 1"
        await pilot.press("tab", "enter")
        await pilot.pause()
        now = {c.character_id: c.side for c in pane(app).encounter.combatants}
        added = set(now) - set(sides)
        assert len(added) == 1, "not one NPC added"
        assert {k: v for k, v in now.items() if k in sides} == sides, "a side moved"
        assert app.focused is app.query_one("#combat-roster"), "the roster lost the keys"
        await pilot.press("a")
        await pilot.pause()
        app.screen.query_one("#npc-name").value = "Вор"
        await pilot.press("tab", "tab", "enter")  # Enter on the weapon row
        await pilot.pause()
        again = {c.character_id: c.side for c in pane(app).encounter.combatants}
        assert {k: v for k, v in again.items() if k in sides} == sides, "a side moved"
        assert len(again) == len(now) + 1, "the second NPC not added"
        # The fight, from the app and the shell.
        await pilot.press("i")  # the app rolls initiative
        await app.services.writes_done()
        await pilot.pause()
        p = pane(app)
        first = p.encounter.next_declarer(p._can_act())
        assert p.encounter.phase == "declare" and first is not None
        assert (
            fight(["declare", first.character_id, "dodge", "--campaign", str(campaign_path)]) == 0
        )
        app._refresh_store()  # what the file watch does when another kubik writes
        await pilot.pause()
        assert [d.actor for d in p.encounter.declarations] == [first.character_id]
        order = str(app.query_one("#combat-order").get_row(first.character_id))
        assert "Уклонение" in order, "the app did not follow the shell"
        second = p.encounter.next_declarer(p._can_act())
        assert second is not None and second != first
        await pilot.press("enter")  # the app declares the next fighter from its form
        await app.services.writes_done()
        await pilot.pause()
    capsys.readouterr()  # (Textual holds stdout while the app runs)
    assert fight(["show", "--json", "--campaign", str(campaign_path)]) == 0
    shown = json.loads(capsys.readouterr().out)["fight"]
    declared = [f["id"] for f in shown["fighters"] if f["declaration"]]
    assert sorted(declared) == sorted([first.character_id, second.character_id])


async def test_enter_twice_at_a_lethal_hit_spends_no_fate(make_test_app, tmp_path) -> None:
    """Issue 30: «nothing changes that the GM did not mean to change». Enter on a hit that
    takes a fighter out while he has Судьба asks; the question had «Потратить Судьбу»
    chosen already, so a second Enter spent a point and a third took a level off — a GM
    going on with Enter spent the player's Судьба. Nothing is chosen until the GM picks
    (↓ or the letter); «f» spends, Esc leaves the hit unwritten.

    Then the «снизить урон» dialog follows damage written from the shell. Replaces the pilot
    test
    `tests/tui/test_combat_fight.py::test_the_reduce_dialog_follows_damage_written_from_the_shell`
    (its own app on the same duel, the dialog opened with «f» as here, each of its asserts)."""
    from tests.table.helpers import Table, duel
    from tests.table.test_fight_steps import _roll_until_won
    from tui.systems.drevo.fight import steps

    table, store, target = duel(tmp_path, {"heavy": 1}, fate=5)
    _roll_until_won(table)
    assert table.view().result.winner == "attacker", "the seeded dice no longer win"
    table.ok(steps.accept)
    assert table.view().unspent_fate_warning()
    store.close()
    app = make_test_app(path=tmp_path / "c.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.pause()
        assert pane(app).stage() == "damage"
        await pilot.press("enter", "enter", "enter")  # the question, then Enter twice
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.store.character(target.id).drevo.fate == 5, "Enter spent Судьба"
        assert pane(app).stage() == "damage", "Enter wrote the hit"
        await pilot.press("f")  # the GM's choice: spend
        await pilot.pause()
        first = str(app.screen.query_one("OptionList").get_option_at_index(0).prompt)
        assert len(app.screen_stack) == 2 and first.startswith("−1"), first  # how many levels
        # Play-test: with the dialog open, ``kubik fight damage --reduce 1`` ran; the title
        # still said «(Смерть)» and Enter said «Сейчас некому записывать урон.» The dialog
        # follows the store: it says the damage was written elsewhere and refuses Enter
        # (nothing more is spent); Esc closes it. (The step's refusal:
        # tests/table/test_fight_gone.py.)
        with Store.open(tmp_path / "c.json") as other:  # kubik fight damage --reduce 1
            Table(other).ok(steps.damage, 1)
        app._refresh_store()  # what the file watch does
        await pilot.pause()
        note = str(app.screen.query_one("WithdrawnNote").render())
        assert note.startswith("Урон уже записан в другом окне или командой kubik"), note
        fate = app.store.character(target.id).drevo.fate
        logged = len(app.store.log())
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.store.character(target.id).drevo.fate == fate == 4
        assert len(app.store.log()) == logged
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.screen_stack) == 1

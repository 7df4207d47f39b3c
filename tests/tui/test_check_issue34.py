"""What a GM who never read the code found in the Проверка tab (issue 34), at 80×24: state kept
in the screen, words, pace. Each test failed on the builders before the table engine. (The
opposed check's second side derived from its own sheet was a pilot test here: its derivation
is tests/table/test_check_ide4_opposed.py::
test_the_second_side_is_derived_from_the_opponent_chosen, the dialog drawing it
tests/tui/test_opposed_undo_keys.py::
test_the_opposed_dialogs_follow_ctrl_z_and_ctrl_y_wherever_the_focus.)"""

from __future__ import annotations

from tests.tui.test_builder_ide4_options import open_ide4


def party(app) -> dict[str, str]:
    return {c.name: c.id for c in app.store.characters()}


async def test_saved_roll_bar_then_the_cellar_door_then_b_and_e_on_a_success(make_test_app):
    """One app on the IDE4 demo campaign, three parts in turn, each with its own asserts.

    1. «After `r` (a saved roll) in Партия the quick-roll bar stays open on every tab with the
       old expression and another character's result, and at 80×24 it hides Проверка's
       outcome line; Esc in the form does not close it.»
    2. «Open the cellar door» (IDE4 expanded, Взлом, [3], +1 darkness, −1 tools, 3 energy
       dice) took about 35 keys before the d100; typing selects in every ◀ ▶ row, and it
       takes at most 12 keys besides the modifiers' own text — then one key («a») the next
       time. (The text is put in the focused field in one go: the keys counted are the
       subject, not the typing.) On the way, «IDE4 focus lands on Атрибут»: the action
       decides the attribute, the skill and the base — the party's Enter on the first
       character enters the form there.
    3. «`b` highlights the skill reroll first (`b` Enter turned Ольга's Успех 89 into Средне
       54)»: the bonus that cannot worsen is highlighted; the reroll comes last, with its
       odds. Then «e» on that Успех: the energy chooser says each choice changes nothing
       («Не создаёт Триумф») before anything is spent — the screen part of the pilot test
       `tests/tui/test_builder_ide4_options.py::
       test_energy_dice_below_the_nominal_and_after_on_success_warns` (its dice and costs:
       tests/table/test_check_ide4_paid.py::
       test_energy_dice_below_the_nominal_and_after_on_success_warn).

    Merges the pilot tests `test_a_saved_rolls_result_does_not_stay_over_another_tab`,
    `test_the_cellar_door_takes_at_most_twelve_keys` (itself the merge of
    `test_the_form_is_entered_at_the_action`) and
    `test_b_offers_the_bonus_first_and_the_skill_reroll_last` of this file: the same campaign,
    three apps become one. Part 1 leaves the Проверка tab as it found it (nothing rolled, the
    cursor back on Партия's first character), so part 2's keys are the same."""
    from dataclasses import replace

    from textual.widgets import Input

    from tests.tui.builders import rig_d100
    from tui.systems.ide4.builder.dialogs import ChooserScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. A saved roll's result does not stay over another tab.
        vera = next(c for c in app.store.characters() if c.name == "Вера Стрижова")
        app.store.upsert_character(replace(vera, rolls=(("Атака", "2d6+3"),)))
        await pilot.pause()
        bar = app.query_one("#quick")
        await pilot.press("r")
        await pilot.pause()
        assert bar.display, "the saved roll's result, in the tab it was made in"
        await pilot.press("3")
        await pilot.pause()
        assert not bar.display, "another tab: the bar gone"
        assert app.query_one("#ide4-row-mods").region.height == 1, "the form's rows all seen"
        await pilot.press("1", "r")
        await pilot.pause()
        assert bar.display, "back on Партия: a saved roll again"
        await pilot.press("escape")
        await pilot.pause()
        assert not bar.display, "Esc closes it"
        assert app.query_one("#check-pane").check is None, "part 1 rolled no check"
        # 2. The cellar door.
        keys = ["enter", "l", "В", "з", "down", "down", "down", "down"]  # from Партия to mods
        tail = ["down", "down", "3", "enter"]  # to «Энергия до», three dice, roll
        await pilot.press(keys[0])  # Партия: Enter on the first character
        await pilot.pause()
        assert app.focused.id == "ide4-action", "the form is entered at the action"
        await pilot.press(*keys[1:])
        mods = app.focused
        assert isinstance(mods, Input) and mods.id == "ide4-mods", "the keys lead to the mods"
        mods.insert_text_at_cursor("+1 темнота, -1 инструменты")
        await pilot.press(*tail)
        await pilot.pause()
        b = app.query_one("#check-pane")
        check = b.check
        assert check is not None and len(keys + tail) <= 12, "rolled within 12 keys"
        inp = check.input
        assert (inp.actor, inp.action, inp.skill, inp.level) == (
            "Вера Стрижова",
            "Взлом",
            "Взлом",
            "expanded",
        ), "the cellar door's check"
        assert [(m.value, m.reason) for m in inp.modifiers] == [(1, "темнота"), (-1, "инструменты")]
        assert check.difficulty.final == 3 and inp.energy_dice == 3, "[3], three dice"
        await pilot.press("n", "a")  # the next time: the last lock-picking check
        await pilot.pause()
        again = b.current_input()
        assert (again.action, again.modifiers, again.energy_dice) == ("Взлом", inp.modifiers, 3)
        # 3. «b» and «e» on Ольга's Успех 89, on a new check at the standard level.
        b.action_new_check()  # the situation (the mods, the energy dice) cleared
        await open_ide4(pilot)
        app.query_one("#ide4-character").select(party(app)["Ольга Ренн"])
        await pilot.pause()
        app.query_one("#ide4-action").select("Переговоры")
        await pilot.pause()
        assert not b.current_input().modifiers and b.form.level == "standard", "afresh"
        await pilot.press("enter")
        await pilot.pause()
        await rig_d100(pilot, 89)
        assert b.check.outcome == "success", "Ольга's Успех 89"
        await pilot.press("b")
        await pilot.pause()
        chooser = app.screen
        assert isinstance(chooser, ChooserScreen), "«b» opens the bonus chooser"
        first = chooser.choices[chooser.query_one("OptionList").highlighted]
        assert first.id == "triumph" and "наверняка лучше" in first.reason, "the bonus first"
        last = chooser.choices[-1]
        assert last.id == "reroll" and "хуже" in last.reason, "the reroll last, with its odds"
        await pilot.press("escape", "e")  # energy after, on Успех: futile, said before it is spent
        await pilot.pause()
        chooser = app.screen
        assert isinstance(chooser, ChooserScreen), "«e» opens the energy chooser"
        shown = " ".join(c.reason for c in chooser.choices)
        assert "не изменит исход" in shown and "Не создаёт Триумф" in shown, "the warning shown"


def test_the_keys_of_an_ide4_campaign_list_no_drevo_keys() -> None:
    """«`?` in an IDE4 campaign lists Древо's `g`/`o` without «(Древо)»»: its Партия lists
    no wound, healing or Судьба key; a Древо campaign's does."""
    from tui.app import KubikApp
    from tui.appparts.dialogs import key_groups

    def party(system: str) -> set[str]:
        groups = dict(key_groups(KubikApp.BINDINGS, system))
        return {b.action for b in groups["Партия"]}

    drevo = {"wound", "heal", "grant_fate", "fate_circumstance"}
    assert not party("ide4") & drevo
    assert drevo <= party("drevo")


def played_before_the_restart(campaign_path, play):
    """The campaign's first kubik: its open check played through the table engine (the same
    steps the keys make, the same store), then closed; return what ``play`` returned."""
    from tests.table.check_helpers import table
    from tui.store import Store

    store = Store.open(campaign_path, system="ide4")
    try:
        return play(table(store, seed=7)), len(store.log())
    finally:
        store.close()


async def test_a_rolled_check_comes_back_after_a_restart_and_is_not_rolled_again(
    make_test_app, campaign_path
):
    """«IDE4, Вера, Enter: «d100: 14 → Провал» with three rerolls and energy after still open;
    kill -9 and restart: Проверка is an empty form, the check can be rolled again, and the
    rerolls and energy owed are gone.» (kill -9 itself: tests/table/test_check_*.py)

    The kubik before the restart plays «3» Enter «r» Enter through the engine (a roll, a
    reroll from the first source allowed); it was an app run of its own here — the restarted
    app showing it is this test's subject."""
    from tests.table.check_helpers import ok
    from tui.systems.ide4.builder.dialogs import ConcludeScreen
    from tui.systems.ide4.check import steps

    def play(t):
        ok(t, steps.roll)
        source = next(o.source for o in t.view().offers() if o.kind == "reroll" and o.allowed)
        ok(t, steps.reroll, source)
        return t.view().check

    before, log = played_before_the_restart(campaign_path, play)
    again = make_test_app(system="ide4", seed=99)  # the same campaign, other dice
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        b = again.query_one("#check-pane")
        assert b.phase == "result" and b.check == before  # the same dice and moves
        assert "Что ещё можно" in str(b.query_one("#ide4-moves Static").render())
        await pilot.press("enter")  # Enter concludes: it never rolls the d100 again
        await pilot.pause()
        assert isinstance(again.screen, ConcludeScreen)
        assert len(again.store.log()) == log


async def test_an_opposed_check_comes_back_after_a_restart_with_its_dialog(
    make_test_app, campaign_path
):
    """The opposed check too: rolled and a move made, the app closed without concluding —
    the restarted app opens its result dialog when the GM comes to Проверка, the same two
    checks with the same dice; Enter records it, it never rolls again (kill -9 itself:
    tests/table/test_check_ide4_opposed.py).

    The kubik before the restart plays «3» «o» Enter and the first energy move allowed
    through the engine; it was an app run of its own here."""
    from tests.table.check_helpers import ok
    from tui.systems.ide4.builder.opposed_result import OpposedResultScreen
    from tui.systems.ide4.check import opposed as opp

    def play(t):
        first = t.state.inputs.character
        ok(t, opp.open_opposed, next(c for c in t.world().characters if c != first))
        ok(t, opp.roll_opposed)
        offers = opp.opposed_view(t.state, t.world()).offers("energy_after")
        key, offer = next((k, o) for k, o in offers if o.allowed)
        ok(t, opp.opposed_move, key, "energy_after", offer.source)
        return dict(opp.opposed_view(t.state, t.world()).checks)

    before, log = played_before_the_restart(campaign_path, play)
    again = make_test_app(system="ide4", seed=99)  # the same campaign, other dice
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not isinstance(again.screen, OpposedResultScreen)  # not over Партия
        await pilot.press("3")
        await pilot.pause()
        screen = again.screen
        assert isinstance(screen, OpposedResultScreen) and screen.checks == before
        if screen.result.winner is None:
            await pilot.press("right")
        await pilot.press("enter")
        await again.services.writes_done()
        await pilot.pause()
        assert not isinstance(again.screen, OpposedResultScreen)
        assert len(again.store.log()) == log + 1  # the outcome, after the move: no roll again

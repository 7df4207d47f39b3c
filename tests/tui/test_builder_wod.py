"""The Мир Тьмы builder: its rows' keys, the chance die's question, the contest and extended
dialogs — what is about the screen and its keys.

Behaviour tests drive the app with keys; snapshots pin the look. What a roll, a contest or an
extended action computes and records: tests/table/test_check_wod.py (no Textual).
The demo party (data/demo/wod.toml) lists Вера Соколова first: Интеллект 3, Расследование 3.
"""

from __future__ import annotations

from functools import partial

from textual.widgets import Input

from tests.tui import builders
from tests.tui.builders import errors
from tui.store import Store
from tui.systems.wod.builder.builder import ChanceScreen, ContestScreen, TargetScreen

# Rows from the character row: 1 Атрибут, 2 Навык, 3 Модификаторы, 4 n-снова, 5 Рутина.


open_builder = partial(builders.open_builder, prefix="wod")


async def test_the_rows_keys_the_chance_die_the_contest_and_the_extended_action(
    make_test_app, campaign_path
):
    """One app, the builder's keys and dialogs in turn (what the rolls record: tests/table/
    test_check_wod.py and tests/table/test_check_builder_steps.py).

    The modifier field's example reads as an example and fits at 80 columns (plain, NO_COLOR:
    «+1 прицел, -2 темнота» in grey read as modifiers already applied). The rows' keys (↓ to
    a row, → to its next value, typing in the modifiers) make the pool
    that is rolled; the previous character's roll must not stay on screen under another name.
    A chance die asks first: «Отказаться» closes the question (a withdrawal is logged, the
    check's end: Enter is refused with what to do), «n» and Enter ask again, «x» (the
    Storyteller forbids withdrawing) takes the button away and Esc is then refused with the
    reason, «Бросить» rolls. «c» opens the contest (its exact odds, the tie said), Enter rolls
    it; «n» and «e» ask the target (→ five times: 10 successes), Enter rolls into the action,
    and while it goes on the key bar says that «e» stops it (it kept «e Продолжительное»);
    stopped, the bar offers «n», not Enter.

    Merges the pilot tests `test_the_rows_keys_set_the_pool_and_another_character_clears_the_
    result`, `test_chance_die_asks_first_withdrawing_is_logged` (its record: tests/table/
    test_check_builder_steps.py::test_a_chance_die_may_be_withdrawn_and_is_logged_either_way)
    `test_c_and_e_open_the_contest_and_the_extended_actions_dialogs` and `tests/tui/test_builder_
    words.py::test_each_builders_modifier_example_reads_as_an_example[wod-#check-mods]`. Then,
    in the same app, :func:`dialogs_follow_another_window` (which merges two more)."""
    from tests.tui.test_focus import bar

    app = make_test_app(system="wod")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(pilot)
        mods = app.query_one("#check-mods", Input)
        assert mods.placeholder.startswith("пример: "), "the modifier example reads as one"
        assert len(mods.placeholder) <= mods.content_region.width, "the example is cut"
        await pilot.press("down", "right")  # Интеллект → Сообразительность (3)
        await pilot.press("down", "down", *"+2")  # Расследование 3, two more dice
        await pilot.press("down", "right", "right")  # 10-снова → 9 → 8-снова
        await pilot.press("down", "right")  # rote
        await pilot.press("enter")
        await pilot.pause()
        [entry] = app.store.log()
        pool = entry.data["pool"]
        assert entry.actor == "Вера Соколова" and pool["attribute_name"] == "Сообразительность"
        assert pool["skill_name"] == "Расследование", "the rows' keys made the pool"
        assert (pool["size"], pool["again"], pool["rote"]) == (8, 8, True)
        result = app.query_one("#check-result")
        assert "Успехов" in str(result.render()), "the roll shown"
        app.query_one("#check-character").focus()
        await pilot.press("right")  # the character row: Глеб Орлов
        await pilot.pause()
        assert "Успехов" not in str(result.render()), "another character: the roll leaves"
        assert "Enter — бросить запас" in str(result.render())
        await pilot.press("left")  # Вера again: her own sheet's rows
        await open_builder(pilot, mods="-7 рана", again=10, rote=False)  # 3 + 3 − 7
        formula = str(app.query_one("#check-formula").render())
        assert "бросок на удачу" in formula, "a chance die said in the formula"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChanceScreen), "a chance die asks first"
        await pilot.click("#chance-withdraw")  # «отказаться»
        await pilot.pause()
        assert not isinstance(app.screen, ChanceScreen), "«Отказаться» closes the question"
        assert app.store.log()[0].data["kind"] == "withdrawn", "the withdrawal logged"
        await pilot.press("enter")  # the withdrawal is the check's end: Enter is refused
        await pilot.pause()
        assert not isinstance(app.screen, ChanceScreen), "a withdrawn check asked again"
        assert any("n — новая проверка" in message for message in errors(app)), "what to do"
        await pilot.press("n", "enter")  # a new check: asked again
        await pilot.pause()
        assert app.screen.query_one("#chance-withdraw").display
        await pilot.press("x")  # the Storyteller forbids withdrawing: the button goes away
        await pilot.pause()
        assert not app.screen.query_one("#chance-withdraw").display, "«x»: no «Отказаться»"
        await pilot.press("escape")  # and Esc is refused with the reason
        await pilot.pause()
        assert isinstance(app.screen, ChanceScreen), "Esc refused"
        assert any("нельзя отменить" in message for message in errors(app)), "the reason"
        await pilot.click("#chance-go")  # «бросить»
        await pilot.pause()
        chance = app.store.log()[0].data
        assert chance["kind"] == "chance" and chance["pool"]["withdrawal_allowed"] is False
        app.query_one("#check-mods").value = ""
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ContestScreen), "«c» opens the contest"
        odds = str(app.screen.query_one("#contest-odds").render())
        assert "Точные шансы" in odds and "ничья" in odds, "the contest's odds and tie"
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ContestScreen), "Enter rolls the contest"
        assert app.store.log()[0].data["kind"] == "contested"
        await pilot.press("n", "e")  # a new check, an extended action
        await pilot.pause()
        assert isinstance(app.screen, TargetScreen), "«e» asks the target"
        await pilot.press("right", "right", "right", "right", "right")  # 5 → 10 successes
        await pilot.press("enter")
        await pilot.pause()
        b = app.query_one("#check-pane")
        assert b._extended is not None and b._extended.target == 10
        assert "e Стоп" in bar(app) and "e Продолжительное" not in bar(app)  # what «e» does now
        assert "⏎ Бросить" in bar(app), "Enter: the action's next roll"
        await pilot.press("enter", "enter")
        await pilot.pause()
        await pilot.press("e")  # stop
        await pilot.pause()
        assert b._extended is None, "«e» stops the action"
        # Every key the bar has now (at 80 columns ^Z naming the roll takes the place of
        # the last ones; ? lists them)
        keys = [f"{k} {t}" for k, t, _on in app.query_one("KeyBar")._keys]
        assert "e Стоп" not in keys and "⏎ Бросить" not in keys and "n Новая" in keys
        await app.services.writes_done()
        start, *entries = list(reversed(Store.open(campaign_path).log()))[4:]
        assert (start.data["event"], start.data["target"]) == ("extended_start", 10)
        assert [len(e.data["rolls"]) for e in entries] == [1, 2, 2], "the action's rolls"
        assert entries[-1].data["event"] == "stopped"
        await dialogs_follow_another_window(app, pilot, campaign_path)


class TestWodSnapshots:
    """The builder before and after a roll, and the chance-die question."""

    def test_before_roll(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("3")  # Вера Соколова: Интеллект 3 + Расследование 3

        assert snap_compare(
            make_test_app(system="wod"), terminal_size=(80, 24), run_before=run_before
        )

    def test_after_roll(self, snap_compare, make_test_app):
        async def run_before(pilot):
            # Rows set directly (their keys are tested above): +2 dice, 8-again, rote.
            await open_builder(pilot, mods="+2 лупа", again=8, rote=True)
            await pilot.press("enter")  # roll 8d10

        app = make_test_app(system="wod")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    def test_chance_question(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await open_builder(pilot, mods="-7 рана")  # pool 3 + 3 − 7 = −1
            await pilot.press("enter")  # a chance die: asks first

        app = make_test_app(system="wod")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def bar_keys(app) -> tuple[tuple[str, str, bool], ...]:
    from tui.widgets.common.keybar import KeyBar

    return app.query_one(KeyBar)._keys  # what the bar shows now


async def dialogs_follow_another_window(app, pilot, campaign_path) -> None:
    """Two dialogs while another window edits the campaign (the log counted from here on).

    The chance die's question shows the pool the form gives now: a sheet edited elsewhere
    while it is open changes its pool (still a chance die), and a pool of one die or more
    takes it away with the reason — nothing rolled, nothing withdrawn.

    Playtest: with the contest dialog open on one opponent, `kubik party remove` him from
    the shell → the dialog switched to another with no notice and Enter rolled against him.
    Now a notice names who is shown instead, the first Enter confirms him, the second rolls.
    The engine's side of it: tests/table/test_check_other_sides.py.

    Merges the pilot tests `test_the_chance_question_follows_the_sheet_and_goes_when_the_
    pool_is_back` and `test_an_opponent_removed_elsewhere_is_told_and_enter_first_confirms`."""
    from dataclasses import replace

    def intellect(value: int) -> None:
        other = Store.open(campaign_path)  # another window edits Вера's sheet
        vera = next(c for c in other.characters() if c.name == "Вера Соколова")
        other.upsert_character(replace(vera, qualities={**vera.qualities, "Интеллект": value}))
        other.close()

    logged = len(app.store.log())
    await open_builder(pilot, mods="-7 рана")  # Интеллект 3 + Расследование 3 − 7
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, ChanceScreen)
    assert "запас −1" in str(app.screen.query_one("#chance-text").render())
    intellect(4)
    app._refresh_store()  # what the file watch (or the timer) does
    await pilot.pause()
    assert isinstance(app.screen, ChanceScreen), "still a chance die: still asked"
    assert "запас 0" in str(app.screen.query_one("#chance-text").render()), "the new pool"
    intellect(5)
    app._refresh_store()
    await pilot.pause()
    assert not isinstance(app.screen, ChanceScreen), "one die: the question goes"
    assert any("больше не бросок на удачу" in n.message for n in app._notifications)
    assert len(Store.open(campaign_path).log()) == logged, "nothing rolled or withdrawn"
    app.query_one("#check-mods").value = ""
    await pilot.pause()
    await pilot.press("c")
    await pilot.pause()
    assert isinstance(app.screen, ContestScreen)
    first = app.screen.shown.side.character
    other = Store.open(campaign_path)
    other.delete_character(first.id)
    app._refresh_store()  # what the file watch does
    await pilot.pause()
    shown = app.screen.shown.side.character
    said = [str(n.message) for n in app._notifications]
    assert any("удалён" in n and shown.name in n for n in said), said
    assert "удалён" in str(app.screen.query_one("#contest-odds").render())
    assert ("⏎", "Подтвердить", True) in bar_keys(app)  # the key bar says what Enter does
    await pilot.press("enter")  # confirms the one shown: nothing rolled yet
    await pilot.pause()
    assert isinstance(app.screen, ContestScreen) and len(app.store.log()) == logged
    assert "Точные шансы" in str(app.screen.query_one("#contest-odds").render())
    assert ("⏎", "Бросить", True) in bar_keys(app)
    await pilot.press("enter")
    await pilot.pause()
    assert not isinstance(app.screen, ContestScreen), "the second Enter rolls"
    entry = app.store.log()[0]
    assert len(app.store.log()) == logged + 1, "one contest rolled"
    assert entry.data["b"]["pool"]["name"] == shown.name


async def test_an_extended_action_whose_character_was_removed_offers_its_stop_not_its_roll(
    make_test_app, campaign_path
):
    """Playtest: Вера's extended action, one roll made; `kubik party remove` her from a shell.
    The bar still offered «⏎ Бросить», and Enter was refused («… Продолжительное действие не
    продолжить: e — остановить.»). The bar now offers «e Стоп» and no Enter; Enter still says
    why, and nothing is rolled. (The refusal itself: tests/table/test_check_wod.py.)"""
    from tests.tui.test_focus import bar

    app = make_test_app(system="wod")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TargetScreen), "«e» asks the target"
        await pilot.press("enter", "enter")  # 5 successes; the action's first roll
        await pilot.pause()
        assert "⏎ Бросить" in bar(app) and "e Стоп" in bar(app), "the action goes on"
        other = Store.open(campaign_path)  # another kubik removes her
        other.delete_character(next(c for c in other.characters() if c.name == "Вера Соколова").id)
        other.close()
        app._refresh_store()  # what the file watch (or the timer) does
        await pilot.pause()
        assert "e Стоп" in bar(app), "«e» still stops her action"
        assert "⏎ Бросить" not in bar(app), "Enter is refused: not offered"
        logged = len(Store.open(campaign_path).log())
        await pilot.press("enter")
        await pilot.pause()
        assert any("не продолжить: e — остановить" in m for m in errors(app)), "Enter says why"
        await app.services.writes_done()
        assert len(Store.open(campaign_path).log()) == logged, "nothing rolled"

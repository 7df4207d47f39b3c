"""Every builder: after switching character, the previous character's result leaves the screen."""

from __future__ import annotations


async def test_drevo_switch_clears_the_previous_result(make_test_app):
    app = make_test_app(system="drevo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # the Проверка tab, roll 4dF
        await pilot.pause()
        result = app.query_one("#check-result")
        first = str(result.render())
        assert first != "Enter — бросить 4dF."
        app.query_one("#check-character").focus()
        await pilot.press("right")
        await pilot.pause()
        assert str(result.render()) == "Enter — бросить 4dF."
        assert app.query_one("#check-pane")._result is None


async def test_ide4_party_enter_on_another_character_starts_a_fresh_check(make_test_app):
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # roll the d100
        await pilot.pause()
        b = app.query_one("#check-pane")
        assert b.phase == "result"
        first = b.check.input.actor
        await pilot.press("1", "down", "enter")  # the party tab: the next character, Enter
        await pilot.pause()
        assert b.phase == "setup" and b.check is None
        assert b.form.character.name != first

"""Behaviour tests: drive the app with keys and assert on the store, not on pixels."""

from __future__ import annotations

from textual.widgets import DataTable, Static, TabbedContent

from tui.store import Store


async def test_builder_roll_and_quick_roll_reach_the_log(make_test_app, campaign_path):
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")  # the check builder
        assert app.query_one(TabbedContent).active == "check"
        await pilot.press("down", "right")  # trait row: choose the next trait
        await pilot.press("enter")  # roll
        await pilot.pause()
        await pilot.press("slash")  # quick-roll bar from anywhere
        await pilot.press(*"2d6+1")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape", "4")  # close the bar, open the log
        await pilot.pause()
        table = app.query_one("#log-table", DataTable)
        assert table.row_count == 2
        newest = table.get_row_at(0)
        assert "2d6" in str(newest[2])

    stored = Store.open(campaign_path)
    entries = stored.log()
    assert [e.kind for e in entries] == ["roll", "check"]
    check = entries[1]
    assert check.data["system"] == "drevo"
    assert len(check.data["dice"]) == 4 if "dice" in check.data else True
    roll = entries[0]
    assert (
        roll.data["total"]
        == sum(d["value"] for part in roll.data["parts"] if "dice" in part for d in part["dice"])
        + 1
    )


async def test_bad_quick_roll_explains_in_russian_and_logs_nothing(make_test_app, campaign_path):
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", *"2d", "enter")
        await pilot.pause()
        output = str(app.query_one("#quick-output", Static).render())
        assert "позиция" in output
    assert Store.open(campaign_path).log() == []


async def test_bad_modifier_shows_message_and_does_not_roll(make_test_app, campaign_path):
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        app.query_one("#check-mods").focus()
        await pilot.press(*"темно", "enter")
        await pilot.pause()
        formula = str(app.query_one("#check-formula", Static).render())
        assert "начните с числа" in formula
    assert Store.open(campaign_path).log() == []


async def test_party_enter_opens_builder_for_that_character(make_test_app):
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "check"
        chosen = app.query_one("#check-character").value
        expected = app.store.characters()[2].id
        assert chosen == expected

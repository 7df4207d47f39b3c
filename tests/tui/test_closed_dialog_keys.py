"""A dialog closed under the GM's fingers (its character removed in another window) does not
hand the keys meant for it to the party table: the GM stays on Партия, the cursor on the row
that took the removed character's place.

«Another window» is a second :class:`Store` on the same file (what ``kubik party remove`` does).
"""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, TabbedContent

from tui.store import Store


def by_name(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def highlighted_name(app) -> str:
    table = app.query_one("#party-table", DataTable)
    key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return app.store.character(key.value).name


@pytest.mark.parametrize(
    ("system", "key", "what"),
    [("drevo", "w", "рана не записана"), ("wod", "e", "правка не записана")],
)
async def test_enter_meant_for_the_closed_dialog_stays_on_the_party_tab(
    make_test_app, campaign_path, system, key, what
):
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        names = [c.name for c in app.store.characters()]
        table = app.query_one("#party-table", DataTable)
        table.move_cursor(row=1)  # not the first row: a jump back to row 0 would show
        await pilot.pause()
        gone = highlighted_name(app)
        await pilot.press(key)
        assert len(app.screen_stack) == 2
        other = Store.open(campaign_path)
        other.delete_character(by_name(other, gone).id)
        app._refresh_store()  # what the file watch does
        await pilot.pause()
        assert any(
            f"Персонаж {gone} удалён в другом окне — {what}." in n.message
            for n in app._notifications
        )
        await pilot.press("down", "enter")  # the GM's keys meant for the dialog
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "party"
        assert len(app.screen_stack) == 1
        # The row after the removed one took its place; «down», meant for the dialog, stays off it.
        assert highlighted_name(app) == [n for n in names if n != gone][1]
        await pilot.press("enter")  # a deliberate Enter later opens the check as ever
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "check"


@pytest.mark.parametrize(("system", "key"), [("drevo", "o"), ("wod", "e")])
async def test_typing_meant_for_a_closed_prompt_or_form_is_not_taken_as_commands(
    make_test_app, campaign_path, system, key
):
    """«a» would open the new character form, «2» the Бой tab; Enter ends what was typed."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#party-table", DataTable)
        table.move_cursor(row=1)  # Горан Рябой in Древо: Судьба 3, «o» applies
        await pilot.pause()
        gone = highlighted_name(app)
        await pilot.press(key)
        assert len(app.screen_stack) == 2
        other = Store.open(campaign_path)
        other.delete_character(by_name(other, gone).id)
        app._refresh_store()
        await pilot.pause()
        assert len(app.screen_stack) == 1
        await pilot.press("a", "2", "space", "backspace", "enter")  # typed into the closed dialog
        await pilot.pause()
        assert (app.query_one(TabbedContent).active, len(app.screen_stack)) == ("party", 1)
        names = [c.name for c in Store.open(campaign_path).characters()]
        assert names == [c.name for c in other.characters()]  # no form opened and saved «2»
        await pilot.press("2")  # after its Enter, keys are commands again
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "combat"

"""A dialog whose character is removed in another window stays open and says so: the keys the
GM meant for it (↓, Enter, typed text) land in it, its Enter is refused with the reason and
writes nothing, Esc closes it; nothing reaches the party table behind it.

«Another window» is a second :class:`Store` on the same file (what ``kubik party remove`` does).
"""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, TabbedContent

from rules.drevo.sheet import DrevoSheet
from tui.store import Store
from tui.widgets.common.withdrawn import WithdrawnNote


def by_name(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def highlighted_name(app) -> str:
    table = app.query_one("#party-table", DataTable)
    key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return app.store.character(key.value).name


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


def note_text(app) -> str:
    """The withdrawn note's text, checked to be on screen inside the dialog's box."""
    note = app.screen.query_one(WithdrawnNote)
    assert note.region.height > 0 and not note.parent.has_class("-textual-system")
    return str(note.render())


async def open_and_remove(pilot, app, campaign_path, key: str) -> tuple[str, Store]:
    """Open ``key``'s dialog on the second row, then remove its character in another window."""
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
    return gone, other


async def typing_stays_in_the_dialog(pilot, app, campaign_path, key: str) -> None:
    """«a» would open the new character form, «2» the Бой tab: typed into the open dialog."""
    gone, other = await open_and_remove(pilot, app, campaign_path, key)
    await pilot.press("a", "2", "space", "backspace", "enter")  # typed into the dialog
    await pilot.pause()
    assert len(app.screen_stack) == 2
    assert any(f"{gone} удалён в другом окне —" in n for n in notices(app))
    await pilot.press("escape")
    await pilot.pause()
    assert (app.query_one(TabbedContent).active, len(app.screen_stack)) == ("party", 1)
    names = [c.name for c in Store.open(campaign_path).characters()]
    assert names == [c.name for c in other.characters()]  # no form opened and saved «2»
    await pilot.press("2")  # keys are commands again once the dialog is closed
    await pilot.pause()
    assert app.query_one(TabbedContent).active == "combat"


async def enter_is_refused_and_esc_closes(
    pilot, app, campaign_path, key: str, keys: tuple[str, ...], what: str
) -> None:
    """The dialog stays open and says why; its Enter is refused with the reason and writes
    nothing; Esc closes it and the keys meant for it never reached the party table."""
    names = [c.name for c in app.store.characters()]
    if key == "h":  # the second row needs a wound to heal
        other = Store.open(campaign_path)
        c = by_name(other, names[1])
        other.upsert_character(c.edit_sheet(DrevoSheet, wounds={"scratch": 1}))
        app._refresh_store()
        await pilot.pause()
    gone, other = await open_and_remove(pilot, app, campaign_path, key)
    dialog = app.screen
    assert len(app.screen_stack) == 2  # still open, and it says why Enter writes nothing
    assert f"Персонаж {gone} удалён в другом окне" in note_text(app)
    log_before = other.log()
    await pilot.press(*keys)  # the GM's keys meant for the dialog
    await pilot.pause()
    assert app.screen is dialog  # refused: the dialog stays
    assert f"Персонаж {gone} удалён в другом окне — {what}. Esc — закрыть." in notices(app)
    stored = Store.open(campaign_path)
    assert gone not in [c.name for c in stored.characters()]  # no resurrection
    assert stored.log() == log_before  # nothing written
    await pilot.press("escape")
    await pilot.pause()
    assert (app.query_one(TabbedContent).active, len(app.screen_stack)) == ("party", 1)
    # The row after the removed one took its place; «down», meant for the dialog, stays off it.
    assert highlighted_name(app) == [n for n in names if n != gone][1]
    await pilot.press("enter")  # a deliberate Enter later opens the check as ever
    await pilot.pause()
    assert app.query_one(TabbedContent).active == "check"


async def back_by_an_undo_is_written_again(pilot, app, campaign_path) -> None:
    """The other window takes its removal back: the open wound dialog says the character is
    back and its Enter writes again (a Царапина)."""
    gone, other = await open_and_remove(pilot, app, campaign_path, "w")
    other.undo()  # the other window takes its removal back
    app._refresh_store()
    await pilot.pause()
    assert not app.screen.query(WithdrawnNote), "back: no withdrawn note"
    assert f"Персонаж {gone} снова в партии: окно снова записывает." in notices(app)
    await pilot.press("enter")  # a Царапина, written now
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert len(app.screen_stack) == 1, "Enter wrote and closed the dialog"
    assert by_name(Store.open(campaign_path), gone).drevo.wounds.get("scratch") == 1, "written"


@pytest.mark.parametrize(
    ("system", "typed", "refused", "undo"),
    [
        # Горан Рябой in Древо: Судьба 3, «o» applies; the heal dialog is the one rebuilt on
        # a change; then a removal taken back by an undo elsewhere
        (
            "drevo",
            "o",
            [
                ("w", ("down", "enter"), "рана не записана"),
                ("h", ("down", "enter"), "лечение не записано"),
            ],
            True,
        ),
        (
            "wod",
            "e",
            [("e", ("end", "x", "enter"), "правка не записана")],
            False,
        ),  # Enter: the name
    ],
)
async def test_a_dialog_keeps_its_keys_refuses_its_enter_and_esc_closes_it(
    make_test_app, campaign_path, system, typed, refused, undo
):
    """Each dialog in turn (one app: a character is removed for each): the keys typed into a
    prompt or form stay in it; a dialog's Enter is refused with the reason. In Древо, last,
    a character back by an undo elsewhere is written again (merges the pilot test
    `test_a_character_back_by_an_undo_elsewhere_is_written_again`)."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts: as kubik runs
        await typing_stays_in_the_dialog(pilot, app, campaign_path, typed)
        for key, keys, what in refused:
            await pilot.press("1")  # back to the party
            await pilot.pause()
            await enter_is_refused_and_esc_closes(pilot, app, campaign_path, key, keys, what)
        if undo:
            await pilot.press("1")  # back to the party
            await pilot.pause()
            await back_by_an_undo_is_written_again(pilot, app, campaign_path)

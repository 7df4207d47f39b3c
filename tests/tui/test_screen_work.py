"""Screens that make Textual do no needless work: what each opening styles, in one app run.

A widget that takes the focus is restyled with everything in it (Textual's
``watch_has_focus``), so a dialog that first focuses its scrolling box and then its field
restyles the whole dialog twice for a focus nobody sees."""

from __future__ import annotations

from textual.widget import Widget

from tui.widgets.party.form import CharacterForm


async def test_the_character_form_opens_with_only_its_name_field_focused(
    make_test_app, monkeypatch
):
    """«a» and «e» open the character form with the focus on «Имя» and on nothing before it:
    ~30 ms of the opening's CPU went to focusing the form's scrolling box, restyling its ~40
    widgets, and restyling them again as «Имя» took the focus from it."""
    focused: list[str] = []
    watch = Widget.watch_has_focus

    def noted(self: Widget, has_focus: bool) -> None:
        if has_focus:
            focused.append(self.id or type(self).__name__)
        watch(self, has_focus)

    monkeypatch.setattr(Widget, "watch_has_focus", noted)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("a", "e"):
            focused.clear()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm), f"«{key}» opened no form"
            assert app.screen.focused is not None and app.screen.focused.id == "f-name", key
            assert focused == ["f-name"], f"«{key}»: focused on the way: {focused}"
            await pilot.press("escape")
            await pilot.pause()


async def test_the_keys_list_is_as_tall_as_its_rows_at_each_opening(make_test_app):
    """«?» measures its table once per rows and width (tui/screens/keys.py ``KeysTable``:
    ~35 ms of each opening's CPU went to measuring it, twice); each list is still as tall as
    its own rows render: opened again, at another width, or a shorter list at the same width.
    """
    from rich.segment import Segment

    from tui.screens.keys import KeysScreen, keys_table

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        heights = []
        groups = None
        for step in ("80", "again", "100", "shorter"):
            if step == "100":
                await pilot.resize_terminal(100, 30)
            if step == "shorter":
                await app.push_screen(KeysScreen(groups[:2]))
            else:
                await pilot.press("question_mark")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, KeysScreen), f"{step}: «?» opened no list"
            groups = groups or screen.groups
            table = screen.query_one("#keys-table")
            width = table.content_region.width
            options = app.console.options.update_width(width).update(highlight=False)
            rendered = len(
                list(Segment.split_lines(app.console.render(keys_table(screen.groups), options)))
            )
            assert table.virtual_size.height == rendered, f"{step}: the height at width {width}"
            heights.append(rendered)
            await pilot.press("escape")
            await pilot.pause()
        assert len(set(heights)) == 3, f"{heights}: the steps measured nothing new"


async def test_the_party_filter_is_built_by_the_first_f_and_the_table_restyled_while_running(
    make_test_app, monkeypatch
):
    """A start builds no party filter field (it was styled at every start and shown by few);
    the first «f» builds it where it stood, between the «Ещё …» line and the sheet, with the
    focus; Esc hides it and the next «f» shows the same field again.

    And the table that loses the focus is restyled to look unfocused (its cursor row's
    colours) while the app runs; as the app closes its screens give up the focus, and the
    table was restyled for a frame never drawn (~2 ms of every pilot test's teardown). One
    app run: both start on the Партия tab and press «f» and Esc."""
    from tui.widgets.common.table import Table

    restyled: list[str | None] = []
    restyle = Table.update_node_styles

    def noted(self: Table, animate: bool = True) -> None:
        restyled.append(self.id)
        restyle(self, animate=animate)

    monkeypatch.setattr(Table, "update_node_styles", noted)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.query("#party-filter"), "the start built the filter field"
        assert app.focused is not None and app.focused.id == "party-table"
        restyled.clear()
        await pilot.press("f")  # the filter takes the focus; the table stays in sight
        await pilot.pause()
        assert restyled == ["party-table"], f"the table left while running: {restyled}"
        field = app.query_one("#party-filter")
        order = [child.id for child in field.parent.children]
        assert order == ["party-table", "party-more", "party-filter", "party-sheet"], order
        assert field.display and app.focused is field, "«f»: the field is not shown, focused"
        await pilot.press("escape")
        await pilot.pause()
        assert not field.display and app.focused.id == "party-table", "Esc: not hidden"
        await pilot.press("f")
        await pilot.pause()
        assert app.query_one("#party-filter") is field and field.display, "«f» again"
        assert len(app.query("#party-filter")) == 1, "a second field"
        await pilot.press("escape")  # back to the table, which has the focus as the app ends
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "party-table"
        restyled.clear()
    assert restyled == [], f"the table restyled as the app closed: {restyled}"

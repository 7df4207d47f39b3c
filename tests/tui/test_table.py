"""tui.widgets.common.table.Table draws exactly what a DataTable with fresh caches draws."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import DataTable, Input, TabbedContent, TabPane

from tui.widgets.common.focus import focus_now
from tui.widgets.common.table import Table

#: These tests are about what a refresh draws (cells rendered again or not): every frame is
#: composed, as in a terminal.
pytestmark = pytest.mark.usefixtures("every_frame")

ROWS = [(f"Персонаж {i}", "НИП" if i % 2 else "игрок", str(i % 4)) for i in range(9)]


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        with TabbedContent():
            with TabPane("Таблица", id="a"):
                yield Table(id="table", cursor_type="row", zebra_stripes=True)
            with TabPane("Другое", id="b"):
                yield Input(id="hidden-input")
        yield Input(id="other")

    def on_mount(self) -> None:
        table = self.query_one(Table)
        table.add_columns("Имя", "Кто", "Судьба")
        table.add_rows(ROWS)
        table.focus()


def drawn(table: Table) -> list[list[tuple[str, object]]]:
    region = Region(0, 0, table.size.width, table.size.height)
    return [[(seg.text, seg.style) for seg in strip] for strip in table.render_lines(region)]


def fresh(table: Table) -> list[list[tuple[str, object]]]:
    """What a DataTable draws when styled anew for its focus now, with every cache dropped."""
    table.app.stylesheet.update_nodes([table])  # styles as Textual computes them now
    DataTable.notify_style_update(table)  # DataTable's own: drop every cache
    DataTable._on_resize(table, None)  # type: ignore[arg-type]
    return drawn(table)


def leave_tab(app: App[None]) -> None:
    """As kubik's tab switch: show the other tab and focus a widget in it."""
    app.query_one(TabbedContent).active = "b"
    app.query_one("#hidden-input").focus()


async def test_the_table_draws_what_a_fresh_data_table_draws_and_no_more() -> None:
    """One table, in turn: its cached rows match fresh ones through focus and tabs; shown again
    it renders no cell; left with its tab it draws as a fresh one when back (focused or not);
    a tab switch there and back with the focus restyles and redraws nothing; a restyle (last:
    it changes the stylesheet) still drops the cache. Each part sets up the focus it needs.

    Replaces the pilot tests (one app each, the same ``TableApp``):
    ``tests/tui/test_table.py::test_cached_rows_match_fresh_rows_through_focus_and_tabs``,
    ``tests/tui/test_table.py::test_showing_the_table_again_renders_no_cell``,
    ``tests/tui/test_table.py::test_a_table_left_with_its_tab_draws_as_a_fresh_one_when_back``,
    ``tests/tui/test_table.py::test_leaving_and_rejoining_with_the_focus_restyles_and_redraws_nothing``
    and ``tests/tui/test_table.py::test_a_restyle_still_drops_the_cache``."""
    app = TableApp()
    async with app.run_test(size=(60, 16)) as pilot:
        table = app.query_one(Table)
        await _cached_rows_match_fresh_rows_through_focus_and_tabs(app, pilot, table)
        await _showing_the_table_again_renders_no_cell(app, pilot, table)
        await _a_table_left_with_its_tab_draws_as_a_fresh_one_when_back(app, pilot, table)
        await _leaving_and_rejoining_with_the_focus_restyles_and_redraws_nothing(app, pilot, table)
        await _a_restyle_still_drops_the_cache(app, pilot, table)


async def _cached_rows_match_fresh_rows_through_focus_and_tabs(app, pilot, table) -> None:
    steps = [
        ("focused", lambda: None),
        ("blurred", lambda: app.query_one(Input).focus()),
        ("cursor moved while blurred", lambda: table.move_cursor(row=4)),
        ("focused again", table.focus),
        ("hidden", lambda: setattr(app.query_one(TabbedContent), "active", "b")),
        ("shown", lambda: setattr(app.query_one(TabbedContent), "active", "a")),
        ("blurred after showing", lambda: app.query_one(Input).focus()),
    ]
    states = []
    for label, step in steps:
        step()
        await pilot.pause()
        if app.query_one(TabbedContent).active != "a":
            continue
        cached = drawn(table)
        assert cached == fresh(table), f"cached rows differ from fresh ones: {label}"
        states.append(cached)
    assert states[0] != states[1], "focus does change the drawing: the check can fail"


async def _a_restyle_still_drops_the_cache(app, pilot, table) -> None:
    """Another cursor colour (a theme or CSS change) is drawn, not served from the cache."""
    await pilot.pause()
    before = drawn(table)
    app.stylesheet.add_source(
        "Table > .datatable--cursor { background: red; }", read_from=("test", "")
    )
    app.stylesheet.reparse()
    app.stylesheet.update(app)
    await pilot.pause()
    after = drawn(table)
    assert after != before, "a restyle: the new cursor colour is drawn"
    assert after == fresh(table), "a restyle: drawn as a fresh table"


async def _showing_the_table_again_renders_no_cell(app, pilot, table) -> None:
    """The point of Table: a tab shown again is drawn from the rows rendered before."""
    app.query_one(Input).focus()  # hiding would move the focus, which is drawn anew
    await pilot.pause()
    rendered: list[object] = []
    render_cell = table._render_cell

    def counting(*args: object, **kwargs: object) -> object:
        rendered.append(args)
        return render_cell(*args, **kwargs)

    table._render_cell = counting  # type: ignore[method-assign]
    app.query_one(TabbedContent).active = "b"  # as a kubik tab switch does
    await pilot.pause()
    app.query_one(TabbedContent).active = "a"
    await pilot.pause()
    # In kubik's layout the table is also told its (unchanged) size again on showing.
    table.post_message(events.Resize(table.size, table.virtual_size))
    await pilot.pause()
    table.refresh()  # drawn again from the rows, not from the finished lines
    drawn(table)
    del table._render_cell  # the class's again
    assert rendered == [], "shown again: no cell rendered anew"


async def _a_table_left_with_its_tab_draws_as_a_fresh_one_when_back(app, pilot, table) -> None:
    """The table loses the focus while hidden, and is not restyled for it: back with the focus
    it draws its focused look; back without the focus, its blurred one."""
    table.focus()
    await pilot.pause()
    focused = drawn(table)
    leave_tab(app)
    await pilot.pause()
    assert not table.has_focus, "the focus left with the tab"
    app.query_one(TabbedContent).active = "a"
    focus_now(table)  # as kubik focuses a tab's first control
    await pilot.pause()
    assert drawn(table) == focused == fresh(table), "back with the focus: its focused look"

    leave_tab(app)
    await pilot.pause()
    app.query_one(TabbedContent).active = "a"
    app.query_one("#other").focus()  # shown again, the focus elsewhere
    await pilot.pause()
    blurred = drawn(table)
    assert blurred != focused, "back without the focus: not the focused look"
    assert blurred == fresh(table), "back without the focus: its blurred look"


async def _leaving_and_rejoining_with_the_focus_restyles_and_redraws_nothing(
    app, pilot, table
) -> None:
    """The point of the focus handling: a tab switch there and back costs the table nothing."""
    table.focus()
    await pilot.pause()
    styled: list[object] = []
    lines: list[int] = []
    apply = app.stylesheet.apply
    render_line = table.render_line

    def counting_apply(node: object, **kwargs: object) -> None:
        styled.append(node)
        apply(node, **kwargs)  # type: ignore[arg-type]

    def counting_line(y: int) -> object:
        lines.append(y)
        return render_line(y)

    app.stylesheet.apply = counting_apply  # type: ignore[method-assign]
    table.render_line = counting_line  # type: ignore[method-assign]
    leave_tab(app)
    await pilot.pause()
    app.query_one(TabbedContent).active = "a"
    focus_now(table)  # as kubik focuses a tab's first control
    await pilot.pause()
    assert table.has_focus, "back with the focus"
    assert table not in styled, "there and back with the focus: not restyled"
    assert lines == [], "there and back with the focus: no line drawn"
    app.query_one("#other").focus()  # a real blur, in view: restyled and drawn anew
    await pilot.pause()
    assert table in styled, "a real blur restyles (the counting works)"
    assert lines, "a real blur draws (the counting works)"
    del app.stylesheet.apply, table.render_line  # the classes' again

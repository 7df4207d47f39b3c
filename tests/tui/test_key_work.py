"""The work one key does on a screen already built: a pane redrawn once per change, nothing
laid out or rebuilt again for what did not change (issue 21: the suite's CPU is mostly keys).
The round tracker's «n», redrawn once: tests/tui/test_keys_after_n.py (its first key there);
a rolled IDE4 check's keys: tests/tui/test_one_truth.py::TestUndoUnderAnOpenCheck."""

from __future__ import annotations

from typing import Any

from tests.tui.test_wrapping import LONG, shown_text


def count_calls(obj: Any, name: str) -> list[int]:
    """Wrap ``obj.name`` (on the instance) so each call adds one to the returned counter."""
    calls = [0]
    method = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return method(*args, **kwargs)

    setattr(obj, name, counted)
    return calls


async def test_a_fight_step_redraws_the_pane_once_and_leaves_the_banner_and_the_log_alone(
    make_test_app,
):
    """Пробел in the Древо fight's setup (a side changed) is one write and one redraw; a
    write that changes the fight does not lay the (empty) read-only banner out again, and
    does not rebuild the Журнал's rows; a new Журнал entry does rebuild them. A long
    Журнал entry then wraps onto more lines, at 80 columns and wider.

    One app for what were three pilot tests with the same setup (the default campaign, the
    Журнал built), ``test_a_fight_step_redraws_the_drevo_pane_once``,
    ``test_a_store_change_elsewhere_leaves_the_banner_and_the_log_alone`` and
    tests/tui/test_wrapping.py::test_a_long_log_entry_wraps_in_the_journal."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4")  # the Журнал, built
        log = await app.ensure_pane("log")
        await pilot.press("2")
        pane = await app.ensure_pane("combat")
        await pilot.pause()
        before = pane.encounter
        redraws = count_calls(pane, "_redraw")
        banner = app.query_one("#read-only-banner")
        updates = count_calls(banner, "update")
        shows = count_calls(log, "show")
        await pilot.press("space")  # a side changed: a write, no Журнал line
        await pilot.pause()
        assert pane.encounter != before, "Space changed no side"
        assert redraws[0] == 1, f"the pane redrawn {redraws[0]} times"
        assert updates[0] == 0, "the banner laid out again"
        assert shows[0] == 0, "the Журнал's rows rebuilt"
        app.services.record("note", None, "Заметка ведущего", {})
        await pilot.pause()
        assert shows[0] == 1, "a new Журнал entry did not rebuild its rows"
        assert "Заметка ведущего" in str(log.query_one("#log-detail").render())
        # A long entry wraps onto more lines: at 80 columns it was cut behind a scrollbar.
        app.services.record("note", "Милава", LONG, {})
        await pilot.press("4")
        await pilot.pause()
        table = app.query_one("#log-table")
        assert table.virtual_size.width <= table.size.width, "something to scroll sideways"
        assert not table.show_horizontal_scrollbar
        assert "— конец" in shown_text(table), "the long entry cut"
        await pilot.resize_terminal(120, 30)  # wider: fewer lines, still the whole text
        await pilot.pause()
        await pilot.pause()
        assert table.virtual_size.width <= table.size.width, "wider: something to scroll"
        assert "— конец" in shown_text(table), "wider: the long entry cut"

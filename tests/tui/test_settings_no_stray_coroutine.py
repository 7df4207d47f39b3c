"""Ctrl+T's tables shown one after another faster than each form is built (a burst of ↓ on the
list) leave no coroutine behind: the form's worker is exclusive, so each new table cancels the
one before — a worker cancelled before it ran was handed a coroutine object that nobody awaited,
and Python said so on the GM's terminal («coroutine 'SettingsScreen._show_form' was never
awaited», found by hand in a playtest). The worker is given the coroutine function instead."""

from __future__ import annotations

import gc
import warnings

from tui.screens.settings import SettingsScreen


async def test_tables_shown_faster_than_their_forms_leave_no_unawaited_coroutine(
    make_test_app,
) -> None:
    app = make_test_app()
    with warnings.catch_warnings(record=True) as caught:  # until the app and its workers are gone
        warnings.simplefilter("always")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+t")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            first, second, third = (t.relpath for t in screen.tables[:3])
            for relpath in (second, third, first):  # three tables in one tick: ↓ ↓ ↑ at once
                screen._show(relpath)
            await pilot.pause()
            shown = screen.query_one("#settings-form").relpath
        del screen
        gc.collect()
    never_awaited = [str(w.message) for w in caught if "never awaited" in str(w.message)]
    assert never_awaited == []
    assert shown == first  # the last table asked for is the one shown
